package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"washboard/internal/clock"
	"washboard/internal/cluster"
	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/keyring"
	"washboard/internal/people"
	"washboard/internal/receiver"
	"washboard/internal/store"
	"washboard/internal/store/postgres"
	"washboard/internal/store/postgres/pgtest"
	"washboard/internal/store/sqlite"
	"washboard/internal/syncer"
	"washboard/internal/upstream"
	"washboard/web/httpkit"
)

// benchCache fills a cache with an account of buildings×floors×200
// devices: floors of 40 rooms of 5 devices, an open alert at every fifth
// device. It returns a floor in the middle of the account.
func benchCache(b *testing.B, st store.Store, account string, buildings, floors int) (floor string) {
	b.Helper()
	benchAccount(b, st, account, "Benchmark Estates", buildings, floors, 40)
	return fmt.Sprintf("b%d-f%d", buildings/2, floors/2)
}

// benchAccount fills a cache with an account named name of
// buildings×floors×rooms×5 devices, as benchCache does.
func benchAccount(b *testing.B, st store.Store, account, name string, buildings, floors, rooms int) {
	b.Helper()
	ctx := context.Background()
	l := domain.Layout{Account: domain.Account{ID: account, Name: name}}
	var devices []domain.Device
	var alerts []domain.Alert
	t0 := start.Add(-48 * time.Hour)
	battery := 70
	for bi := 0; bi < buildings; bi++ {
		bid := fmt.Sprintf("b%d", bi)
		l.Buildings = append(l.Buildings, domain.Building{ID: bid, Name: fmt.Sprintf("Tower %d", bi+1)})
		for fi := 0; fi < floors; fi++ {
			fid := fmt.Sprintf("%s-f%d", bid, fi)
			l.Floors = append(l.Floors, domain.Floor{ID: fid, BuildingID: bid, Name: fmt.Sprintf("Level %d", fi)})
			for ri := 0; ri < rooms; ri++ {
				rid := fmt.Sprintf("%s-r%d", fid, ri)
				l.Rooms = append(l.Rooms, domain.Room{ID: rid, FloorID: fid, Name: fmt.Sprintf("Restroom %d.%02d", fi, ri)})
				for li := 0; li < 5; li++ {
					n := len(l.Locations)
					lid := fmt.Sprint(1_000_000 + n)
					typ := []domain.DeviceType{domain.Tissue, domain.Tissue, domain.Soap, domain.Towel, domain.Sanitizer}[li]
					l.Locations = append(l.Locations, domain.Location{ID: lid, RoomID: rid, Name: fmt.Sprintf("Place %d", li+1), Type: typ})
					level := (n * 37) % 101
					devices = append(devices, domain.Device{
						MAC: fmt.Sprintf("%012X", n), LocationID: lid, Position: "main", Generation: "2.0",
						Compartments: []domain.Compartment{{Level: level, Low: level <= 15, Out: level == 0}},
						Battery:      &battery, BatteryState: domain.BatteryNormal,
						Faults:   map[bool][]domain.Fault{true: {{Kind: domain.FaultJam, Key: "jam_fault"}}}[n%97 == 0],
						LastSeen: start.Add(-time.Duration(n%30) * time.Minute),
					})
					if n%5 == 0 {
						alerts = append(alerts, domain.Alert{ID: fmt.Sprintf("alert-%d", n), LocationID: lid, MACs: []string{fmt.Sprintf("%012X", n)},
							Status: domain.AlertOpen, Type: domain.AlertConsumableOut, Created: t0.Add(time.Duration(n) * time.Second),
							Overdue: n%15 == 0, RefillCount: 1})
					}
				}
			}
		}
	}
	if _, err := st.ReplaceLayout(ctx, l); err != nil {
		b.Fatal(err)
	}
	if _, err := st.ReplaceDevices(ctx, account, devices); err != nil {
		b.Fatal(err)
	}
	if _, err := st.ApplyAlerts(ctx, account, store.AlertWrite{Upserts: alerts}); err != nil {
		b.Fatal(err)
	}
	for _, res := range []domain.Resource{domain.ResourceMetadata, domain.ResourceDevices, domain.ResourceAlerts} {
		if err := st.RecordSync(ctx, account, store.SyncStatus{Resource: res, LastAttempt: start, LastSuccess: start}); err != nil {
			b.Fatal(err)
		}
	}
}

// benchServer is the dashboard over a prepared cache. Its upstream accepts
// the sign-in and fails every refresh, so the cache stays as prepared. Its
// clock stands still unless the benchmark moves it, and its refreshes are
// a day apart, so that moving the clock by seconds does not set them off.
func benchServer(b *testing.B) (*httptest.Server, string, *clock.Fake) {
	b.Helper()
	return benchServerOf(b, 5, 10) // 10,000 devices, 2,000 open alerts
}

// benchServerOf is benchServer over an account of buildings×floors×200
// devices.
func benchServerOf(b *testing.B, buildings, floors int) (*httptest.Server, string, *clock.Fake) {
	b.Helper()
	e := newBenchEnv(b, buildings, floors)
	return e.srv, e.floor, e.clk
}

// benchEnv is the dashboard of benchServerOf, with what a benchmark may
// need of its insides.
type benchEnv struct {
	srv     *httptest.Server
	floor   string
	clk     *clock.Fake
	account string
	store   store.Store
	engine  *syncer.Engine
	events  *receiver.Service

	dbURL    string // on PostgreSQL
	upstream string
	keys     *keyring.Ring
}

func newBenchEnv(b *testing.B, buildings, floors int) *benchEnv {
	b.Helper()
	const account = "bench-account"
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/metadata" && r.URL.Query().Get("limit") == "1" {
			fmt.Fprintf(w, `{"total_count":2000,"account_id":%q,"account_name":"Benchmark Estates","metadata":[]}`, account)
			return
		}
		http.Error(w, `{"status":503}`, http.StatusServiceUnavailable)
	}))
	b.Cleanup(up.Close)
	st, dbURL := benchStore(b)
	floor := benchCache(b, st, account, buildings, floors)
	client, _ := upstream.New(upstream.Config{BaseURL: up.URL, MaxAttempts: 1})
	clk := clock.NewFake(start)
	ctx, cancel := context.WithCancel(context.Background())
	engine := syncer.New(ctx, syncer.UpstreamSource{Client: client}, st, clk, syncer.Config{Interval: 24 * time.Hour}, nil)
	keys := testKeys(b, 1)
	events := receiver.New(st, keys, engine, receiver.Config{}, nil)
	eventsDone := make(chan struct{})
	go func() { events.Run(ctx); close(eventsDone) }()
	b.Cleanup(func() { cancel(); engine.Wait(); <-eventsDone })
	// On PostgreSQL, as replicas run: sessions shared with any other,
	// kept while their writes are announced.
	var announcements httpkit.SessionAnnouncements
	if dbURL != "" {
		replicas, err := cluster.OpenReplicas(ctx, dbURL, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(replicas.Close)
		announcements = replicas
	}
	s, err := New(Config{Zone: time.UTC, Sessions: SessionConfig{Shared: dbURL != ""}},
		Deps{Dashboard: dashboard.New(dashboard.Deps{Store: st, Sync: engine, Upstream: client, Clock: clk, Keys: keys}),
			People:   people.New(st, keys, clk, people.Config{}),
			Sessions: st, Sync: engine, Clock: clk, Keys: keys, Receiver: events, SessionAnnouncements: announcements})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(s.Close) // after the server, before the store
	srv := httptest.NewServer(s)
	b.Cleanup(srv.Close)
	return &benchEnv{srv: srv, floor: floor, clk: clk, account: account, store: st, engine: engine, events: events,
		dbURL: dbURL, upstream: up.URL, keys: keys}
}

// benchStore opens an empty cache on the engine under test (testEngine),
// with the URL of its database on PostgreSQL.
func benchStore(b *testing.B) (st store.Store, dbURL string) {
	var err error
	switch testEngine(b) {
	case "postgres":
		_, dbURL, _ = pgtest.NewSchema(b)
		st, err = postgres.Open(context.Background(), dbURL)
	default:
		st, err = sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "washboard.db"))
	}
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	return st, dbURL
}

// replica is one more replica of e's dashboard, on e's PostgreSQL
// database, sharing leases and notifications with the others made so.
func (e *benchEnv) replica(b *testing.B) (*httptest.Server, *syncer.Engine) {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	st, err := postgres.Open(ctx, e.dbURL)
	if err != nil {
		b.Fatal(err)
	}
	others, err := cluster.OpenReplicas(ctx, e.dbURL, nil)
	if err != nil {
		b.Fatal(err)
	}
	client, _ := upstream.New(upstream.Config{BaseURL: e.upstream, MaxAttempts: 1})
	engine := syncer.New(ctx, syncer.UpstreamSource{Client: client}, st, e.clk, syncer.Config{Interval: 24 * time.Hour, Cluster: others}, nil)
	s, err := New(Config{Zone: time.UTC, Sessions: SessionConfig{Shared: true}},
		Deps{Dashboard: dashboard.New(dashboard.Deps{Store: st, Sync: engine, Upstream: client, Clock: e.clk, Keys: e.keys}),
			People:   people.New(st, e.keys, e.clk, people.Config{}),
			Sessions: st, Sync: engine, Clock: e.clk, Keys: e.keys, SessionAnnouncements: others})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(s)
	b.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
		s.Close()
		cancel()
		engine.Wait()
		others.Close()
		st.Close()
	})
	return srv, engine
}

// benchSession signs in and returns a client holding the session.
func benchSession(b *testing.B, srv *httptest.Server) *http.Client {
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Transport: &http.Transport{MaxIdleConnsPerHost: 128}}
	resp, err := c.Get(srv.URL + "/signin")
	if err != nil {
		b.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	token := csrfInput.FindStringSubmatch(string(body))
	if token == nil {
		b.Fatal("no CSRF token")
	}
	resp, err = c.PostForm(srv.URL+"/signin", url.Values{"csrf_token": {token[1]}, "api_key": {"k"}, "authorization": {"a"}})
	if err != nil {
		b.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		b.Fatalf("sign-in: %s", resp.Status)
	}
	return c
}

// BenchmarkPages serves the overview and a floor page of 200 devices from
// a cache of 10,000 devices to 64 concurrent clients with sessions, and
// reports the 99th percentile latency and the page's size as sent. The
// clients ask for gzip, as browsers do, and read the body as it comes:
// unpacking it is the browser's work, on its own machine.
func BenchmarkPages(b *testing.B) {
	srv, floor, _ := benchServer(b)
	client := benchSession(b, srv)
	get := func(path string) (*http.Response, []byte, error) {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		resp, err := client.Do(req)
		if err != nil {
			return nil, nil, err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		return resp, body, err
	}
	for _, page := range []struct{ name, path string }{{"overview", "/"}, {"floor", "/floors/" + floor}} {
		b.Run(page.name, func(b *testing.B) {
			// The page once, for its size and a sanity check.
			resp, gz, err := get(page.path)
			if err != nil {
				b.Fatal(err)
			}
			if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != "gzip" {
				b.Fatalf("GET %s: %s, Content-Encoding %q", page.path, resp.Status, resp.Header.Get("Content-Encoding"))
			}
			zr, err := gzip.NewReader(bytes.NewReader(gz))
			if err != nil {
				b.Fatal(err)
			}
			body, err := io.ReadAll(zr)
			if err != nil || !strings.Contains(string(body), `id="live"`) {
				b.Fatalf("GET %s: not a whole page (%v)", page.path, err)
			}
			if page.name == "floor" && strings.Count(string(body), `class="card `) < 200 {
				b.Fatalf("the floor page shows %d cards, want 200", strings.Count(string(body), `class="card `))
			}

			var mu sync.Mutex
			var latencies []time.Duration
			b.SetParallelism(32) // 64 clients on 2 cores
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				var mine []time.Duration
				for pb.Next() {
					t0 := time.Now()
					req, _ := http.NewRequest(http.MethodGet, srv.URL+page.path, nil)
					req.Header.Set("Accept-Encoding", "gzip")
					resp, err := client.Do(req)
					if err != nil {
						b.Error(err)
						return
					}
					// Read to the end and dropped, as a browser's network
					// stack would hand it over: what a client keeps is no
					// garbage of the server's.
					n, err := io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if err != nil || resp.StatusCode != http.StatusOK || n == 0 || n != resp.ContentLength {
						b.Errorf("GET %s: %s, %d bytes of %d (%v)", page.path, resp.Status, n, resp.ContentLength, err)
						return
					}
					mine = append(mine, time.Since(t0))
				}
				mu.Lock()
				latencies = append(latencies, mine...)
				mu.Unlock()
			})
			b.StopTimer()
			sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
			if len(latencies) > 0 {
				b.ReportMetric(float64(latencies[len(latencies)*99/100].Microseconds())/1000, "p99-ms")
				b.ReportMetric(float64(latencies[len(latencies)/2].Microseconds())/1000, "p50-ms")
			}
			b.ReportMetric(float64(len(body))/1024, "html-KB")
			b.ReportMetric(float64(len(gz))/1024, "gzip-KB")
		})
	}
}

// BenchmarkPageRender serves the overview and the floor page to one client
// with the clock further on than the page kept may lag (httpkit.PageClockSlack)
// for every request, so that each request renders its page afresh (as the
// first request after a change does, or after a while) instead of framing
// the one kept.
func BenchmarkPageRender(b *testing.B) {
	srv, floor, clk := benchServer(b)
	client := benchSession(b, srv)
	for _, page := range []struct{ name, path string }{{"overview", "/"}, {"floor", "/floors/" + floor}} {
		b.Run(page.name, func(b *testing.B) {
			for b.Loop() {
				clk.Advance((httpkit.PageClockSlack + 1) * time.Second)
				resp, err := client.Get(srv.URL + page.path)
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Fatalf("GET %s: %s", page.path, resp.Status)
				}
			}
		})
	}
}

// BenchmarkPageGrowth renders the overview and a floor page of 200 devices
// afresh (the clock past httpkit.PageClockSlack for every request) for accounts of 1,000,
// 10,000 and 50,000 devices, in the same run, and reports each one's time
// and the time at 50,000 devices against 1,000: a floor page should not
// grow with the account, the overview at most with its buildings.
func BenchmarkPageGrowth(b *testing.B) {
	sizes := []struct {
		devices           int
		buildings, floors int
	}{{1_000, 1, 5}, {10_000, 5, 10}, {50_000, 25, 10}}
	type subject struct {
		srv    *httptest.Server
		client *http.Client
		clk    *clock.Fake
		floor  string
	}
	subjects := make([]subject, len(sizes))
	for i, sz := range sizes {
		srv, floor, clk := benchServerOf(b, sz.buildings, sz.floors)
		subjects[i] = subject{srv, benchSession(b, srv), clk, floor}
	}
	get := func(s subject, path string) {
		s.clk.Advance((httpkit.PageClockSlack + 1) * time.Second)
		resp, err := s.client.Get(s.srv.URL + path)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("GET %s: %s", path, resp.Status)
		}
	}
	for _, s := range subjects { // warm up: connections, the sync's first attempt
		for i := 0; i < 5; i++ {
			get(s, "/")
			get(s, "/floors/"+s.floor)
		}
	}
	took := map[string][]time.Duration{"overview": make([]time.Duration, len(sizes)), "floor": make([]time.Duration, len(sizes))}
	b.ResetTimer()
	for b.Loop() {
		for i, s := range subjects {
			for _, page := range []struct{ name, path string }{{"overview", "/"}, {"floor", "/floors/" + s.floor}} {
				t0 := time.Now()
				get(s, page.path)
				took[page.name][i] += time.Since(t0)
			}
		}
	}
	n := float64(b.N)
	for _, name := range []string{"overview", "floor"} {
		for i, sz := range sizes {
			b.ReportMetric(float64(took[name][i].Microseconds())/n/1000, fmt.Sprintf("%s-%dk-ms", name, sz.devices/1000))
		}
		b.ReportMetric(float64(took[name][2])/float64(took[name][0]), name+"-50k/1k")
	}
}

// discardResponse is a ResponseWriter that keeps nothing of the body.
type discardResponse struct{ h http.Header }

func (d *discardResponse) Header() http.Header         { return d.h }
func (d *discardResponse) Write(p []byte) (int, error) { return len(p), nil }
func (d *discardResponse) WriteHeader(int)             {}

// BenchmarkPageFraming serves the kept overview and floor page straight
// through the dashboard's handler, without a network or clients, plain and
// gzipped: what a request costs the server itself (the session, the
// freshness banner, the frame around the kept region, the headers).
func BenchmarkPageFraming(b *testing.B) {
	srv, floor, _ := benchServer(b)
	client := benchSession(b, srv)
	u, _ := url.Parse(srv.URL)
	handler := srv.Config.Handler
	for _, page := range []struct{ name, path string }{{"overview", "/"}, {"floor", "/floors/" + floor}} {
		for _, enc := range []string{"identity", "gzip"} {
			b.Run(page.name+"/"+enc, func(b *testing.B) {
				req := httptest.NewRequest(http.MethodGet, page.path, nil)
				for _, c := range client.Jar.Cookies(u) {
					req.AddCookie(c)
				}
				req.Header.Set("Accept-Encoding", enc)
				b.ReportAllocs()
				for b.Loop() {
					w := &discardResponse{h: http.Header{}}
					handler.ServeHTTP(w, req)
					if w.h.Get("Content-Length") == "" {
						b.Fatalf("GET %s: no page", page.path)
					}
				}
			})
		}
	}
}
