package syncer

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/sim"
	"washboard/internal/store"
	"washboard/internal/store/sqlite/sqlitetest"
	"washboard/internal/upstream"
)

var start = time.Date(2026, 11, 18, 9, 30, 0, 0, time.UTC)

// env is a simulator, the upstream client pointed at it, a cache and an
// engine. The simulator has its own clock, so that a test can let the
// sync run again while the simulated world stands still.
type env struct {
	world     *sim.World
	simClock  *sim.ManualClock
	syncClock *clock.Fake
	srv       *httptest.Server
	requests  atomic.Int64
	onRequest func(*http.Request)                           // called before each request is served, if set
	answer    func(http.ResponseWriter, *http.Request) bool // if set, answers in the simulator's place when it reports true
	store     store.Store
	engine    *Engine
	account   string
	cred      upstream.Credentials
	cancel    context.CancelFunc
	src       Source
	changed   atomic.Int64 // calls of Config.Changed
}

func newEnv(t *testing.T, locations int, attempts int) *env {
	t.Helper()
	return newEnvWith(t, locations, attempts, nil)
}

// newEnvWith is newEnv with the engine's source wrapped, when wrap is set.
func newEnvWith(t *testing.T, locations int, attempts int, wrap func(Source) Source) *env {
	t.Helper()
	e := &env{simClock: sim.NewManualClock(start), syncClock: clock.NewFake(start)}
	e.world = sim.New(sim.Config{
		Seed: 11, Locations: locations, Accounts: 2, History: 10 * 24 * time.Hour, Clock: e.simClock, Zone: time.UTC,
		Credentials: []sim.Credentials{{APIKey: "key-1", Authorization: "auth-1"}, {APIKey: "key-2", Authorization: "auth-2"}},
	})
	h := e.world.Handler()
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.requests.Add(1)
		if e.onRequest != nil {
			e.onRequest(r)
		}
		if e.answer != nil && e.answer(w, r) {
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(e.srv.Close)
	client, err := upstream.New(upstream.Config{
		BaseURL:     e.srv.URL,
		MaxAttempts: attempts,
		Sleep:       func(ctx context.Context, d time.Duration) error { return ctx.Err() }, // retry at once
	})
	if err != nil {
		t.Fatal(err)
	}
	e.store, _ = sqlitetest.Open(t)
	ctx, cancel := context.WithCancel(context.Background())
	e.cancel = cancel
	var src Source = UpstreamSource{Client: client}
	if wrap != nil {
		src = wrap(src)
	}
	e.src = src
	e.engine = New(ctx, src, e.store, e.syncClock, Config{Changed: func(string) { e.changed.Add(1) }}, nil)
	t.Cleanup(func() { cancel(); e.engine.Wait() })
	e.account = e.world.Accounts()[0].ID
	e.cred = upstream.Credentials{APIKey: "key-1", Authorization: "auth-1"}
	return e
}

// hold starts the account's sync as a session would, and waits for its
// first round to finish.
func (e *env) hold(t *testing.T, holder string, cred upstream.Credentials) {
	t.Helper()
	e.engine.Hold(holder, e.account, cred, start.Add(365*24*time.Hour))
	e.syncClock.BlockUntil(1)
}

// tick moves the sync's clock by d and waits for the loop to sleep again.
func (e *env) tick(d time.Duration) {
	e.syncClock.Advance(d)
	e.syncClock.BlockUntil(1)
}

func (e *env) status(t *testing.T, res domain.Resource) store.SyncStatus {
	t.Helper()
	st, err := e.store.SyncStatuses(context.Background(), e.account)
	if err != nil {
		t.Fatal(err)
	}
	return st[res]
}

// simDevices reads the simulator's /devices with plain JSON decoding, as
// an independent view of what the cache should hold.
type simState struct {
	MAC      string `json:"device_macid"`
	Position string `json:"position"`
	Status   struct {
		Product      []int  `json:"product"`
		ProductOut   []bool `json:"product_out"`
		BatteryLevel string `json:"battery_level"`
		BatteryState string `json:"battery_state"`
	} `json:"status"`
	LastSeen  time.Time `json:"last_seen"`
	DeviceOff bool      `json:"device_off"`
}

func (e *env) simDevices(t *testing.T) map[string]simState {
	t.Helper()
	out := map[string]simState{}
	for offset := 0; ; offset += 1000 {
		req, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/devices?limit=1000&offset="+strconv.Itoa(offset), nil)
		req.Header.Set("x-api-key", e.cred.APIKey)
		req.Header.Set("Authorization", e.cred.Authorization)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var page []struct {
			States []simState `json:"device_state"`
		}
		err = json.NewDecoder(resp.Body).Decode(&page)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			return out
		}
		for _, l := range page {
			for _, s := range l.States {
				out[s.MAC] = s
			}
		}
	}
}

// checkMirrors asserts that the cache holds exactly the simulator's
// layout, devices and alerts.
func (e *env) checkMirrors(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	acc := e.world.Accounts()[0]
	layout, err := e.store.Layout(ctx, e.account)
	if err != nil {
		t.Fatal(err)
	}
	floors := 0
	for _, b := range acc.Buildings {
		floors += len(b.Floors)
	}
	if layout.Account.Name != acc.Name || len(layout.Buildings) != len(acc.Buildings) || len(layout.Floors) != floors ||
		len(layout.Rooms) != len(acc.Rooms) || len(layout.Locations) != len(acc.Locations) {
		t.Errorf("cache layout %q: %d buildings, %d floors, %d rooms, %d locations; simulator %q: %d, %d, %d, %d",
			layout.Account.Name, len(layout.Buildings), len(layout.Floors), len(layout.Rooms), len(layout.Locations),
			acc.Name, len(acc.Buildings), floors, len(acc.Rooms), len(acc.Locations))
	}
	for i := 0; i < len(acc.Locations); i += 17 {
		want := acc.Locations[i]
		got := layout.Locations[i]
		if got.ID != strconv.FormatInt(want.ID, 10) || got.Name != want.Name || string(got.Type) != string(want.Type) || got.RoomID != want.Room.ID {
			t.Errorf("location %d: cache %+v, simulator %d %q %s in %s", i, got, want.ID, want.Name, want.Type, want.Room.ID)
		}
	}

	devices, err := e.store.FindDevices(ctx, store.DeviceFilter{Account: e.account})
	if err != nil {
		t.Fatal(err)
	}
	want := e.simDevices(t)
	if len(devices) != len(want) {
		t.Errorf("cache has %d devices, simulator %d", len(devices), len(want))
	}
	for i, d := range devices {
		w, ok := want[d.MAC]
		if !ok {
			t.Errorf("device %s in the cache, not in the simulator", d.MAC)
			continue
		}
		if i%7 != 0 {
			continue // a sample, field by field
		}
		levels := make([]int, len(d.Compartments))
		for j, c := range d.Compartments {
			levels[j] = c.Level
		}
		battery := ""
		if d.Battery != nil {
			battery = strconv.Itoa(*d.Battery)
		}
		if !equalInts(levels, w.Status.Product) || battery != w.Status.BatteryLevel || d.Offline != w.DeviceOff ||
			!d.LastSeen.Equal(w.LastSeen) || d.Position != w.Position {
			t.Errorf("device %s: cache levels %v battery %s offline %v seen %s; simulator %v %s %v %s",
				d.MAC, levels, battery, d.Offline, d.LastSeen, w.Status.Product, w.Status.BatteryLevel, w.DeviceOff, w.LastSeen)
		}
	}

	cached, err := e.store.FindAlerts(ctx, store.AlertFilter{Account: e.account})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]domain.Alert{}
	for _, a := range cached {
		byID[a.ID] = a
	}
	records := acc.AlertRecords()
	if len(cached) != len(records) {
		t.Errorf("cache has %d alerts, simulator %d", len(cached), len(records))
	}
	for _, r := range records {
		a, ok := byID[r.ID]
		if !ok {
			t.Errorf("alert %s (%s, created %s) missing from the cache", r.ID, r.Type, r.Created)
			continue
		}
		open := r.Resolved.IsZero()
		if a.Open() != open || !a.Created.Equal(r.Created) || !a.Resolved.Equal(r.Resolved) ||
			string(a.Resolution) != string(r.Resolution) || string(a.Type) != string(r.Type) ||
			a.RefillCount != r.RefillCount || a.LocationID != strconv.FormatInt(r.LocationID, 10) {
			t.Errorf("alert %s: cache %+v; simulator %+v", r.ID, a, r)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestFirstSyncMirrorsTheSimulator(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 300, 4)
	e.hold(t, "session-1", e.cred)
	e.checkMirrors(t)

	p := e.engine.Progress(e.account)
	if !p.FirstSyncDone || p.Pages == 0 || p.Devices == 0 || p.Alerts == 0 {
		t.Errorf("progress after the first sync = %+v", p)
	}
	for _, res := range []domain.Resource{domain.ResourceMetadata, domain.ResourceDevices, domain.ResourceAlerts} {
		st := e.status(t, res)
		if st.LastSuccess.IsZero() || st.LastError != "" || st.Change.Added == 0 {
			t.Errorf("%s status after the first sync = %+v", res, st)
		}
	}
	r, err := e.store.Rollup(context.Background(), e.account, domain.ScopeAccount, e.account)
	if err != nil || r.Total() != 300 {
		t.Errorf("account rollup counts %d locations (%v), want 300", r.Total(), err)
	}
}

func TestUnchangedUpstreamWritesNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 200, 4)
	events, stop := e.engine.Subscribe(e.account)
	defer stop()
	e.hold(t, "session-1", e.cred)
	drain(events)
	before := e.requests.Load()

	e.tick(MinInterval) // the world stands still: same devices, same alerts
	if e.requests.Load() == before {
		t.Fatal("no request after an interval")
	}
	for _, res := range []domain.Resource{domain.ResourceDevices, domain.ResourceAlerts} {
		st := e.status(t, res)
		if !st.Change.Empty() || st.LastError != "" {
			t.Errorf("%s: second sync without upstream change reported %+v, %q", res, st.Change, st.LastError)
		}
	}
	for _, ev := range drain(events) {
		if ev.Kind == EventChanged {
			t.Errorf("a sync that changed nothing published %+v", ev)
		}
	}
}

// TestGenerationCountsChanges: pages cached under a generation are
// served only while it stands, so it must move with every refresh that
// changed the account's cache, and only then.
func TestGenerationCountsChanges(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 200, 4)
	if g := e.engine.Generation(e.account); g != 0 {
		t.Fatalf("generation before any sync = %d, want 0", g)
	}
	e.hold(t, "session-1", e.cred)
	first := e.engine.Generation(e.account)
	if first == 0 {
		t.Fatal("the first sync filled the cache and left the generation at 0")
	}
	if g := e.engine.Generation(e.world.Accounts()[1].ID); g != 0 {
		t.Errorf("the other account's generation moved to %d", g)
	}

	events, stop := e.engine.Subscribe(e.account)
	defer stop()
	e.tick(MinInterval) // the world stands still
	if g := e.engine.Generation(e.account); g != first {
		t.Errorf("a sync that changed nothing moved the generation from %d to %d", first, g)
	}
	drain(events)

	e.simClock.Add(6 * time.Hour)
	e.world.Advance()
	e.tick(MinInterval)
	changes := 0
	for _, ev := range drain(events) {
		if ev.Kind == EventChanged {
			changes++
		}
	}
	if changes == 0 {
		t.Fatal("six simulated hours changed nothing; the test proves nothing")
	}
	if g := e.engine.Generation(e.account); g != first+uint64(changes) {
		t.Errorf("after %d changes the generation is %d, want %d", changes, g, first+uint64(changes))
	}
	if told := e.changed.Load(); told != int64(first)+int64(changes) {
		t.Errorf("Config.Changed was told of %d changes, want %d", told, int64(first)+int64(changes))
	}
}

func drain(ch <-chan Event) []Event {
	var out []Event
	for {
		select {
		case ev := <-ch:
			out = append(out, ev)
		default:
			return out
		}
	}
}

func TestAlertsResolvedUpstreamCloseInTheCache(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 300, 4)
	e.hold(t, "session-1", e.cred)
	openBefore := map[string]bool{}
	for _, r := range e.world.Accounts()[0].AlertRecords() {
		if r.Resolved.IsZero() {
			openBefore[r.ID] = true
		}
	}

	// Six hours pass in the world (staff resolve alerts, new ones open);
	// the sync runs on its next interval.
	e.simClock.Add(6 * time.Hour)
	e.world.Advance()
	e.tick(MinInterval)
	e.checkMirrors(t)

	closed := 0
	cached, _ := e.store.FindAlerts(context.Background(), store.AlertFilter{Account: e.account, Status: domain.AlertClosed})
	for _, a := range cached {
		if openBefore[a.ID] {
			closed++
		}
	}
	if closed == 0 {
		t.Error("none of the alerts open before closed in six simulated hours; the test proves nothing")
	}
	events, stop := e.engine.Subscribe(e.account)
	defer stop()
	e.simClock.Add(time.Hour)
	e.tick(MinInterval)
	changed := false
	for _, ev := range drain(events) {
		changed = changed || (ev.Kind == EventChanged && ev.Resource == domain.ResourceAlerts)
	}
	if !changed {
		t.Error("no change event after an hour of new alerts")
	}
}

func TestFaultsKeepTheLastGoodDataAndConverge(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 300, 1) // no retries: every injected fault fails the refresh
	e.hold(t, "session-1", e.cred)
	ctx := context.Background()
	snapshot := func() (int, int) {
		d, _ := e.store.FindDevices(ctx, store.DeviceFilter{Account: e.account})
		a, _ := e.store.CountAlerts(ctx, store.AlertFilter{Account: e.account})
		return len(d), a
	}
	d0, a0 := snapshot()

	e.world.SetFaults(sim.Faults{ErrorRate: 0.3, RateLimitRate: 0.1, RetryAfter: time.Second, TruncateRate: 0.2, Latency: 5 * time.Millisecond})
	e.simClock.Add(4 * time.Hour) // the world moves on while the service misbehaves
	failures := 0
	for i := 0; i < 12; i++ {
		e.tick(2 * MinInterval)
		d, a := snapshot()
		st := e.status(t, domain.ResourceAlerts)
		if st.LastError != "" {
			failures++
			if !st.LastAttempt.After(st.LastSuccess) {
				t.Errorf("a failed attempt at %s did not keep the last success at %s", st.LastAttempt, st.LastSuccess)
			}
		}
		// Whatever failed, the cache holds a whole refresh: the devices are
		// all there and alerts are never lost.
		if d != d0 || a < a0 {
			t.Fatalf("round %d: cache holds %d devices and %d alerts; before the faults %d and %d", i, d, a, d0, a0)
		}
	}
	if failures == 0 {
		t.Fatal("no refresh failed under injected faults; the test proves nothing")
	}

	e.world.SetFaults(sim.Faults{})
	e.tick(2 * MinInterval)
	e.tick(2 * MinInterval)
	e.checkMirrors(t)
	for _, res := range []domain.Resource{domain.ResourceDevices, domain.ResourceAlerts} {
		if st := e.status(t, res); st.LastError != "" {
			t.Errorf("%s still failing two intervals after the faults stopped: %s", res, st.LastError)
		}
	}
}

func TestRateLimitSlowsTheLoopDown(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 50, 1)
	e.hold(t, "session-1", e.cred)
	e.world.SetFaults(sim.Faults{RateLimitRate: 1, RetryAfter: 5 * time.Minute})
	e.tick(MinInterval)
	if st := e.status(t, domain.ResourceDevices); st.LastError == "" {
		t.Fatal("a 429 did not fail the refresh")
	}
	e.world.SetFaults(sim.Faults{})
	before := e.requests.Load()
	e.syncClock.Advance(4 * time.Minute)
	if e.requests.Load() != before {
		t.Errorf("%d requests within the 5 minutes the service asked to wait", e.requests.Load()-before)
	}
	e.tick(time.Minute + time.Second)
	if e.requests.Load() == before {
		t.Error("no request once the Retry-After had passed")
	}
}

func TestRejectedCredentialIsReportedAndItsLoopStops(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 50, 4)
	events, stop := e.engine.Subscribe(e.account)
	defer stop()
	bad := upstream.Credentials{APIKey: "key-1", Authorization: "revoked"}
	e.engine.Hold("session-bad", e.account, bad, start.Add(time.Hour))
	waitFor(t, events, EventStopped)
	why, rejected := e.engine.Rejected(CredentialID(bad))
	if !rejected || why == "" {
		t.Errorf("Rejected = %q, %v; want the credential reported", why, rejected)
	}
	if e.engine.Running(e.account) {
		t.Error("the loop still runs with only a rejected credential")
	}
	st := e.status(t, domain.ResourceMetadata)
	if st.LastError == "" {
		t.Error("no error recorded for the rejected credential")
	}

	// With a good credential held beside a bad one, the loop uses the good
	// one and carries on.
	e.engine.Accept(bad) // signed in again with it: try it once more
	e.engine.Hold("session-bad", e.account, bad, start.Add(2*time.Hour))
	e.engine.Hold("session-good", e.account, e.cred, start.Add(time.Hour))
	e.syncClock.BlockUntil(1)
	if !e.engine.Running(e.account) {
		t.Fatal("the loop stopped although a valid credential is held")
	}
	if st := e.status(t, domain.ResourceDevices); st.LastError != "" || st.LastSuccess.IsZero() {
		t.Errorf("devices status with one good credential = %+v", st)
	}
	if _, rejected := e.engine.Rejected(CredentialID(e.cred)); rejected {
		t.Error("the good credential was reported rejected")
	}
}

func waitFor(t *testing.T, events <-chan Event, kind EventKind) Event {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev := <-events:
			if ev.Kind == kind {
				return ev
			}
		case <-timeout:
			t.Fatalf("no %s event within 10 s", kind)
		}
	}
}

func TestOneLoopPerAccountAndItStopsWhenNobodyHolds(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 50, 4)
	e.hold(t, "session-1", e.cred)
	e.engine.Hold("session-2", e.account, e.cred, start.Add(time.Hour))
	e.engine.Hold("screen-1", e.account, e.cred, start.Add(time.Hour))
	before := e.requests.Load()
	e.tick(MinInterval)
	perRound := e.requests.Load() - before
	if perRound == 0 {
		t.Fatal("no requests in a round")
	}
	e.syncClock.BlockUntil(1)
	if n := e.syncClock.Waiters(); n != 1 {
		t.Errorf("%d loops waiting for the account, want one", n)
	}

	events, stop := e.engine.Subscribe(e.account)
	defer stop()
	e.engine.Release("session-1")
	e.engine.Release("session-2")
	if !e.engine.Running(e.account) {
		t.Error("the loop stopped while a screen still holds a credential")
	}
	e.engine.mu.Lock()
	l := e.engine.loops[e.account]
	e.engine.mu.Unlock()
	e.engine.Release("screen-1")
	waitFor(t, events, EventStopped)
	select {
	case <-l.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the loop still runs 10 s after every holder left")
	}
	if e.engine.Running(e.account) {
		t.Error("Running reports a loop after every holder left")
	}
}

// TestHoldingAgainKeepsTheLoopOnSchedule: every page a session asks for
// extends its hold; that must neither restart the loop nor refresh early.
func TestHoldingAgainKeepsTheLoopOnSchedule(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 50, 4)
	e.hold(t, "session-1", e.cred)
	e.engine.mu.Lock()
	l := e.engine.loops[e.account]
	e.engine.mu.Unlock()
	before := e.requests.Load()
	for i := range 3 {
		e.engine.Hold("session-1", e.account, e.cred, start.Add(time.Duration(2+i)*time.Hour))
		e.syncClock.BlockUntil(1)
	}
	if n := e.requests.Load() - before; n != 0 {
		t.Errorf("holding again sent %d requests before the next interval", n)
	}
	e.engine.mu.Lock()
	same := e.engine.loops[e.account] == l
	e.engine.mu.Unlock()
	if !same {
		t.Error("holding again replaced the account's loop")
	}
	e.tick(MinInterval)
	if e.requests.Load() == before {
		t.Error("no refresh at the next interval")
	}
}

func TestExpiredHoldsStopTheLoop(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 50, 4)
	e.engine.Hold("session-1", e.account, e.cred, start.Add(90*time.Second))
	e.syncClock.BlockUntil(1)
	events, stop := e.engine.Subscribe(e.account)
	defer stop()
	e.syncClock.Advance(2 * time.Minute) // the session's hold lapses
	waitFor(t, events, EventStopped)
}

func TestShutdownLeavesNoHalfRefresh(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 300, 4)
	e.world.SetFaults(sim.Faults{Latency: 20 * time.Millisecond})
	alertsStarted := make(chan struct{})
	var once sync.Once
	e.onRequest = func(r *http.Request) {
		if r.URL.Path == "/alerts" {
			once.Do(func() { close(alertsStarted) })
		}
	}
	e.engine.Hold("session-1", e.account, e.cred, start.Add(time.Hour))
	<-alertsStarted // devices are written; alerts are being fetched
	e.cancel()
	e.engine.Wait()
	ctx := context.Background()
	devices, _ := e.store.FindDevices(ctx, store.DeviceFilter{Account: e.account})
	if n := len(devices); n != len(e.simDevices(t)) {
		t.Errorf("after shutdown during the alerts refresh the cache holds %d devices, want the whole devices refresh", n)
	}
	if n, _ := e.store.CountAlerts(ctx, store.AlertFilter{Account: e.account}); n != 0 {
		t.Errorf("after shutdown during the first alerts refresh the cache holds %d alerts: a half refresh", n)
	}
}

// TestPastAlertsReadsAWindowFromTheService: for a period the cache does not
// cover, the service is asked for the alerts open at any moment of it, and
// they are exactly the simulator's.
func TestPastAlertsReadsAWindowFromTheService(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 40, 1)
	from := start.Add(-5 * 24 * time.Hour)
	to := from.Add(8 * time.Hour)
	got, w, err := e.engine.PastAlerts(context.Background(), e.cred, from, to)
	if err != nil {
		t.Fatal(err)
	}
	if !w.ResolvedTo.Equal(start) || !w.CreatedFrom.Equal(from.Add(-30*24*time.Hour)) {
		t.Errorf("window %+v: want resolutions read until now and creations from the 30-day lookback", w)
	}
	want := map[string]bool{}
	for _, r := range e.world.Accounts()[0].AlertRecords() {
		if r.Created.Before(to) && (r.Resolved.IsZero() || !r.Resolved.Before(from)) {
			want[r.ID] = r.Resolved.IsZero()
		}
	}
	if len(want) == 0 {
		t.Fatal("the simulator has no alerts open in the window: the test shows nothing")
	}
	for _, a := range got {
		open, ok := want[a.ID]
		if !ok {
			t.Errorf("alert %s (created %v, resolved %v) was not open in the window", a.ID, a.Created, a.Resolved)
			continue
		}
		if open != a.Open() {
			t.Errorf("alert %s: open %v, the simulator says %v", a.ID, a.Open(), open)
		}
		delete(want, a.ID)
	}
	if len(want) > 0 {
		t.Errorf("%d alerts open in the window were not read: %v", len(want), want)
	}
}

// TestAWaitForTheServiceHoldsNoWriteLock: while the service is slow to
// send the first page of a refresh, other writes to the cache (a screen's
// check-in, saved settings) go through.
func TestAWaitForTheServiceHoldsNoWriteLock(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 40, 1)
	release := make(chan struct{})
	waiting := make(chan string, 8)
	var slow atomic.Bool
	e.onRequest = func(r *http.Request) {
		if slow.Load() && (r.URL.Path == "/devices" || r.URL.Path == "/alerts") {
			waiting <- r.URL.Path
			<-release
		}
	}
	defer close(release)
	e.hold(t, "session", e.cred)
	slow.Store(true)
	e.syncClock.Advance(time.Minute) // the next round starts, and waits for the service
	<-waiting
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := e.store.SaveReportSettings(ctx, e.account, store.ReportSettings{Shifts: "Day 07:00-19:00", Zone: "UTC", Updated: start}); err != nil {
		t.Errorf("a write while the refresh waits for the service: %v", err)
	}
}

// TestStoppingAnAccountEndsEveryHoldAtOnce: an account being disconnected
// stops syncing before StopAccount returns, whoever held it, and makes
// no request afterwards.
func TestStoppingAnAccountEndsEveryHoldAtOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 50, 4)
	e.hold(t, "session-1", e.cred)
	e.engine.Hold("screen-1", e.account, e.cred, start.Add(time.Hour))
	e.engine.Hold("account:x", e.account, e.cred, start.Add(time.Hour))
	e.engine.StopAccount(e.account)
	if e.engine.Running(e.account) {
		t.Fatal("the account still syncs after StopAccount")
	}
	before := e.requests.Load()
	e.syncClock.Advance(10 * MinInterval)
	if n := e.requests.Load() - before; n != 0 {
		t.Errorf("%d requests to the service after the account was stopped", n)
	}
}
