package syncer

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/upstream"
)

func TestPagingThatDoesNotEndFailsTheRefreshCleanlyAndTheNextTriesAgain(t *testing.T) {
	t.Parallel()
	var ignoreOffsets atomic.Bool
	ignoreOffsets.Store(true)
	var devicePages atomic.Int64
	e := newEnvWith(t, 60, 1, nil)
	e.onRequest = func(r *http.Request) {
		if r.URL.Path == "/devices" {
			devicePages.Add(1)
			if ignoreOffsets.Load() { // a proxy that drops the offset
				q := r.URL.Query()
				q.Del("offset")
				r.URL.RawQuery = q.Encode()
			}
		}
	}
	e.hold(t, "session:1", e.cred)

	st := e.status(t, domain.ResourceDevices)
	if !st.LastSuccess.IsZero() || !strings.Contains(st.LastError, "did not come to an end") || !strings.Contains(st.LastError, "/devices") {
		t.Fatalf("the devices refresh: success %v, error %q; want a failure saying the paging did not end", st.LastSuccess, st.LastError)
	}
	if n := devicePages.Load(); n != 2 {
		t.Errorf("%d pages of devices fetched; want 2, the second repeating the first", n)
	}
	if d, _ := e.store.FindDevices(context.Background(), store.DeviceFilter{Account: e.account}); len(d) != 0 {
		t.Errorf("the failed refresh wrote %d devices", len(d))
	}
	p := e.engine.Progress(e.account)
	if p.FirstSyncDone || !strings.Contains(p.Failure, "did not come to an end") || p.Locations != 60 {
		t.Errorf("progress = %+v; want the first sync not done, the failure in words, and the layout's 60 locations", p)
	}

	ignoreOffsets.Store(false)
	e.tick(time.Minute)
	if st := e.status(t, domain.ResourceDevices); st.LastSuccess.IsZero() || st.LastError != "" {
		t.Fatalf("the next refresh: success %v, error %q", st.LastSuccess, st.LastError)
	}
	if d, _ := e.store.FindDevices(context.Background(), store.DeviceFilter{Account: e.account}); len(d) < 60 {
		t.Errorf("after the fault, the cache has %d devices", len(d))
	}
	if p := e.engine.Progress(e.account); !p.FirstSyncDone || p.Failure != "" {
		t.Errorf("progress after the fault = %+v", p)
	}
}

// endlessDevices is a source whose devices never end, each page with new
// locations: nothing repeats, so only the layout's size tells that it is
// wrong.
type endlessDevices struct {
	Source
	pages atomic.Int64
}

func (s *endlessDevices) Devices(ctx context.Context, cred upstream.Credentials, page func([]domain.Device) error) (Fetched, error) {
	for n := 0; ; n++ {
		s.pages.Add(1)
		p := make([]domain.Device, 1000)
		for i := range p {
			p[i] = domain.Device{MAC: fmt.Sprintf("%012x", n*1000+i), LocationID: fmt.Sprint(1_000_000 + n*1000 + i)}
		}
		if err := page(p); err != nil {
			return Fetched{Pages: n + 1}, err
		}
	}
}

func TestDevicesBeyondWhatTheLayoutHoldsStopTheRefresh(t *testing.T) {
	t.Parallel()
	var src *endlessDevices
	e := newEnvWith(t, 60, 1, func(s Source) Source { src = &endlessDevices{Source: s}; return src })
	e.hold(t, "session:1", e.cred)
	st := e.status(t, domain.ResourceDevices)
	if !strings.Contains(st.LastError, "more than the 60 locations of the layout can hold") {
		t.Fatalf("the devices refresh: %q", st.LastError)
	}
	if n := src.pages.Load(); n > 16 { // the fetch reads a few pages ahead of the writes
		t.Errorf("%d pages of 1,000 devices fetched for a layout of 60 locations", n)
	}
	if d, _ := e.store.FindDevices(context.Background(), store.DeviceFilter{Account: e.account}); len(d) != 0 {
		t.Errorf("the failed refresh wrote %d devices", len(d))
	}
}

// endlessAlerts is a source whose alerts never end, one new alert a page.
type endlessAlerts struct {
	Source
	pages atomic.Int64
}

func (s *endlessAlerts) Alerts(ctx context.Context, cred upstream.Credentials, status domain.AlertStatus, from, to time.Time, page func([]domain.Alert) error) (Fetched, error) {
	for n := 0; ; n++ {
		s.pages.Add(1)
		a := domain.Alert{ID: fmt.Sprintf("endless-%d", n), LocationID: "1", Status: status, Type: "jam_fault", Created: from.Add(time.Second)}
		if err := page([]domain.Alert{a}); err != nil {
			return Fetched{Pages: n + 1}, err
		}
	}
}

func TestARefreshStopsAtItsPageBudget(t *testing.T) {
	t.Parallel()
	var src *endlessAlerts
	e := newEnvWith(t, 60, 1, func(s Source) Source { src = &endlessAlerts{Source: s}; return src })
	e.hold(t, "session:1", e.cred)
	st := e.status(t, domain.ResourceAlerts)
	budget := pageBudget(60)
	if !strings.Contains(st.LastError, fmt.Sprintf("more than %d pages in one refresh of alerts", budget)) {
		t.Fatalf("the alerts refresh: %q", st.LastError)
	}
	if n := src.pages.Load(); n > int64(budget)+16 {
		t.Errorf("%d pages fetched with a budget of %d", n, budget)
	}
	if a, _ := e.store.FindAlerts(context.Background(), store.AlertFilter{Account: e.account}); len(a) != 0 {
		t.Errorf("the failed refresh wrote %d alerts", len(a))
	}
}

// TestAWriteThatFailsStopsAnEndlessFetchAtOnce: a refresh whose write
// fails stops fetching within the pages already queued, every time,
// however the fetch and the write take turns: a service that pages
// without end costs no more than that.
func TestAWriteThatFailsStopsAnEndlessFetchAtOnce(t *testing.T) {
	t.Parallel()
	refused := errors.New("refused")
	for run := range 200 {
		var fetched int
		err := pipeline(context.Background(), func(ctx context.Context, send func(int) error) error {
			for {
				fetched++
				if err := send(fetched); err != nil {
					return err
				}
			}
		}, func(int) int { return 1 }, func(int) error { return refused })
		// The pages held back, the one that began the writing, a full
		// queue of four, and the one being queued.
		if most := holdBackPages + 1 + 4 + 1; !errors.Is(err, refused) || fetched > most {
			t.Fatalf("run %d: %v after %d pages fetched; want the write's error within %d", run, err, fetched, most)
		}
	}
}
