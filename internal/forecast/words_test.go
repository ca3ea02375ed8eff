package forecast

import (
	"testing"
	"time"
)

// A supervisor reads how sure an estimate is: a likely time and a range
// rounded outwards, in minutes, hours or days as they come.
func TestWords(t *testing.T) {
	t.Parallel()
	now := monday.Add(9 * time.Hour)
	at := func(d time.Duration) time.Time { return now.Add(d) }
	h, day := time.Hour, 24*time.Hour
	for _, c := range []struct {
		e    Estimate
		want string
	}{
		{Estimate{at(3 * h), at(2 * h), at(5 * h), FromLevels}, "about 3 h, between 2 and 5 h"},
		{Estimate{at(3*h + 20*time.Minute), at(2*h + 50*time.Minute), at(4*h + 10*time.Minute), FromLevels}, "about 3 h, between 2 and 5 h"},
		{Estimate{at(40 * time.Minute), at(2 * time.Minute), at(90 * time.Minute), FromLevels}, "about 40 min, within 2 h"},
		{Estimate{at(40 * time.Minute), at(25 * time.Minute), at(50 * time.Minute), FromLevels}, "about 40 min, between 25 and 50 min"},
		{Estimate{now, now, at(35 * time.Minute), FromLevels}, "any time now, within 35 min"},
		{Estimate{at(30 * h), at(20 * h), at(3 * day), FromLevels}, "about 30 h, between 20 h and 3 days"},
		{Estimate{at(3 * day), at(2*day + 12*h), at(4*day + 5*h), FromLevels}, "about 3 days, between 2 and 5 days"},
		{Estimate{at(6 * h), at(6 * h), at(6 * h), FromLevels}, "about 6 h"},
		{Estimate{at(3 * day), at(50 * h), at(5 * day), FromAlerts}, "roughly 3 days, between 2 and 5 days"},
		{Estimate{at(-2 * h), at(-2 * h), at(-2 * h), ReportedOut}, "out for 2 h"},
		{Estimate{at(-3 * day), at(-3 * day), at(-3 * day), ReportedOut}, "out for 3 days"},
		{Estimate{now, now, now, ReportedOut}, "out"},
		{Estimate{}, ""},
	} {
		if got := c.e.Words(now); got != c.want {
			t.Errorf("%+v: %q, want %q", c.e, got, c.want)
		}
	}
}
