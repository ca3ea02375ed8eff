// Package form reads a submitted form the one way every handler does: the
// handler declares the fields it takes, each with its label, where its
// value goes and the rules it keeps, and Read puts the values where they
// go and returns the first field whose value breaks a rule, in the page's
// words.
//
//	var in screenInput
//	problem := form.Read(values,
//		form.Text("name", "Name", &in.Name).Trim().Required().MaxChars(80),
//		form.Number("page_seconds", "Page interval", &in.PageSeconds).Required().Range(5, 300))
//
// A value that breaks a rule is refused in words built from the field's
// label ("Page interval: write a whole number from 5 to 300."), in the
// language of the localizer ReadIn is given (the page's), or in the words
// the field gives (Says, SaysFor), which may name the value.
package form

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"washboard/internal/i18n"
	"washboard/web/httpkit"
)

// Problem is a field whose value breaks one of its rules.
type Problem struct {
	Field string // the field's name in the form: "page_seconds"; a span's own name: "quiet"
	Label string // its label: "Page interval"
	Rule  Rule   // the rule broken
	Msg   string // what to change, in the page's words
}

func (p *Problem) Error() string { return p.Msg }

// Rule is a rule a value breaks.
type Rule int

const (
	Missing        Rule = iota + 1 // Required: nothing typed or chosen
	TooLong                        // MaxChars: more characters than that
	NotPrintable                   // Printable: a character other than printable ASCII
	NotWholeNumber                 // a Number that is not a whole number
	OutOfRange                     // Range: a whole number outside it
	NotTimeOfDay                   // a Span's time that is not HH:MM, from 00:00 to 23:59
	HalfSpan                       // a Span's start without its end, or its end without its start
	NotOffered                     // OneOf: a value that is not among those offered
	Refused                        // Check: a value the page's own check refuses
)

// Field is a field of a form: its name, its label, where its value goes,
// and the rules the value keeps. A field left empty keeps every rule but
// Required, and a span's HalfSpan.
type Field struct {
	name, label string
	list        bool // a List: its rules are about each value

	trim      bool
	required  bool
	maxChars  int
	printable bool
	ranged    bool
	min, max  int
	offered   []string
	kept      []string
	check     func(string) bool

	says    string
	saysFor map[Rule]string
	typed   []*string

	// read puts the field's value where it goes and, when check is set,
	// returns the rule it breaks (0 for none) and the value at fault.
	read func(values url.Values, check bool) (Rule, string)
}

// Trim drops the spaces around what was typed.
func (f *Field) Trim() *Field { f.trim = true; return f }

// Required refuses a field left empty (a List: with no value).
func (f *Field) Required() *Field { f.required = true; return f }

// MaxChars refuses more than n characters.
func (f *Field) MaxChars(n int) *Field { f.maxChars = n; return f }

// Printable refuses any character but letters, digits, spaces and ASCII
// punctuation: what a header or a key holds.
func (f *Field) Printable() *Field { f.printable = true; return f }

// Range refuses a Number below min or above max.
func (f *Field) Range(min, max int) *Field { f.ranged, f.min, f.max = true, min, max; return f }

// OneOf refuses a value that is not one of those offered.
func (f *Field) OneOf(offered ...string) *Field { f.offered = offered; return f }

// Keep drops from a List, without a word, the values that are not among
// those: boxes the form does not offer.
func (f *Field) Keep(values ...string) *Field { f.kept = values; return f }

// Check refuses a value for which ok is false: a rule of the page's own,
// such as a place of the account's. It is asked only while no field before
// broke a rule.
func (f *Field) Check(ok func(string) bool) *Field { f.check = ok; return f }

// Says gives the words of every problem of the field. "%q" in them stands
// for the value at fault, quoted and cut short.
func (f *Field) Says(words string) *Field { f.says = words; return f }

// SaysFor gives the words of the problem of one rule, as Says does.
func (f *Field) SaysFor(r Rule, words string) *Field {
	if f.saysFor == nil {
		f.saysFor = map[Rule]string{}
	}
	f.saysFor[r] = words
	return f
}

// Typed keeps what was typed, to show the form again as it was sent: a
// span's start and end, any other field's value.
func (f *Field) Typed(dst ...*string) *Field { f.typed = dst; return f }

// Read is ReadIn in English.
func Read(values url.Values, fields ...*Field) *Problem {
	return ReadIn(i18n.For(i18n.Default), values, fields...)
}

// ReadIn puts the value of every field where it goes, and returns the
// first field, in the order given, whose value breaks one of its rules,
// in loc's language; nil when none does. The fields after it are read,
// not checked.
func ReadIn(loc *i18n.Localizer, values url.Values, fields ...*Field) *Problem {
	var problem *Problem
	for _, f := range fields {
		r, v := f.read(values, problem == nil)
		if r != 0 && problem == nil {
			problem = &Problem{Field: f.name, Label: f.label, Rule: r, Msg: f.words(loc, r, v)}
		}
	}
	return problem
}

// checkText returns the rule a value breaks, 0 for none.
func (f *Field) checkText(v string) Rule {
	switch {
	case v == "" && !f.list:
		if f.required {
			return Missing
		}
	case f.maxChars > 0 && utf8.RuneCountInString(v) > f.maxChars:
		return TooLong
	case f.printable && strings.ContainsFunc(v, func(r rune) bool { return r < ' ' || r > '~' }):
		return NotPrintable
	case f.offered != nil && !slices.Contains(f.offered, v):
		return NotOffered
	case f.check != nil && !f.check(v):
		return Refused
	}
	return 0
}

// words says what to change: the field's own words for the rule, or else
// the label and what the rule asks, in loc's language.
func (f *Field) words(loc *i18n.Localizer, r Rule, value string) string {
	w, ok := f.saysFor[r]
	if !ok {
		w = f.says
	}
	if w == "" {
		first, size := utf8.DecodeRuneInString(f.label)
		return f.asks(loc, r, string(unicode.ToUpper(first))+f.label[size:])
	}
	return strings.Replace(w, "%q", strconv.Quote(httpkit.Clip(value)), 1)
}

// asks is the field's label, then what a rule asks, in loc's language.
// The bounds of a number are written as they are typed, without a
// separator of thousands: "from 1 to 65535".
func (f *Field) asks(loc *i18n.Localizer, r Rule, label string) string {
	switch r {
	case Missing:
		if f.list {
			return loc.T("form.choose_one", "field", label)
		}
		return loc.T("form.fill_in", "field", label)
	case TooLong:
		return loc.T("form.too_long", "field", label, "max", strconv.Itoa(f.maxChars))
	case NotPrintable:
		return loc.T("form.not_printable", "field", label)
	case NotWholeNumber, OutOfRange:
		min, max := strconv.Itoa(f.min), strconv.Itoa(f.max)
		switch {
		case f.ranged && f.required:
			return loc.T("form.number_range", "field", label, "min", min, "max", max)
		case f.ranged:
			return loc.T("form.number_range_or_empty", "field", label, "min", min, "max", max)
		case f.required:
			return loc.T("form.number", "field", label)
		}
		return loc.T("form.number_or_empty", "field", label)
	case NotTimeOfDay:
		return loc.T("form.time_of_day", "field", label)
	case HalfSpan:
		return loc.T("form.half_span", "field", label)
	case NotOffered:
		return loc.T("form.not_offered", "field", label)
	}
	return loc.T("form.refused", "field", label)
}
