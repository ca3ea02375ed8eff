package runout_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/forecast"
	"washboard/internal/runout"
	"washboard/internal/sim"
	"washboard/internal/store"
	"washboard/internal/store/sqlite/sqlitetest"
	"washboard/internal/syncer"
	"washboard/internal/upstream"
)

// syncedFleet is a simulated fleet that Washboard's own sync reads over
// HTTP into a SQLite cache, each account held as a signed-in user holds
// it. The world, the sync and whoever reads the cache share one fake
// clock, which moves only when told.
type syncedFleet struct {
	clk      *clock.Fake
	world    *sim.World
	store    store.Store
	engine   *syncer.Engine
	accounts []string // in the world's order
	creds    []upstream.Credentials
}

// newSyncedFleet builds a world of accounts of locations each from start,
// synced every interval, and waits for each account's first round.
func newSyncedFleet(tb testing.TB, seed uint64, accounts, locations int, start time.Time, zone *time.Location, interval time.Duration) *syncedFleet {
	tb.Helper()
	f := &syncedFleet{clk: clock.NewFake(start)}
	simCreds := make([]sim.Credentials, accounts)
	for k := range simCreds {
		simCreds[k] = sim.Credentials{APIKey: fmt.Sprintf("key-%d", k), Authorization: fmt.Sprintf("auth-%d", k)}
		f.creds = append(f.creds, upstream.Credentials{APIKey: simCreds[k].APIKey, Authorization: simCreds[k].Authorization})
	}
	f.world = sim.New(sim.Config{Seed: seed, Locations: locations, Accounts: accounts, Clock: f.clk, Zone: zone, Credentials: simCreds})
	for _, a := range f.world.Accounts() {
		f.accounts = append(f.accounts, a.ID)
	}
	srv := httptest.NewServer(f.world.Handler())
	tb.Cleanup(srv.Close)
	client, err := upstream.New(upstream.Config{BaseURL: srv.URL})
	if err != nil {
		tb.Fatal(err)
	}
	st, _ := sqlitetest.Open(tb)
	f.store = st
	ctx, cancel := context.WithCancel(context.Background())
	f.engine = syncer.New(ctx, syncer.UpstreamSource{Client: client}, st, f.clk, syncer.Config{Interval: interval}, nil)
	tb.Cleanup(func() { cancel(); f.engine.Wait(); st.Close() })
	f.hold()
	return f
}

// hold holds every account, as a user signing in does, and waits for
// each one's first round.
func (f *syncedFleet) hold() {
	for k, account := range f.accounts {
		f.engine.Hold(holderOf(k), account, f.creds[k], f.clk.Now().AddDate(1, 0, 0))
	}
	f.clk.BlockUntil(len(f.accounts))
}

// release lets go of every account, as a user signing out does, and
// waits for each one's sync to stop. A loop's last wait stays on the
// clock until the clock passes it: move the clock on by the interval
// before holding again, or hold would not wait for the first round.
func (f *syncedFleet) release() {
	var stopped []<-chan syncer.Event
	for k, account := range f.accounts {
		events, stop := f.engine.Subscribe(account)
		defer stop()
		stopped = append(stopped, events)
		f.engine.Release(holderOf(k))
	}
	for _, events := range stopped {
		for ev := range events {
			if ev.Kind == syncer.EventStopped {
				break
			}
		}
	}
}

func holderOf(k int) string { return fmt.Sprintf("user-%d", k) }

// advance moves the clock on by d and waits until every account's loop,
// having run the round that came due, sleeps again. d must not exceed
// the sync's interval, or rounds are skipped.
func (f *syncedFleet) advance(d time.Duration) {
	f.clk.Advance(d)
	f.clk.BlockUntil(len(f.accounts))
}

// A small fleet synced every hour for four days, then estimated after
// each round for a day: the service's estimates, made from what the sync
// put in the cache, are there for nearly every dispenser, say out for
// those the cache has out since when, and lie ahead, within their range,
// for the others; and what the service keeps between rounds gives the
// estimates a projection from the whole history gives.
func TestEstimatesThroughTheSync(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	zone := time.FixedZone("CET", 3600)
	start := time.Date(2026, 2, 2, 0, 0, 0, 0, zone) // a Monday
	f := newSyncedFleet(t, 3, 1, 40, start, zone, time.Hour)
	for range 4 * 24 {
		f.advance(time.Hour)
	}
	account := f.accounts[0]
	s := runout.New(f.store, f.clk, zone, nil)
	if err := s.Refresh(ctx, account); err != nil {
		t.Fatal(err)
	}
	for range 23 {
		f.advance(time.Hour)
		if err := s.Refresh(ctx, account); err != nil {
			t.Fatal(err)
		}
	}
	now := f.clk.Now()
	got := s.Estimates(account)
	devices, err := f.store.FindDevices(ctx, store.DeviceFilter{Account: account})
	if err != nil {
		t.Fatal(err)
	}
	dispensers, ahead, out := 0, 0, 0
	for _, d := range devices {
		if len(d.Compartments) == 0 {
			continue
		}
		dispensers++
		e, ok := got[d.MAC]
		if !ok {
			continue
		}
		if isOut(d) != (e.Basis == forecast.ReportedOut) {
			t.Errorf("%s, with compartments %+v: estimate %+v", d.MAC, d.Compartments, e)
			continue
		}
		switch {
		case e.Basis == forecast.ReportedOut:
			out++
			if e.At.After(now) || !e.Earliest.Equal(e.At) || !e.Latest.Equal(e.At) {
				t.Errorf("%s reports out: %+v, want the time it went out in all three", d.MAC, e)
			}
		case e.Earliest.Before(now) || e.At.Before(e.Earliest) || e.Latest.Before(e.At) || e.Latest.After(now.AddDate(1, 0, 0)):
			t.Errorf("%s: %+v at %s, want now <= earliest <= at <= latest", d.MAC, e, now)
		default:
			ahead++
		}
	}
	if len(got) < dispensers*9/10 || ahead == 0 || out == 0 {
		t.Errorf("%d estimates of %d dispensers, %d ahead, %d out: want nearly all, of both kinds", len(got), dispensers, ahead, out)
	}
	want, err := s.ForecastsFromScratch(ctx, account)
	if err != nil {
		t.Fatal(err)
	}
	for mac, w := range want {
		if g, ok := got[mac]; !ok || !g.At.Equal(w.At) || !g.Earliest.Equal(w.Earliest) || !g.Latest.Equal(w.Latest) || g.Basis != w.Basis {
			t.Errorf("%s: %+v (%v) from what was kept between rounds, %+v from the whole history", mac, g, ok, w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d estimates from what was kept between rounds, %d from the whole history", len(got), len(want))
	}
}

// isOut reports whether a device reports a compartment out.
func isOut(d domain.Device) bool {
	for _, c := range d.Compartments {
		if c.Level == 0 {
			return true
		}
	}
	return false
}
