package servicelevel

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

func zone(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatalf("the time zone database has no %s: %v", name, err)
	}
	return loc
}

func hours(t testing.TB, week, holidays, zone string) Hours {
	t.Helper()
	h, err := ParseHours(week, holidays, zone)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// at is a wall-clock time in a zone, "2026-03-29 03:30".
func at(t testing.TB, loc *time.Location, wall string) time.Time {
	t.Helper()
	v, err := time.ParseInLocation("2006-01-02 15:04", wall, loc)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestElapsedStopsOutsideHoursAndOnHolidays(t *testing.T) {
	for _, tc := range []struct {
		name, zone, week, holidays string
		from, to                   string
		want                       time.Duration
	}{
		{"a night outside hours", "Europe/Berlin", "Mon-Fri 06:00-22:00", "", "2026-11-23 21:00", "2026-11-24 07:00", 2 * time.Hour},
		{"a weekend", "Europe/Berlin", "Mon-Fri 06:00-22:00", "", "2026-11-27 21:30", "2026-11-30 06:30", time.Hour},
		{"a holiday", "Europe/Berlin", "daily 06:00-22:00", "2026-12-25", "2026-12-24 21:00", "2026-12-26 07:00", 2 * time.Hour},
		{"a night interval", "America/New_York", "Mon-Fri 22:00-06:00", "", "2026-11-27 23:00", "2026-11-28 07:00", 7 * time.Hour},
		{"a night interval stops at a holiday's midnight and resumes at the next", "Europe/Berlin", "daily 22:00-06:00", "2026-12-25", "2026-12-24 21:00", "2026-12-26 07:00", 8 * time.Hour},
		{"Berlin's 23-hour day", "Europe/Berlin", "daily 00:00-24:00", "", "2026-03-29 00:00", "2026-03-30 00:00", 23 * time.Hour},
		{"Berlin's 25-hour day", "Europe/Berlin", "daily 00:00-24:00", "", "2026-10-25 00:00", "2026-10-26 00:00", 25 * time.Hour},
		{"New York's 23-hour day", "America/New_York", "daily 00:00-24:00", "", "2026-03-08 00:00", "2026-03-09 00:00", 23 * time.Hour},
		{"New York's 25-hour day", "America/New_York", "daily 00:00-24:00", "", "2026-11-01 00:00", "2026-11-02 00:00", 25 * time.Hour},
		{"an opening at 02:30 that does not exist opens when the clocks jump to 03:00", "Europe/Berlin", "Sun 02:30-04:00", "", "2026-03-29 00:00", "2026-03-30 00:00", time.Hour},
		{"an hour that happens twice is open twice", "Europe/Berlin", "Sun 02:30-03:00", "", "2026-10-25 00:00", "2026-10-26 00:00", time.Hour},
		{"hours around New York's jump", "America/New_York", "Sun 01:00-04:00", "", "2026-03-08 00:00", "2026-03-09 00:00", 2 * time.Hour},
		{"to before from", "Europe/Berlin", "daily 06:00-22:00", "", "2026-11-24 12:00", "2026-11-24 11:00", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			loc := zone(t, tc.zone)
			h := hours(t, tc.week, tc.holidays, tc.zone)
			if got := h.Elapsed(at(t, loc, tc.from), at(t, loc, tc.to)); got != tc.want {
				t.Errorf("%s from %s to %s: %s of service time; want %s", h, tc.from, tc.to, got, tc.want)
			}
		})
	}
	var always Hours
	from := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	if got := always.Elapsed(from, from.Add(90*time.Minute)); got != 90*time.Minute {
		t.Errorf("no hours set: %s of 90 min; want it always open", got)
	}
}

func TestDeadline(t *testing.T) {
	for _, tc := range []struct {
		name, zone, week, holidays string
		from                       string
		d                          time.Duration
		want                       string
	}{
		{"over a weekend", "Europe/Berlin", "Mon-Fri 06:00-22:00", "", "2026-11-27 21:30", time.Hour, "2026-11-30 06:30"},
		{"before opening", "Europe/Berlin", "Mon-Fri 06:00-22:00", "", "2026-11-23 05:00", 15 * time.Minute, "2026-11-23 06:15"},
		{"exactly at closing", "Europe/Berlin", "Mon-Fri 06:00-22:00", "", "2026-11-27 21:00", time.Hour, "2026-11-27 22:00"},
		{"over holidays", "Europe/Berlin", "daily 06:00-22:00", "2026-12-25, 2026-12-26", "2026-12-24 21:00", 2 * time.Hour, "2026-12-27 07:00"},
		{"into the hour that does not exist", "Europe/Berlin", "Sun 02:30-04:00", "", "2026-03-28 12:00", 30 * time.Minute, "2026-03-29 03:30"},
		{"over New York's 23-hour day", "America/New_York", "daily 00:00-24:00", "", "2026-03-07 12:00", 24 * time.Hour, "2026-03-08 13:00"},
		{"over New York's 25-hour day", "America/New_York", "daily 08:00-20:00", "", "2026-10-31 19:00", 2 * time.Hour, "2026-11-01 09:00"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			loc := zone(t, tc.zone)
			h := hours(t, tc.week, tc.holidays, tc.zone)
			got, err := h.Deadline(at(t, loc, tc.from), tc.d)
			if err != nil {
				t.Fatal(err)
			}
			if want := at(t, loc, tc.want); !got.Equal(want) {
				t.Errorf("%s of %s from %s: deadline %s; want %s", tc.d, h, tc.from, got.In(loc), want)
			}
		})
	}
}

func TestDeadlineBeyondTheHorizonIsAnError(t *testing.T) {
	h := hours(t, "Sun 00:00-00:01", "", "Europe/Berlin")
	from := at(t, zone(t, "Europe/Berlin"), "2026-11-24 12:00")
	_, err := h.Deadline(from, MaxTarget)
	if !errors.Is(err, ErrBeyondHorizon) || !strings.Contains(err.Error(), "31 d of service time from 24 Nov 2026 12:00 CET") {
		t.Errorf("a month of service time in a minute a week: %v; want ErrBeyondHorizon, saying how much from when", err)
	}
	if _, err := h.Deadline(from, -time.Minute); !errors.Is(err, ErrInvalid) {
		t.Errorf("a negative service time: %v; want ErrInvalid", err)
	}
	if got, err := h.Deadline(from, 0); err != nil || !got.Equal(from) {
		t.Errorf("no service time: %v, %v; want the start", got, err)
	}
}

// openAt is whether the hours are open in the minute from m, read straight
// from the week's intervals: a reference the walk is checked against.
func openAt(h Hours, m time.Time) bool {
	lt := m.In(h.Zone())
	if h.holiday(DateOf(lt)) {
		return false
	}
	if h.week.Always() {
		return true
	}
	wm := Clock(lt.Hour()*60 + lt.Minute())
	for _, iv := range h.week.days[lt.Weekday()] {
		if wm >= iv.From && (wm < iv.To || iv.Overnight()) {
			return true
		}
	}
	for _, iv := range h.week.days[(lt.Weekday()+6)%7] {
		if iv.Overnight() && wm < iv.To {
			return true
		}
	}
	return false
}

// TestElapsedAndDeadlineAgreeOverAYear checks, for random starts over a
// year (its two changes of the clocks included) and random durations, in
// hours with night intervals and holidays, that the deadline of d from a
// start has d elapsed and not a nanosecond earlier, and that the elapsed
// time is what a minute-by-minute count of the reference says.
func TestElapsedAndDeadlineAgreeOverAYear(t *testing.T) {
	for _, tc := range []struct{ zone, week string }{
		{"Europe/Berlin", "Mon-Fri 06:00-22:00; Sat 02:30-04:00, 22:00-01:00; Sun 01:30-03:00"},
		{"America/New_York", "Mon-Thu 07:00-19:00; Fri 20:00-02:00; Sun 00:00-24:00"},
	} {
		t.Run(tc.zone, func(t *testing.T) {
			h := hours(t, tc.week, "2026-01-01, 2026-03-29, 2026-05-01, 2026-10-25, 2026-11-01, 2026-12-25, 2026-12-26", tc.zone)
			rng := rand.New(rand.NewPCG(26, 2))
			year := time.Date(2026, 1, 1, 0, 0, 0, 0, h.Zone())
			for i := range 300 {
				start := year.Add(time.Duration(rng.Int64N(int64(365 * 24 * time.Hour))))
				longest := 72 * time.Hour
				if i%3 == 0 { // several weeks: the walk steps over whole ones
					longest = MaxTarget
				}
				d := time.Duration(rng.Int64N(int64(longest)))
				deadline, err := h.Deadline(start, d)
				if err != nil {
					t.Fatal(err)
				}
				if got := h.Elapsed(start, deadline); got != d {
					t.Fatalf("from %s, %s: deadline %s has %s elapsed", start, d, deadline, got)
				}
				if d > 0 && h.Elapsed(start, deadline.Add(-1)) >= d {
					t.Fatalf("from %s, %s: deadline %s is not the earliest", start, d, deadline)
				}
				// The four times of an alert, in any order, in one walk.
				ds := []time.Duration{d, d / 3, time.Duration(rng.Int64N(int64(longest))), d * 4 / 5}
				var got [4]time.Time
				h.deadlines(start, ds, got[:])
				for k, dk := range ds {
					if want, _ := h.Deadline(start, dk); !got[k].Equal(want) {
						t.Fatalf("from %s, times %v: the walk gives %s for %s; Deadline gives %s", start, ds, got[k], dk, want)
					}
				}
			}
			for range 30 {
				from := year.Add(time.Duration(rng.IntN(365*24*60)) * time.Minute)
				to := from.Add(time.Duration(rng.IntN(30*24*60)) * time.Minute)
				var want time.Duration
				for m := from; m.Before(to); m = m.Add(time.Minute) {
					if openAt(h, m) {
						want += time.Minute
					}
				}
				if got := h.Elapsed(from, to); got != want {
					t.Errorf("from %s to %s: %s elapsed; counting minute by minute says %s", from, to, got, want)
				}
			}
		})
	}
}

// The changes of the clocks are where the walk is most likely wrong: check
// each minute-aligned stretch across them against the reference.
func TestElapsedAcrossTheChangesOfTheClocks(t *testing.T) {
	for _, tc := range []struct{ zone, day string }{
		{"Europe/Berlin", "2026-03-29"}, {"Europe/Berlin", "2026-10-25"},
		{"America/New_York", "2026-03-08"}, {"America/New_York", "2026-11-01"},
	} {
		h := hours(t, "Sat 23:00-01:30; Sun 01:45-02:15, 02:30-03:00, 03:15-05:00", "", tc.zone)
		day := at(t, h.Zone(), tc.day+" 00:00").Add(-2 * time.Hour)
		for step := 0; step < 8*60; step += 15 {
			from := day.Add(time.Duration(step) * time.Minute)
			to := from.Add(3 * time.Hour)
			var want time.Duration
			for m := from; m.Before(to); m = m.Add(time.Minute) {
				if openAt(h, m) {
					want += time.Minute
				}
			}
			if got := h.Elapsed(from, to); got != want {
				t.Errorf("%s from %s: %s elapsed; want %s", tc.zone, from, got, want)
			}
		}
		// Five weeks around the change, which the walk steps over a week at
		// a time but for the week of the change.
		from, to := day.AddDate(0, 0, -16), day.AddDate(0, 0, 19)
		var want time.Duration
		for m := from; m.Before(to); m = m.Add(time.Minute) {
			if openAt(h, m) {
				want += time.Minute
			}
		}
		if got := h.Elapsed(from, to); got != want {
			t.Errorf("%s from %s to %s: %s elapsed; want %s", tc.zone, from, to, got, want)
		}
		if d, err := h.Deadline(from, want); err != nil || d.After(to) || h.Elapsed(from, d) != want {
			t.Errorf("%s from %s, %s: deadline %s, %v", tc.zone, from, want, d, err)
		}
	}
}
