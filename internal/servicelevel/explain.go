package servicelevel

import (
	"fmt"
	"strings"
	"time"
)

// MaxStops is the most stops an Explanation lists; it counts the rest.
const MaxStops = 10

// Stop is a stretch in which the clock stood still: outside the opening
// times, on holidays, or both.
type Stop struct {
	From, To time.Time
	// Holidays are the holidays the stop covers, in order; none when it is
	// only outside the opening times.
	Holidays []Date
}

// Explanation says where the clock stopped within a measured stretch.
type Explanation struct {
	// Stops are the first MaxStops stops, in order.
	Stops []Stop
	// More counts the stops after those.
	More int
	// Stopped is how long the clock stood still in all.
	Stopped time.Duration
	// Resumes is, for an alert still open, when the clock runs again if it
	// stands still now; zero otherwise.
	Resumes time.Time
	zone    *time.Location
}

// Explain says where the clock stopped within [from, to). Its work grows
// with the days between them; what it keeps does not.
func (h Hours) Explain(from, to time.Time) Explanation {
	from, to = from.Round(0), to.Round(0)
	e := Explanation{zone: h.Zone()}
	if !from.Before(to) || h.continuous() {
		return e
	}
	var last *Stop // the stop the walk is in, nil when the clock runs
	stop := func(a, b time.Time, holiday *Date) {
		e.Stopped += b.Sub(a)
		switch {
		case last != nil && last.To.Equal(a):
			last.To = b
		case len(e.Stops) < MaxStops:
			e.Stops = append(e.Stops, Stop{From: a, To: b})
			last = &e.Stops[len(e.Stops)-1]
		default:
			e.More++
			last = &Stop{From: a, To: b} // counted, not kept
		}
		if holiday != nil && (len(last.Holidays) == 0 || last.Holidays[len(last.Holidays)-1] != *holiday) {
			last.Holidays = append(last.Holidays, *holiday)
		}
	}
	for cur := from; cur.Before(to); {
		seg := h.segmentAt(cur, to)
		if seg.holiday {
			stop(seg.from, seg.to, &seg.date)
		}
		at := seg.from
		for _, sp := range seg.open {
			a, b, ok := seg.piece(sp)
			if !ok {
				continue
			}
			if at.Before(a) {
				stop(at, a, nil)
			}
			last, at = nil, b
		}
		if !seg.holiday && at.Before(seg.to) {
			stop(at, seg.to, nil)
		}
		cur = seg.to
	}
	return e
}

// Zone is the zone the explanation tells times in.
func (e Explanation) Zone() *time.Location {
	if e.zone == nil {
		return time.UTC
	}
	return e.zone
}

// String says where the clock stopped in a sentence: "The clock stopped
// for 8 h: 22:00–06:00 outside service hours." or "The clock stopped for
// 1 d 8 h: 24 Dec 22:00–26 Dec 06:00 outside service hours and on 25 Dec,
// a holiday."
func (e Explanation) String() string {
	if len(e.Stops) == 0 {
		return "The clock did not stop: all of the time was within service hours." + e.resumes()
	}
	var labels []string
	counts := map[string]int{}
	var holidays []Date
	for _, s := range e.Stops {
		holidays = append(holidays, s.Holidays...)
		if e.OnlyHolidays(s) {
			continue
		}
		l := e.label(s)
		if counts[l] == 0 {
			labels = append(labels, l)
		}
		counts[l]++
	}
	for i, l := range labels {
		labels[i] += times(counts[l])
	}
	if e.More > 0 {
		labels = append(labels, fmt.Sprintf("%d more %s", e.More, plural(e.More, "stop", "stops")))
	}
	var why []string
	if len(labels) > 0 {
		why = append(why, list(labels)+" outside service hours")
	}
	if len(holidays) > 0 {
		dates := make([]string, len(holidays))
		for i, d := range holidays {
			dates[i] = d.words()
		}
		why = append(why, "on "+list(dates)+", "+plural(len(holidays), "a holiday", "holidays"))
	}
	return "The clock stopped for " + words(e.Stopped) + ": " + strings.Join(why, " and ") + "." + e.resumes()
}

// resumes says when a clock stopped now runs again: " It runs again at
// 06:00 on Mon 30 Nov."
func (e Explanation) resumes() string {
	if e.Resumes.IsZero() {
		return ""
	}
	return " It runs again at " + e.Resumes.In(e.Zone()).Format("15:04 on Mon 2 Jan") + "."
}

// OnlyHolidays reports whether every day the stop touches is a holiday:
// the sentence names their dates only.
func (e Explanation) OnlyHolidays(s Stop) bool {
	if len(s.Holidays) == 0 {
		return false
	}
	first, last := DateOf(s.From.In(e.Zone())), DateOf(s.To.Add(-1).In(e.Zone()))
	days := 1
	for d := first; d != last && days <= len(s.Holidays); days++ {
		d = DateOf(time.Date(d.Year, d.Month, d.Day+1, 0, 0, 0, 0, time.UTC))
	}
	return days == len(s.Holidays)
}

// label writes a stop as its wall-clock times, "22:00–06:00", when it
// lasts less than a day; with dates, "24 Dec 22:00–26 Dec 06:00", when
// longer or over a holiday.
func (e Explanation) label(s Stop) string {
	from, to := s.From.In(e.Zone()), s.To.In(e.Zone())
	if len(s.Holidays) == 0 && s.To.Sub(s.From) < 24*time.Hour {
		return from.Format("15:04") + "–" + to.Format("15:04")
	}
	return from.Format("2 Jan 15:04") + "–" + to.Format("2 Jan 15:04")
}

func times(n int) string {
	switch n {
	case 1:
		return ""
	case 2:
		return " (twice)"
	}
	return fmt.Sprintf(" (%d times)", n)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// list joins "a", "b" and "c" as a sentence does.
func list(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// words writes a duration to the minute as a page says it: "45 min",
// "1 h 30 min", "2 d 3 h"; under a minute, in seconds.
func words(d time.Duration) string {
	sign := ""
	if d < 0 {
		sign, d = "-", -d
	}
	if d < time.Minute {
		return fmt.Sprintf("%s%d s", sign, int(d/time.Second))
	}
	m := int(d / time.Minute)
	days, hours, mins := m/(24*60), m/60%24, m%60
	var parts []string
	if days > 0 {
		parts = append(parts, fmt.Sprintf("%d d", days))
	}
	if hours > 0 {
		parts = append(parts, fmt.Sprintf("%d h", hours))
	}
	if mins > 0 && days == 0 {
		parts = append(parts, fmt.Sprintf("%d min", mins))
	}
	if len(parts) == 0 {
		parts = append(parts, "0 min")
	}
	return sign + strings.Join(parts, " ")
}
