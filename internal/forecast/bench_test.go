package forecast

import (
	"sync"
	"testing"
	"time"

	"washboard/internal/sim"
)

// The benchmark fleet: one account of 10,000 device locations, polled
// every five minutes for 28 days and recorded as Washboard records it,
// built once.
var (
	benchOnce  sync.Once
	benchFleet []*device
	benchNow   time.Time
	benchZone  = time.FixedZone("CET", 3600)
)

func benchmarkFleet(b *testing.B) []*device {
	b.Helper()
	benchOnce.Do(func() {
		start := time.Date(2026, 2, 2, 0, 0, 0, 0, benchZone)
		clock := sim.NewManualClock(start)
		w := sim.New(sim.Config{Seed: 23, Locations: 10_000, Clock: clock, Zone: benchZone})
		rec := newRecorder(w)
		benchNow = start.Add(Window).Add(6 * time.Hour)
		for now := start; !now.After(benchNow); now = now.Add(backtestPoll) {
			clock.Set(now)
			rec.poll(nil)
		}
		rec.alerts(benchNow)
		benchFleet = rec.order
	})
	if len(benchFleet) < 9_000 {
		b.Fatalf("the benchmark fleet has %d dispensers, want at least 9,000", len(benchFleet))
	}
	return benchFleet
}

// BenchmarkForecastAll costs the forecasts of every dispenser of 10,000
// locations, each with 28 days of history: after-sync estimates them all
// from their models, as after every sync; fit learns every model, as once
// a day. One op is the whole fleet; ns/device is per dispenser.
func BenchmarkForecastAll(b *testing.B) {
	fleet := benchmarkFleet(b)
	rows := 0
	for _, d := range fleet {
		for _, s := range d.h.Levels {
			rows += len(s)
		}
	}
	b.Run("after-sync", func(b *testing.B) {
		for _, d := range fleet {
			d.model = Fit(&d.h, benchNow, benchZone)
		}
		estimates := 0
		for b.Loop() {
			estimates = 0
			for _, d := range fleet {
				if _, ok := d.model.Forecast(&d.h, benchNow); ok {
					estimates++
				}
			}
		}
		report(b, len(fleet))
		b.ReportMetric(float64(estimates), "estimates")
	})
	b.Run("fit", func(b *testing.B) {
		for b.Loop() {
			for _, d := range fleet {
				d.model = Fit(&d.h, benchNow, benchZone)
			}
		}
		report(b, len(fleet))
		b.ReportMetric(float64(rows)/float64(len(fleet)), "rows/device")
	})
}

func report(b *testing.B, devices int) {
	perOp := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(perOp/float64(devices), "ns/device")
	b.ReportMetric(perOp/1e6, "ms/fleet")
}
