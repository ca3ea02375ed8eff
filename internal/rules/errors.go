package rules

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"washboard/internal/i18n"
)

// Error is a problem with a notifications file, or with an account, a
// channel or a rule: where it is and what to change, in words a person
// fixes the file with. Its text never holds a webhook secret: anything
// that looks like one is written whsec_… instead. It never holds a webhook
// URL either, whose path is often a secret too.
type Error struct {
	// Line and Column say where in the file the problem is, from 1; the
	// column counts characters. Both are 0 when the problem was not read
	// from a file, or is about the file as a whole.
	Line, Column int
	// Path names the element at fault from the top of what was checked,
	// with the name of the last one: `accounts[0].rules[2] ("Out of
	// product")`. Empty when the problem is about the value checked
	// itself: a Rule, or the whole file.
	Path string
	// Field is the field at fault within the element, as the file names
	// it: "when", "quiet_hours.from", "channels[1]", "email.to[0]". Empty
	// when the element as a whole is at fault.
	Field string
	// Msg says what is wrong, naming the field, in English: the words of
	// the file's errors and the log.
	Msg string

	steps []step
	words func(*i18n.Localizer) string // Msg in a language; nil when said in English only
}

// step is one element on the way to the element at fault: the list it is
// in, its index there and its name or id.
type step struct {
	list  string
	index int
	name  string
}

// Error is the problem in one line: `line 14, column 9: accounts[0].rules[2]
// ("Out of product"): "when" must be one of …`.
func (e *Error) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d, column %d: ", e.Line, e.Column)
	}
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// MsgIn is what is wrong in l's language, for a page: Msg for a problem
// only a notifications file can have, said in English only.
func (e *Error) MsgIn(l *i18n.Localizer) string {
	if e.words == nil {
		return e.Msg
	}
	return redactSecrets(e.words(l))
}

// ErrorIn is the problem in one line, as Error, what is wrong said in l's
// language; where it is stays in the file's terms.
func (e *Error) ErrorIn(l *i18n.Localizer) string {
	in := *e
	in.Msg = e.MsgIn(l)
	return in.Error()
}

// problem returns the error of a field of the value being checked, in
// English only: a problem only a notifications file can have.
func problem(field, format string, args ...any) *Error {
	return &Error{Field: redactSecrets(field), Msg: redactSecrets(fmt.Sprintf(format, args...))}
}

// problemIn returns the error of a field of the value being checked, in
// the words of a language: one a page can show.
func problemIn(field string, words func(l *i18n.Localizer) string) *Error {
	return &Error{Field: redactSecrets(field), Msg: redactSecrets(words(i18n.For(i18n.Default))), words: words}
}

// within places e, an error of an element, in the list of its parent at
// index, the element named name.
func (e *Error) within(list string, index int, name string) *Error {
	e.steps = append([]step{{list: list, index: index, name: name}}, e.steps...)
	var b strings.Builder
	for i, s := range e.steps {
		if i > 0 {
			b.WriteByte('.')
		}
		fmt.Fprintf(&b, "%s[%d]", s.list, s.index)
	}
	if last := e.steps[len(e.steps)-1]; last.name != "" {
		b.WriteString(" (" + quote(last.name) + ")")
	}
	e.Path = redactSecrets(b.String())
	return e
}

// secretText is a webhook secret's text, or the start of one.
var secretText = regexp.MustCompile(`whsec_[A-Za-z0-9+/=_-]+`)

// redactSecrets writes whsec_… in place of anything that looks like a
// webhook secret.
func redactSecrets(s string) string {
	if !strings.Contains(s, "whsec_") {
		return s
	}
	return secretText.ReplaceAllString(s, "whsec_…")
}

// maxQuoted bounds how much of a value an error repeats, in characters.
const maxQuoted = 80

// quote writes a value of the file for an error message: in double quotes,
// cut at maxQuoted characters.
func quote(s string) string { return strconv.Quote(shorten(s)) }

// shorten cuts s at maxQuoted characters.
func shorten(s string) string {
	if utf8.RuneCountInString(s) > maxQuoted {
		return string([]rune(s)[:maxQuoted]) + "…"
	}
	return s
}
