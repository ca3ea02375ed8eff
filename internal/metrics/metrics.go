// Package metrics keeps Washboard's Prometheus metrics: HTTP requests by
// route pattern and status, sync refreshes by resource, upstream requests
// by status, the accounts' syncs a replica holds, open event streams,
// active sessions and screens. No label carries an account, a user or a
// credential: routes are patterns ("/floors/:id"), never paths.
//
// A nil *Metrics records nothing, so that code paths need no checks.
package metrics

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics holds the collectors and the registry they are in.
type Metrics struct {
	registry     *prometheus.Registry
	requests     *prometheus.HistogramVec
	syncDuration *prometheus.HistogramVec
	syncRows     *prometheus.CounterVec
	syncErrors   *prometheus.CounterVec
	syncLag      prometheus.Histogram
	upstream     *prometheus.CounterVec
	streams      *prometheus.GaugeVec
}

// New returns metrics registered in a registry of their own, with the Go
// runtime's and the process's collectors.
func New() *Metrics {
	m := &Metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "washboard_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by route pattern, method and status.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
		}, []string{"route", "method", "status"}),
		syncDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "washboard_sync_duration_seconds",
			Help:    "Time a refresh of one resource of an account took, by resource and outcome (ok or error).",
			Buckets: []float64{.05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120},
		}, []string{"resource", "outcome"}),
		syncRows: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "washboard_sync_rows_changed_total",
			Help: "Cache rows a refresh added, changed or removed, by resource and change.",
		}, []string{"resource", "change"}),
		syncErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "washboard_sync_errors_total",
			Help: "Refreshes that failed, by resource.",
		}, []string{"resource"}),
		syncLag: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "washboard_sync_lag_seconds",
			Help:    "Time from when an account's round was due to when its devices and alerts were written.",
			Buckets: []float64{.1, .25, .5, 1, 2.5, 5, 10, 15, 30, 60, 120},
		}),
		upstream: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "washboard_upstream_requests_total",
			Help: "Requests to the Device Monitoring Service, by status code (\"error\" when no answer came).",
		}, []string{"code"}),
		streams: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "washboard_sse_streams",
			Help: "Server-sent event streams open now, by kind (session or screen).",
		}, []string{"kind"}),
	}
	m.registry.MustRegister(m.requests, m.syncDuration, m.syncRows, m.syncErrors, m.syncLag, m.upstream, m.streams,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}

// ObserveRequest records an answered HTTP request. route is the pattern
// the router matched ("" for none).
func (m *Metrics) ObserveRequest(route, method string, status int, d time.Duration) {
	if m == nil {
		return
	}
	if route == "" {
		route = "unmatched"
	}
	m.requests.WithLabelValues(route, method, strconv.Itoa(status)).Observe(d.Seconds())
}

// ObserveRefresh records a refresh of a resource: its duration, the rows
// it changed, and whether it failed.
func (m *Metrics) ObserveRefresh(resource string, d time.Duration, added, changed, removed int, err error) {
	if m == nil {
		return
	}
	outcome := "ok"
	if err != nil {
		outcome = "error"
		m.syncErrors.WithLabelValues(resource).Inc()
	}
	m.syncDuration.WithLabelValues(resource, outcome).Observe(d.Seconds())
	m.syncRows.WithLabelValues(resource, "added").Add(float64(added))
	m.syncRows.WithLabelValues(resource, "changed").Add(float64(changed))
	m.syncRows.WithLabelValues(resource, "removed").Add(float64(removed))
}

// ObserveLag records how late an account's round was written after it
// was due.
func (m *Metrics) ObserveLag(d time.Duration) {
	if m == nil {
		return
	}
	m.syncLag.Observe(d.Seconds())
}

// SyncLeases shows, at each scrape, how many accounts' syncs this replica
// holds (see syncer.Engine.Syncing): with several replicas, the spread of
// the accounts over them.
func (m *Metrics) SyncLeases(held func() int) {
	if m == nil {
		return
	}
	m.registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "washboard_sync_leases_held",
		Help: "Accounts whose sync this replica holds: their leases, with several replicas; alone, every account it keeps fresh.",
	}, func() float64 { return float64(held()) }))
}

// StreamOpened counts an open event stream of a kind until the returned
// function is called.
func (m *Metrics) StreamOpened(kind string) (closed func()) {
	if m == nil {
		return func() {}
	}
	g := m.streams.WithLabelValues(kind)
	g.Inc()
	return g.Dec
}

// Gauge registers a gauge whose value is read at each scrape, such as the
// number of active sessions.
func (m *Metrics) Gauge(name, help string, value func() float64) {
	if m == nil {
		return
	}
	m.registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, value))
}

// Transport counts the requests sent through rt by status code.
func (m *Metrics) Transport(rt http.RoundTripper) http.RoundTripper {
	if m == nil {
		return rt
	}
	if rt == nil {
		rt = http.DefaultTransport
	}
	return roundTripper(func(r *http.Request) (*http.Response, error) {
		resp, err := rt.RoundTrip(r)
		code := "error"
		if err == nil {
			code = strconv.Itoa(resp.StatusCode)
		}
		m.upstream.WithLabelValues(code).Inc()
		return resp, err
	})
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
