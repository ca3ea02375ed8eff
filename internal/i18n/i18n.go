// Package i18n puts Washboard's words in the reader's language: message
// catalogs per language (catalog/<language>/*.json, embedded, one file per
// part of Washboard), plural forms by the
// language's CLDR rules, numbers and dates in its conventions, and the
// choice of a language from what a person chose or their browser asks for.
//
// It builds on golang.org/x/text: language for tags and matching
// (Accept-Language), feature/plural for the CLDR plural rules, message for
// numbers. The catalogs are plain JSON of our own so that a test can read
// them and the code side by side (see catalog_test.go), and so that a
// translator edits one file per language.
package i18n

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Language is one language Washboard speaks.
type Language struct {
	Code string // the BCP 47 tag: "de"
	Name string // its name in itself: "Deutsch"
}

// Languages are the languages Washboard speaks, English first: the
// language of whoever asks for none of them.
var Languages = []Language{
	{"en", "English"},
	{"de", "Deutsch"},
	{"es", "Español"},
	{"fr", "Français"},
}

// Default is the language of whoever has chosen none and whose browser
// asks for none Washboard speaks.
const Default = "en"

//go:embed catalog
var catalogFiles embed.FS

// entry is one message of a catalog: a text, or a text per plural form
// ("one", "other", and "zero", "two", "few", "many" where the language's
// rules have them).
type entry struct {
	text  string
	forms map[string]string
}

func (e *entry) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &e.text)
	}
	return json.Unmarshal(b, &e.forms)
}

// Catalog is one language's messages, by id.
type Catalog map[string]entry

// loadCatalog reads a language's catalog: the files of its directory, one
// per part of Washboard, which share no message id.
func loadCatalog(code string) (Catalog, error) { return readCatalog(catalogFiles, code) }

// readCatalog reads a language's catalog from fsys.
func readCatalog(fsys fs.FS, code string) (Catalog, error) {
	dir := path.Join("catalog", code)
	files, err := fs.Glob(fsys, dir+"/*.json")
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("catalog %s: no %s/*.json", code, dir)
	}
	c := Catalog{}
	from := map[string]string{}
	for _, f := range files {
		b, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		var part Catalog
		if err := json.Unmarshal(b, &part); err != nil {
			return nil, fmt.Errorf("catalog %s: %w", f, err)
		}
		for id, e := range part {
			if other, ok := from[id]; ok {
				return nil, fmt.Errorf("catalog %s: %q is in %s too", f, id, other)
			}
			c[id], from[id] = e, f
		}
	}
	return c, nil
}

// localizers are the localizers of the languages, built once: they never
// change, so requests share them.
var localizers = func() map[string]*Localizer {
	m := make(map[string]*Localizer, len(Languages))
	for _, l := range Languages {
		c, err := loadCatalog(l.Code)
		if err != nil {
			panic(err) // the catalogs are embedded: a test reads each
		}
		tag := language.MustParse(l.Code)
		m[l.Code] = &Localizer{code: l.Code, tag: tag, msgs: c, printer: message.NewPrinter(tag)}
	}
	return m
}()

// Localizer says Washboard's words in one language.
type Localizer struct {
	code    string
	tag     language.Tag
	msgs    Catalog
	printer *message.Printer
	marked  bool // see Marked
}

// For is the localizer of a language code; English's for a code
// Washboard does not speak.
func For(code string) *Localizer {
	if l, ok := localizers[code]; ok {
		return l
	}
	return localizers[Default]
}

// Marked is English's localizer with every message between ⟦ and ⟧: a
// page rendered with it shows which of its words come from the catalogs,
// and which do not yet (the test of the converted pages).
func Marked() *Localizer {
	l := *localizers[Default]
	l.marked = true
	return &l
}

// Lang is the localizer's language code, for <html lang>.
func (l *Localizer) Lang() string { return l.code }

// T is the message id in the localizer's language, its {name}
// placeholders filled from args, given as name, value pairs:
// T("me.rules_send_to", "email", e). A missing message is its id, which a
// test keeps from happening (catalog_test.go).
func (l *Localizer) T(id string, args ...any) string {
	e, ok := l.msgs[id]
	if !ok {
		return id
	}
	return l.fill(e.text, args)
}

// N is the message id in the plural form n takes in the localizer's
// language, {count} being n as the language writes numbers:
// N("rules.count", 3) is "3 rules", "3 Regeln".
func (l *Localizer) N(id string, n int, args ...any) string {
	e, ok := l.msgs[id]
	if !ok {
		return id
	}
	text, ok := e.forms[formName(plural.Cardinal.MatchPlural(l.tag, abs(n), 0, 0, 0, 0))]
	if !ok {
		text = e.forms["other"]
	}
	return l.fill(text, append([]any{"count", l.Number(n)}, args...))
}

// Forms are the plural forms of the message id in the localizer's
// language, by CLDR category ("one", "other"), with {count} unfilled: for
// a script that says a count in the language (Intl.PluralRules); nil for
// a message without forms.
func (l *Localizer) Forms(id string) map[string]string {
	e, ok := l.msgs[id]
	if !ok || e.forms == nil {
		return nil
	}
	out := make(map[string]string, len(e.forms))
	for k, v := range e.forms {
		out[k] = v
	}
	return out
}

// Number is n as the language writes it: 1,234 in English, 1.234 in
// German.
func (l *Localizer) Number(n int) string { return l.printer.Sprintf("%d", n) }

func (l *Localizer) fill(text string, args []any) string {
	if l.marked {
		return "⟦" + l.fillIn(text, args) + "⟧"
	}
	return l.fillIn(text, args)
}

func (l *Localizer) fillIn(text string, args []any) string {
	if len(args) == 0 || !strings.Contains(text, "{") {
		return text
	}
	pairs := make([]string, 0, len(args))
	for i := 0; i+1 < len(args); i += 2 {
		pairs = append(pairs, "{"+fmt.Sprint(args[i])+"}", fmt.Sprint(args[i+1]))
	}
	return strings.NewReplacer(pairs...).Replace(text)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// formName is the catalog's name of a plural form.
func formName(f plural.Form) string {
	switch f {
	case plural.Zero:
		return "zero"
	case plural.One:
		return "one"
	case plural.Two:
		return "two"
	case plural.Few:
		return "few"
	case plural.Many:
		return "many"
	}
	return "other"
}

// Known reports whether Washboard speaks the language code.
func Known(code string) bool {
	_, ok := localizers[code]
	return ok
}

// matcher matches what a browser asks for against the languages.
var matcher = func() language.Matcher {
	tags := make([]language.Tag, 0, len(Languages))
	for _, l := range Languages {
		tags = append(tags, language.MustParse(l.Code))
	}
	return language.NewMatcher(tags)
}()

// maxAcceptLanguage bounds the Accept-Language header read: a browser
// sends a few dozen characters.
const maxAcceptLanguage = 256

// Accept is the language Washboard speaks that an Accept-Language header
// prefers ("de-CH, fr;q=0.8" is "de"); Default when it asks for none of
// them.
func Accept(header string) string {
	if len(header) > maxAcceptLanguage {
		header = header[:maxAcceptLanguage]
	}
	tags, _, err := language.ParseAcceptLanguage(header)
	if err != nil || len(tags) == 0 {
		return Default
	}
	_, i, conf := matcher.Match(tags...)
	if conf == language.No {
		return Default
	}
	return Languages[i].Code
}

// Choose is the language of a request: the one chosen (by the person, or
// by this browser with ?lang=) when Washboard speaks it, else the one the
// browser's Accept-Language prefers, else English.
func Choose(chosen, acceptLanguage string) string {
	if Known(chosen) {
		return chosen
	}
	return Accept(acceptLanguage)
}

// Codes are the language codes, sorted: for error messages.
func Codes() []string {
	out := make([]string, 0, len(Languages))
	for _, l := range Languages {
		out = append(out, l.Code)
	}
	sort.Strings(out)
	return out
}

type ctxKey struct{}

// WithLocalizer is ctx carrying l: the localizer of the request's pages.
func WithLocalizer(ctx context.Context, l *Localizer) context.Context {
	return context.WithValue(ctx, ctxKey{}, l)
}

// From is the localizer ctx carries; English's when it carries none (an
// e-mail rendered outside a request).
func From(ctx context.Context) *Localizer {
	if l, ok := ctx.Value(ctxKey{}).(*Localizer); ok {
		return l
	}
	return localizers[Default]
}
