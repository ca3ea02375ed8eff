package form

import (
	"net/url"
	"strings"
	"testing"

	"washboard/internal/i18n"
)

// TestEachRuleRefusesInTheLabelsWords: a value that breaks a rule is
// refused naming the field by its label, in the words the rule has unless
// the field gives its own; a value that keeps them all is read.
func TestEachRuleRefusesInTheLabelsWords(t *testing.T) {
	var text string
	var n int
	var list []string
	from, to := -1, -1
	tests := []struct {
		name   string
		field  *Field
		values url.Values
		rule   Rule
		says   string
	}{
		{"text kept", Text("name", "Name", &text).Trim().Required().MaxChars(5), url.Values{"name": {"  Desk "}}, 0, ""},
		{"required", Text("name", "Name", &text).Trim().Required(), url.Values{"name": {"   "}}, Missing, "Name: fill it in."},
		{"too long, in characters", Text("name", "Name", &text).MaxChars(3), url.Values{"name": {"éééé"}}, TooLong, "Name: write at most 3 characters."},
		{"three characters of two bytes", Text("name", "Name", &text).MaxChars(3), url.Values{"name": {"ééé"}}, 0, ""},
		{"printable", Text("api_key", "API key", &text).Printable(), url.Values{"api_key": {"key\tkey"}}, NotPrintable,
			"API key: write only letters, digits, spaces and ASCII punctuation."},
		{"one of", Text("kind", "sends by", &text).OneOf("email", "webhook"), url.Values{"kind": {"fax"}}, NotOffered,
			"Sends by: choose one of those the form offers."},
		{"one of, left empty", Text("kind", "Sends by", &text).OneOf("email"), url.Values{}, 0, ""},
		{"a check of the page's", Text("where", "Where", &text).Check(func(v string) bool { return v == "here" }), url.Values{"where": {"there"}}, Refused,
			"Where: this cannot be used; write or choose another."},
		{"not a number", Number("port", "Port", &n).Range(1, 65535), url.Values{"port": {"twenty-five"}}, NotWholeNumber,
			"Port: write a whole number from 1 to 65535, or leave it empty."},
		{"out of range", Number("seconds", "Page interval", &n).Required().Range(5, 300), url.Values{"seconds": {"301"}}, OutOfRange,
			"Page interval: write a whole number from 5 to 300."},
		{"a number left empty", Number("seconds", "Page interval", &n).Range(5, 300), url.Values{}, 0, ""},
		{"a number required", Number("seconds", "Page interval", &n).Required(), url.Values{"seconds": {""}}, Missing, "Page interval: fill it in."},
		{"a list required", List("health", "Health", &list).Required(), url.Values{}, Missing, "Health: choose at least one."},
		{"a list's values dropped", List("health", "Health", &list).Keep("ok").Required(), url.Values{"health": {"bad"}}, Missing, "Health: choose at least one."},
		{"a list's values offered", List("type", "Alert types", &list).OneOf("a", "b").Says("Alert types: %q is not one."),
			url.Values{"type": {"a", ""}}, NotOffered, `Alert types: "" is not one.`},
		{"half a span", Span("quiet", "Quiet hours", &from, &to), url.Values{"quiet_from": {"22:00"}}, HalfSpan,
			"Quiet hours: give both a start and an end, such as 22:00 until 06:00, or neither."},
		{"a time that is not one", Span("quiet", "Quiet hours", &from, &to), url.Values{"quiet_from": {"22:00"}, "quiet_to": {"24:00"}}, NotTimeOfDay,
			"Quiet hours: write each time as HH:MM, from 00:00 to 23:59, such as 22:00."},
		{"a time without its zero", Span("quiet", "Quiet hours", &from, &to), url.Values{"quiet_from": {"9:30"}, "quiet_to": {"10:00"}}, NotTimeOfDay,
			"Quiet hours: write each time as HH:MM, from 00:00 to 23:59, such as 22:00."},
		{"a span of the field's own words", Span("dim", "Night dimming", &from, &to).Says("Night dimming needs both, or neither."),
			url.Values{"dim_to": {"06:00"}}, HalfSpan, "Night dimming needs both, or neither."},
		{"a rule's own words", Text("key", "API key", &text).MaxChars(2).Printable().SaysFor(NotPrintable, "The API key holds %q."),
			url.Values{"key": {"a\x01"}}, NotPrintable, `The API key holds "a\x01".`},
		{"another rule's words", Text("key", "API key", &text).MaxChars(2).Printable().SaysFor(NotPrintable, "The API key holds %q."),
			url.Values{"key": {"abc"}}, TooLong, "API key: write at most 2 characters."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Read(tt.values, tt.field)
			switch {
			case tt.rule == 0 && p != nil:
				t.Fatalf("refused: %v", p)
			case tt.rule == 0:
			case p == nil:
				t.Fatalf("read, want %v refused", tt.values)
			case p.Rule != tt.rule || p.Msg != tt.says || p.Field != tt.field.name || p.Label != tt.field.label:
				t.Errorf("refused %+v, want rule %d saying %q", *p, tt.rule, tt.says)
			}
		})
	}
}

// TestReadKeepsTheFormAsTyped: every field is read, those after a problem
// too, and the first problem is the one reported; a check of the page's
// is not asked after a problem.
func TestReadKeepsTheFormAsTyped(t *testing.T) {
	var name, contact, afterText, fromText, toText string
	seconds, after, from, to := 15, 0, -1, -1
	var health []string
	checked := false
	values := url.Values{"name": {" Lobby "}, "contact": {strings.Repeat("x", 20)}, "seconds": {"3"}, "after": {" 30 "},
		"health": {"ok", "nonsense", "offline"}, "dim_from": {"22:00"}, "dim_to": {"06:30"}, "where": {"x"}}
	p := Read(values,
		Text("name", "Name", &name).Trim().Required(),
		Text("contact", "Contact", &contact).MaxChars(10).Says("The contact is longer than 10 characters."),
		Number("seconds", "Page interval", &seconds).Range(5, 300),
		Number("after", "After minutes", &after).Trim().Typed(&afterText),
		List("health", "Health", &health).Keep("ok", "attention", "offline").Required(),
		Span("dim", "Night dimming", &from, &to).Typed(&fromText, &toText),
		Text("where", "Where", new(string)).Check(func(string) bool { checked = true; return false }))
	if p == nil || p.Field != "contact" || p.Msg != "The contact is longer than 10 characters." {
		t.Fatalf("problem %+v, want the contact's", p)
	}
	if name != "Lobby" || len(contact) != 20 || seconds != 3 || after != 30 || afterText != "30" ||
		strings.Join(health, " ") != "ok offline" || from != 22*60 || to != 6*60+30 || fromText != "22:00" || toText != "06:30" {
		t.Errorf("read %q %q %d %d %q %v %d %d %q %q; want every field as typed", name, contact, seconds, after, afterText, health, from, to, fromText, toText)
	}
	if checked {
		t.Error("the page's check was asked after a problem")
	}
}

// TestProblemsSpeakTheReadersLanguage: a rule's problem is said in the
// language of the localizer the form is read with, after the field's
// label, with the bounds written as they are typed; a field's own words
// stay its own.
func TestProblemsSpeakTheReadersLanguage(t *testing.T) {
	var text string
	var n int
	var list []string
	from, to := -1, -1
	fields := map[string]func() *Field{
		"required":  func() *Field { return Text("name", "Name", &text).Trim().Required() },
		"too long":  func() *Field { return Text("name", "Name", &text).MaxChars(3) },
		"range":     func() *Field { return Number("port", "Port", &n).Range(1, 65535) },
		"a list":    func() *Field { return List("health", "Zustand", &list).Required() },
		"half span": func() *Field { return Span("quiet", "Ruhezeit", &from, &to) },
		"own words": func() *Field { return Text("name", "Name", &text).Required().Says("Kein Name.") },
	}
	values := map[string]url.Values{
		"required": {}, "too long": {"name": {"éééé"}}, "range": {"port": {"70000"}}, "a list": {},
		"half span": {"quiet_from": {"22:00"}}, "own words": {},
	}
	tests := []struct{ lang, field, says string }{
		{"de", "required", "Name: Bitte ausfüllen."},
		{"de", "too long", "Name: höchstens 3 Zeichen."},
		{"de", "range", "Port: Geben Sie eine ganze Zahl von 1 bis 65535 ein oder lassen Sie das Feld leer."},
		{"de", "a list", "Zustand: Wählen Sie mindestens eines."},
		{"de", "half span", "Ruhezeit: Geben Sie Beginn und Ende an, etwa 22:00 bis 06:00, oder keines von beiden."},
		{"de", "own words", "Kein Name."},
		{"es", "too long", "Name: escriba como máximo 3 caracteres."},
		{"es", "range", "Port: escriba un número entero de 1 a 65535 o déjelo vacío."},
		{"fr", "required", "Name\u00a0: remplissez-le."},
		{"fr", "range", "Port\u00a0: écrivez un nombre entier de 1 à 65535, ou laissez-le vide."},
		{"en", "range", "Port: write a whole number from 1 to 65535, or leave it empty."},
	}
	for _, tt := range tests {
		t.Run(tt.lang+" "+tt.field, func(t *testing.T) {
			p := ReadIn(i18n.For(tt.lang), values[tt.field], fields[tt.field]())
			if p == nil || p.Msg != tt.says {
				t.Errorf("refused with %+v; want %q", p, tt.says)
			}
		})
	}
}
