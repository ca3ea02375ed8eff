package runout_test

import (
	"context"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/forecast"
	"washboard/internal/runout"
	"washboard/internal/sim"
	"washboard/internal/store"
)

// The account of BenchmarkRefresh.
const (
	refreshLocations = 10_000
	// refreshFine is how much of the history, up to the first measured
	// round, is written at the sync's interval rather than every two
	// hours: the days of readings a projection reads of a device that
	// changed (the cache keeps them by UTC day; it reads the day of its
	// last read and the day before).
	refreshFine = 48 * time.Hour
)

// BenchmarkRefresh measures what the estimates of an account of 10,000
// locations cost, against the sync they follow. The simulator's account
// is synced once over HTTP into a SQLite cache; then, the sync stopped,
// 28 days of its devices' states are written through the cache's own
// device refresh (BeginDevices, SeenAt, Write, Commit) from the world's
// own readings: every two hours, and every five minutes over the last two
// days, the days a projection reads. (Syncing 28 days of 10,000 locations
// every five minutes over HTTP would take hours. The older days hold
// fewer readings than a sync's would, so the fit costs more in service.) The sync starts again, and its first round reads the alerts
// of those days; then the models are fitted, once (fit-ms). One op is a
// round of the sync, the world's clock moved on five minutes (sync-ms),
// followed by Refresh, which projects every dispenser from the models
// fitted (refresh-ms). It reports both, their ratio (refresh/sync), what
// the read of the account's device states a projection begins with takes
// alone (states-ms, read once more after it), and the dispensers with an
// estimate.
//
//	go test ./internal/runout -run '^$' -bench Refresh -benchtime 20x
func BenchmarkRefresh(b *testing.B) {
	ctx := context.Background()
	zone := time.FixedZone("CET", 3600)
	start := time.Date(2026, 2, 2, 0, 0, 0, 0, zone) // a Monday
	f := newSyncedFleet(b, 5, 1, refreshLocations, start, zone, syncInterval)
	account := f.accounts[0]
	f.release()
	t0 := time.Now()
	writeHistory(b, f, start.Add(forecast.Window))
	b.Logf("28 days of history written in %s", time.Since(t0).Round(time.Second))
	f.hold()

	s := runout.New(f.store, f.clk, zone, nil)
	t0 = time.Now()
	if err := s.Refresh(ctx, account); err != nil {
		b.Fatal(err)
	}
	fit := time.Since(t0)
	var syncing, projecting, reading time.Duration
	for b.Loop() {
		t0 := time.Now()
		f.advance(syncInterval)
		t1 := time.Now()
		if err := s.Refresh(ctx, account); err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		if _, err := f.store.DeviceStates(ctx, account); err != nil {
			b.Fatal(err)
		}
		syncing += t1.Sub(t0)
		projecting += t2.Sub(t1)
		reading += time.Since(t2)
	}
	devices, err := f.store.FindDevices(ctx, store.DeviceFilter{Account: account})
	if err != nil {
		b.Fatal(err)
	}
	dispensers := 0
	for _, d := range devices {
		if len(d.Compartments) > 0 {
			dispensers++
		}
	}
	estimates := len(s.Estimates(account))
	if estimates < dispensers*9/10 {
		b.Fatalf("%d estimates of %d dispensers: the history should give nearly all one", estimates, dispensers)
	}
	n := float64(b.N)
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(float64(syncing.Milliseconds())/n, "sync-ms")
	b.ReportMetric(float64(projecting.Microseconds())/1000/n, "refresh-ms")
	b.ReportMetric(float64(projecting)/float64(syncing), "refresh/sync")
	b.ReportMetric(float64(reading.Microseconds())/1000/n, "states-ms")
	b.ReportMetric(float64(fit.Milliseconds()), "fit-ms")
	b.ReportMetric(float64(estimates), "estimates")
}

// writeHistory writes the world's states of the fleet's first account's
// devices until to through the cache's device refresh, as a sync that
// polls every two hours, then every five minutes for refreshFine, would
// record them; the clock ends at to. Only what a reading holds changes:
// levels, low and out, battery and offline, with the last-seen time of
// each change; the rest stays as the last sync wrote it. A heartbeat
// alone, which a sync writes but records no reading of, is left out: it
// would make the writes slower and the history the same.
func writeHistory(b *testing.B, f *syncedFleet, to time.Time) {
	b.Helper()
	ctx := context.Background()
	account := f.accounts[0]
	devices, err := f.store.FindDevices(ctx, store.DeviceFilter{Account: account})
	if err != nil {
		b.Fatal(err)
	}
	byMAC := make(map[string]*domain.Device, len(devices))
	for i := range devices {
		byMAC[devices[i].MAC] = &devices[i]
	}
	var states []sim.ProductReading
	for at := f.clk.Now(); at.Before(to); {
		step := 2 * time.Hour
		if !at.Before(to.Add(-refreshFine)) {
			step = syncInterval
		}
		at = at.Add(step)
		f.clk.Set(at)
		states = f.world.ProductReadings(0, states)
		for _, st := range states {
			d := byMAC[st.MAC]
			if d == nil {
				b.Fatalf("the simulator lists %s, which the cache does not hold", st.MAC)
			}
			if sameAs(d, st) {
				continue
			}
			d.Compartments = d.Compartments[:0]
			for _, level := range st.Levels {
				d.Compartments = append(d.Compartments, domain.Compartment{Level: level, Low: level <= simLowAt, Out: level == 0})
			}
			battery := st.Battery
			d.Battery, d.BatteryState = &battery, batteryStates[st.BatteryState]
			d.Offline, d.LastSeen = st.Offline, st.LastSeen
		}
		r, err := f.store.BeginDevices(ctx, account)
		if err != nil {
			b.Fatal(err)
		}
		r.SeenAt(at)
		if err := r.Write(ctx, devices); err != nil {
			b.Fatal(err)
		}
		if _, err := r.Commit(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// simLowAt is the level at or below which the simulator reports a
// compartment low.
const simLowAt = 15

// batteryStates are the service's battery states as the sync stores
// them.
var batteryStates = map[string]domain.BatteryState{
	sim.BatteryNormal: domain.BatteryNormal, sim.BatteryLow: domain.BatteryLow, sim.BatteryShutdown: domain.BatteryShutdown,
}

// sameAs reports whether the device is in the state of the world's
// reading, its last-seen time aside.
func sameAs(d *domain.Device, st sim.ProductReading) bool {
	if len(d.Compartments) != len(st.Levels) || d.Offline != st.Offline || d.Battery == nil || *d.Battery != st.Battery || d.BatteryState != batteryStates[st.BatteryState] {
		return false
	}
	for i, c := range d.Compartments {
		if c.Level != st.Levels[i] {
			return false
		}
	}
	return true
}
