package forecast

import (
	"math"
	"os"
	"strconv"
	"testing"
	"time"

	"washboard/internal/sim"
)

// The backtest: a simulated fleet polled as Washboard polls it, histories
// recorded for four weeks, then a week of forecasts at the start of each
// shift, each compared with when the dispenser actually reported out.
const (
	backtestLocations = 4000            // over two accounts: one alerts at out, one at low
	backtestPoll      = 5 * time.Minute // the spec's interval for polling that drives notifications
	backtestLearn     = 28 * 24 * time.Hour
	backtestDays      = 7
	backtestFollow    = 72 * time.Hour // run-outs counted up to this long after a forecast
)

// shiftStarts are the hours at which a supervisor asks, in the buildings'
// time zone.
var shiftStarts = []int{6, 14, 22}

type made struct {
	at       time.Time
	est      Estimate
	ok       bool
	naive    time.Time
	naiveOK  bool
	daily    time.Time
	dailyOK  bool
	actual   time.Time // when it reported out; zero if not seen
	refilled bool      // refilled before it reported out
}

type backtestResult struct {
	forecasts, runOuts, scored, paired, dailyPaired, covered, refilled, missing int
	absErr, pairedAbsErr, naiveAbsErr, dailyPairedAbsErr, dailyAbsErr           float64
}

func backtest(tb testing.TB, locations int) backtestResult {
	zone := time.FixedZone("CET", 3600)
	start := time.Date(2026, 2, 2, 0, 0, 0, 0, zone) // a Monday
	clock := sim.NewManualClock(start)
	w := sim.New(sim.Config{Seed: 17, Locations: locations / 2, Accounts: 2, Clock: clock, Zone: zone})
	rec := newRecorder(w)

	var all []made
	testFrom := start.Add(backtestLearn)
	testTo := testFrom.AddDate(0, 0, backtestDays)
	resolve := func(d *device, levels []int) {
		if len(d.pending) == 0 {
			return
		}
		now := clock.Now()
		refilled := false
		for _, s := range d.h.Levels {
			if n := len(s); n >= 2 && s[n-1].At.Equal(now) && s[n-1].Level >= s[n-2].Level+RefillRise {
				refilled = true
			}
		}
		out := false
		for _, l := range levels {
			out = out || l == 0
		}
		switch {
		case refilled:
			for _, p := range d.pending {
				all[p].refilled = true
			}
		case out:
			for _, p := range d.pending {
				all[p].actual = now
			}
		default:
			return
		}
		d.pending = d.pending[:0]
	}

	for now := start; !now.After(testTo.Add(backtestFollow)); now = now.Add(backtestPoll) {
		clock.Set(now)
		rec.poll(resolve)
		if now.Before(testFrom) || !now.Before(testTo) || now.Minute() != 0 || !isShiftStart(now.In(zone).Hour()) {
			continue
		}
		if now.In(zone).Hour() == shiftStarts[0] {
			rec.alerts(now)
			for _, d := range rec.order {
				d.model = Fit(&d.h, now, zone)
			}
		}
		for _, d := range rec.order {
			if reportsOut(&d.h) {
				continue
			}
			m := made{at: now}
			m.est, m.ok = d.model.Forecast(&d.h, now)
			m.naive, m.naiveOK = naive(&d.h, now)
			m.daily, m.dailyOK = lastDay(&d.h, now)
			d.pending = append(d.pending, len(all))
			all = append(all, m)
		}
	}

	var r backtestResult
	r.forecasts = len(all)
	for _, m := range all {
		switch {
		case m.refilled:
			r.refilled++
			continue
		case m.actual.IsZero() || m.actual.Sub(m.at) > backtestFollow:
			continue
		}
		r.runOuts++
		if !m.ok {
			r.missing++
			continue
		}
		r.scored++
		e := math.Abs(m.est.At.Sub(m.actual).Hours())
		r.absErr += e
		if !m.actual.Before(m.est.Earliest) && !m.actual.After(m.est.Latest) {
			r.covered++
		}
		if m.naiveOK {
			r.paired++
			r.pairedAbsErr += e
			r.naiveAbsErr += math.Abs(m.naive.Sub(m.actual).Hours())
		}
		if m.dailyOK {
			r.dailyPaired++
			r.dailyPairedAbsErr += e
			r.dailyAbsErr += math.Abs(m.daily.Sub(m.actual).Hours())
		}
	}
	return r
}

func isShiftStart(hour int) bool {
	for _, h := range shiftStarts {
		if h == hour {
			return true
		}
	}
	return false
}

// reportsOut reports whether the latest row of any compartment is 0.
func reportsOut(h *History) bool {
	for _, s := range h.Levels {
		if n := len(s); n > 0 && s[n-1].Level == 0 {
			return true
		}
	}
	return false
}

// naive is the forecast to beat: each compartment goes on falling at the
// rate between its last two recorded levels, and the device is out when
// its first compartment is. There is none when no compartment fell at its
// last change.
func naive(h *History, now time.Time) (time.Time, bool) {
	var first time.Time
	for _, s := range h.Levels {
		n := len(s)
		if n < 2 || s[n-1].Level >= s[n-2].Level {
			continue
		}
		perHour := float64(s[n-2].Level-s[n-1].Level) / s[n-1].At.Sub(s[n-2].At).Hours()
		t := s[n-1].At.Add(time.Duration(float64(s[n-1].Level) / perHour * float64(time.Hour)))
		if first.IsZero() || t.Before(first) {
			first = t
		}
	}
	if first.IsZero() {
		return first, false
	}
	return maxTime(first, now), true
}

// lastDay is a fairer straight line: each compartment goes on falling at
// its average pace over the last 24 hours, or since its last refill if
// that is later.
func lastDay(h *History, now time.Time) (time.Time, bool) {
	var first time.Time
	for _, s := range h.Levels {
		n := len(s)
		if n < 2 {
			continue
		}
		k := n - 1
		for k > 0 && s[k-1].At.After(now.Add(-24*time.Hour)) && s[k].Level < s[k-1].Level+RefillRise {
			k--
		}
		used, hours := float64(s[k].Level-s[n-1].Level), now.Sub(s[k].At).Hours()
		if used <= 0 || hours <= 0 {
			continue
		}
		t := now.Add(time.Duration(float64(s[n-1].Level) / (used / hours) * float64(time.Hour)))
		if first.IsZero() || t.Before(first) {
			first = t
		}
	}
	return first, !first.IsZero()
}

// BenchmarkBacktest runs the backtest once per op and reports, over the
// dispensers that reported out within 72 hours of a forecast without
// being refilled first: the mean absolute error of the estimate (mae-h)
// and of the naive forecast on the same run-outs (naive-mae-h), their
// ratio (mae/naive), and the share of run-outs inside the range
// (coverage). For a fairer comparison it also reports the error of a
// straight line through the last 24 hours (day-mae-h, mae/day).
// WASHBOARD_BACKTEST_LOCATIONS changes the fleet's size.
func BenchmarkBacktest(b *testing.B) {
	locations := backtestLocations
	if s := os.Getenv("WASHBOARD_BACKTEST_LOCATIONS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 2 {
			b.Fatalf("WASHBOARD_BACKTEST_LOCATIONS=%q: want a number of locations, at least 2", s)
		}
		locations = n
	}
	var r backtestResult
	for b.Loop() {
		r = backtest(b, locations)
	}
	if r.scored == 0 || r.paired == 0 {
		b.Fatalf("no run-outs to score: %+v", r)
	}
	b.ReportMetric(r.absErr/float64(r.scored), "mae-h")
	b.ReportMetric(r.naiveAbsErr/float64(r.paired), "naive-mae-h")
	b.ReportMetric((r.pairedAbsErr/float64(r.paired))/(r.naiveAbsErr/float64(r.paired)), "mae/naive")
	b.ReportMetric(float64(r.covered)/float64(r.scored), "coverage")
	b.ReportMetric(r.dailyAbsErr/float64(r.dailyPaired), "day-mae-h")
	b.ReportMetric((r.dailyPairedAbsErr/float64(r.dailyPaired))/(r.dailyAbsErr/float64(r.dailyPaired)), "mae/day")
	b.ReportMetric(float64(r.scored), "run-outs")
	b.ReportMetric(float64(r.missing), "no-estimate")
	b.Logf("%d forecasts; %d run-outs within %s, %d scored (%d with a naive forecast), %d without an estimate; %d overtaken by a refill",
		r.forecasts, r.runOuts, backtestFollow, r.scored, r.paired, r.missing, r.refilled)
}

// Every dispenser of a small simulated fleet, asked every few hours over
// its second and third week, gets a sane estimate, whatever its gaps,
// faults and refills.
func TestSimulatedFleetNeverNonsense(t *testing.T) {
	t.Parallel()
	zone := time.FixedZone("CET", 3600)
	start := time.Date(2026, 2, 2, 0, 0, 0, 0, zone)
	clock := sim.NewManualClock(start)
	w := sim.New(sim.Config{Seed: 5, Locations: 60, Accounts: 2, Clock: clock, Zone: zone})
	rec := newRecorder(w)
	estimates, out := 0, 0
	for now := start; now.Before(start.AddDate(0, 0, 21)); now = now.Add(backtestPoll) {
		clock.Set(now)
		rec.poll(nil)
		if now.Sub(start) < 7*24*time.Hour || now.Sub(start)%(5*time.Hour+5*time.Minute) != 0 {
			continue
		}
		rec.alerts(now)
		for _, d := range rec.order {
			m := Fit(&d.h, now, zone)
			e, ok := m.Forecast(&d.h, now)
			if !ok {
				t.Errorf("%s at %s: no estimate after a week of history", d.mac, now)
				continue
			}
			checkSane(t, e, now)
			estimates++
			if e.Basis == ReportedOut {
				out++
			}
		}
	}
	if estimates < 1000 || out == 0 || out == estimates {
		t.Errorf("%d estimates, %d of devices out: the fleet should give many of both kinds", estimates, out)
	}
}
