package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// flagsOf are the names of a command's flags, as its --help lists them.
func flagsOf(t *testing.T, cmd string) []string {
	t.Helper()
	var stderr bytes.Buffer
	if code := run(context.Background(), []string{cmd, "--help"}, io.Discard, &stderr); code != 0 {
		t.Fatalf("washboard %s --help: exit code %d", cmd, code)
	}
	var names []string
	for _, m := range regexp.MustCompile(`(?m)^  -([a-z][a-z-]*)`).FindAllStringSubmatch(stderr.String(), -1) {
		names = append(names, m[1])
	}
	slices.Sort(names)
	return names
}

// docSection is the text of the doc's "## " section whose heading begins
// with heading.
func docSection(t *testing.T, doc, heading string) string {
	t.Helper()
	for _, s := range strings.Split(doc, "\n## ")[1:] {
		if strings.HasPrefix(s, heading) {
			return s
		}
	}
	t.Fatalf("docs/configuration.md has no section %q", heading)
	return ""
}

// tableFlags are the flags of a section's table rows, each checked to
// name its environment variable as the flags read it.
func tableFlags(t *testing.T, section string) []string {
	t.Helper()
	var names []string
	for _, m := range regexp.MustCompile("(?m)^\\| `--([a-z-]+)` \\| `([A-Z_]+)` \\|").FindAllStringSubmatch(section, -1) {
		names = append(names, m[1])
		if want := "WASHBOARD_" + strings.ToUpper(strings.ReplaceAll(m[1], "-", "_")); m[2] != want {
			t.Errorf("docs/configuration.md gives --%s the variable %s; it reads %s", m[1], m[2], want)
		}
	}
	slices.Sort(names)
	return names
}

// The configuration reference lists every flag of serve, demo and sim, and
// no flag they do not have.
func TestConfigurationDocListsEveryFlag(t *testing.T) {
	b, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)

	serveRows := tableFlags(t, docSection(t, doc, "`washboard serve` and `washboard demo`"))
	if serve := flagsOf(t, "serve"); !slices.Equal(serveRows, serve) {
		t.Errorf("docs/configuration.md lists for serve %v; washboard serve --help lists %v", serveRows, serve)
	}
	if sim, simRows := flagsOf(t, "sim"), tableFlags(t, docSection(t, doc, "`washboard sim`")); !slices.Equal(simRows, sim) {
		t.Errorf("docs/configuration.md lists for sim %v; washboard sim --help lists %v", simRows, sim)
	}
	demoText := docSection(t, doc, "What `washboard demo` adds")
	for _, name := range flagsOf(t, "demo") {
		if !slices.Contains(serveRows, name) && !strings.Contains(demoText, "`--"+name+"`") {
			t.Errorf("docs/configuration.md does not name washboard demo's flag --%s", name)
		}
	}
}
