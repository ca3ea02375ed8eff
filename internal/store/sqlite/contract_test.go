package sqlite

import (
	"os"
	"strconv"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/sim"
	"washboard/internal/store"
	"washboard/internal/store/storetest"
)

func BenchmarkFirstRefresh(b *testing.B) {
	storetest.BenchFirstRefresh(b, func(b *testing.B) store.Store {
		s, _ := openTest(b)
		return s
	})
}

// BenchmarkHistoryStorage runs a simulated account for a few weeks, polled
// every five minutes, and reports the storage its devices' history takes
// on SQLite, extrapolated linearly to 10,000 locations over 90 days
// (MB-10k-90d). The locations, days and poll interval are
// WASHBOARD_HISTORY_LOCATIONS (1,000), WASHBOARD_HISTORY_DAYS (14) and
// WASHBOARD_HISTORY_POLL (5m):
//
//	go test ./internal/store/sqlite -run '^$' -bench HistoryStorage -benchtime 1x
func BenchmarkHistoryStorage(b *testing.B) {
	locations, days, every := historyBenchSize(b)
	storetest.BenchHistoryStorage(b, func(b *testing.B) store.Store {
		s, _ := openTest(b)
		return s
	}, func(s store.Store) int64 {
		var n int64
		if err := s.(*Store).read.QueryRow(`SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name = 'device_history'`).Scan(&n); err != nil {
			b.Fatal(err)
		}
		return n
	}, func() storetest.HistoryFleet { return simFleet(locations, every) }, days)
}

// historyBenchSize reads the size of BenchmarkHistoryStorage's run.
func historyBenchSize(b *testing.B) (locations, days int, every time.Duration) {
	locations, days, every = 1000, 14, 5*time.Minute
	var err error
	if v := os.Getenv("WASHBOARD_HISTORY_LOCATIONS"); v != "" {
		if locations, err = strconv.Atoi(v); err != nil {
			b.Fatal(err)
		}
	}
	if v := os.Getenv("WASHBOARD_HISTORY_DAYS"); v != "" {
		if days, err = strconv.Atoi(v); err != nil {
			b.Fatal(err)
		}
	}
	if v := os.Getenv("WASHBOARD_HISTORY_POLL"); v != "" {
		if every, err = time.ParseDuration(v); err != nil {
			b.Fatal(err)
		}
	}
	return locations, days, every
}

// simFleet is a simulated account of the given size from Monday
// 2026-11-02 on, polled every interval through the simulator's readings
// of its dispensers.
func simFleet(locations int, every time.Duration) storetest.HistoryFleet {
	clock := sim.NewManualClock(time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC))
	w := sim.New(sim.Config{Seed: 7, Locations: locations, History: 24 * time.Hour, Clock: clock, Zone: time.UTC})
	var rs []sim.ProductReading
	states := map[string]domain.BatteryState{
		sim.BatteryNormal: domain.BatteryNormal, sim.BatteryLow: domain.BatteryLow, sim.BatteryShutdown: domain.BatteryShutdown,
	}
	return storetest.HistoryFleet{Locations: locations, Every: every, Poll: func(into []domain.Device) (time.Time, []domain.Device) {
		clock.Add(every)
		rs = w.ProductReadings(0, rs)
		out := into[:0]
		for i, r := range rs {
			var d domain.Device
			if i < cap(into) {
				d = into[:i+1][i] // reuse its compartments
			}
			d.MAC, d.Compartments = r.MAC, d.Compartments[:0]
			for _, l := range r.Levels {
				d.Compartments = append(d.Compartments, domain.Compartment{Level: l, Low: l <= 20, Out: l == 0})
			}
			battery := r.Battery
			d.Battery, d.BatteryState, d.Offline, d.LastSeen = &battery, states[r.BatteryState], r.Offline, r.LastSeen
			out = append(out, d)
		}
		return clock.Now(), out
	}}
}
