package servicelevel

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Horizon is how far ahead Deadline looks for service time: a deadline
// further than this from its start is not given. It bounds the work of
// one deadline to some 750 steps of a day (fewer where whole weeks are
// stepped over), however sparse the hours.
const Horizon = 2 * 366 * 24 * time.Hour

// ErrBeyondHorizon says a duration of service time does not elapse within
// the Horizon: the hours are too sparse for it.
var ErrBeyondHorizon = errors.New("not within two years of service hours")

// Hours is when the clock of a service level runs: a week of opening
// times read on the wall clock of a time zone, less holidays, which are
// closed from midnight to midnight. The zero Hours is always open, in UTC.
//
// A day on which the clocks change keeps its wall-clock times: a day of 23
// or 25 hours open 00:00-24:00 is open 23 or 25 hours. An opening time
// that does not exist that day (02:30 when the clocks jump from 02:00 to
// 03:00) opens when the clocks jump, at 03:00; an hour that happens twice
// (02:00-03:00 when they fall back) is open both times if the hours say
// so. Whether an instant is open depends only on its own calendar day: a
// night interval that starts the day before a holiday stops at its
// midnight, and one that starts on a holiday opens at the next midnight.
type Hours struct {
	week     Week
	holidays []Date
	zone     *time.Location
	open     [7][]span
	weekly   time.Duration // the open time of a week without holidays
}

// NewHours is a week of opening times, with holidays, in a zone.
func NewHours(week Week, holidays []Date, zone *time.Location) (Hours, error) {
	if zone == nil {
		return Hours{}, invalid("", "The service hours have no time zone: give one, such as Europe/Berlin.")
	}
	if len(holidays) > MaxHolidays {
		return Hours{}, invalid("", "%d holidays are too many: give at most %d.", len(holidays), MaxHolidays)
	}
	hs := slices.Clone(holidays)
	slices.SortFunc(hs, Date.compare)
	h := Hours{week: week, holidays: slices.Compact(hs), zone: zone, open: week.daySpans()}
	for _, spans := range h.open {
		for _, sp := range spans {
			h.weekly += time.Duration(sp.to-sp.from) * time.Minute
		}
	}
	return h, nil
}

// ParseHours reads the three fields a manager fills in: the week as
// ParseWeek reads it, the holidays as ParseHolidays does, and the name of
// an IANA time zone ("Europe/Berlin").
func ParseHours(week, holidays, zone string) (Hours, error) {
	w, err := ParseWeek(week)
	if err != nil {
		return Hours{}, err
	}
	hs, err := ParseHolidays(holidays)
	if err != nil {
		return Hours{}, err
	}
	loc, err := ParseZone(zone)
	if err != nil {
		return Hours{}, err
	}
	return NewHours(w, hs, loc)
}

// ParseZone reads the name of an IANA time zone, such as Europe/Berlin.
func ParseZone(name string) (*time.Location, error) {
	name = strings.TrimSpace(name)
	if name == "" || name == "Local" {
		return nil, invalid(NoZone, "The service hours have no time zone: give one, such as Europe/Berlin.")
	}
	if len(name) > 64 {
		return nil, invalid(ZoneTooLong, "%.64q… is not a time zone: give an IANA name, such as Europe/Berlin.", name)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, invalid(NotAZone, "%q is not a time zone: give an IANA name, such as Europe/Berlin or America/New_York.", name)
	}
	return loc, nil
}

// Week is the opening times.
func (h Hours) Week() Week { return h.week }

// Holidays is the holidays, in order.
func (h Hours) Holidays() []Date { return slices.Clone(h.holidays) }

// Zone is the time zone the opening times and holidays are read in.
func (h Hours) Zone() *time.Location {
	if h.zone == nil {
		return time.UTC
	}
	return h.zone
}

// String writes the hours in words a log or a page can show:
// "Mon-Fri 06:00-22:00 (Europe/Berlin), closed on 2026-12-25".
func (h Hours) String() string {
	s := h.week.String() + " (" + h.Zone().String() + ")"
	if len(h.holidays) > 0 {
		s += ", closed on " + FormatHolidays(h.holidays)
	}
	return s
}

// continuous reports whether the clock never stops.
func (h Hours) continuous() bool { return h.week.Always() && len(h.holidays) == 0 }

func (h Hours) holiday(d Date) bool {
	_, ok := slices.BinarySearchFunc(h.holidays, d, Date.compare)
	return ok
}

// segment is a stretch of time in one calendar day at one offset from
// UTC, in which the wall clock runs with absolute time: the unit the
// clock's walk steps by.
type segment struct {
	from, to time.Time
	// midnight is the instant the day's wall clock read, or at this
	// offset would have read, 00:00.
	midnight time.Time
	date     Date
	holiday  bool
	open     []span    // nil on a holiday
	change   time.Time // the next change of the clocks; zero when none
}

// segmentAt is the segment that starts at t, ending at the next midnight,
// change of the clocks, or limit, whichever comes first.
func (h Hours) segmentAt(t, limit time.Time) segment {
	lt := t.In(h.Zone())
	hour, minute, second := lt.Clock()
	since := time.Duration(hour)*time.Hour + time.Duration(minute)*time.Minute +
		time.Duration(second)*time.Second + time.Duration(lt.Nanosecond())
	seg := segment{from: t, midnight: t.Add(-since), date: DateOf(lt)}
	seg.to = seg.midnight.Add(24 * time.Hour)
	if _, seg.change = lt.ZoneBounds(); !seg.change.IsZero() && seg.change.Before(seg.to) {
		seg.to = seg.change
	}
	if limit.Before(seg.to) {
		seg.to = limit
	}
	seg.holiday = h.holiday(seg.date)
	if !seg.holiday {
		seg.open = h.open[lt.Weekday()]
	}
	return seg
}

// wholeWeek is the end of the seven days from the segment, when they
// start at its midnight, end by limit and hold no holiday and no change of
// the clocks: a week the walk steps over at once, open h.weekly. It keeps
// the walk over a long stretch to a step a week.
func (h Hours) wholeWeek(seg segment, limit time.Time) (time.Time, bool) {
	end := seg.midnight.Add(7 * 24 * time.Hour)
	if !seg.from.Equal(seg.midnight) || end.After(limit) || !seg.change.IsZero() && seg.change.Before(end) {
		return time.Time{}, false
	}
	i, _ := slices.BinarySearchFunc(h.holidays, seg.date, Date.compare)
	if i < len(h.holidays) {
		last := DateOf(time.Date(seg.date.Year, seg.date.Month, seg.date.Day+6, 0, 0, 0, 0, time.UTC))
		if h.holidays[i].compare(last) <= 0 {
			return time.Time{}, false
		}
	}
	return end, true
}

// piece is the part of an open span that falls in the segment; ok is
// false when none does.
func (s segment) piece(sp span) (from, to time.Time, ok bool) {
	from = s.midnight.Add(time.Duration(sp.from) * time.Minute)
	to = s.midnight.Add(time.Duration(sp.to) * time.Minute)
	if from.Before(s.from) {
		from = s.from
	}
	if to.After(s.to) {
		to = s.to
	}
	return from, to, from.Before(to)
}

// Elapsed is the service time within [from, to): the time the clock runs,
// stopped outside the opening times and on holidays. It is zero when to
// is not after from. Its work grows with the weeks between them.
func (h Hours) Elapsed(from, to time.Time) time.Duration {
	from, to = from.Round(0), to.Round(0)
	if !from.Before(to) {
		return 0
	}
	if h.continuous() {
		return to.Sub(from)
	}
	var sum time.Duration
	for cur := from; cur.Before(to); {
		seg := h.segmentAt(cur, to)
		if end, ok := h.wholeWeek(seg, to); ok {
			sum += h.weekly
			cur = end
			continue
		}
		for _, sp := range seg.open {
			if a, b, ok := seg.piece(sp); ok {
				sum += b.Sub(a)
			}
		}
		cur = seg.to
	}
	return sum
}

// Deadline is the earliest instant by which d of service time has elapsed
// since from: Elapsed(from, Deadline(from, d)) is d. It looks no further
// than the Horizon, and says ErrBeyondHorizon when the hours do not hold
// d within it.
func (h Hours) Deadline(from time.Time, d time.Duration) (time.Time, error) {
	from = from.Round(0)
	switch {
	case d < 0:
		return time.Time{}, invalid("", "A service time of %s is negative.", words(d))
	case d == 0:
		return from, nil
	}
	var at [1]time.Time
	h.deadlines(from, []time.Duration{d}, at[:])
	if !at[0].IsZero() {
		return at[0], nil
	}
	return time.Time{}, fmt.Errorf("%s of service time from %s: %w", words(d), from.In(h.Zone()).Format("2 Jan 2006 15:04 MST"), ErrBeyondHorizon)
}

// Resumes is when the clock next runs at or after t: t itself when it
// runs at t; false when it does not within the Horizon.
func (h Hours) Resumes(t time.Time) (time.Time, bool) {
	d, err := h.Deadline(t, time.Nanosecond)
	if err != nil {
		return time.Time{}, false
	}
	return d.Add(-time.Nanosecond), true
}
