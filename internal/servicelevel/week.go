package servicelevel

import (
	"slices"
	"strings"
	"time"
)

// Limits of what a week of service hours holds.
const (
	// MaxWeekText is the longest text of a week ParseWeek reads.
	MaxWeekText = 2000
	// MaxIntervalsPerDay is the most opening intervals one day may have.
	MaxIntervalsPerDay = 8
)

const (
	minutesPerDay  = 24 * 60
	minutesPerWeek = 7 * minutesPerDay
)

// Clock is a time of day in minutes since midnight, 0 (00:00) to 1440
// (24:00, which only ends an interval).
type Clock int

// String writes the time of day as HH:MM.
func (c Clock) String() string {
	return string([]byte{byte('0' + c/600), byte('0' + c/60%10), ':', byte('0' + c%60/10), byte('0' + c%10)})
}

// Interval is an opening time of one day: from From until To. When To is
// not after From the interval runs past midnight ("22:00-06:00": from 22:00
// of its day until 06:00 of the next), as a shift does.
type Interval struct {
	From, To Clock
}

// Overnight reports whether the interval ends on the next day.
func (i Interval) Overnight() bool { return i.To <= i.From }

// String writes the interval as ParseWeek reads it: "06:00-22:00".
func (i Interval) String() string { return i.From.String() + "-" + i.To.String() }

// Week is the opening times of each day of the week, read on the wall
// clock of the hours' zone. The zero Week is always open.
type Week struct {
	limited bool
	days    [7][]Interval // by time.Weekday, sorted by From
}

// AlwaysOpen is the week that never closes: the default when no hours are
// set.
func AlwaysOpen() Week { return Week{} }

// Always reports whether the week never closes.
func (w Week) Always() bool { return !w.limited }

// Day is the opening intervals of a day of the week, in order; none when
// the day is closed (or, for an always-open week, nil: see Always).
func (w Week) Day(d time.Weekday) []Interval { return slices.Clone(w.days[d]) }

// mondayFirst is the order days are written in.
var mondayFirst = [7]time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday, time.Saturday, time.Sunday}

var dayNames = map[string]time.Weekday{
	"mon": time.Monday, "monday": time.Monday,
	"tue": time.Tuesday, "tues": time.Tuesday, "tuesday": time.Tuesday,
	"wed": time.Wednesday, "wednesday": time.Wednesday,
	"thu": time.Thursday, "thur": time.Thursday, "thurs": time.Thursday, "thursday": time.Thursday,
	"fri": time.Friday, "friday": time.Friday,
	"sat": time.Saturday, "saturday": time.Saturday,
	"sun": time.Sunday, "sunday": time.Sunday,
}

// short is the three-letter name of a day, as the canonical form writes it.
func short(d time.Weekday) string { return d.String()[:3] }

// String writes the week in its canonical form, which ParseWeek reads back
// to the same week: "always" for an always-open week; otherwise the open
// days from Monday to Sunday, each run of days with the same intervals
// written once ("Mon-Fri 06:00-22:00; Sat 08:00-12:00, 13:00-17:00"),
// closed days left out.
func (w Week) String() string {
	if !w.limited {
		return "always"
	}
	var entries []string
	for i := 0; i < 7; {
		day := mondayFirst[i]
		j := i + 1
		for j < 7 && slices.Equal(w.days[mondayFirst[j]], w.days[day]) {
			j++
		}
		if len(w.days[day]) > 0 {
			days := short(day)
			if j-i > 1 {
				days += "-" + short(mondayFirst[j-1])
			}
			times := make([]string, len(w.days[day]))
			for k, iv := range w.days[day] {
				times[k] = iv.String()
			}
			entries = append(entries, days+" "+strings.Join(times, ", "))
		}
		i = j
	}
	return strings.Join(entries, "; ")
}

// ParseWeek reads the opening times of a week as a manager types them:
// entries separated by semicolons or new lines, each days then times, as
// in "Mon-Fri 06:00-22:00; Sat 08:00-14:00". Days are Mon to Sun (or
// their full names), as a range ("Mon-Fri", "Sat-Mon" wraps over the
// weekend) or a list ("Mon, Wed"), or "daily". Times are intervals
// HH:MM-HH:MM separated by commas; "closed" marks days closed; a day in
// no entry is closed. An interval that ends at or before it starts runs
// past midnight: "22:00-06:00" is open from 22:00 until 06:00 the next
// morning. The empty text, "always" and "24/7" mean always open.
func ParseWeek(text string) (Week, error) {
	if len(text) > MaxWeekText {
		return Week{}, invalid(WeekTooLong, "The service hours are %d characters long; write them in at most %d.", len(text), MaxWeekText)
	}
	switch strings.ToLower(strings.TrimSpace(text)) {
	case "", "always", "always open", "24/7":
		return Week{}, nil
	}
	w := Week{limited: true}
	var closed [7]bool
	for _, entry := range strings.FieldsFunc(text, func(r rune) bool { return r == ';' || r == '\n' }) {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		days, times, err := splitEntry(entry)
		if err != nil {
			return Week{}, err
		}
		for _, d := range days {
			if times == nil {
				closed[d] = true
			}
			w.days[d] = append(w.days[d], times...)
		}
	}
	for d := range w.days {
		if closed[d] && len(w.days[d]) > 0 {
			return Week{}, invalid(ClosedAndOpen, "%s is both closed and open %s: say one or the other.", time.Weekday(d), w.days[d][0])
		}
		if len(w.days[d]) > MaxIntervalsPerDay {
			return Week{}, invalid(TooManyIntervals, "%s has %d opening intervals; a day may have at most %d.", time.Weekday(d), len(w.days[d]), MaxIntervalsPerDay)
		}
		slices.SortFunc(w.days[d], func(a, b Interval) int { return int(a.From - b.From) })
	}
	if err := w.checkOverlaps(); err != nil {
		return Week{}, err
	}
	if w.openMinutes() == 0 {
		return Week{}, invalid(ClosedEveryDay, "The service hours %q are closed every day, so the clock would never run: give at least one opening time, or \"always\".", strings.TrimSpace(text))
	}
	return w, nil
}

// splitEntry reads one entry, "Mon-Fri 06:00-22:00, 23:00-23:30": its days,
// and its intervals (nil for "closed").
func splitEntry(entry string) ([]time.Weekday, []Interval, error) {
	cut := strings.IndexAny(entry, "0123456789")
	dayPart, timePart := entry, ""
	if cut >= 0 {
		dayPart, timePart = entry[:cut], entry[cut:]
	} else if lower := strings.ToLower(entry); strings.HasSuffix(lower, "closed") {
		dayPart, timePart = entry[:len(entry)-len("closed")], "closed"
	}
	dayPart = strings.TrimSuffix(strings.TrimSpace(dayPart), ":")
	if dayPart == "" {
		return nil, nil, invalid(TimesNoDays, "%q gives times but no days: write the days first, as in \"Mon-Fri 06:00-22:00\".", entry)
	}
	if timePart == "" {
		return nil, nil, invalid(DaysNoTimes, "%q gives days but no times: write the times after the days, as in \"Mon-Fri 06:00-22:00\", or \"closed\".", entry)
	}
	days, err := parseDays(dayPart)
	if err != nil {
		return nil, nil, err
	}
	if strings.EqualFold(strings.TrimSpace(timePart), "closed") {
		return days, nil, nil
	}
	var out []Interval
	for _, field := range strings.Split(timePart, ",") {
		iv, err := parseInterval(strings.TrimSpace(field))
		if err != nil {
			return nil, nil, err
		}
		out = append(out, iv)
	}
	return days, out, nil
}

// parseDays reads "Mon-Fri", "Mon, Wed, Fri", "Sat-Mon" or "daily".
func parseDays(text string) ([]time.Weekday, error) {
	if l := strings.ToLower(text); l == "daily" || l == "every day" {
		return mondayFirst[:], nil
	}
	var out []time.Weekday
	for _, item := range strings.Split(text, ",") {
		first, last, isRange := strings.Cut(item, "-")
		from, err := parseDay(first)
		if err != nil {
			return nil, err
		}
		to := from
		if isRange {
			if to, err = parseDay(last); err != nil {
				return nil, err
			}
		}
		for d := from; ; d = (d + 1) % 7 {
			if !slices.Contains(out, d) {
				out = append(out, d)
			}
			if d == to {
				break
			}
		}
	}
	return out, nil
}

func parseDay(text string) (time.Weekday, error) {
	text = strings.TrimSpace(text)
	if d, ok := dayNames[strings.ToLower(strings.TrimSuffix(text, "."))]; ok {
		return d, nil
	}
	return 0, invalid(NotADay, "%q is not a day of the week: write Mon, Tue, Wed, Thu, Fri, Sat or Sun.", text)
}

// parseInterval reads "06:00-22:00" (an en dash, and spaces around the
// dash, are read too).
func parseInterval(text string) (Interval, error) {
	from, to, ok := strings.Cut(strings.ReplaceAll(text, "–", "-"), "-")
	if !ok {
		return Interval{}, invalid(NotAnInterval, "%q is not an opening time: write it from-to, as in 06:00-22:00.", text)
	}
	f, err := parseClock(strings.TrimSpace(from))
	if err != nil {
		return Interval{}, err
	}
	t, err := parseClock(strings.TrimSpace(to))
	if err != nil {
		return Interval{}, err
	}
	switch {
	case f == minutesPerDay:
		return Interval{}, invalid(StartsAt24, "%q starts at 24:00, the end of the day: start it at 00:00 of the next day.", text)
	case f == t:
		return Interval{}, invalid(CoversNoTime, "%q starts and ends at %s, so it covers no time: for a whole day write 00:00-24:00.", text, f)
	case t == 0:
		t = minutesPerDay // "22:00-00:00" ends at midnight: written 22:00-24:00
	}
	return Interval{From: f, To: t}, nil
}

// parseClock reads H:MM or HH:MM, 00:00 to 24:00.
func parseClock(text string) (Clock, error) {
	h, m, ok := strings.Cut(text, ":")
	hour, minute := digits(h), digits(m)
	if !ok || len(h) < 1 || len(h) > 2 || len(m) != 2 || hour < 0 || minute < 0 || minute > 59 || hour > 24 || hour == 24 && minute != 0 {
		return 0, invalid(NotATimeOfDay, "%q is not a time of day: write HH:MM, from 00:00 to 24:00.", text)
	}
	return Clock(hour*60 + minute), nil
}

// digits reads a string of ASCII digits; -1 for anything else.
func digits(s string) int {
	if s == "" || len(s) > 6 {
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

// weekSpan is an opening interval placed in the week, in minutes since
// Sunday 00:00, with the text that named it.
type weekSpan struct {
	from, to int
	name     string
}

// checkOverlaps refuses two intervals open at the same time, on one day or
// where a night's interval runs into the next morning's.
func (w Week) checkOverlaps() error {
	var spans []weekSpan
	for d, ivs := range w.days {
		for _, iv := range ivs {
			name := short(time.Weekday(d)) + " " + iv.String()
			from, to := d*minutesPerDay+int(iv.From), d*minutesPerDay+int(iv.To)
			if iv.Overnight() {
				to += minutesPerDay
			}
			if to > minutesPerWeek { // Sunday night runs into Monday
				spans = append(spans, weekSpan{0, to - minutesPerWeek, name})
				to = minutesPerWeek
			}
			spans = append(spans, weekSpan{from, to, name})
		}
	}
	slices.SortFunc(spans, func(a, b weekSpan) int { return a.from - b.from })
	for i := 1; i < len(spans); i++ {
		if spans[i].from < spans[i-1].to {
			return invalid(Overlap, "%s and %s overlap: give each time once.", spans[i-1].name, spans[i].name)
		}
	}
	return nil
}

// span is an open stretch of one calendar day, in minutes since midnight.
type span struct{ from, to int }

// daySpans is the open stretches of each day of the week, each day's own
// intervals up to midnight and the previous day's overnight tails from
// midnight, in order and joined where they touch.
func (w Week) daySpans() [7][]span {
	var out [7][]span
	if !w.limited {
		for d := range out {
			out[d] = []span{{0, minutesPerDay}}
		}
		return out
	}
	for d, ivs := range w.days {
		for _, iv := range ivs {
			if !iv.Overnight() {
				out[d] = append(out[d], span{int(iv.From), int(iv.To)})
				continue
			}
			out[d] = append(out[d], span{int(iv.From), minutesPerDay})
			next := (d + 1) % 7
			out[next] = append(out[next], span{0, int(iv.To)})
		}
	}
	for d := range out {
		slices.SortFunc(out[d], func(a, b span) int { return a.from - b.from })
		var joined []span
		for _, s := range out[d] {
			if n := len(joined); n > 0 && joined[n-1].to == s.from {
				joined[n-1].to = s.to
				continue
			}
			joined = append(joined, s)
		}
		out[d] = joined
	}
	return out
}

// openMinutes is how many minutes of a week are open.
func (w Week) openMinutes() int {
	n := 0
	for _, spans := range w.daySpans() {
		for _, s := range spans {
			n += s.to - s.from
		}
	}
	return n
}
