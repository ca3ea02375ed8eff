package receiver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/keyring"
	"washboard/internal/store"
	"washboard/internal/store/sqlite/sqlitetest"
	"washboard/internal/upstream"
	"washboard/internal/webhook"
)

// applier records what it is asked to apply.
type applier struct {
	mu      sync.Mutex
	applied map[string][]upstream.Alert // by account
	done    chan struct{}               // told of each call
}

func (a *applier) ApplyAlerts(_ context.Context, account string, alerts []upstream.Alert) (domain.Change, error) {
	a.mu.Lock()
	a.applied[account] = append(a.applied[account], alerts...)
	a.mu.Unlock()
	a.done <- struct{}{}
	return domain.Change{Changed: len(alerts)}, nil
}

func (a *applier) count(account string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.applied[account])
}

type env struct {
	t     *testing.T
	st    store.Store
	svc   *Service
	apply *applier
	logs  *bytes.Buffer
	now   time.Time
	mu    sync.Mutex
}

func newEnv(t *testing.T, cfg Config) *env {
	t.Helper()
	st, _ := sqlitetest.Open(t)
	keys, err := keyring.New(bytes.Repeat([]byte{4}, keyring.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, st: st, apply: &applier{applied: map[string][]upstream.Alert{}, done: make(chan struct{}, 1000)},
		logs: &bytes.Buffer{}, now: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}
	cfg.Now = e.clock
	e.svc = New(st, keys, e.apply, cfg, slog.New(slog.NewTextHandler(e.logs, nil)))
	return e
}

func (e *env) clock() time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.now
}

func (e *env) advance(d time.Duration) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.now = e.now.Add(d)
}

// run applies the queue until the test ends.
func (e *env) run() {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { e.svc.Run(ctx); close(done) }()
	e.t.Cleanup(func() { cancel(); <-done })
}

// event is a signed delivery of an alert event.
func (e *env) event(secret webhook.Secret, id, alertID string, at time.Time) (http.Header, []byte) {
	data := fmt.Sprintf(`{"alert_id":%q,"device_location_id":"12","device_macid":["A1B2C3D4E5F6"],"alert_status":"OPEN",
		"alert_type":"consumable_out","created_date":"2026-11-23T11:00:00.000Z","resolved_date":null,"resolution_type":null,
		"overdue":false,"refill_count":1}`, alertID)
	body, err := json.Marshal(webhook.Event{ID: id, Type: webhook.AlertCreated, CreatedAt: at, Data: json.RawMessage(data)})
	if err != nil {
		e.t.Fatal(err)
	}
	return webhook.Sign(secret, id, at, body), body
}

func TestASignedEventIsAcceptedOnceAndApplied(t *testing.T) {
	e := newEnv(t, Config{})
	e.run()
	ctx := context.Background()
	id, secret, err := e.svc.Create(ctx, "acc-1", "", e.clock())
	if err != nil || !strings.HasPrefix(id, "rcv_") || secret.IsZero() {
		t.Fatalf("Create = %q, %v, %v", id, secret, err)
	}
	h, body := e.event(secret, "evt_1", "alert-1", e.clock())
	if err := e.svc.Receive(ctx, id, h, body); err != nil {
		t.Fatalf("a signed event: %v", err)
	}
	<-e.apply.done
	if n := e.apply.count("acc-1"); n != 1 {
		t.Fatalf("%d alerts applied, want 1", n)
	}
	// The same delivery again, a retry or a replay: accepted, not applied.
	if err := e.svc.Receive(ctx, id, h, body); err != nil {
		t.Fatalf("the event again: %v", err)
	}
	h2, body2 := e.event(secret, "evt_2", "alert-2", e.clock())
	if err := e.svc.Receive(ctx, id, h2, body2); err != nil {
		t.Fatal(err)
	}
	<-e.apply.done
	if n := e.apply.count("acc-1"); n != 2 {
		t.Errorf("%d alerts applied after a repeat and a new event, want 2", n)
	}
	list, err := e.svc.List(ctx, "acc-1")
	if err != nil || len(list) != 1 || list[0].Accepted != 3 || list[0].Rejected != 0 || !list[0].LastEvent.Equal(e.clock()) {
		t.Errorf("List = %+v, %v; want one receiver with 3 accepted", list, err)
	}
}

func TestDeliveriesThatFailACheckAreRefusedWithTheirReason(t *testing.T) {
	e := newEnv(t, Config{QueueSize: 1})
	ctx := context.Background()
	id, secret, _ := e.svc.Create(ctx, "acc-1", "", e.clock())
	other := webhook.NewSecret()
	now := e.clock()

	// Another account's alert is in the cache.
	if _, err := e.st.ApplyAlertEvents(ctx, "acc-2", []domain.Alert{{ID: "alert-of-2", LocationID: "1", Status: domain.AlertOpen,
		Type: domain.AlertJam, Created: now.Add(-time.Hour)}}, now); err != nil {
		t.Fatal(err)
	}
	good := func(alertID string) (http.Header, []byte) { return e.event(secret, "evt_"+alertID, alertID, now) }
	tests := []struct {
		name string
		do   func() error
		want error
	}{
		{"an unknown receiver", func() error { h, b := good("a"); return e.svc.Receive(ctx, "rcv_nothere", h, b) }, ErrUnknown},
		{"another secret", func() error { h, b := e.event(other, "evt_x", "a", now); return e.svc.Receive(ctx, id, h, b) }, ErrSignature},
		{"a changed body", func() error {
			h, b := good("b")
			return e.svc.Receive(ctx, id, h, bytes.Replace(b, []byte(`"refill_count":1`), []byte(`"refill_count":9`), 1))
		}, ErrSignature},
		{"a stale timestamp", func() error {
			h, b := e.event(secret, "evt_old", "c", now.Add(-6*time.Minute))
			return e.svc.Receive(ctx, id, h, b)
		}, ErrSignature},
		{"no signature headers", func() error { _, b := good("d"); return e.svc.Receive(ctx, id, http.Header{}, b) }, ErrSignature},
		{"a body that is not JSON", func() error {
			b := []byte("not json at all")
			return e.svc.Receive(ctx, id, webhook.Sign(secret, "evt_j", now, b), b)
		}, ErrMalformed},
		{"data that is not an alert", func() error {
			b, _ := json.Marshal(webhook.Event{ID: "evt_d", Type: webhook.AlertUpdated, CreatedAt: now, Data: json.RawMessage(`{"no":"id"}`)})
			return e.svc.Receive(ctx, id, webhook.Sign(secret, "evt_d", now, b), b)
		}, ErrMalformed},
		{"an event of a type this receiver does not read", func() error {
			b, _ := json.Marshal(webhook.Event{ID: "evt_t", Type: "alert.deleted", CreatedAt: now, Data: json.RawMessage(`{"alert_id":"g"}`)})
			return e.svc.Receive(ctx, id, webhook.Sign(secret, "evt_t", now, b), b)
		}, ErrMalformed},
		{"another account's alert", func() error { h, b := good("alert-of-2"); return e.svc.Receive(ctx, id, h, b) }, ErrOtherAccount},
		{"the first event fills the queue", func() error { h, b := good("e"); return e.svc.Receive(ctx, id, h, b) }, nil},
		{"a full queue", func() error { h, b := good("f"); return e.svc.Receive(ctx, id, h, b) }, ErrBusy},
	}
	for _, tt := range tests {
		err := tt.do()
		if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.want)
		}
	}
	// A refused delivery can come again later and be taken: a sender
	// retries what got 503.
	e.run()
	<-e.apply.done
	if h, b := good("f"); e.svc.Receive(ctx, id, h, b) != nil {
		t.Error("the event refused for a full queue is refused when sent again")
	}
	logs := e.logs.String()
	for _, leak := range []string{strings.TrimPrefix(secret.Text(), "whsec_"), "refill_count", "not json at all", `"no"`} {
		if strings.Contains(logs, leak) {
			t.Errorf("the log holds %q:\n%s", leak, logs)
		}
	}
	for _, reason := range []string{"no matching webhook signature", "too old", "its data is not an alert", "its type is not one this receiver reads", "another account", "too many events"} {
		if !strings.Contains(logs, reason) {
			t.Errorf("the log does not say %q:\n%s", reason, logs)
		}
	}
	e.svc.flush(ctx)
	list, _ := e.svc.List(ctx, "acc-1")
	if len(list) != 1 || list[0].Rejected != 9 || list[0].Accepted != 2 {
		t.Errorf("counts %+v; want 9 refused and 2 accepted", list)
	}
}

func TestARotatedSecretIsAcceptedForAWhile(t *testing.T) {
	e := newEnv(t, Config{RotationGrace: time.Hour})
	e.run()
	ctx := context.Background()
	id, old, _ := e.svc.Create(ctx, "acc-1", "", e.clock())
	pasted := "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	sec, err := e.svc.Rotate(ctx, "acc-1", id, pasted, e.clock())
	if err != nil || sec.Text() != pasted {
		t.Fatalf("Rotate with a pasted secret = %v, %v", sec, err)
	}
	for i, s := range []webhook.Secret{old, sec} {
		h, b := e.event(s, fmt.Sprint("evt_r", i), fmt.Sprint("r", i), e.clock())
		if err := e.svc.Receive(ctx, id, h, b); err != nil {
			t.Errorf("secret %d during the grace: %v", i, err)
		}
	}
	e.advance(time.Hour + time.Minute)
	h, b := e.event(old, "evt_late", "late", e.clock())
	if err := e.svc.Receive(ctx, id, h, b); !errors.Is(err, ErrSignature) {
		t.Errorf("the old secret after the grace: %v", err)
	}
	if _, err := e.svc.Rotate(ctx, "acc-1", id, "whsec_short", e.clock()); !errors.Is(err, ErrBadSecret) {
		t.Errorf("a pasted secret too short: %v", err)
	}
	if _, err := e.svc.Rotate(ctx, "acc-2", id, "", e.clock()); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("rotating another account's receiver: %v", err)
	}
	if err := e.svc.Remove(ctx, "acc-1", id); err != nil {
		t.Fatal(err)
	}
	h, b = e.event(sec, "evt_gone", "gone", e.clock())
	if err := e.svc.Receive(ctx, id, h, b); !errors.Is(err, ErrUnknown) {
		t.Errorf("a removed receiver: %v", err)
	}
}

func TestEventIDsAreRememberedForADayAndBounded(t *testing.T) {
	s := newSeenSet(3, 24*time.Hour)
	t0 := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	for i := range 4 {
		s.add(fmt.Sprint("e", i), t0)
	}
	if s.has("e0", t0) || !s.has("e3", t0) || len(s.at) != 3 {
		t.Errorf("a set of 3 after 4 adds: %v", s.at)
	}
	if s.has("e3", t0.Add(25*time.Hour)) {
		t.Error("an event id is remembered for more than a day")
	}
	s.prune(t0.Add(25 * time.Hour))
	if len(s.at) != 0 || len(s.order) != 0 {
		t.Errorf("after a day the set holds %v", s.at)
	}
}
