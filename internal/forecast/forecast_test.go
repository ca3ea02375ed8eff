package forecast

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// fourWeeks runs a towel dispenser used in office hours, refilled two
// hours after it runs out, for four weeks from a Monday, and on to the
// given time of the fifth week.
func fourWeeks(d *dispenser, then time.Duration) time.Time {
	now := monday.Add(4*7*24*time.Hour + then)
	d.runTo(now)
	return now
}

// checkEstimate fails unless e is a sane estimate made at now that puts
// the truth within its range and At within tolerance of it.
func checkEstimate(t *testing.T, e Estimate, ok bool, now, truth time.Time, tolerance time.Duration) {
	t.Helper()
	if !ok {
		t.Fatalf("no estimate at %s; want one near %s", now, truth)
	}
	checkSane(t, e, now)
	if d := e.At.Sub(truth); d > tolerance || d < -tolerance {
		t.Errorf("estimated out at %s, %s from the truth %s; want within %s", e.At.In(zone), d, truth.In(zone), tolerance)
	}
	if truth.Before(e.Earliest) || truth.After(e.Latest) {
		t.Errorf("the range %s – %s misses the truth %s", e.Earliest.In(zone), e.Latest.In(zone), truth.In(zone))
	}
}

// checkSane fails on a nonsense estimate: a time in the past for a device
// not out, or a range that does not hold its time.
func checkSane(t *testing.T, e Estimate, now time.Time) {
	t.Helper()
	if e.Earliest.After(e.At) || e.At.After(e.Latest) {
		t.Fatalf("range %s – %s does not hold %s", e.Earliest, e.Latest, e.At)
	}
	switch e.Basis {
	case ReportedOut:
		if e.At.After(now) || !e.Earliest.Equal(e.At) || !e.Latest.Equal(e.At) {
			t.Fatalf("a device out since %s gives %s – %s at %s", e.At, e.Earliest, e.Latest, now)
		}
	case FromLevels, FromAlerts:
		if e.Earliest.Before(now) {
			t.Fatalf("a device not out is estimated out from %s, before now, %s", e.Earliest, now)
		}
	default:
		t.Fatalf("an estimate with basis %d", e.Basis)
	}
}

func towel() *dispenser {
	d := newDispenser(officeHours(4), 100)
	d.refillAfter = 2 * time.Hour
	return d
}

// A dispenser that is busy on weekdays and quiet at weekends is forecast
// by its week: at Friday noon with too little left for the afternoon it
// runs out that afternoon; with a little more, on Monday morning, not over
// the weekend as a straight line from Friday's pace would have it.
func TestForecastFollowsTheWeek(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		refill  time.Duration // in the fifth week, from its Monday
		outFrom time.Duration // from Friday noon, roughly
	}{
		{"out this afternoon", 2*24*time.Hour + 14*time.Hour, 5 * time.Hour},
		{"out on Monday morning", 3*24*time.Hour + 7*time.Hour, 70 * time.Hour},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := towel()
			refill := monday.Add(4*7*24*time.Hour + c.refill)
			d.topUps = []time.Time{refill}
			now := fourWeeks(d, 4*24*time.Hour+12*time.Hour) // Friday 12:00
			checkRefilled(t, d, refill)
			truth := d.nextOut()
			if got := truth.Sub(now); got < c.outFrom-2*time.Hour || got > c.outFrom+2*time.Hour {
				t.Fatalf("the test's dispenser runs out %s after Friday noon, want about %s", got, c.outFrom)
			}
			m := Fit(d.history(), now, zone)
			e, ok := m.Forecast(d.history(), now)
			checkEstimate(t, e, ok, now, truth, 30*time.Minute)
			if e.Basis != FromLevels {
				t.Errorf("basis %d, want FromLevels", e.Basis)
			}
		})
	}
}

// checkRefilled fails the test unless the device's rows show a refill at
// the time: a rise the model must see as one.
func checkRefilled(t *testing.T, d *dispenser, at time.Time) {
	t.Helper()
	for _, s := range d.h.Levels {
		for i := 1; i < len(s); i++ {
			if s[i].At.Equal(at) && s[i].Level >= s[i-1].Level+RefillRise {
				return
			}
		}
	}
	t.Fatalf("the test's dispenser shows no refill at %s", at)
}

// A refill in the middle of the history, whether at out or topping up a
// half-full dispenser, starts a new run: the jump up is not taken as
// negative use, so the forecast stays as good as without it.
func TestRefillIsNotConsumption(t *testing.T) {
	t.Parallel()
	d := towel()
	d.topUps = []time.Time{monday.Add(9*24*time.Hour + 14*time.Hour), monday.Add(16*24*time.Hour + 10*time.Hour)}
	d.topUpBelow = 60
	fourWeeks(d, 24*time.Hour+9*time.Hour)
	now := d.busyOut()
	if len(d.toppedUp) != 2 {
		t.Fatalf("the test's dispenser was topped up at %v, want twice", d.toppedUp)
	}
	for _, at := range d.toppedUp {
		checkRefilled(t, d, at)
	}
	truth := d.nextOut()
	m := Fit(d.history(), now, zone)
	e, ok := m.Forecast(d.history(), now)
	checkEstimate(t, e, ok, now, truth, 30*time.Minute)
	checkWeek(t, m, d.use)
}

// checkWeek fails unless the model's week uses what u does, within 5 %.
func checkWeek(t *testing.T, m *Model, u usage) {
	t.Helper()
	if got, want := m.prof.week(), u.perWeek(); got < want*0.95 || got > want*1.05 {
		t.Errorf("the profile uses %.0f %% of a compartment a week, want %.0f %%", got, want)
	}
}

// A level that goes up by a little without a refill is the sensor's
// noise: it neither counts as use when it comes back down, nor delays the
// forecast when the latest reading is the noisy one.
func TestSensorNoiseIsNotConsumption(t *testing.T) {
	t.Parallel()
	clean, noisy := towel(), towel()
	noisy.noiseEvery = 3*time.Hour + 5*time.Minute
	fourWeeks(clean, 24*time.Hour+11*time.Hour)
	now := clean.busyOut()
	noisy.runTo(now)
	// The latest reading reads high.
	h := noisy.history()
	h.Levels[0] = append(h.Levels[0], Sample{At: now, Level: h.Levels[0][len(h.Levels[0])-1].Level + 3})

	want, _ := Fit(clean.history(), now, zone).Forecast(clean.history(), now)
	m := Fit(h, now, zone)
	e, ok := m.Forecast(h, now)
	checkEstimate(t, e, ok, now, clean.nextOut(), 30*time.Minute)
	if d := e.At.Sub(want.At); d > 15*time.Minute || d < -15*time.Minute {
		t.Errorf("with noise the forecast is %s, %s from the %s without", e.At, d, want.At)
	}
	checkWeek(t, m, noisy.use)
}

// Days without a word from the device are not days without use: the drop
// it reports when it is back is not placed in the hour it came back in,
// and the days it was silent are not taken as unused. With the silence
// recorded as a gap, or not recorded at all.
func TestOfflineDaysAreNotConsumption(t *testing.T) {
	t.Parallel()
	for _, recorded := range []bool{true, false} {
		name := "gap recorded"
		if !recorded {
			name = "gap not recorded"
		}
		t.Run(name, func(t *testing.T) {
			d := towel()
			// Refilled on a Thursday afternoon, silent from 18:00 to Monday
			// 11:00, back with about a third left.
			refill := monday.Add(7*24*time.Hour + 3*24*time.Hour + 17*time.Hour)
			d.topUps = []time.Time{refill}
			d.silences = []Span{{From: refill.Add(time.Hour), To: refill.Add(4*24*time.Hour - 6*time.Hour)}}
			fourWeeks(d, 2*24*time.Hour+8*time.Hour)
			checkRefilled(t, d, refill)
			now := d.busyOut()
			h := d.history()
			if !recorded {
				h.Gaps = nil
			}
			m := Fit(h, now, zone)
			e, ok := m.Forecast(h, now)
			checkEstimate(t, e, ok, now, d.nextOut(), 30*time.Minute)
			checkWeek(t, m, d.use)
			if silent := d.silences[0].To.Sub(d.silences[0].From); m.observed > Window-silent {
				t.Errorf("observed %s of %s, %s of them silent", m.observed, Window, silent)
			}
		})
	}
}

// A device silent now keeps being used: once the time its last level
// would last has passed, it is due now, never in the past.
func TestSilentDeviceIsDueNowNotInThePast(t *testing.T) {
	t.Parallel()
	d := towel()
	now := fourWeeks(d, 24*time.Hour+8*time.Hour)
	m := Fit(d.history(), now, zone)
	d.silences = []Span{{From: now, To: now.Add(30 * 24 * time.Hour)}}
	later := now.Add(4 * 24 * time.Hour)
	d.runTo(later)
	e, ok := m.Forecast(d.history(), later)
	if !ok {
		t.Fatal("no estimate for a silent device")
	}
	checkSane(t, e, later)
	if !e.At.Equal(later) {
		t.Errorf("a device silent for 4 days with a day's product is estimated out at %s, want now, %s", e.At, later)
	}
}

// A clock that jumped gives no nonsense: rows in any order, and rows
// stamped years ahead, give the forecast the rows in order would; rows
// stamped an hour early since the poller's clock was set back give one
// at most that hour off.
func TestClockJump(t *testing.T) {
	t.Parallel()
	d := towel()
	fourWeeks(d, 24*time.Hour+10*time.Hour)
	now := d.busyOut()
	truth := d.nextOut()
	want, _ := Fit(d.history(), now, zone).Forecast(d.history(), now)
	for _, c := range []struct {
		name  string
		rows  func([]Sample) []Sample
		exact bool
	}{
		{"rows in any order", func(rows []Sample) []Sample {
			r := rand.New(rand.NewPCG(1, 2))
			r.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
			return rows
		}, true},
		{"rows years ahead", func(rows []Sample) []Sample {
			future := now.AddDate(10, 0, 0)
			return append(rows, Sample{At: future, Level: 3}, Sample{At: future.Add(time.Hour), Level: 0})
		}, true},
		{"clock set back an hour", func(rows []Sample) []Sample {
			for i := range rows {
				if rows[i].At.After(now.Add(-5 * time.Hour)) {
					rows[i].At = rows[i].At.Add(-time.Hour)
				}
			}
			return rows
		}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := d.history()
			h.Levels[0] = c.rows(slices.Clone(h.Levels[0]))
			e, ok := Fit(h, now, zone).Forecast(h, now)
			if c.exact {
				checkEstimate(t, e, ok, now, truth, 30*time.Minute)
				if e != want {
					t.Errorf("estimate %+v, want %+v as with the rows in order", e, want)
				}
				return
			}
			if !ok {
				t.Fatal("no estimate")
			}
			checkSane(t, e, now)
			if d := e.At.Sub(truth); d > 90*time.Minute || d < -90*time.Minute {
				t.Errorf("estimated out at %s, %s from the truth %s", e.At, d, truth)
			}
		})
	}
}

// A device that reports a compartment out gives the time it did, as all
// three times, whatever its model; and it is said as such.
func TestAlreadyOut(t *testing.T) {
	t.Parallel()
	d := newDispenser(officeHours(4), 100, 100, 100, 100)
	d.refillAfter = 2 * time.Hour
	now := fourWeeks(d, 24*time.Hour+8*time.Hour)
	d.levels[2] = 0.5
	d.runTo(now.Add(20 * time.Minute))
	outAt := d.outSince
	if outAt.IsZero() {
		t.Fatal("the test's dispenser did not run out")
	}
	now = outAt.Add(2*time.Hour + 10*time.Minute)
	d.refillAfter = 0
	d.runTo(now)
	for _, m := range []*Model{Fit(d.history(), now, zone), Fit(&History{}, now, zone)} {
		e, ok := m.Forecast(d.history(), now)
		if !ok || e.Basis != ReportedOut || !e.At.Equal(outAt) {
			t.Fatalf("estimate %+v, %v; want out since %s", e, ok, outAt)
		}
		checkSane(t, e, now)
		if w := e.Words(now); w != "out for 2 h" {
			t.Errorf("in words %q, want %q", w, "out for 2 h")
		}
	}
}

// A four-roll dispenser is out when its first roll is: the one with the
// least left for its share of the use, not simply the lowest. Here staff
// changed the rolls early on Tuesday, and said so.
func TestFirstRollOut(t *testing.T) {
	t.Parallel()
	d := newDispenser(officeHours(1.5), 100, 100, 100, 100)
	d.weights = []float64{1.3, 0.7, 1, 1}
	d.refillAfter = 2 * time.Hour
	changed := fourWeeks(d, 24*time.Hour+6*time.Hour) // Tuesday 06:00
	d.levels = []float64{40, 30, 60, 70}
	now := changed.Add(90 * time.Minute)
	d.runTo(now)
	h := d.history()
	h.Refills = []time.Time{changed.Add(5 * time.Minute)}

	truth := d.nextOut()
	c := d.clone()
	for c.levels[0] > 0 {
		c.runTo(c.t.Add(5 * time.Minute))
	}
	if c.levels[1] <= 0 {
		t.Fatal("the test's lowest roll ran out first")
	}
	e, ok := Fit(h, now, zone).Forecast(h, now)
	checkEstimate(t, e, ok, now, truth, 45*time.Minute)
}

// Before there is enough history, the intervals between the device's
// past consumable_out alerts and its current level give a rougher
// estimate; with neither, there is none, and nothing to say.
func TestTooLittleData(t *testing.T) {
	t.Parallel()
	d := newDispenser(func(time.Time) float64 { return 2 }, 100) // out every 50 hours
	d.refillAfter = time.Hour
	now := monday.Add(60 * time.Hour)
	d.runTo(now)
	h := d.history()
	for _, c := range []struct {
		name  string
		outs  []time.Time
		basis Basis
	}{
		{"two alerts", []time.Time{now.Add(-60 * time.Hour), now.Add(-10 * time.Hour)}, TooLittleData},
		{"three alerts 50 h apart", []time.Time{now.Add(-110 * time.Hour), now.Add(-60 * time.Hour), now.Add(-10 * time.Hour)}, FromAlerts},
	} {
		t.Run(c.name, func(t *testing.T) {
			h.Outs = c.outs
			m := Fit(h, now, zone)
			if m.Basis() != c.basis {
				t.Fatalf("basis %d, want %d", m.Basis(), c.basis)
			}
			e, ok := m.Forecast(h, now)
			if c.basis == TooLittleData {
				if ok || e.Words(now) != "" {
					t.Errorf("estimate %+v, %v, in words %q; want none", e, ok, e.Words(now))
				}
				return
			}
			checkEstimate(t, e, ok, now, d.nextOut(), 3*time.Hour)
			if w := e.Words(now); !strings.HasPrefix(w, "roughly ") {
				t.Errorf("in words %q, want it to say it is rough", w)
			}
		})
	}
	// Three days of levels are enough for a profile.
	now = monday.Add(MinObserved + 4*time.Hour)
	d.runTo(now)
	if m := Fit(d.history(), now, zone); m.Basis() != FromLevels {
		t.Errorf("after %s of levels the basis is %d, want FromLevels", now.Sub(monday), m.Basis())
	}
}

// Whatever the history, an estimate is never nonsense: random devices,
// with gaps, noise, top-ups, rows out of order and out of range, asked at
// random times.
func TestNeverNonsense(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 60; i++ {
		n := 1 + 3*r.IntN(2)
		levels := make([]float64, n)
		for c := range levels {
			levels[c] = 1 + r.Float64()*99
		}
		d := newDispenser(officeHours(0.5+r.Float64()*6), levels...)
		d.refillAfter = time.Duration(r.IntN(20)) * time.Hour
		if r.IntN(3) == 0 {
			from := monday.Add(time.Duration(r.Int64N(int64(30 * 24 * time.Hour))))
			d.silences = []Span{{From: from, To: from.Add(time.Duration(r.Int64N(int64(80 * time.Hour))))}}
		}
		if r.IntN(3) == 0 {
			d.noiseEvery = time.Duration(1+r.IntN(12)) * time.Hour
		}
		end := monday.Add(time.Duration(r.Int64N(int64(35 * 24 * time.Hour))))
		d.runTo(end)
		h := d.history()
		if r.IntN(4) == 0 && len(h.Levels[0]) > 2 {
			s := h.Levels[0]
			s[0], s[len(s)-1] = s[len(s)-1], s[0]
			s = append(s, Sample{At: end.Add(time.Hour), Level: 250}, Sample{At: end.Add(-time.Hour), Level: -4})
			h.Levels[0] = s
		}
		h.Outs = []time.Time{end.Add(-90 * time.Hour), end.Add(-50 * time.Hour), end.Add(-9 * time.Hour)}
		m := Fit(h, end, zone)
		for _, now := range []time.Time{end, end.Add(time.Duration(r.Int64N(int64(5 * 24 * time.Hour))))} {
			if e, ok := m.Forecast(h, now); ok {
				checkSane(t, e, now)
			}
		}
	}
}

// A refill is a rise of RefillRise or more within 0–100: a sensor reading
// beyond either end is taken at that end, so its noise is no refill.
func TestIsRefill(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		prev, next int
		want       bool
	}{
		{0, 10, true}, {0, 9, false}, {40, 100, true},
		{-8, 3, false}, {95, 112, false}, {-20, 10, true},
	} {
		if got := IsRefill(c.prev, c.next); got != c.want {
			t.Errorf("IsRefill(%d, %d) = %v; want %v", c.prev, c.next, got, c.want)
		}
	}
}
