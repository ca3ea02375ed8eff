package report

import (
	"fmt"
	"strconv"
)

// ShiftProblem is what is wrong with a list of shifts, as a value: the
// web layer says it in the reader's language, Error in English.
type ShiftProblem struct {
	Kind ShiftProblemKind
	// Shift is the shift at fault, from 1; 0 for the whole list. Other is
	// the earlier shift of SameName and Overlap.
	Shift, Other int
	// Value is the text at fault: a time, a range, a name; for Overlap
	// the two shifts as written.
	Value, OtherValue string
	// Count is how many shifts were given, of TooMany.
	Count int
}

// ShiftProblemKind is a kind of ShiftProblem.
type ShiftProblemKind int

// The kinds of ShiftProblem.
const (
	NoShifts   ShiftProblemKind = iota // none given
	TooMany                            // more than MaxShifts
	EmptyShift                         // nothing between two commas
	NoRange                            // no HH:MM-HH:MM in Value
	NotClock                           // Value is not a time of day
	NoName                             // a shift without a name (Value: its range, when typed)
	NameSpace                          // the name Value starts or ends with a space
	NameChars                          // the name Value has a comma or a control character
	NoLength                           // the shift Value starts and ends at OtherValue
	SameName                           // shifts Other and Shift are both named Value
	Overlap                            // shifts Other (OtherValue) and Shift (Value) overlap
)

func (p *ShiftProblem) Error() string {
	var s string
	switch p.Kind {
	case NoShifts:
		return "no shifts given"
	case TooMany:
		return fmt.Sprintf("more than %d shifts (%d)", MaxShifts, p.Count)
	case SameName:
		return fmt.Sprintf("shifts %d and %d are both named %q", p.Other, p.Shift, p.Value)
	case Overlap:
		return fmt.Sprintf("shifts %d (%s) and %d (%s) overlap", p.Other, p.OtherValue, p.Shift, p.Value)
	case EmptyShift:
		s = "nothing between the commas"
	case NoRange:
		s = fmt.Sprintf("%q has no time range: write it as NAME HH:MM-HH:MM", p.Value)
	case NotClock:
		s = fmt.Sprintf("%q is not a time of day", p.Value)
	case NoName:
		s = "no name"
		if p.Value != "" {
			s += " before " + p.Value
		}
	case NameSpace:
		s = fmt.Sprintf("the name %q starts or ends with a space", p.Value)
	case NameChars:
		s = fmt.Sprintf("the name %q contains a comma or a control character", p.Value)
	case NoLength:
		s = fmt.Sprintf("%s starts and ends at %s: a shift needs a length", p.Value, p.OtherValue)
	}
	if p.Shift > 0 {
		return "shift " + strconv.Itoa(p.Shift) + ": " + s
	}
	return s
}

// inShift is err, a problem of one shift, said of the shift numbered i
// from 1.
func inShift(err error, i int) error {
	if p, ok := err.(*ShiftProblem); ok {
		q := *p
		q.Shift = i
		return &q
	}
	return fmt.Errorf("shift %d: %w", i, err)
}
