package form

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Text is a field of one line or more of text, read into dst.
func Text(name, label string, dst *string) *Field {
	f := &Field{name: name, label: label}
	f.read = func(values url.Values, check bool) (Rule, string) {
		v := f.text(values, name)
		*dst = v
		if !check {
			return 0, v
		}
		return f.checkText(v), v
	}
	return f
}

// Number is a field of a whole number, read into dst; left empty, dst
// keeps what it holds.
func Number(name, label string, dst *int) *Field {
	f := &Field{name: name, label: label}
	f.read = func(values url.Values, check bool) (Rule, string) {
		v := f.text(values, name)
		if v == "" {
			return f.missing(check), v
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return f.broken(check, NotWholeNumber), v
		}
		*dst = n
		if f.ranged && (n < f.min || n > f.max) {
			return f.broken(check, OutOfRange), v
		}
		return 0, v
	}
	return f
}

// List is a field of many values, such as boxes to tick, read into dst.
func List(name, label string, dst *[]string) *Field {
	f := &Field{name: name, label: label, list: true}
	f.read = func(values url.Values, check bool) (Rule, string) {
		var vs []string
		for _, v := range values[name] {
			if f.kept == nil || slices.Contains(f.kept, v) {
				vs = append(vs, f.clean(v))
			}
		}
		*dst = vs
		if len(vs) == 0 {
			return f.missing(check), ""
		}
		for _, v := range vs {
			if r := f.checkText(v); r != 0 && check {
				return r, v
			}
		}
		return 0, ""
	}
	return f
}

// Span is a span of the day: its start and its end, the form's fields
// name_from and name_to, each a time of day written HH:MM, read into from
// and to in minutes after midnight. Left empty, both keep what they hold;
// one without the other is HalfSpan.
func Span(name, label string, from, to *int) *Field {
	f := &Field{name: name, label: label}
	f.read = func(values url.Values, check bool) (Rule, string) {
		a, b := f.text(values, name+"_from"), f.text(values, name+"_to")
		f.keepTyped(a, b)
		if a == "" && b == "" {
			return f.missing(check), ""
		}
		var broken Rule
		for _, end := range []struct {
			text string
			dst  *int
		}{{a, from}, {b, to}} {
			if m, ok := timeOfDay(end.text); ok {
				*end.dst = m
			} else if end.text != "" {
				broken = NotTimeOfDay
			}
		}
		if a == "" || b == "" {
			broken = HalfSpan
		}
		return f.broken(check, broken), a + "–" + b
	}
	return f
}

// timeOfDay reads "HH:MM", from 00:00 to 23:59, into minutes after midnight.
func timeOfDay(s string) (int, bool) {
	if len(s) != 5 || s[2] != ':' {
		return 0, false
	}
	for _, i := range []int{0, 1, 3, 4} {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	h, m := int(s[0]-'0')*10+int(s[1]-'0'), int(s[3]-'0')*10+int(s[4]-'0')
	return h*60 + m, h <= 23 && m <= 59
}

// text is what was typed in the form's field, trimmed when the field
// trims it, and kept as typed.
func (f *Field) text(values url.Values, name string) string {
	v := f.clean(values.Get(name))
	if len(f.typed) == 1 {
		*f.typed[0] = v
	}
	return v
}

func (f *Field) clean(v string) string {
	if f.trim {
		return strings.TrimSpace(v)
	}
	return v
}

func (f *Field) keepTyped(texts ...string) {
	for i, t := range f.typed {
		if i < len(texts) {
			*t = texts[i]
		}
	}
}

func (f *Field) missing(check bool) Rule {
	if f.required {
		return f.broken(check, Missing)
	}
	return 0
}

func (f *Field) broken(check bool, r Rule) Rule {
	if !check {
		return 0
	}
	return r
}
