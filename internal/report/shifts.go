package report

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
)

// MaxShifts is the largest number of shifts a day may be divided into.
const MaxShifts = 12

// Clock is a time of day to the minute, 00:00 to 23:59, read in whatever
// zone it is applied in.
type Clock struct {
	Hour, Minute int
}

// ParseClock reads a time of day written H:MM or HH:MM.
func ParseClock(s string) (Clock, error) {
	h, m, ok := strings.Cut(s, ":")
	c := Clock{Hour: number(h), Minute: number(m)}
	if !ok || len(h) < 1 || len(h) > 2 || len(m) != 2 || !c.valid() {
		return Clock{}, &ShiftProblem{Kind: NotClock, Value: s}
	}
	return c, nil
}

// number reads a string of ASCII digits; it returns -1 for anything else.
func number(s string) int {
	if s == "" {
		return -1
	}
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			return -1
		}
		n = n*10 + int(r-'0')
	}
	return n
}

// String writes the time of day as HH:MM.
func (c Clock) String() string { return fmt.Sprintf("%02d:%02d", c.Hour, c.Minute) }

func (c Clock) valid() bool {
	return c.Hour >= 0 && c.Hour < 24 && c.Minute >= 0 && c.Minute < 60
}

// minutes is the time of day in minutes since midnight.
func (c Clock) minutes() int { return c.Hour*60 + c.Minute }

// Shift is a named part of the day, such as "Early 06:00-14:00". When End
// is not after Start the shift ends on the next day ("Night 22:00-06:00").
// Start and End may not be equal: a shift has a length.
type Shift struct {
	Name       string
	Start, End Clock
}

// String writes the shift as ParseShifts reads it: "Early 06:00-14:00".
func (s Shift) String() string { return s.Name + " " + s.Start.String() + "-" + s.End.String() }

// spans are the stretches of the day, in minutes since midnight, that the
// shift covers: one, or two when it runs past midnight (the second empty
// when it ends at midnight).
func (s Shift) spans() [][2]int {
	start, end := s.Start.minutes(), s.End.minutes()
	if end > start {
		return [][2]int{{start, end}}
	}
	return [][2]int{{start, 24 * 60}, {0, end}}
}

func (s Shift) overlaps(o Shift) bool {
	for _, a := range s.spans() {
		for _, b := range o.spans() {
			if a[0] < b[1] && b[0] < a[1] {
				return true
			}
		}
	}
	return false
}

// Shifts is the division of a day into shifts, in the order they are
// listed. Shifts need not cover the whole day, but may not overlap.
// LastEnded, At, Previous and Next skip a shift on a day it has no length
// (see On).
type Shifts []Shift

// DefaultShifts are three eight-hour shifts: Early 06:00-14:00, Late
// 14:00-22:00 and Night 22:00-06:00.
func DefaultShifts() Shifts {
	return Shifts{
		{Name: "Early", Start: Clock{6, 0}, End: Clock{14, 0}},
		{Name: "Late", Start: Clock{14, 0}, End: Clock{22, 0}},
		{Name: "Night", Start: Clock{22, 0}, End: Clock{6, 0}},
	}
}

// ParseShifts reads shifts written as String writes them: a comma-separated
// list of a name and a time range, "Early 06:00-14:00, Late 14:00-22:00,
// Night 22:00-06:00". A name may contain spaces. The result is valid (see
// Validate); the error names the first problem in words.
func ParseShifts(text string) (Shifts, error) {
	if strings.TrimSpace(text) == "" {
		return nil, &ShiftProblem{Kind: NoShifts}
	}
	parts := strings.Split(text, ",")
	if len(parts) > MaxShifts {
		return nil, &ShiftProblem{Kind: TooMany, Count: len(parts)}
	}
	shifts := make(Shifts, 0, len(parts))
	for i, part := range parts {
		s, err := parseShift(strings.TrimSpace(part))
		if err != nil {
			return nil, inShift(err, i+1)
		}
		shifts = append(shifts, s)
	}
	return shifts, shifts.Validate()
}

// parseShift reads "NAME HH:MM-HH:MM".
func parseShift(text string) (Shift, error) {
	if text == "" {
		return Shift{}, &ShiftProblem{Kind: EmptyShift}
	}
	dash := strings.LastIndexByte(text, '-')
	if dash < 0 {
		return Shift{}, &ShiftProblem{Kind: NoRange, Value: text}
	}
	head := strings.TrimRightFunc(text[:dash], unicode.IsSpace)
	space := strings.LastIndexFunc(head, unicode.IsSpace)
	name := ""
	if space >= 0 {
		name = strings.TrimSpace(head[:space])
	}
	start, err := ParseClock(head[space+1:])
	if err != nil {
		return Shift{}, err
	}
	end, err := ParseClock(strings.TrimSpace(text[dash+1:]))
	if err != nil {
		return Shift{}, err
	}
	if name == "" {
		return Shift{}, &ShiftProblem{Kind: NoName, Value: start.String() + "-" + end.String()}
	}
	return Shift{Name: name, Start: start, End: end}, nil
}

// String writes the shifts as ParseShifts reads them.
func (s Shifts) String() string {
	parts := make([]string, len(s))
	for i, shift := range s {
		parts[i] = shift.String()
	}
	return strings.Join(parts, ", ")
}

// Validate reports the first problem with the shifts: none at all, more
// than MaxShifts, a missing or unwritable name, a name used twice, a time
// that is not a time of day, a shift that starts and ends at the same time,
// or two shifts that overlap. Shifts are numbered from 1 in the messages.
func (s Shifts) Validate() error {
	switch {
	case len(s) == 0:
		return &ShiftProblem{Kind: NoShifts}
	case len(s) > MaxShifts:
		return &ShiftProblem{Kind: TooMany, Count: len(s)}
	}
	for i, shift := range s {
		if err := shift.validate(); err != nil {
			return inShift(err, i+1)
		}
		for j, earlier := range s[:i] {
			if earlier.Name == shift.Name {
				return &ShiftProblem{Kind: SameName, Other: j + 1, Shift: i + 1, Value: shift.Name}
			}
			if earlier.overlaps(shift) {
				return &ShiftProblem{Kind: Overlap, Other: j + 1, OtherValue: earlier.String(), Shift: i + 1, Value: shift.String()}
			}
		}
	}
	return nil
}

func (s Shift) validate() error {
	switch {
	case strings.TrimSpace(s.Name) == "":
		return &ShiftProblem{Kind: NoName}
	case s.Name != strings.TrimSpace(s.Name):
		return &ShiftProblem{Kind: NameSpace, Value: s.Name}
	case strings.ContainsFunc(s.Name, func(r rune) bool { return r == ',' || !unicode.IsGraphic(r) }):
		return &ShiftProblem{Kind: NameChars, Value: s.Name}
	case !s.Start.valid():
		return &ShiftProblem{Kind: NotClock, Value: s.Start.String()}
	case !s.End.valid():
		return &ShiftProblem{Kind: NotClock, Value: s.End.String()}
	case s.Start == s.End:
		return &ShiftProblem{Kind: NoLength, Value: s.Name, OtherValue: s.Start.String()}
	}
	return nil
}

// Find returns the index of the shift with the given name.
func (s Shifts) Find(name string) (int, bool) {
	i := slices.IndexFunc(s, func(shift Shift) bool { return shift.Name == name })
	return i, i >= 0
}

// On returns shift index of date d in loc. It starts at the shift's Start
// on d and ends at its End on d, or on the day after d when End is not
// after Start. Both are wall-clock times, so a shift across a change of
// daylight-saving time is an hour shorter or longer than usual (a 22:00-06:00
// shift lasts 7 hours in the night clocks go forward, 9 when they go back).
// A wall time that does not exist or exists twice on that day is resolved
// as time.Date resolves it: in Europe/Berlin 02:30 on the day clocks go
// forward is 03:30 summer time, and 02:30 on the day they go back is the
// second 02:30, in winter time. Such a shift may thus have no length at
// all. On panics when index is out of range.
func (s Shifts) On(d Date, index int, loc *time.Location) Period {
	shift := s[index]
	endDate := d
	if shift.End.minutes() <= shift.Start.minutes() {
		endDate = d.AddDays(1)
	}
	return Period{
		Start: d.at(shift.Start, loc),
		End:   endDate.at(shift.End, loc),
		Shift: shift.Name,
		Date:  d,
	}
}

// periods lists the shifts of the dates from to to (inclusive) in loc that
// have a length, by start.
func (s Shifts) periods(from, to Date, loc *time.Location) []Period {
	var ps []Period
	for d := from; !to.before(d); d = d.AddDays(1) {
		for i := range s {
			if p := s.On(d, i, loc); p.Duration() > 0 {
				ps = append(ps, p)
			}
		}
	}
	slices.SortFunc(ps, func(a, b Period) int { return a.Start.Compare(b.Start) })
	return ps
}

// LastEnded returns the shift, in loc, that ended last at or before now:
// the shift that has just been handed over, which the report shows by
// default. It returns the zero Period when there are no shifts.
func (s Shifts) LastEnded(now time.Time, loc *time.Location) Period {
	today := DateOf(now.In(loc))
	return lastEndedBy(now, s.periods(today.AddDays(-2), today, loc), Period{})
}

// lastEndedBy returns the period of ps other than not that ended last at or
// before t.
func lastEndedBy(t time.Time, ps []Period, not Period) Period {
	var best Period
	for _, p := range ps {
		if !p.End.After(t) && !p.same(not) && (best.End.IsZero() || p.End.After(best.End)) {
			best = p
		}
	}
	return best
}

// At returns the shift, in loc, that t falls in; false when t falls between
// shifts.
func (s Shifts) At(t time.Time, loc *time.Location) (Period, bool) {
	day := DateOf(t.In(loc))
	for _, p := range s.periods(day.AddDays(-1), day, loc) {
		if p.Contains(t) {
			return p, true
		}
	}
	return Period{}, false
}

// Previous returns the shift that ended last at or before p started, in
// p's zone: the shift before p when p is a shift. It returns false when
// there are no shifts.
func (s Shifts) Previous(p Period) (Period, bool) {
	loc := p.Start.Location()
	day := DateOf(p.Start.In(loc))
	prev := lastEndedBy(p.Start, s.periods(day.AddDays(-2), day, loc), p)
	return prev, !prev.End.IsZero()
}

// Next returns the first shift that starts at or after p ends, in p's
// zone: the shift after p when p is a shift. It returns false when there
// are no shifts.
func (s Shifts) Next(p Period) (Period, bool) {
	loc := p.Start.Location()
	day := DateOf(p.End.In(loc))
	for _, q := range s.periods(day, day.AddDays(1), loc) {
		if !q.Start.Before(p.End) && !q.same(p) {
			return q, true
		}
	}
	return Period{}, false
}
