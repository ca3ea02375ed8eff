package servicelevel

import (
	"testing"
	"time"
)

func TestExplainSaysWhereTheClockStopped(t *testing.T) {
	for _, tc := range []struct {
		name, week, holidays, from, to, want string
	}{
		{"a night", "Mon-Fri 06:00-22:00", "", "2026-11-23 21:00", "2026-11-24 07:00",
			"The clock stopped for 8 h: 22:00–06:00 outside service hours."},
		{"opened outside hours", "Mon-Fri 06:00-22:00", "", "2026-11-23 23:00", "2026-11-24 07:00",
			"The clock stopped for 7 h: 23:00–06:00 outside service hours."},
		{"three nights", "daily 06:00-22:00", "", "2026-11-23 21:00", "2026-11-26 07:00",
			"The clock stopped for 1 d: 22:00–06:00 (3 times) outside service hours."},
		{"a night and a lunch", "daily 06:00-12:00, 13:00-22:00", "", "2026-11-23 21:00", "2026-11-24 14:00",
			"The clock stopped for 9 h: 22:00–06:00 and 12:00–13:00 outside service hours."},
		{"a holiday between two nights", "daily 06:00-22:00", "2026-12-25", "2026-12-24 21:00", "2026-12-26 07:00",
			"The clock stopped for 1 d 8 h: 24 Dec 22:00–26 Dec 06:00 outside service hours and on 25 Dec, a holiday."},
		{"holidays only", "always", "2026-12-25, 2026-12-26", "2026-12-24 12:00", "2026-12-27 12:00",
			"The clock stopped for 2 d: on 25 Dec and 26 Dec, holidays."},
		{"opened on a holiday", "daily 06:00-22:00", "2026-12-25", "2026-12-25 10:00", "2026-12-25 14:00",
			"The clock stopped for 4 h: on 25 Dec, a holiday."},
		{"opened on a holiday, closed the next morning", "daily 06:00-22:00", "2026-12-25", "2026-12-25 10:00", "2026-12-26 07:00",
			"The clock stopped for 20 h: 25 Dec 10:00–26 Dec 06:00 outside service hours and on 25 Dec, a holiday."},
		{"the night the clocks go back lasts 9 hours", "daily 06:00-22:00", "", "2026-10-24 21:00", "2026-10-25 07:00",
			"The clock stopped for 9 h: 22:00–06:00 outside service hours."},
		{"more stops than are listed", "daily 06:00-22:00", "", "2026-11-01 21:00", "2026-11-13 07:00",
			"The clock stopped for 4 d: 22:00–06:00 (10 times) and 2 more stops outside service hours."},
		{"no stop", "daily 06:00-22:00", "", "2026-11-23 08:00", "2026-11-23 09:00",
			"The clock did not stop: all of the time was within service hours."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := hours(t, tc.week, tc.holidays, "Europe/Berlin")
			from, to := at(t, h.Zone(), tc.from), at(t, h.Zone(), tc.to)
			e := h.Explain(from, to)
			if got := e.String(); got != tc.want {
				t.Errorf("from %s to %s:\n got %s\nwant %s", tc.from, tc.to, got, tc.want)
			}
			if e.Stopped != to.Sub(from)-h.Elapsed(from, to) {
				t.Errorf("stopped %s, but %s of %s elapsed", e.Stopped, h.Elapsed(from, to), to.Sub(from))
			}
		})
	}
}

func TestWords(t *testing.T) {
	for d, want := range map[time.Duration]string{
		40 * time.Second:              "40 s",
		45 * time.Minute:              "45 min",
		90 * time.Minute:              "1 h 30 min",
		2 * time.Hour:                 "2 h",
		51*time.Hour + 10*time.Minute: "2 d 3 h",
		-15 * time.Minute:             "-15 min",
	} {
		if got := words(d); got != want {
			t.Errorf("words(%s) = %q; want %q", d, got, want)
		}
	}
}
