package metrics

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func scrape(t *testing.T, m *Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	return rec.Body.String()
}

// TestMetricsAreExposed: what the dashboard records shows in the scrape,
// labelled by route pattern, resource and status.
func TestMetricsAreExposed(t *testing.T) {
	m := New()
	m.ObserveRequest("/floors/:id", http.MethodGet, 200, 3*time.Millisecond)
	m.ObserveRefresh("alerts", 2*time.Second, 3, 4, 5, nil)
	m.ObserveRefresh("devices", time.Second, 0, 0, 0, errors.New("boom"))
	m.ObserveLag(3 * time.Second)
	m.SyncLeases(func() int { return 11 })
	closed := m.StreamOpened("screen")
	m.Gauge("washboard_sessions_active", "Sessions.", func() float64 { return 7 })

	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTooManyRequests) }))
	defer upstream.Close()
	client := &http.Client{Transport: m.Transport(nil)}
	resp, err := client.Get(upstream.URL)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()

	out := scrape(t, m)
	for _, want := range []string{
		`washboard_http_request_duration_seconds_count{method="GET",route="/floors/:id",status="200"} 1`,
		`washboard_sync_rows_changed_total{change="removed",resource="alerts"} 5`,
		`washboard_sync_errors_total{resource="devices"} 1`,
		`washboard_sync_duration_seconds_count{outcome="error",resource="devices"} 1`,
		`washboard_sync_lag_seconds_bucket{le="5"} 1`,
		`washboard_sync_leases_held 11`,
		`washboard_sse_streams{kind="screen"} 1`,
		`washboard_sessions_active 7`,
		`washboard_upstream_requests_total{code="429"} 1`,
		`go_goroutines`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the scrape lacks %s", want)
		}
	}
	closed()
	if out := scrape(t, m); !strings.Contains(out, `washboard_sse_streams{kind="screen"} 0`) {
		t.Error("a closed stream is still counted")
	}
}

// TestNilMetricsRecordNothing: code can record without checking.
func TestNilMetricsRecordNothing(t *testing.T) {
	var m *Metrics
	m.ObserveRequest("/", "GET", 200, time.Millisecond)
	m.ObserveRefresh("alerts", time.Second, 1, 1, 1, nil)
	m.StreamOpened("session")()
	m.SyncLeases(func() int { return 1 })
	m.Gauge("x", "y", func() float64 { return 1 })
	if rt := m.Transport(http.DefaultTransport); rt != http.DefaultTransport {
		t.Error("nil metrics wrapped the transport")
	}
}
