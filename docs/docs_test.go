// Package docs_test holds the README and the documentation to what a
// reader relies on: a README that fits on a few screens, the two commands
// of a fresh machine, and links that lead somewhere.
package docs_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// readmeMaxLines is the most lines the README may have: a few screens.
const readmeMaxLines = 250

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// markdownFiles are the README and every Markdown file under docs/.
func markdownFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"../README.md"}
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestReadmeFitsOnAFewScreens(t *testing.T) {
	if n := strings.Count(read(t, "../README.md"), "\n"); n > readmeMaxLines {
		t.Errorf("the README has %d lines; keep it under %d and move the rest into docs/", n, readmeMaxLines)
	}
}

// A fresh machine with Go needs two commands: the demo and the tests.
func TestReadmeSetsUpWithTwoCommands(t *testing.T) {
	readme := read(t, "../README.md")
	_, section, ok := strings.Cut(readme, "\n## Set up and run\n")
	if !ok {
		t.Fatal(`the README has no section "## Set up and run"`)
	}
	block := regexp.MustCompile("(?s)```sh\n(.*?)```").FindStringSubmatch(section)
	if block == nil {
		t.Fatal("the README's set-up section has no sh block of commands")
	}
	var commands []string
	for _, line := range strings.Split(strings.TrimSpace(block[1]), "\n") {
		cmd, _, _ := strings.Cut(line, "#")
		commands = append(commands, strings.TrimSpace(cmd))
	}
	if want := []string{"go run ./cmd/washboard demo", "go test ./..."}; !slices.Equal(commands, want) {
		t.Errorf("the README sets up with %q; want exactly %q", commands, want)
	}
}

var (
	fenced     = regexp.MustCompile("(?ms)^```.*?^```")
	inlineCode = regexp.MustCompile("`[^`\n]*`")
	link       = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	heading    = regexp.MustCompile(`(?m)^#{1,6} (.+)$`)
)

// links are the targets of the Markdown links and images of a text, but
// for those in code.
func links(text string) []string {
	text = fenced.ReplaceAllString(text, "")
	text = inlineCode.ReplaceAllString(text, "")
	var out []string
	for _, m := range link.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// anchors are the fragments GitHub gives the headings of a Markdown text.
func anchors(text string) map[string]bool {
	text = fenced.ReplaceAllString(text, "")
	seen := map[string]int{}
	out := map[string]bool{}
	for _, m := range heading.FindAllStringSubmatch(text, -1) {
		var b strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteRune('-')
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			seen[a]++
			a += "-" + strconv.Itoa(n)
		} else {
			seen[a] = 1
		}
		out[a] = true
	}
	return out
}

// Every link between the README and the docs leads to a file that exists,
// and to a heading of it when it names one.
func TestDocsLinksLeadSomewhere(t *testing.T) {
	for _, file := range markdownFiles(t) {
		for _, target := range links(read(t, file)) {
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, fragment, _ := strings.Cut(target, "#")
			dest := file
			if path != "" {
				dest = filepath.Join(filepath.Dir(file), path)
				if _, err := os.Stat(dest); err != nil {
					t.Errorf("%s links to %s, which does not exist", file, target)
					continue
				}
			}
			if fragment != "" && strings.HasSuffix(dest, ".md") && !anchors(read(t, dest))[fragment] {
				t.Errorf("%s links to %s, but %s has no heading #%s", file, target, dest, fragment)
			}
		}
	}
}

// Every doc can be reached from the README.
func TestReadmeLinksEveryDoc(t *testing.T) {
	linked := map[string]bool{}
	for _, target := range links(read(t, "../README.md")) {
		path, _, _ := strings.Cut(target, "#")
		linked[filepath.Clean(path)] = true
	}
	for _, file := range markdownFiles(t)[1:] {
		if !linked[filepath.Join("docs", file)] {
			t.Errorf("the README does not link to docs/%s", file)
		}
	}
}
