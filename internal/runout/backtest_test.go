package runout_test

import (
	"context"
	"math"
	"os"
	"strconv"
	"testing"
	"time"

	"washboard/internal/forecast"
	"washboard/internal/runout"
	"washboard/internal/store"
)

// The backtest through the sync: the forecast package's backtest
// (internal/forecast, BenchmarkBacktest), but with the fleet read by
// Washboard's own sync over HTTP into its SQLite cache, and the estimates
// made by the service from what the cache holds.
const (
	backtestLocations = 120             // over two accounts: one alerts at out, one at low
	syncInterval      = 5 * time.Minute // the spec's interval for polling that drives notifications
	backtestLearn     = 28 * 24 * time.Hour
	backtestDays      = 7
	backtestFollow    = 72 * time.Hour // run-outs counted up to this long after a forecast
)

// shiftStarts are the hours at which a supervisor asks, in the buildings'
// time zone.
var shiftStarts = []int{6, 14, 22}

// asked is the service's estimates of an account at the start of a shift.
type asked struct {
	at        time.Time
	account   string
	estimates map[string]forecast.Estimate
}

// forecastMade is one dispenser's forecast at the start of a shift, and
// what became of it.
type forecastMade struct {
	at       time.Time
	est      forecast.Estimate
	ok       bool
	naive    time.Time
	naiveOK  bool
	actual   time.Time // when it reported out; zero if not seen
	refilled bool      // refilled before it reported out
}

type backtestResult struct {
	forecasts, runOuts, scored, paired, covered, refilled, missing int
	absErr, pairedAbsErr, naiveAbsErr                              float64
}

// backtest runs the simulator with Washboard syncing it for learn, then
// for days asks the service at each shift start when each dispenser will
// report out, and follows on for backtestFollow to see when each did, in
// the readings the cache recorded: the first reading with a compartment
// at 0, unless one before it shows a refill.
func backtest(tb testing.TB, locations int, learn time.Duration, days int) backtestResult {
	tb.Helper()
	ctx := context.Background()
	zone := time.FixedZone("CET", 3600)
	start := time.Date(2026, 2, 2, 0, 0, 0, 0, zone) // a Monday
	f := newSyncedFleet(tb, 17, 2, locations/2, start, zone, syncInterval)
	s := runout.New(f.store, f.clk, zone, nil)

	// The service starts at the first shift: it fits then, and daily
	// after, and projects after every round, as it does in service.
	testFrom := start.Add(learn).Add(time.Duration(shiftStarts[0]) * time.Hour)
	testTo := start.Add(learn).AddDate(0, 0, days)
	var all []asked
	for now := start.Add(syncInterval); !now.After(testTo.Add(backtestFollow)); now = now.Add(syncInterval) {
		f.advance(syncInterval)
		if now.Before(testFrom) || !now.Before(testTo) {
			continue
		}
		for _, account := range f.accounts {
			if err := s.Refresh(ctx, account); err != nil {
				tb.Fatal(err)
			}
			if now.Minute() == 0 && isShiftStart(now.In(zone).Hour()) {
				all = append(all, asked{at: now, account: account, estimates: s.Estimates(account)})
			}
		}
	}

	histories := map[string]map[string][]store.Reading{}
	for _, account := range f.accounts {
		h, err := f.store.DeviceHistory(ctx, account, nil, time.Time{})
		if err != nil {
			tb.Fatal(err)
		}
		histories[account] = h
	}
	var made []forecastMade
	for _, a := range all {
		for mac, rs := range histories[a.account] {
			seen := upTo(rs, a.at)
			if len(seen) == 0 || len(seen[len(seen)-1].Levels) == 0 || reportsOut(seen[len(seen)-1]) {
				continue
			}
			m := forecastMade{at: a.at}
			m.est, m.ok = a.estimates[mac]
			m.naive, m.naiveOK = naive(seen, a.at)
			m.actual, m.refilled = outcome(rs[len(seen):])
			made = append(made, m)
		}
	}

	var r backtestResult
	r.forecasts = len(made)
	for _, m := range made {
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

// upTo returns the readings taken at or before t.
func upTo(rs []store.Reading, t time.Time) []store.Reading {
	n := 0
	for n < len(rs) && !rs[n].At.After(t) {
		n++
	}
	return rs[:n]
}

// reportsOut reports whether a reading has a compartment out.
func reportsOut(r store.Reading) bool {
	for _, l := range r.Levels {
		if l == 0 {
			return true
		}
	}
	return false
}

// outcome follows a dispenser's readings after a forecast: when one first
// reports a compartment out, unless one before shows a refill (a rise of
// forecast.RefillRise or more).
func outcome(after []store.Reading) (out time.Time, refilled bool) {
	for i, r := range after {
		if i > 0 {
			prev := after[i-1].Levels
			for c, l := range r.Levels {
				if c < len(prev) && l >= prev[c]+forecast.RefillRise {
					return time.Time{}, true
				}
			}
		}
		if reportsOut(r) {
			return r.At, false
		}
	}
	return time.Time{}, false
}

// naive is the forecast to beat: each compartment goes on falling at the
// rate between its last two recorded levels, and the device is out when
// its first compartment is. There is none when no compartment fell at its
// last change.
func naive(rs []store.Reading, now time.Time) (time.Time, bool) {
	var first time.Time
	for c := range rs[len(rs)-1].Levels {
		rows := rowsOf(rs, c)
		n := len(rows)
		if n < 2 || rows[n-1].Level >= rows[n-2].Level {
			continue
		}
		last, before := rows[n-1], rows[n-2]
		perHour := float64(before.Level-last.Level) / last.At.Sub(before.At).Hours()
		t := last.At.Add(time.Duration(float64(last.Level) / perHour * float64(time.Hour)))
		if first.IsZero() || t.Before(first) {
			first = t
		}
	}
	if first.IsZero() {
		return first, false
	}
	if first.Before(now) {
		first = now
	}
	return first, true
}

// rowsOf returns compartment c's rows: its level at each reading where
// it differs from the row before.
func rowsOf(rs []store.Reading, c int) []forecast.Sample {
	var rows []forecast.Sample
	for _, r := range rs {
		if c < len(r.Levels) && (len(rows) == 0 || rows[len(rows)-1].Level != r.Levels[c]) {
			rows = append(rows, forecast.Sample{At: r.At, Level: r.Levels[c]})
		}
	}
	return rows
}

// BenchmarkBacktestThroughSync runs the backtest once per op and reports,
// over the dispensers that reported out within 72 hours of a forecast
// without being refilled first: the mean absolute error of the service's
// estimate (mae-h) and of the naive forecast on the same run-outs
// (naive-mae-h), their ratio (mae/naive), the share of run-outs inside the
// range (coverage), the run-outs scored and those of dispensers without an
// estimate. WASHBOARD_BACKTEST_LOCATIONS changes the fleet's size.
//
//	go test ./internal/runout -run '^$' -bench BacktestThroughSync -benchtime 1x
func BenchmarkBacktestThroughSync(b *testing.B) {
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
		r = backtest(b, locations, backtestLearn, backtestDays)
	}
	if r.scored == 0 || r.paired == 0 {
		b.Fatalf("no run-outs to score: %+v", r)
	}
	b.ReportMetric(r.absErr/float64(r.scored), "mae-h")
	b.ReportMetric(r.naiveAbsErr/float64(r.paired), "naive-mae-h")
	b.ReportMetric((r.pairedAbsErr/float64(r.paired))/(r.naiveAbsErr/float64(r.paired)), "mae/naive")
	b.ReportMetric(float64(r.covered)/float64(r.scored), "coverage")
	b.ReportMetric(float64(r.scored), "run-outs")
	b.ReportMetric(float64(r.missing), "no-estimate")
	b.Logf("%d forecasts; %d run-outs within %s, %d scored (%d with a naive forecast), %d without an estimate; %d overtaken by a refill",
		r.forecasts, r.runOuts, backtestFollow, r.scored, r.paired, r.missing, r.refilled)
}
