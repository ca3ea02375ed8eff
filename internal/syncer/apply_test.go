package syncer

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/upstream"
)

func TestEventsSlowTheAlertsPollUntilTheyStop(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 30, 1)
	var alertPolls atomic.Int64
	e.onRequest = func(r *http.Request) {
		if r.URL.Path == "/alerts" && r.URL.Query().Get("alert_status") == "OPEN" { // each poll walks the open alerts once
			alertPolls.Add(1)
		}
	}
	e.hold(t, "session:1", e.cred)
	ctx := context.Background()
	event := upstream.Alert{ID: "event-1", LocationID: "1", Status: upstream.StatusOpen, Type: "jam_fault", Created: start}

	// Events arrive every minute for ten minutes: alerts are polled every
	// five, devices every minute still.
	rounds := func(n int, events bool) (alerts int64) {
		before := alertPolls.Load()
		for range n {
			if events {
				if _, err := e.engine.ApplyAlerts(ctx, e.account, []upstream.Alert{event}); err != nil {
					t.Fatal(err)
				}
			}
			e.tick(time.Minute)
		}
		return alertPolls.Load() - before
	}
	if n := rounds(10, true); n != 2 {
		t.Errorf("%d alert polls in ten minutes of events, want 2 (one every 5 minutes)", n)
	}
	if !e.engine.Live(e.account) {
		t.Error("the account is not live while events arrive")
	}
	if st := e.status(t, domain.ResourceDevices); st.LastSuccess.Before(e.syncClock.Now().Add(-time.Minute)) {
		t.Errorf("devices were last refreshed at %s, more than a minute ago", st.LastSuccess)
	}
	// The events stop: within two intervals polling is back to every
	// minute.
	rounds(2, false)
	if e.engine.Live(e.account) {
		t.Error("the account is still live two intervals after the last event")
	}
	if n := rounds(5, false); n != 5 {
		t.Errorf("%d alert polls in the five minutes after, want 5", n)
	}
}
