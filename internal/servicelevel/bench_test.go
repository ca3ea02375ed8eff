package servicelevel

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"washboard/internal/domain"
)

// benchAlerts is n alerts over a month in hours with nights, weekends and
// a holiday: a third still open, the rest claimed and closed after
// minutes to a day, of three types with targets and one without.
func benchAlerts(b *testing.B, n int) (Policy, []Alert, []string, time.Time) {
	targets, err := NewTargets(map[domain.AlertType]Target{
		domain.AlertConsumableOut: {Claim: 15 * time.Minute, Resolve: time.Hour},
		domain.AlertJam:           {Claim: 30 * time.Minute, Resolve: 4 * time.Hour},
		domain.AlertDeviceOff:     {Resolve: 24 * time.Hour},
	})
	if err != nil {
		b.Fatal(err)
	}
	p := Policy{Hours: hours(b, "Mon-Fri 06:00-22:00; Sat 08:00-14:00", "2026-10-03", "Europe/Berlin"), Targets: targets}
	types := []domain.AlertType{domain.AlertConsumableOut, domain.AlertConsumableOut, domain.AlertJam, domain.AlertDeviceOff, domain.AlertBatteryOut}
	rng := rand.New(rand.NewPCG(1, 2))
	start := at(b, p.Hours.Zone(), "2026-10-01 00:00")
	now := start.Add(31 * 24 * time.Hour)
	alerts := make([]Alert, n)
	locations := make([]string, 500)
	for i := range locations {
		locations[i] = "L" + string(rune('A'+i%26)) + string(rune('a'+i/26))
	}
	for i := range alerts {
		a := Alert{Type: types[rng.IntN(len(types))], Opened: start.Add(time.Duration(rng.Int64N(int64(30 * 24 * time.Hour))))}
		if rng.IntN(3) > 0 {
			a.Claimed = a.Opened.Add(time.Duration(rng.Int64N(int64(2 * time.Hour))))
			a.Closed = a.Claimed.Add(time.Duration(rng.Int64N(int64(24 * time.Hour))))
		}
		alerts[i] = a
	}
	return p, alerts, locations, now
}

// BenchmarkEvaluate measures 100,000 alerts against their targets.
func BenchmarkEvaluate(b *testing.B) {
	p, alerts, _, now := benchAlerts(b, 100_000)
	b.ResetTimer()
	for range b.N {
		for _, a := range alerts {
			p.Evaluate(a, now)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(alerts)), "ns/alert")
}

// BenchmarkReport tallies 100,000 and 1,000,000 measured alerts over 20
// buildings of 25 locations and makes the client report's figures: what
// the tally allocates (B/op) stays the same with ten times the alerts.
func BenchmarkReport(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprintf("alerts=%d", n), func(b *testing.B) {
			p, alerts, locations, now := benchAlerts(b, n)
			buildings := make([]string, 20)
			for i := range buildings {
				buildings[i] = "Building " + string(rune('A'+i))
			}
			samples := make([]Sample, len(alerts))
			for i, a := range alerts {
				l := i % len(locations)
				samples[i] = Sample{Type: a.Type, Building: buildings[l/25], Location: locations[l], Measure: p.Evaluate(a, now)}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				t := NewTally()
				for _, s := range samples {
					t.Add(s)
				}
				t.Report(10)
			}
		})
	}
}
