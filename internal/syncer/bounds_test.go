package syncer

import (
	"context"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// manyValues is an array of n copies of v. Ten million empty objects
// make about 30 MB, within the client's 32 MB limit of a body.
func manyValues(v string, n int) []byte {
	b := make([]byte, 0, 2+n*(len(v)+1))
	b = append(b, '[')
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, v...)
	}
	return append(b, ']')
}

var (
	tenMillionRecords = sync.OnceValue(func() []byte { return manyValues("{}", 10_000_000) })
	tenMillionLevels  = sync.OnceValue(func() []byte { return manyValues("0", 10_000_000) })
)

// maxGrowth is how much more heap than before a refresh may use against
// an outlandish page: the page itself, about 30 MB, and room to read it.
const maxGrowth = 200 << 20

// cacheCounts is what the cache holds of the account, in numbers.
func (e *env) cacheCounts(t *testing.T) [3]int {
	t.Helper()
	ctx := context.Background()
	layout, err := e.store.Layout(ctx, e.account)
	if err != nil {
		t.Fatal(err)
	}
	devices, err := e.store.FindDevices(ctx, store.DeviceFilter{Account: e.account})
	if err != nil {
		t.Fatal(err)
	}
	alerts, err := e.store.FindAlerts(ctx, store.AlertFilter{Account: e.account})
	if err != nil {
		t.Fatal(err)
	}
	return [3]int{len(layout.Rooms), len(devices), len(alerts)}
}

// heapGrowth runs fn and returns how far the heap grew above what it held
// before, sampled while fn ran (see peakHeap).
func heapGrowth(fn func()) uint64 {
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	return max(peakHeap(fn), before.HeapAlloc) - before.HeapAlloc
}

// A service that answers with millions of records, or a record with
// millions of values, within the body limit, must not take the dashboard
// to gigabytes: the refresh fails, says why, and the cache keeps what it
// had. A page whose records all fail to be read fails the refresh too, in
// words, rather than counting as a good refresh of nothing.
func TestOutlandishPagesFailTheRefreshInWordsAndKeepMemorySmall(t *testing.T) {
	records, levels := tenMillionRecords(), tenMillionLevels()
	e := newEnv(t, 60, 4)
	e.hold(t, "session-1", e.cred)
	good := e.cacheCounts(t)
	if good[0] == 0 || good[1] == 0 || good[2] == 0 {
		t.Fatalf("the first sync cached %v rooms, devices and alerts", good)
	}
	type page struct {
		path           string
		prefix, suffix string
		body           []byte
	}
	var mu sync.Mutex
	var bad *page
	e.answer = func(w http.ResponseWriter, r *http.Request) bool {
		mu.Lock()
		p := bad
		mu.Unlock()
		if p == nil || r.URL.Path != p.path {
			return false
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(p.prefix))
		w.Write(p.body)
		w.Write([]byte(p.suffix))
		return true
	}
	serve := func(p *page) {
		mu.Lock()
		bad = p
		mu.Unlock()
	}
	metadata := `{"account_id":"` + e.account + `","metadata":`

	tests := []struct {
		name string
		res  domain.Resource
		page page
		want string
	}{
		{"10,000,000 alerts", domain.ResourceAlerts, page{"/alerts", `{"alerts":`, `}`, records},
			"alerts: page 1: 10,000,000 records, more than the 10,000 a page may hold"},
		{"10,000,000 devices", domain.ResourceDevices, page{"/devices", "", "", records},
			"devices: page 1: 10,000,000 records, more than the 10,000 a page may hold"},
		{"10,000,000 rooms", domain.ResourceMetadata, page{"/metadata", metadata, `}`, records},
			"metadata: page 1: 10,000,000 records, more than the 10,000 a page may hold"},
		{"a device of 10,000,000 product levels", domain.ResourceDevices,
			page{"/devices", `[{"device_location_id":"1","device_state":[{"product_level":`, `}]}]`, levels},
			"devices: page 1: 10,000,006 JSON values, more than the 500,000 a page may hold"},
		{"1,000 alerts without an identifier", domain.ResourceAlerts, page{"/alerts", `{"alerts":`, `}`, manyValues("{}", 1000)},
			"alerts: page 1: none of the 1,000 records could be read (alerts[0]: alert_id is missing; alerts[1]: alert_id is missing;"},
		{"1,000 rooms without an identifier", domain.ResourceMetadata, page{"/metadata", metadata, `}`, manyValues(`{"room_name":"x"}`, 1000)},
			"metadata: page 1: none of the 1,000 records could be read (metadata[0]: room_id is missing;"},
	}
	events, stop := e.engine.Subscribe(e.account)
	defer stop()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			was := e.status(t, tt.res)
			serve(&tt.page)
			defer serve(nil)
			drain(events)
			growth := heapGrowth(func() { e.tick(time.Hour) }) // the layout refreshes hourly
			if growth > maxGrowth {
				t.Errorf("the heap grew by %d MB; want at most %d MB", growth>>20, maxGrowth>>20)
			}
			st := e.status(t, tt.res)
			if !strings.Contains(st.LastError, tt.want) || !st.LastSuccess.Equal(was.LastSuccess) {
				t.Errorf("the %s refresh: error %q, last success %s (was %s); want a failure saying %q",
					tt.res, st.LastError, st.LastSuccess, was.LastSuccess, tt.want)
			}
			told := false
			for _, ev := range drain(events) {
				told = told || (ev.Kind == EventFailed && ev.Resource == tt.res && ev.Message == st.LastError)
			}
			if !told {
				t.Errorf("no event told of the failed %s refresh", tt.res)
			}
			if got := e.cacheCounts(t); got != good {
				t.Errorf("after the failed refresh the cache holds %v rooms, devices and alerts; before it %v", got, good)
			}
		})
	}

	// The shift report of a period older than the cache reads /alerts
	// through the same client.
	t.Run("the report of an old period", func(t *testing.T) {
		serve(&page{"/alerts", `{"alerts":`, `}`, records})
		defer serve(nil)
		var err error
		growth := heapGrowth(func() {
			_, _, err = e.engine.PastAlerts(context.Background(), e.cred, start.AddDate(0, -6, 0), start.AddDate(0, -5, 0))
		})
		if growth > maxGrowth {
			t.Errorf("the heap grew by %d MB; want at most %d MB", growth>>20, maxGrowth>>20)
		}
		const want = "alerts: page 1: 10,000,000 records, more than the 10,000 a page may hold"
		if err == nil || !strings.Contains(Describe(err), want) {
			t.Errorf("PastAlerts: %v; want an error saying %q", err, want)
		}
	})
}
