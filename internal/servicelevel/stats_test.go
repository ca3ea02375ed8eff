package servicelevel

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"washboard/internal/domain"
)

func minutes(ms ...float64) []time.Duration {
	out := make([]time.Duration, len(ms))
	for i, m := range ms {
		out[i] = time.Duration(m * float64(time.Minute))
	}
	return out
}

func TestPercentilesAreNearestRank(t *testing.T) {
	for _, tc := range []struct {
		name        string
		times       []time.Duration
		median, p90 time.Duration
	}{
		{"none", nil, 0, 0},
		{"one", minutes(7), 7 * time.Minute, 7 * time.Minute},
		{"one to ten", minutes(10, 9, 8, 7, 6, 5, 4, 3, 2, 1), 5 * time.Minute, 9 * time.Minute},
		{"five", minutes(15, 20, 35, 40, 50), 35 * time.Minute, 50 * time.Minute},
		{"an even count takes the lower middle", minutes(1, 2, 3, 4), 2 * time.Minute, 4 * time.Minute},
		{"to the minute, rounded down", minutes(14.9, 14.9, 30), 14 * time.Minute, 30 * time.Minute},
		{"to the hour beyond a day", minutes(25*60+30, 25*60+59, 49*60+10), 25 * time.Hour, 49 * time.Hour},
	} {
		var h histogram
		for _, d := range tc.times {
			h.add(d)
		}
		if m, p := h.percentile(50), h.percentile(90); m != tc.median || p != tc.p90 {
			t.Errorf("%s: median %s, 90th percentile %s; want %s and %s", tc.name, m, p, tc.median, tc.p90)
		}
	}
	rng := rand.New(rand.NewPCG(9, 0))
	for range 50 {
		n := 1 + rng.IntN(500)
		var h histogram
		times := make([]time.Duration, n)
		for i := range times {
			times[i] = time.Duration(rng.IntN(dayMinutes)) * time.Minute
			h.add(times[i])
		}
		slices.Sort(times)
		for _, p := range []int{50, 90} {
			want := times[int(math.Ceil(float64(p)*float64(n)/100))-1]
			if got := h.percentile(p); got != want {
				t.Fatalf("%d times: percentile %d is %s; the sorted times say %s", n, p, got, want)
			}
		}
	}
}

func TestHistogramKeepsBoundedBuckets(t *testing.T) {
	var h histogram
	for i := range 100_000 {
		h.add(time.Duration(i) * 37 * time.Minute)
	}
	if bound := dayMinutes + int(Horizon/time.Hour) + 1; len(h.counts) > bound {
		t.Errorf("100,000 times kept in %d buckets; at most %d", len(h.counts), bound)
	}
	if h.n != 100_000 {
		t.Errorf("counted %d of 100,000", h.n)
	}
}

func TestTallyReport(t *testing.T) {
	p := policy(t)
	day := at(t, p.Hours.Zone(), "2026-11-23 10:00")
	now := day.Add(10 * time.Hour)
	tally := NewTally()
	add := func(typ domain.AlertType, building, location string, claimAfter, closeAfter time.Duration) {
		a := Alert{Type: typ, Opened: day}
		if claimAfter > 0 {
			a.Claimed = day.Add(claimAfter)
		}
		if closeAfter > 0 {
			a.Closed = day.Add(closeAfter)
		}
		tally.Add(Sample{Type: typ, Building: building, Location: location, Measure: p.Evaluate(a, now)})
	}
	add(domain.AlertConsumableOut, "North", "N-1", 5*time.Minute, 30*time.Minute)         // met, met
	add(domain.AlertConsumableOut, "North", "N-1", 20*time.Minute, 90*time.Minute)        // missed, missed
	add(domain.AlertConsumableOut, "North", "N-2", 10*time.Minute, 50*time.Minute)        // met, met
	add(domain.AlertConsumableOut, "South", "S-1", 30*time.Minute, 0)                     // missed, missed while open
	add(domain.AlertJam, "South", "S-1", 0, 3*time.Hour)                                  // n/a, met
	add(domain.AlertJam, "South", "S-2", 0, 5*time.Hour)                                  // n/a, missed
	add(domain.AlertBatteryOut, "South", "S-3", time.Minute, time.Hour)                   // unmeasured
	tally.Add(Sample{Type: domain.AlertConsumableOut, Building: "North", Location: "N-3", // opened a minute ago
		Measure: p.Evaluate(Alert{Type: domain.AlertConsumableOut, Opened: now.Add(-time.Minute)}, now)})

	r := tally.Report(3)
	if r.All.Alerts != 7 || r.Unmeasured != 1 {
		t.Errorf("%d alerts measured, %d not; want 7 and 1", r.All.Alerts, r.Unmeasured)
	}
	claim, resolve := r.All.Claim, r.All.Resolve
	if claim.Met != 2 || claim.Missed != 2 || claim.Open != 1 || claim.Done != 4 {
		t.Errorf("claims: %+v; want 2 met, 2 missed, 1 open, 4 done", claim)
	}
	if share, ok := claim.ShareMet(); !ok || share != 0.5 {
		t.Errorf("claims met: %v, %v; want a half", share, ok)
	}
	if claim.Median != 10*time.Minute || claim.P90 != 30*time.Minute {
		t.Errorf("claims took %s (median), %s (90th); want 10 min and 30 min", claim.Median, claim.P90)
	}
	if resolve.Met != 3 || resolve.Missed != 3 || resolve.Done != 5 || resolve.Median != 90*time.Minute || resolve.P90 != 5*time.Hour {
		t.Errorf("resolves: %+v; want 3 met, 3 missed, 5 done, median 1 h 30 min, 90th 5 h", resolve)
	}
	if len(r.ByType) != 2 || r.ByType[0].Type != domain.AlertConsumableOut || r.ByType[1].Type != domain.AlertJam {
		t.Fatalf("by type: %+v; want product out, then jammed", r.ByType)
	}
	if jam := r.ByType[1]; jam.Alerts != 2 || jam.Claim.Met+jam.Claim.Missed != 0 || jam.Resolve.Met != 1 || jam.Resolve.Missed != 1 {
		t.Errorf("jammed: %+v; want 2 alerts, no claims measured, 1 resolve met, 1 missed", jam)
	}
	if _, ok := r.ByType[1].Claim.ShareMet(); ok {
		t.Error("jammed has a share of claims met without any claim target")
	}
	if len(r.ByBuilding) != 2 || r.ByBuilding[0].Building != "North" || r.ByBuilding[0].Alerts != 4 || r.ByBuilding[1].Alerts != 3 {
		t.Errorf("by building: %+v; want North with 4 alerts, South with 3", r.ByBuilding)
	}
	var worst []string
	for _, l := range r.Worst {
		worst = append(worst, l.Location)
	}
	// Each missed once: S-1 is still open after 10 h, S-2 took 5 h, N-1 1 h 30 min.
	if want := []string{"S-1", "S-2", "N-1"}; !slices.Equal(worst, want) {
		t.Errorf("worst locations %v; want %v", worst, want)
	}
}

func TestWorstLocationsMostMissedThenLongest(t *testing.T) {
	outcome := func(s State, used time.Duration) Measure {
		return Measure{Resolve: Outcome{State: s, Used: used, Target: time.Hour, Done: time.Unix(1, 0)}}
	}
	tally := NewTally()
	for _, s := range []struct {
		location string
		m        Measure
	}{
		{"long-but-once", outcome(Missed, 9*time.Hour)},
		{"twice", outcome(Missed, 2*time.Hour)},
		{"twice", outcome(Missed, 2*time.Hour)},
		{"twice", outcome(Met, 10*time.Minute)},
		{"met", outcome(Met, 50*time.Minute)},
		{"b-once", outcome(Missed, 3*time.Hour)},
		{"a-once", outcome(Missed, 3*time.Hour)},
	} {
		tally.Add(Sample{Type: domain.AlertJam, Building: "B", Location: s.location, Measure: s.m})
	}
	var got []string
	for _, l := range tally.Report(10).Worst {
		got = append(got, l.Location)
	}
	if want := []string{"twice", "long-but-once", "a-once", "b-once", "met"}; !slices.Equal(got, want) {
		t.Errorf("worst %v; want %v: most missed, then the longest, then by name", got, want)
	}
	if n := len(tally.Report(2).Worst); n != 2 {
		t.Errorf("asked for the 2 worst, got %d", n)
	}
}
