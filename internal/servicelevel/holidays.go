package servicelevel

import (
	"slices"
	"strings"
	"time"
)

// MaxHolidays is the most holidays one set of service hours keeps: some
// years' worth.
const MaxHolidays = 400

// maxHolidaysText is the longest text of holidays ParseHolidays reads: the
// most holidays, each with a separator and room to spare.
const maxHolidaysText = MaxHolidays * 16

// Date is a calendar day, read in the hours' zone.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// DateOf is the calendar day of t in t's location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{y, m, d}
}

// String writes the date as ParseHolidays reads it: 2026-12-25.
func (d Date) String() string {
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
}

// words writes the date as a sentence says it: "25 Dec".
func (d Date) words() string {
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC).Format("2 Jan")
}

func (d Date) compare(o Date) int {
	if c := d.Year - o.Year; c != 0 {
		return c
	}
	if c := int(d.Month) - int(o.Month); c != 0 {
		return c
	}
	return d.Day - o.Day
}

// ParseHolidays reads dates written YYYY-MM-DD separated by commas,
// semicolons, spaces or new lines: "2026-12-25, 2026-12-26". A holiday is
// closed all day, midnight to midnight. The dates come back in order, each
// once.
func ParseHolidays(text string) ([]Date, error) {
	if len(text) > maxHolidaysText {
		return nil, invalid(HolidaysTooLong, "The holidays are %d characters long; write them in at most %d.", len(text), maxHolidaysText)
	}
	fields := strings.FieldsFunc(text, func(r rune) bool {
		return r == ',' || r == ';' || r == ' ' || r == '\t' || r == '\n' || r == '\r'
	})
	if len(fields) > MaxHolidays {
		return nil, invalid(TooManyHolidays, "%d holidays are too many: give at most %d.", len(fields), MaxHolidays)
	}
	out := make([]Date, 0, len(fields))
	for _, f := range fields {
		t, err := time.Parse(time.DateOnly, f)
		if err != nil {
			return nil, invalid(NotADate, "%q is not a date: write each holiday as YYYY-MM-DD, such as 2026-12-25.", f)
		}
		out = append(out, DateOf(t))
	}
	slices.SortFunc(out, Date.compare)
	return slices.Compact(out), nil
}

// FormatHolidays writes dates as ParseHolidays reads them, in order:
// "2026-12-25, 2026-12-26".
func FormatHolidays(dates []Date) string {
	s := make([]string, len(dates))
	for i, d := range dates {
		s[i] = d.String()
	}
	return strings.Join(s, ", ")
}
