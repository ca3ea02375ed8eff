package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"washboard/internal/clock"
	"washboard/internal/webhook"
)

// wallStart is where the tests' fake real-time clock starts: the time of
// the deliveries' signatures, retries and log.
var wallStart = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// testRetries are short retry bounds, stepped through with the fake clock.
var testRetries = []time.Duration{time.Second, 2 * time.Second}

// hookWorld is a small world whose webhooks run on a fake real-time clock,
// with every delivery log entry handed to the test as it is written.
type hookWorld struct {
	*World
	sim     *ManualClock
	wall    *clock.Fake
	entries chan Delivery
}

func newHookWorld(t *testing.T, locations int, opts WebhookOptions) *hookWorld {
	t.Helper()
	sim := NewManualClock(apiNow)
	wall := clock.NewFake(wallStart)
	opts.Clock = wall
	if opts.Retries == nil {
		opts.Retries = testRetries
	}
	if opts.Timeout == 0 {
		opts.Timeout = 5 * time.Second
	}
	w := New(Config{
		Seed: 7, Locations: locations, Accounts: 2, History: 3 * 24 * time.Hour, Clock: sim, Zone: time.UTC,
		Credentials: []Credentials{{APIKey: apiKeyA, Authorization: apiAuthA}, {APIKey: apiKeyB, Authorization: apiAuthB}},
		Webhooks:    opts,
	})
	hw := &hookWorld{World: w, sim: sim, wall: wall, entries: make(chan Delivery, 10_000)}
	w.hooks.observe = func(d Delivery) { hw.entries <- d }
	t.Cleanup(w.Close)
	return hw
}

// entry waits for the next delivery log entry.
func (hw *hookWorld) entry(t *testing.T) Delivery {
	t.Helper()
	select {
	case d := <-hw.entries:
		return d
	case <-time.After(5 * time.Second):
		t.Fatal("no delivery log entry within 5 s")
		return Delivery{}
	}
}

// Statuses a receiver's answer may choose besides real ones.
const (
	hang = -1 // no answer: wait until the sender gives up
	hold = -2 // no answer until the test closes the receiver's hold channel
)

// received is one request that reached a receiver.
type received struct {
	header http.Header
	body   []byte
	event  webhook.Event
	verify error // of the signature, with the receiver's secret at the fake clock's time
}

// receiver is an endpoint that checks every delivery with internal/webhook
// and hands it to the test. answer chooses the status from the number of
// times the event's webhook-id has arrived (1 on the first), or hang or
// hold. It answers 204 if nil.
type receiver struct {
	url    string
	secret webhook.Secret
	got    chan received
	hold   chan struct{}

	mu     sync.Mutex
	answer func(n int, ev webhook.Event) int
	counts map[string]int
}

func newReceiver(t *testing.T, wall *clock.Fake) *receiver {
	t.Helper()
	rc := &receiver{secret: webhook.NewSecret(), got: make(chan received, 10_000), hold: make(chan struct{}), counts: map[string]int{}}
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rv := received{header: r.Header.Clone(), body: body}
		rv.verify = webhook.Verify(rc.secret, r.Header, body, wall.Now())
		if err := json.Unmarshal(body, &rv.event); err != nil {
			rv.verify = fmt.Errorf("body does not read as an event: %v", err)
		}
		rc.mu.Lock()
		rc.counts[rv.event.ID]++
		status := http.StatusNoContent
		if rc.answer != nil {
			status = rc.answer(rc.counts[rv.event.ID], rv.event)
		}
		rc.mu.Unlock()
		rc.got <- rv
		switch status {
		case hang:
			<-r.Context().Done()
			return
		case hold:
			select {
			case <-rc.hold:
				status = http.StatusNoContent
			case <-r.Context().Done():
				return
			}
		}
		rw.WriteHeader(status)
	}))
	t.Cleanup(srv.Close)
	rc.url = srv.URL + "/hooks/washboard"
	return rc
}

func (rc *receiver) setAnswer(f func(n int, ev webhook.Event) int) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.answer = f
}

// next waits for the next delivery to arrive, and checks its signature.
func (rc *receiver) next(t *testing.T) received {
	t.Helper()
	select {
	case rv := <-rc.got:
		if rv.verify != nil {
			t.Fatalf("a delivery fails verification: %v", rv.verify)
		}
		return rv
	case <-time.After(5 * time.Second):
		t.Fatal("no delivery within 5 s")
		return received{}
	}
}

// nextFor waits for the next delivery about the alert, skipping others.
func (rc *receiver) nextFor(t *testing.T, alertID string) received {
	t.Helper()
	for {
		rv := rc.next(t)
		if alertOf(t, rv.event) == alertID {
			return rv
		}
	}
}

// none checks that nothing has arrived (yet).
func (rc *receiver) none(t *testing.T, why string) {
	t.Helper()
	select {
	case rv := <-rc.got:
		t.Fatalf("%s; got %s of alert %s", why, rv.event.Type, alertOf(t, rv.event))
	default:
	}
}

func alertOf(t *testing.T, ev webhook.Event) string {
	t.Helper()
	var a struct {
		AlertID string `json:"alert_id"`
	}
	if err := json.Unmarshal(ev.Data, &a); err != nil {
		t.Fatalf("event data: %v", err)
	}
	return a.AlertID
}

func alertData(t *testing.T, ev webhook.Event) alertWire {
	t.Helper()
	return decodeJSON[alertWire](t, ev.Data)
}

// addHook defines a webhook for account k that sends to rc.
func (hw *hookWorld) addHook(t *testing.T, k int, rc *receiver, types ...webhook.EventType) Webhook {
	t.Helper()
	h, _, err := hw.AddWebhook(k, WebhookSpec{URL: rc.url, Secret: rc.secret, Types: types})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// alter changes a device as the engine would at the clock's now: f
// changes its state, then the device reports it. Staff are kept away, so
// that only the test closes its alerts.
func (hw *hookWorld) alter(a *Account, d *Device, f func()) {
	now := hw.sim.Now()
	a.mu.Lock()
	a.advance(now)
	d.advanceTo(now, a.usage)
	f()
	a.reconcile(d, now)
	d.visits = nil
	a.schedule(d)
	a.wakeups.fix(d)
	hw.unlock(a)
}

// quietDevice finds a device of account a that ok accepts and clears it
// of alerts and incidents, before any webhook sees it.
func quietDevice(t *testing.T, a *Account, ok func(*Device) bool) *Device {
	t.Helper()
	a.mu.Lock()
	defer a.mu.Unlock()
	d := findDevice(t, a, ok)
	quiet(a, d)
	a.schedule(d)
	a.wakeups.fix(d)
	return d
}

// openAlert returns the device's open alert of the type.
func openAlert(t *testing.T, a *Account, d *Device, typ AlertType) *Alert {
	t.Helper()
	a.mu.Lock()
	defer a.mu.Unlock()
	al := d.open[typ]
	if al == nil {
		t.Fatalf("device %s has no open %s alert", d.MAC, typ)
	}
	return al
}

// asListed is the alert as GET /alerts renders it now, byte for byte.
func asListed(t *testing.T, w *World, id, key, auth string) string {
	t.Helper()
	body := getOK(t, w.Handler(), withQuery("/alerts", "alert_id", id, "start_date", "2026-01-01"), key, auth)
	var page struct {
		Alerts []json.RawMessage `json:"alerts"`
	}
	if err := json.Unmarshal(body, &page); err != nil || len(page.Alerts) != 1 {
		t.Fatalf("GET /alerts?alert_id=%s: %v, %d alerts; want one", id, err, len(page.Alerts))
	}
	return string(page.Alerts[0])
}

// emptyDevices empties up to n devices of the account that transmit,
// hold product and have no consumable_out alert open: each gives exactly
// one alert.created. It returns how many it emptied.
func emptyDevices(t *testing.T, w *World, a *Account, n int) int {
	t.Helper()
	var macs []string
	a.mu.Lock()
	for _, l := range a.Locations {
		for _, d := range l.Devices {
			if len(macs) < n && len(d.compartments) > 0 && d.silentSince.IsZero() && d.open[AlertConsumableOut] == nil {
				macs = append(macs, d.MAC)
			}
		}
	}
	a.mu.Unlock()
	for _, mac := range macs {
		if !w.Empty(mac) {
			t.Fatalf("Empty(%s) found no device", mac)
		}
	}
	return len(macs)
}

func TestWebhookEventsFollowAnAlert(t *testing.T) {
	t.Parallel()
	hw := newHookWorld(t, 60, WebhookOptions{})
	a := hw.accounts[0] // prefers "out": a roll counts when it is out
	d := quietDevice(t, a, isFourRoll)
	rc := newReceiver(t, hw.wall)
	hw.addHook(t, 0, rc)

	var events []webhook.Event
	check := func(rv received, typ webhook.EventType, id string) alertWire {
		t.Helper()
		ev := rv.event
		events = append(events, ev)
		if ev.Type != typ {
			t.Fatalf("event type %q, want %q", ev.Type, typ)
		}
		if got := rv.header.Get("webhook-id"); got != ev.ID || !strings.HasPrefix(got, "evt_") {
			t.Errorf("webhook-id %q, want the event's id %q", got, ev.ID)
		}
		if ct := rv.header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("Content-Type %q, want application/json", ct)
		}
		if want := asListed(t, hw.World, id, apiKeyA, apiAuthA); string(ev.Data) != want {
			t.Errorf("%s data\n %s\nwant it as GET /alerts lists the alert\n %s", typ, ev.Data, want)
		}
		return alertData(t, ev)
	}

	hw.alter(a, d, func() { setLevels(d, 0, 60, 70, 80) })
	al := openAlert(t, a, d, AlertConsumableOut)
	got := check(rc.nextFor(t, al.ID), webhook.AlertCreated, al.ID)
	if got.AlertStatus != "OPEN" || got.RefillCount != 1 || got.Overdue {
		t.Errorf("created: %+v, want OPEN, refill_count 1, not overdue", got)
	}
	if !events[0].CreatedAt.Equal(apiNow) {
		t.Errorf("created_at %s, want the simulated time the roll ran out, %s", events[0].CreatedAt, apiNow)
	}

	hw.alter(a, d, func() { setLevels(d, 0, 0, 70, 80) })
	if got := check(rc.nextFor(t, al.ID), webhook.AlertUpdated, al.ID); got.RefillCount != 2 {
		t.Errorf("updated: refill_count %d, want 2 after a second roll ran out", got.RefillCount)
	}

	// Past the deadline, with no request: the pump brings the account
	// forward on its own.
	hw.sim.Add(Deadlines[AlertConsumableOut] + time.Minute)
	if got := check(rc.nextFor(t, al.ID), webhook.AlertUpdated, al.ID); !got.Overdue || got.AlertStatus != "OPEN" {
		t.Errorf("updated at the deadline: %+v, want OPEN and overdue", got)
	}
	if want := al.Created.Add(Deadlines[AlertConsumableOut] + time.Millisecond); !events[2].CreatedAt.Equal(want) {
		t.Errorf("overdue event created_at %s, want the first millisecond past the deadline, %s", events[2].CreatedAt, want)
	}

	hw.alter(a, d, d.refill)
	got = check(rc.nextFor(t, al.ID), webhook.AlertResolved, al.ID)
	if got.AlertStatus != "CLOSED" || got.ResolutionType == nil || *got.ResolutionType != "RESOLVED" || !got.Overdue {
		t.Errorf("resolved: %+v, want CLOSED, RESOLVED, still overdue", got)
	}
	for i := 1; i < len(events); i++ {
		if events[i].CreatedAt.Before(events[i-1].CreatedAt) {
			t.Errorf("event %d created_at %s before the previous one's %s", i, events[i].CreatedAt, events[i-1].CreatedAt)
		}
		if events[i].ID == events[i-1].ID {
			t.Errorf("events %d and %d share the id %s", i-1, i, events[i].ID)
		}
	}
}

func TestWebhookOverdueArrivesWithoutRequests(t *testing.T) {
	hw := newHookWorld(t, 60, WebhookOptions{}) // the pump's tick is 50 ms
	a := hw.accounts[0]
	d := quietDevice(t, a, isFourRoll)
	rc := newReceiver(t, hw.wall)
	hw.addHook(t, 0, rc, webhook.AlertUpdated)
	hw.alter(a, d, func() { setLevels(d, 0, 60, 70, 80) })
	al := openAlert(t, a, d, AlertConsumableOut)

	start := time.Now()
	hw.sim.Set(al.Created.Add(Deadlines[AlertConsumableOut] + time.Millisecond))
	rv := rc.nextFor(t, al.ID)
	if !alertData(t, rv.event).Overdue {
		t.Fatalf("the first update is not the alert becoming overdue: %s", rv.body)
	}
	// Due within a tick; the bound leaves room for a loaded machine and
	// the race detector.
	if took := time.Since(start); took > time.Second {
		t.Errorf("the overdue event arrived %s after it was due, want within a tick or two", took)
	}
}

func TestWebhookSendsOnlyChangesAfterItWasDefined(t *testing.T) {
	t.Parallel()
	hw := newHookWorld(t, 60, WebhookOptions{})
	a, b := hw.accounts[0], hw.accounts[1]
	rc := newReceiver(t, hw.wall)
	defined := hw.sim.Now()
	hw.addHook(t, 0, rc)

	bAlerts := map[string]bool{}
	emptyDevices(t, hw.World, b, 3) // the other account's changes are not this webhook's
	hw.sim.Add(36 * time.Hour)
	hw.Advance()
	for _, r := range b.AlertRecords() {
		bAlerts[r.ID] = true
	}
	before := map[string]bool{}
	for _, r := range a.AlertRecords() {
		if !r.Created.After(defined) {
			before[r.ID] = true
		}
	}
	// A last change, delivered after every earlier one: all events are
	// due at once, and go out in the order they happened.
	d := quietDevice(t, a, func(d *Device) bool { return d.Location.Type == Towel && d.open[AlertConsumableOut] == nil })
	hw.alter(a, d, func() { setLevels(d, 0) })
	marker := openAlert(t, a, d, AlertConsumableOut).ID

	byAlert := map[string][]webhook.Event{}
	var n int
	for {
		rv := rc.next(t)
		id := alertOf(t, rv.event)
		n++
		if bAlerts[id] {
			t.Fatalf("an event of the other account's alert %s", id)
		}
		if rv.event.CreatedAt.Before(defined) {
			t.Errorf("an event of %s happened at %s, before the webhook was defined at %s", id, rv.event.CreatedAt, defined)
		}
		if rv.event.Type == webhook.AlertCreated && before[id] {
			t.Errorf("alert.created for %s, created before the webhook was defined", id)
		}
		byAlert[id] = append(byAlert[id], rv.event)
		if id == marker {
			break
		}
	}
	if n < 10 {
		t.Errorf("%d events over 36 simulated hours of 60 locations; want a lively fleet", n)
	}
	for id, evs := range byAlert {
		for i, ev := range evs {
			if ev.Type == webhook.AlertCreated && i > 0 {
				t.Errorf("alert %s: alert.created after %s", id, evs[i-1].Type)
			}
			if i > 0 && evs[i-1].Type == webhook.AlertResolved {
				t.Errorf("alert %s: %s after alert.resolved", id, ev.Type)
			}
			if i > 0 && ev.CreatedAt.Before(evs[i-1].CreatedAt) {
				t.Errorf("alert %s: events out of order", id)
			}
		}
		// The last event says what GET /alerts says now.
		if want := asListed(t, hw.World, id, apiKeyA, apiAuthA); string(evs[len(evs)-1].Data) != want {
			t.Errorf("alert %s: last event's data\n %s\nGET /alerts\n %s", id, evs[len(evs)-1].Data, want)
		}
	}
}

func TestWebhookRetriesKeepOrderPerAlert(t *testing.T) {
	t.Parallel()
	hw := newHookWorld(t, 60, WebhookOptions{})
	a := hw.accounts[0]
	x := quietDevice(t, a, isFourRoll)
	y := quietDevice(t, a, func(d *Device) bool { return d.Location.Type == Towel })
	rc := newReceiver(t, hw.wall)
	failed := "" // the first event to arrive, x's creation, fails once
	rc.setAnswer(func(n int, ev webhook.Event) int {
		if failed == "" {
			failed = ev.ID
		}
		if ev.ID == failed && n == 1 {
			return http.StatusInternalServerError
		}
		return http.StatusNoContent
	})
	hw.addHook(t, 0, rc)

	hw.alter(a, x, func() { setLevels(x, 0, 60, 70, 80) })
	alX := openAlert(t, a, x, AlertConsumableOut)
	first := rc.nextFor(t, alX.ID)
	e := hw.entry(t)
	if e.Outcome != OutcomeRetrying || e.Status != 500 || e.Attempt != 1 || e.EventID != first.event.ID {
		t.Fatalf("log entry %+v, want attempt 1 of %s retrying after status 500", e, first.event.ID)
	}
	if wait := e.NextAttempt.Sub(e.At); wait < 0 || wait > testRetries[0] {
		t.Errorf("next attempt %s after the first, want within the first retry bound %s", wait, testRetries[0])
	}

	// A later change of x waits for its creation to be delivered; another
	// alert's event does not.
	hw.alter(a, x, func() { setLevels(x, 0, 0, 70, 80) })
	hw.alter(a, y, func() { setLevels(y, 0) })
	alY := openAlert(t, a, y, AlertConsumableOut)
	if rv := rc.next(t); alertOf(t, rv.event) != alY.ID {
		t.Fatalf("next delivery is %s of %s; want y's creation, while x's update waits for its creation", rv.event.Type, alertOf(t, rv.event))
	}
	hw.entry(t)

	hw.wall.BlockUntil(1)
	hw.wall.Advance(testRetries[0])
	again := rc.next(t)
	if again.event.ID != first.event.ID || again.header.Get("webhook-id") != first.header.Get("webhook-id") || !bytes.Equal(again.body, first.body) {
		t.Errorf("the retry is %s with body %s; want the same webhook-id %s and body", again.header.Get("webhook-id"), again.body, first.event.ID)
	}
	if upd := rc.next(t); upd.event.Type != webhook.AlertUpdated || alertOf(t, upd.event) != alX.ID {
		t.Errorf("after x's creation came %s of %s; want x's update", upd.event.Type, alertOf(t, upd.event))
	}
	hw.entry(t)
	hw.entry(t)
	log, _ := hw.WebhookDeliveries(0, hw.Webhooks(0)[0].ID)
	var outcomes []string
	for _, d := range log {
		outcomes = append(outcomes, fmt.Sprintf("%s#%d:%s", d.Type, d.Attempt, d.Outcome))
	}
	want := "alert.created#1:retrying alert.created#1:delivered alert.created#2:delivered alert.updated#1:delivered"
	if got := strings.Join(outcomes, " "); got != want {
		t.Errorf("delivery log %s\nwant %s", got, want)
	}
}

func TestWebhookTimeoutRetriedWithTheSameID(t *testing.T) {
	t.Parallel()
	hw := newHookWorld(t, 60, WebhookOptions{Timeout: 100 * time.Millisecond})
	a := hw.accounts[0]
	d := quietDevice(t, a, isFourRoll)
	rc := newReceiver(t, hw.wall)
	rc.setAnswer(func(n int, _ webhook.Event) int {
		if n == 1 {
			return -1 // no answer
		}
		return http.StatusOK
	})
	hw.addHook(t, 0, rc)
	hw.alter(a, d, func() { setLevels(d, 0, 60, 70, 80) })

	first := rc.next(t)
	e := hw.entry(t)
	if e.Outcome != OutcomeRetrying || e.Status != 0 || e.Error != "no answer within 100ms" {
		t.Fatalf("log entry %+v, want retrying with the error %q and no status", e, "no answer within 100ms")
	}
	hw.wall.BlockUntil(1)
	hw.wall.Advance(testRetries[0])
	again := rc.next(t)
	if again.header.Get("webhook-id") != first.header.Get("webhook-id") || !bytes.Equal(again.body, first.body) {
		t.Error("the retry after a time-out does not carry the first attempt's webhook-id and body")
	}
	if e := hw.entry(t); e.Outcome != OutcomeDelivered || e.Attempt != 2 || e.Status != 200 {
		t.Errorf("log entry %+v, want attempt 2 delivered with 200", e)
	}
}

func TestWebhookGivenUpMarksTheDefinitionFailing(t *testing.T) {
	t.Parallel()
	hw := newHookWorld(t, 60, WebhookOptions{})
	a := hw.accounts[0]
	d := quietDevice(t, a, isFourRoll)
	rc := newReceiver(t, hw.wall)
	rc.setAnswer(func(int, webhook.Event) int { return http.StatusServiceUnavailable })
	hw.addHook(t, 0, rc)
	hw.alter(a, d, func() { setLevels(d, 0, 60, 70, 80) })

	for attempt := 1; attempt <= len(testRetries)+1; attempt++ {
		rc.next(t)
		e := hw.entry(t)
		want := OutcomeRetrying
		if attempt == len(testRetries)+1 {
			want = OutcomeFailed
		}
		if e.Attempt != attempt || e.Outcome != want || e.Status != http.StatusServiceUnavailable {
			t.Fatalf("log entry %+v, want attempt %d %s with 503", e, attempt, want)
		}
		if want == OutcomeRetrying {
			if e.NextAttempt.IsZero() {
				t.Errorf("attempt %d: no next attempt time", attempt)
			}
			hw.wall.BlockUntil(1)
			hw.wall.Advance(testRetries[attempt-1])
		} else if !e.NextAttempt.IsZero() {
			t.Errorf("the last attempt has a next attempt at %s", e.NextAttempt)
		}
	}
	listed := hw.Webhooks(0)[0]
	if !listed.Failing || listed.Queued != 0 {
		t.Errorf("after the last attempt failed: failing=%v queued=%d; want failing and nothing queued", listed.Failing, listed.Queued)
	}

	// A delivery that succeeds later clears it.
	rc.setAnswer(nil)
	hw.alter(a, d, func() { setLevels(d, 0, 0, 70, 80) })
	rc.next(t)
	if e := hw.entry(t); e.Outcome != OutcomeDelivered {
		t.Fatalf("log entry %+v, want delivered", e)
	}
	if hw.Webhooks(0)[0].Failing {
		t.Error("still failing after a delivery succeeded")
	}
}

func TestWebhookDropRate(t *testing.T) {
	t.Parallel()
	t.Run("all", func(t *testing.T) {
		hw := newHookWorld(t, 60, WebhookOptions{})
		hw.SetFaults(Faults{WebhookDropRate: 1})
		rc := newReceiver(t, hw.wall)
		hw.addHook(t, 0, rc)
		n := emptyDevices(t, hw.World, hw.accounts[0], 5)
		for range n {
			if e := hw.entry(t); e.Outcome != OutcomeDropped || e.Attempt != 1 || !strings.Contains(e.Error, "drop rate") {
				t.Errorf("log entry %+v, want dropped by the drop rate", e)
			}
		}
		// A dropped event would have reached the receiver before its
		// log entry was written.
		rc.none(t, "with drop rate 1 an event was sent")
		if hw.wall.Waiters() != 0 {
			t.Error("a dropped event is scheduled for a retry")
		}
	})
	t.Run("a share", func(t *testing.T) {
		hw := newHookWorld(t, 300, WebhookOptions{})
		hw.SetFaults(Faults{WebhookDropRate: 0.3})
		rc := newReceiver(t, hw.wall)
		hw.addHook(t, 0, rc)
		n := emptyDevices(t, hw.World, hw.accounts[0], 250)
		dropped, delivered := 0, 0
		for range n {
			switch e := hw.entry(t); e.Outcome {
			case OutcomeDropped:
				dropped++
			case OutcomeDelivered:
				delivered++
			default:
				t.Fatalf("log entry %+v, want delivered or dropped", e)
			}
		}
		if share := float64(dropped) / float64(n); share < 0.2 || share > 0.4 {
			t.Errorf("%d of %d events dropped (%.2f), want about 0.3", dropped, n, share)
		}
		if len(rc.got) != delivered {
			t.Errorf("the receiver got %d events, want the %d delivered", len(rc.got), delivered)
		}
	})
}

func TestWebhookQueueBounded(t *testing.T) {
	t.Parallel()
	hw := newHookWorld(t, 60, WebhookOptions{QueueLimit: 3})
	a := hw.accounts[0]
	rc := newReceiver(t, hw.wall)
	calls := 0
	rc.setAnswer(func(int, webhook.Event) int {
		if calls++; calls == 1 {
			return hold // the first delivery holds the worker until released
		}
		return http.StatusAccepted
	})
	hw.addHook(t, 0, rc)
	emptyDevices(t, hw.World, a, 1)
	held := rc.next(t)
	if e := held.event; e.Type != webhook.AlertCreated {
		t.Fatalf("first delivery %s, want alert.created", e.Type)
	}

	// Five more while the first is in flight: the queue holds three events
	// in all, so the three oldest waiting are dropped.
	var macs []string
	a.mu.Lock()
	for _, l := range a.Locations {
		for _, d := range l.Devices {
			if len(macs) < 5 && len(d.compartments) > 0 && d.silentSince.IsZero() && d.open[AlertConsumableOut] == nil {
				macs = append(macs, d.MAC)
			}
		}
	}
	a.mu.Unlock()
	var ids []string
	for _, mac := range macs {
		hw.Empty(mac)
		a.mu.Lock()
		ids = append(ids, a.devices[mac].open[AlertConsumableOut].ID)
		a.mu.Unlock()
	}
	for i := range 3 {
		e := hw.entry(t)
		if e.Outcome != OutcomeDropped || e.AlertID != ids[i] || !strings.Contains(e.Error, "queue was full") {
			t.Errorf("log entry %+v, want %s dropped for a full queue", e, ids[i])
		}
	}
	if h := hw.Webhooks(0)[0]; h.Dropped != 3 || h.Queued != 3 {
		t.Errorf("listed with dropped=%d queued=%d, want 3 and 3", h.Dropped, h.Queued)
	}
	close(rc.hold)
	if e := hw.entry(t); e.EventID != held.event.ID || e.Outcome != OutcomeDelivered {
		t.Errorf("log entry %+v, want the held event delivered", e)
	}
	for _, want := range ids[3:] {
		if got := alertOf(t, rc.next(t).event); got != want {
			t.Errorf("delivered %s, want %s: the newest are kept", got, want)
		}
	}
}

func TestWebhookDisabledOrRemovedIsSentNothing(t *testing.T) {
	t.Parallel()
	hw := newHookWorld(t, 60, WebhookOptions{})
	a := hw.accounts[0]
	r1, r2 := newReceiver(t, hw.wall), newReceiver(t, hw.wall)
	h1, h2 := hw.addHook(t, 0, r1), hw.addHook(t, 0, r2)
	if _, ok := hw.SetWebhookEnabled(0, h1.ID, false); !ok {
		t.Fatal("SetWebhookEnabled: no such webhook")
	}
	emptyDevices(t, hw.World, a, 1)
	r2.next(t)
	// Events reach the definitions in the order they were defined, so
	// the first would have it queued or logged by now.
	if got := hw.Webhooks(0)[0]; got.Enabled || got.Queued != 0 {
		t.Errorf("disabled definition: %+v, want disabled with nothing queued", got)
	}
	if log, _ := hw.WebhookDeliveries(0, h1.ID); len(log) != 0 {
		t.Errorf("the disabled definition logged %d deliveries", len(log))
	}
	r1.none(t, "a disabled definition was sent an event")

	hw.SetWebhookEnabled(0, h1.ID, true)
	if !hw.RemoveWebhook(0, h2.ID) {
		t.Fatal("RemoveWebhook: no such webhook")
	}
	if hw.RemoveWebhook(0, h2.ID) {
		t.Error("RemoveWebhook removed the same webhook twice")
	}
	emptyDevices(t, hw.World, a, 1)
	rv := r1.next(t)
	if rv.event.Type != webhook.AlertCreated {
		t.Errorf("re-enabled definition got %s first; want the new alert's creation, not what happened while it was off", rv.event.Type)
	}
	r2.none(t, "a removed definition was sent an event")
	if got := hw.Webhooks(0); len(got) != 1 || got[0].ID != h1.ID {
		t.Errorf("definitions after the removal: %+v", got)
	}
}

func TestWebhookLogLinesRevealNothing(t *testing.T) {
	t.Parallel()
	var buf syncBuffer
	hw := newHookWorld(t, 60, WebhookOptions{Log: slog.New(slog.NewTextHandler(&buf, nil))})
	a := hw.accounts[0]
	rc := newReceiver(t, hw.wall)
	rc.setAnswer(func(n int, _ webhook.Event) int {
		if n == 1 {
			return http.StatusBadGateway
		}
		return http.StatusOK
	})
	token := "tok3n-in-the-url"
	rc.url += "?token=" + token
	h := hw.addHook(t, 0, rc)
	dead, deadSecret, err := hw.AddWebhook(0, WebhookSpec{URL: "http://127.0.0.1:1/hook?token=" + token})
	if err != nil {
		t.Fatal(err)
	}
	emptyDevices(t, hw.World, a, 1)
	first := rc.next(t)
	hw.entry(t)
	hw.entry(t)
	hw.wall.BlockUntil(2)
	hw.wall.Advance(testRetries[0])
	rc.next(t)
	hw.entry(t)
	hw.entry(t)

	out := buf.String()
	if n := strings.Count(out, "webhook delivery"); n != 4 {
		t.Errorf("%d delivery lines, want 4:\n%s", n, out)
	}
	for _, want := range []string{"webhook=" + h.ID, "webhook=" + dead.ID, "event=" + first.event.ID, "status=502", "outcome=retrying", "outcome=delivered", "connection refused"} {
		if !strings.Contains(out, want) {
			t.Errorf("the log lacks %q:\n%s", want, out)
		}
	}
	secrets := map[string]string{
		"a secret": rc.secret.Text(), "the other secret": deadSecret.Text(), "a secret's key": strings.TrimPrefix(rc.secret.Text(), "whsec_"),
		"the signature": strings.TrimPrefix(first.header.Get("webhook-signature"), "v1,"), "the body": string(first.body),
		"the alert data": string(first.event.Data), "the URL's token": token,
	}
	for what, s := range secrets {
		if strings.Contains(out, s) {
			t.Errorf("the log reveals %s:\n%s", what, out)
		}
	}
}

func TestDefaultRetries(t *testing.T) {
	t.Parallel()
	r := DefaultRetries
	if len(r)+1 < 6 {
		t.Errorf("%d attempts in all, want at least 6", len(r)+1)
	}
	if r[0] > 30*time.Second {
		t.Errorf("the first retry may wait %s, want within 30 s", r[0])
	}
	var mean time.Duration
	for _, d := range r {
		mean += d / 2 // full jitter: uniform from zero to the bound
	}
	if mean < 45*time.Minute || mean > 75*time.Minute {
		t.Errorf("the retries end %s after the first attempt on average, want about an hour", mean)
	}
}

func TestWebhookSpecChecked(t *testing.T) {
	t.Parallel()
	hw := newHookWorld(t, 20, WebhookOptions{})
	for _, c := range []struct {
		spec  WebhookSpec
		field string
	}{
		{WebhookSpec{}, "url"},
		{WebhookSpec{URL: "example.com/hook"}, "url"},
		{WebhookSpec{URL: "ftp://example.com/hook"}, "url"},
		{WebhookSpec{URL: "https://"}, "url"},
		{WebhookSpec{URL: "https://user:pass@example.com/hook"}, "url"},
		{WebhookSpec{URL: "https://example.com/" + strings.Repeat("x", 3000)}, "url"},
		{WebhookSpec{URL: "https://example.com/hook", Types: []webhook.EventType{"alert.deleted"}}, "event_types"},
	} {
		_, _, err := hw.AddWebhook(0, c.spec)
		se, ok := err.(*SpecError)
		if !ok || se.Field != c.field {
			t.Errorf("AddWebhook(%.60q, %v) = %v, want a SpecError on %s", c.spec.URL, c.spec.Types, err, c.field)
		}
	}
	if got := hw.Webhooks(0); len(got) != 0 {
		t.Errorf("%d definitions after only bad ones", len(got))
	}
	hw.Close()
	if _, _, err := hw.AddWebhook(0, WebhookSpec{URL: "https://example.com/hook"}); err != ErrClosed {
		t.Errorf("AddWebhook after Close = %v, want ErrClosed", err)
	}
}

// syncBuffer is a bytes.Buffer safe for concurrent writers and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
