package report

import (
	"errors"
	"fmt"
	"time"
)

// MaxRange is the longest custom period a report may cover.
const MaxRange = 31 * 24 * time.Hour

// Date is a civil date, without a time of day or a zone.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// DateOf returns the date of t in t's location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{y, m, d}
}

// ParseDate reads a date written YYYY-MM-DD.
func ParseDate(s string) (Date, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return Date{}, fmt.Errorf("%q is not a date (YYYY-MM-DD)", s)
	}
	return DateOf(t), nil
}

// String writes the date as YYYY-MM-DD.
func (d Date) String() string { return fmt.Sprintf("%04d-%02d-%02d", d.Year, d.Month, d.Day) }

// AddDays returns the date n days after d (before it when n is negative).
func (d Date) AddDays(n int) Date {
	return DateOf(time.Date(d.Year, d.Month, d.Day+n, 0, 0, 0, 0, time.UTC))
}

func (d Date) before(e Date) bool {
	if d.Year != e.Year {
		return d.Year < e.Year
	}
	if d.Month != e.Month {
		return d.Month < e.Month
	}
	return d.Day < e.Day
}

// at is the wall-clock time c on d in loc, as time.Date resolves it.
func (d Date) at(c Clock, loc *time.Location) time.Time {
	return time.Date(d.Year, d.Month, d.Day, c.Hour, c.Minute, 0, 0, loc)
}

// Period is the stretch of time a report covers: [Start, End). Its times
// carry the zone the report is read in; the hourly buckets follow the wall
// clock of Start's location.
type Period struct {
	Start, End time.Time
	// Shift is the name of the shift, "" for a custom range.
	Shift string
	// Date is the date, in the period's zone, on which the shift starts;
	// for a custom range the date of Start.
	Date Date
}

// Custom returns the period from start to end, read in start's location.
// It fails when end is not after start or the range is longer than
// MaxRange.
func Custom(start, end time.Time) (Period, error) {
	switch {
	case !end.After(start):
		return Period{}, errors.New("the end of the range must be after its start")
	case end.Sub(start) > MaxRange:
		return Period{}, fmt.Errorf("a range may be at most %d days long", MaxRange/(24*time.Hour))
	}
	return Period{Start: start, End: end.In(start.Location()), Date: DateOf(start)}, nil
}

// Contains reports whether t falls in the period: at or after Start and
// before End.
func (p Period) Contains(t time.Time) bool { return !t.Before(p.Start) && t.Before(p.End) }

// Duration is the length of the period.
func (p Period) Duration() time.Duration { return p.End.Sub(p.Start) }

// same reports whether p and q are the same shift of the same day.
func (p Period) same(q Period) bool {
	return p.Shift != "" && p.Shift == q.Shift && p.Date == q.Date
}
