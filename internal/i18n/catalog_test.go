package i18n

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// messageCall finds the message ids the code uses: tr(ctx, "id") and
// trn(ctx, "id", n) in the views, tr(c, "id") and trn(c, "id", n) in
// the handlers, .T("id") and .N("id", n) elsewhere.
var messageCall = regexp.MustCompile(`(?:\btrn?\((?:ctx|c),\s*|\.[TN]\()"([a-z0-9_.]+)"`)

// usedIDs are the message ids of the Go and templ sources of the
// repository (not the generated *_templ.go, the tests or comments), with
// a file that uses each.
func usedIDs(t *testing.T) map[string]string {
	t.Helper()
	root := filepath.Join("..", "..")
	used := map[string]string{}
	for _, dir := range []string{"views", "web", "internal", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			name := d.Name()
			if d.IsDir() || strings.HasSuffix(name, "_templ.go") || strings.HasSuffix(name, "_test.go") ||
				!strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, ".templ") {
				return nil
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, line := range strings.Split(string(b), "\n") {
				if strings.HasPrefix(strings.TrimSpace(line), "//") {
					continue
				}
				for _, m := range messageCall.FindAllStringSubmatch(line, -1) {
					used[m[1]] = path
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return used
}

// placeholders are the {name}s of a text, sorted.
func placeholders(text string) []string {
	names := regexp.MustCompile(`\{[a-z_]+\}`).FindAllString(text, -1)
	sort.Strings(names)
	return slices.Compact(names)
}

// TestCatalogsMatchTheCode: every message the code shows is in every
// language's catalog; no catalog keeps a message no code shows; every
// language has every message of English, with the same placeholders, and
// a message with plural forms has those its language's rules need.
func TestCatalogsMatchTheCode(t *testing.T) {
	t.Parallel()
	used := usedIDs(t)
	if len(used) < 50 {
		t.Fatalf("found %d message ids in the code: the scan misses the calls", len(used))
	}
	english, err := loadCatalog(Default)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range Languages {
		c, err := loadCatalog(l.Code)
		if err != nil {
			t.Fatal(err)
		}
		for id, file := range used {
			if _, ok := c[id]; !ok {
				t.Errorf("%s: %s shows message %q, which is not in the catalog", l.Code, file, id)
			}
		}
		for id, e := range c {
			if _, ok := used[id]; !ok {
				t.Errorf("%s: the catalog has %q, which no code shows", l.Code, id)
			}
			en, ok := english[id]
			switch {
			case !ok:
				t.Errorf("%s: %q is not in English's catalog", l.Code, id)
			case (e.forms == nil) != (en.forms == nil):
				t.Errorf("%s: %q has plural forms in one language and not in the other", l.Code, id)
			case e.forms == nil:
				if e.text == "" {
					t.Errorf("%s: %q is empty", l.Code, id)
				}
				if got, want := placeholders(e.text), placeholders(en.text); !slices.Equal(got, want) {
					t.Errorf("%s: %q has the placeholders %v; English has %v", l.Code, id, got, want)
				}
			default:
				checkForms(t, l.Code, id, e.forms, placeholders(en.forms["other"]))
			}
		}
		for id := range english {
			if _, ok := c[id]; !ok {
				t.Errorf("%s lacks the message %q", l.Code, id)
			}
		}
	}
}

// checkForms: a message with plural forms has every form its language's
// CLDR rules give to a count up to a million ("many" may fall back on
// "other"), each with the placeholders of English's.
func checkForms(t *testing.T, code, id string, forms map[string]string, want []string) {
	t.Helper()
	tag := language.MustParse(code)
	for _, n := range []int{0, 1, 2, 3, 5, 11, 21, 101, 1000000} {
		f := formName(plural.Cardinal.MatchPlural(tag, n, 0, 0, 0, 0))
		if _, ok := forms[f]; !ok && f != "many" {
			t.Errorf("%s: %q lacks the form %q (of %d)", code, id, f, n)
		}
	}
	if _, ok := forms["other"]; !ok {
		t.Errorf("%s: %q lacks the form \"other\"", code, id)
	}
	for f, text := range forms {
		if got := placeholders(text); !slices.Equal(got, want) {
			t.Errorf("%s: %q (%s) has the placeholders %v; English has %v", code, id, f, got, want)
		}
	}
}

// TestPluralFormsFollowTheLanguage: French counts 0 as one, English as
// many; the count is written as the language writes numbers.
func TestPluralFormsFollowTheLanguage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		code string
		n    int
		want string
	}{
		{"en", 1, "1 more rule sends to it"},
		{"en", 0, "0 more rules send to it"},
		{"en", 1234, "1,234 more rules send to it"},
		{"de", 1, "1 weitere Regel sendet"},
		{"de", 1234, "1.234 weitere Regeln senden"},
		{"es", 2, "2 reglas más envían"},
		{"fr", 0, "0 autre règle y envoie"},
		{"fr", 1, "1 autre règle y envoie"},
		{"fr", 2, "2 autres règles y envoient"},
	} {
		if got := For(tc.code).N("me.rules_more", tc.n); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s, %d: %q; want it to begin %q", tc.code, tc.n, got, tc.want)
		}
	}
	if got, want := For("fr").Number(1234567), "1\u00a0234\u00a0567"; got != want && got != "1\u202f234\u202f567" {
		t.Errorf("French writes 1234567 as %q; want %q", got, want)
	}
}

// TestPlaceholdersAreFilled: a message's {name}s take the values given,
// and a value is not read again as a placeholder.
func TestPlaceholdersAreFilled(t *testing.T) {
	t.Parallel()
	got := For("de").T("me.rules_none", "email", "{email}@example.com")
	if want := "Keine Regel dieses Kontos sendet an {email}@example.com."; got != want {
		t.Errorf("got %q; want %q", got, want)
	}
}

// TestAcceptLanguageChoosesALanguageWashboardSpeaks: the browser's most
// wanted language Washboard speaks, by its quality values, regions
// aside; English when it asks for none of them, or sends nonsense.
func TestAcceptLanguageChoosesALanguageWashboardSpeaks(t *testing.T) {
	t.Parallel()
	for header, want := range map[string]string{
		"":                          "en",
		"de-CH, fr;q=0.8":           "de",
		"pt-BR, es-MX;q=0.9":        "es",
		"en-GB;q=0.5, fr-CA;q=0.9":  "fr",
		"ja, zh;q=0.5":              "en",
		"*":                         "en",
		"de;q=garbage":              "en",
		strings.Repeat("x-", 10000): "en",
	} {
		if got := Accept(header); got != want {
			t.Errorf("Accept(%.40q) = %q; want %q", header, got, want)
		}
	}
	if got := Choose("fr", "de"); got != "fr" {
		t.Errorf("a chosen French under a German browser: %q", got)
	}
	if got := Choose("pt", "de"); got != "de" {
		t.Errorf("a chosen language Washboard does not speak: %q; want the browser's", got)
	}
}

// TestEveryLanguageWritesDates: each language writes a day, a time,
// weekdays and decimals its own way; a language without its own would be
// English's.
func TestEveryLanguageWritesDates(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 7, 14, 5, 0, 0, time.UTC)
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no time zone data")
	}
	want := map[string][4]string{
		"en": {"7 Nov 2026 15:05", "7 Nov 2026", "Saturday", "99.5"},
		"de": {"07.11.2026, 15:05", "07.11.2026", "Samstag", "99,5"},
		"es": {"7/11/2026 15:05", "7/11/2026", "sábado", "99,5"},
		"fr": {"07/11/2026 15:05", "07/11/2026", "samedi", "99,5"},
	}
	for _, l := range Languages {
		if _, ok := dateLayouts[l.Code]; !ok {
			t.Errorf("%s has no layout for dates", l.Code)
		}
		if _, ok := weekdays[l.Code]; !ok {
			t.Errorf("%s has no names of days", l.Code)
		}
		loc := For(l.Code)
		got := [4]string{loc.DateTime(at, berlin), loc.Date(at, berlin), loc.Weekday(at.Weekday()), loc.Decimal(99.46, 1)}
		if got != want[l.Code] {
			t.Errorf("%s writes %v as %q; want %q", l.Code, at, got, want[l.Code])
		}
	}
	if got := For("de").Time(at, berlin); got != "15:05" {
		t.Errorf("a time in German: %q", got)
	}
}

// TestCatalogPartsShareNoMessage: two files of a language that both say
// a message are refused, naming both, rather than one silently winning.
func TestCatalogPartsShareNoMessage(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"catalog/de/alerts.json":  {Data: []byte(`{"a.title": "Alarme", "a.one": "Eins"}`)},
		"catalog/de/screens.json": {Data: []byte(`{"s.title": "Bildschirme", "a.title": "Alarme!"}`)},
	}
	_, err := readCatalog(fsys, "de")
	if err == nil || !strings.Contains(err.Error(), `"a.title"`) || !strings.Contains(err.Error(), "alerts.json") ||
		!strings.Contains(err.Error(), "screens.json") {
		t.Fatalf("two parts with one message: %v", err)
	}
	c, err := readCatalog(fstest.MapFS{"catalog/de/a.json": {Data: []byte(`{"a.title": "Alarme"}`)},
		"catalog/de/b.json": {Data: []byte(`{"b.n": {"one": "{count} Regel", "other": "{count} Regeln"}}`)}}, "de")
	if err != nil || c["a.title"].text != "Alarme" || c["b.n"].forms["other"] != "{count} Regeln" {
		t.Fatalf("two parts: %v %v", c, err)
	}
	if _, err := readCatalog(fstest.MapFS{}, "xx"); err == nil {
		t.Fatal("a language without files was read")
	}
}
