package upstream

import (
	"context"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"washboard/internal/sim"
)

var (
	testNow = time.Date(2026, 11, 18, 9, 30, 0, 0, time.UTC)
	cred1   = Credentials{APIKey: "k1", Authorization: "a1"}
	cred2   = Credentials{APIKey: "k2", Authorization: "a2"}
)

// newWorld builds the simulated service the tests run against: two
// accounts of 200 device locations with five days of history.
func newWorld(t testing.TB) *sim.World {
	t.Helper()
	return newWorldOf(t, 200, 2, 5*24*time.Hour)
}

func newWorldOf(t testing.TB, locations, accounts int, history time.Duration) *sim.World {
	t.Helper()
	return sim.New(sim.Config{
		Seed: 3, Locations: locations, Accounts: accounts, History: history,
		Clock: sim.NewManualClock(testNow), Zone: time.UTC,
		Credentials: []sim.Credentials{{APIKey: "k1", Authorization: "a1"}, {APIKey: "k2", Authorization: "a2"}},
	})
}

// recorder is an http.Handler that counts and records the requests it
// passes on.
type recorder struct {
	next http.Handler
	mu   sync.Mutex
	reqs []*http.Request
}

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	r.reqs = append(r.reqs, req.Clone(context.Background()))
	r.mu.Unlock()
	r.next.ServeHTTP(w, req)
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.reqs)
}

func (r *recorder) requests() []*http.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*http.Request(nil), r.reqs...)
}

// serve starts a test server for h that records its requests.
func serve(t testing.TB, h http.Handler) (*httptest.Server, *recorder) {
	t.Helper()
	rec := &recorder{next: h}
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)
	return srv, rec
}

// sleeper stands in for Config.Sleep: it records each wait and returns at
// once, unless the context has ended.
type sleeper struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleeper) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleeper) recorded() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

// newClient returns a client of baseURL that never really sleeps and draws
// its jitter from a seeded source. configure, if not nil, adjusts the
// configuration first.
func newClient(t testing.TB, baseURL string, configure func(*Config)) (*Client, *sleeper) {
	t.Helper()
	s := &sleeper{}
	cfg := Config{BaseURL: baseURL, Sleep: s.sleep, Rand: rand.NewPCG(1, 2)}
	if configure != nil {
		configure(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c, s
}

// asError returns err as an *Error, failing the test if it is not one.
func asError(t testing.TB, err error) *Error {
	t.Helper()
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("error %v (%T) is not an *upstream.Error", err, err)
	}
	return e
}

// staticHandler answers every request with status and body as JSON.
func staticHandler(status int, body string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write([]byte(body))
	})
}
