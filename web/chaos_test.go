package web

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/sim"
	"washboard/internal/store"
)

// cacheSnapshot is account A's devices and alerts as the cache holds them,
// one string per row.
func cacheSnapshot(t *testing.T, a *app, account string) (devices, alerts map[string]string) {
	t.Helper()
	ctx := context.Background()
	ds, err := a.store.FindDevices(ctx, store.DeviceFilter{Account: account})
	if err != nil {
		t.Fatal(err)
	}
	as, err := a.store.FindAlerts(ctx, store.AlertFilter{Account: account})
	if err != nil {
		t.Fatal(err)
	}
	devices, alerts = map[string]string{}, map[string]string{}
	for _, d := range ds {
		battery := -1
		if d.Battery != nil {
			battery = *d.Battery
		}
		d.Battery = nil // a pointer: its address differs between reads
		devices[d.MAC] = fmt.Sprintf("%+v battery %d", d, battery)
	}
	for _, x := range as {
		alerts[x.ID] = fmt.Sprintf("%+v", x)
	}
	return devices, alerts
}

// TestChaosDay runs the dashboard against a service that fails often (30 %
// server errors, 10 % rate limits with Retry-After, 5 % truncated bodies,
// up to 0.3 s of latency) through a simulated day in steps of three hours,
// with the client retrying once (so that some refreshes fail): no page
// answers 5xx while a refresh runs (each round's first request to the
// service is held until the pages have answered), a failed refresh leaves
// the rows of the last good one as they were, the pages warn while
// refreshes fail, and once the faults stop the cache matches the simulator
// within two sync intervals.
func TestChaosDay(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("a simulated day against a failing service takes a while")
	}
	a := newAppWith(t, Config{}, appOptions{locations: 40, attempts: 2})
	b := a.browser()
	b.signIn(credA)
	acc := a.world.Accounts()[0]
	pages := []string{"/", "/alerts", "/floors/" + acc.Buildings[0].Floors[0].ID, "/alerts.csv?status=all", "/reports/shift", "/status"}
	a.world.SetFaults(sim.Faults{ErrorRate: 0.30, RateLimitRate: 0.10, RetryAfter: time.Second, TruncateRate: 0.05, Latency: 300 * time.Millisecond})

	failed, warned := 0, 0
	for step := 0; step < 8; step++ {
		devicesBefore, alertsBefore := cacheSnapshot(t, a, acc.ID)
		// The round's first request to the service waits until the pages
		// have answered; the others go on.
		var first atomic.Bool
		started, answered := make(chan struct{}), make(chan struct{})
		hold := func(*http.Request) {
			if first.CompareAndSwap(false, true) {
				close(started)
				<-answered
			}
		}
		a.beforeUpstream.Store(&hold)
		a.clock.Advance(3 * time.Hour)
		select {
		case <-started:
		case <-time.After(20 * time.Second):
			t.Fatalf("step %d: no refresh started within 20 s", step)
		}
		// Pages answer while the refresh runs against the failing service.
		for _, p := range pages {
			if r := b.get(p); r.StatusCode >= 500 {
				t.Errorf("step %d: %s answered %d", step, p, r.StatusCode)
			}
		}
		close(answered)
		a.clock.BlockUntil(1) // the round is over
		a.beforeUpstream.Store(nil)
		now := a.clock.Now()
		st, err := a.store.SyncStatuses(context.Background(), acc.ID)
		if err != nil {
			t.Fatal(err)
		}
		devicesAfter, alertsAfter := cacheSnapshot(t, a, acc.ID)
		for _, c := range []struct {
			res           domain.Resource
			before, after map[string]string
		}{{domain.ResourceDevices, devicesBefore, devicesAfter}, {domain.ResourceAlerts, alertsBefore, alertsAfter}} {
			s := st[c.res]
			if s.LastError == "" || s.LastAttempt.Before(now.Add(-time.Minute)) {
				continue
			}
			failed++
			if !maps.Equal(c.before, c.after) {
				t.Errorf("step %d: a failed refresh of %s (%s) changed the cache", step, c.res, s.LastError)
			}
			banner := b.get("/").doc(t).Find("#freshness").Text()
			if strings.Contains(banner, s.LastError) {
				warned++
			} else {
				t.Errorf("step %d: the %s refresh failed (%s) but the page says %q", step, c.res, s.LastError, strings.Join(strings.Fields(banner), " "))
			}
		}
	}
	t.Logf("%d refreshes failed in the day, %d warned of", failed, warned)
	if failed == 0 {
		t.Error("no refresh failed: the faults did nothing, and the test shows nothing")
	}

	// The faults stop: within two intervals the cache is the simulator's.
	a.world.SetFaults(sim.Faults{})
	for i := 0; i < 2; i++ {
		a.clock.Advance(time.Minute)
		a.clock.BlockUntil(1)
	}
	checkCacheMatchesSimulator(t, a, acc)
}

// checkCacheMatchesSimulator compares the cache with the simulator's own
// answers, decoded independently: every device's product levels and
// offline flag, and the open alerts.
func checkCacheMatchesSimulator(t *testing.T, a *app, acc *sim.Account) {
	t.Helper()
	ctx := context.Background()
	ds, err := a.store.FindDevices(ctx, store.DeviceFilter{Account: acc.ID})
	if err != nil {
		t.Fatal(err)
	}
	cached := map[string]domain.Device{}
	for _, d := range ds {
		cached[d.MAC] = d
	}
	var states []struct {
		States []struct {
			MAC    string `json:"device_macid"`
			Status struct {
				Product []int `json:"product"`
			} `json:"status"`
			Off bool `json:"device_off"`
		} `json:"device_state"`
	}
	req, _ := http.NewRequest(http.MethodGet, a.upstream.URL+"/devices?limit=1000", nil)
	req.Header.Set("x-api-key", credA.APIKey)
	req.Header.Set("Authorization", credA.Authorization)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	err = json.NewDecoder(resp.Body).Decode(&states)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, l := range states {
		for _, s := range l.States {
			n++
			d, ok := cached[s.MAC]
			if !ok {
				t.Errorf("device %s is not in the cache", s.MAC)
				continue
			}
			levels := make([]int, len(d.Compartments))
			for i, c := range d.Compartments {
				levels[i] = c.Level
			}
			if fmt.Sprint(levels) != fmt.Sprint(s.Status.Product) || d.Offline != s.Off {
				t.Errorf("device %s: cache %v offline %v, simulator %v offline %v", s.MAC, levels, d.Offline, s.Status.Product, s.Off)
			}
		}
	}
	if n != len(cached) || n == 0 {
		t.Errorf("the simulator has %d devices, the cache %d", n, len(cached))
	}
	open, err := a.store.FindAlerts(ctx, store.AlertFilter{Account: acc.ID, Status: domain.AlertOpen})
	if err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for _, x := range open {
		got = append(got, x.ID)
	}
	for _, r := range acc.AlertRecords() {
		if r.Resolved.IsZero() {
			want = append(want, r.ID)
		}
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("open alerts: the cache has %d, the simulator %d", len(got), len(want))
	}
}
