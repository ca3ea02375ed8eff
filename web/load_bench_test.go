package web

import (
	"bufio"
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// loadSeconds is how long BenchmarkLoad runs: 60 s, or
// WASHBOARD_LOAD_SECONDS.
func loadSeconds() time.Duration {
	if v, err := strconv.Atoi(os.Getenv("WASHBOARD_LOAD_SECONDS")); err == nil && v > 0 {
		return time.Duration(v) * time.Second
	}
	return 60 * time.Second
}

// rssMB reads the process's resident set size and its peak, in MB.
func rssMB() (now, peak float64) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 {
			continue
		}
		kb, _ := strconv.ParseFloat(fields[1], 64)
		switch fields[0] {
		case "VmRSS:":
			now = kb / 1024
		case "VmHWM:":
			peak = kb / 1024
		}
	}
	return now, peak
}

// BenchmarkLoad puts the dashboard, over a cache of 10,000 devices, under
// 200 concurrent users for 60 s, each with a session, each waiting 0 to 2 s
// (1 s on average) between requests, over a mix of the overview (40 %), a
// floor page of 200 devices (30 %), the alerts page (25 %) and a CSV export
// of a building's alerts (5 %), while 100 event streams stay open. It
// reports errors, the 50th and 99th percentile latencies, the throughput,
// and the process's resident memory (server and clients together).
func BenchmarkLoad(b *testing.B) {
	srv, floor, _ := benchServer(b)
	signedIn := benchSession(b, srv)
	u, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
	cookies := signedIn.Jar.Cookies(u.URL)
	transport := &http.Transport{MaxIdleConnsPerHost: 512, MaxConnsPerHost: 0}
	get := func(path string) (int, error) {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		for _, c := range cookies {
			req.AddCookie(c)
		}
		resp, err := transport.RoundTrip(req)
		if err != nil {
			return 0, err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, nil
	}
	mix := []struct {
		path   string
		weight int
	}{{"/", 40}, {"/floors/" + floor, 30}, {"/alerts", 25}, {"/alerts.csv?building=b2", 5}}

	for b.Loop() {
		ctx, cancel := context.WithCancel(context.Background())
		// 100 event streams, open throughout.
		var streams sync.WaitGroup
		var openStreams atomic.Int64
		for i := 0; i < 100; i++ {
			streams.Add(1)
			go func() {
				defer streams.Done()
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/events", nil)
				for _, c := range cookies {
					req.AddCookie(c)
				}
				resp, err := transport.RoundTrip(req)
				if err != nil {
					return
				}
				defer resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					openStreams.Add(1)
				}
				io.Copy(io.Discard, resp.Body)
			}()
		}

		var mu sync.Mutex
		var latencies []time.Duration
		byPath := map[string][]time.Duration{}
		var errors atomic.Int64
		end := time.Now().Add(loadSeconds())
		var users sync.WaitGroup
		for i := 0; i < 200; i++ {
			users.Add(1)
			go func(seed uint64) {
				defer users.Done()
				rng := rand.New(rand.NewPCG(seed, 42))
				var mine []time.Duration
				minePath := map[string][]time.Duration{}
				time.Sleep(time.Duration(rng.Int64N(int64(2 * time.Second)))) // users arrive over the first two seconds
				for time.Now().Before(end) {
					x := rng.IntN(100)
					path := mix[len(mix)-1].path
					for _, m := range mix {
						if x < m.weight {
							path = m.path
							break
						}
						x -= m.weight
					}
					t0 := time.Now()
					status, err := get(path)
					mine = append(mine, time.Since(t0))
					minePath[path] = append(minePath[path], time.Since(t0))
					if err != nil || status != http.StatusOK {
						errors.Add(1)
					}
					time.Sleep(time.Duration(rng.Int64N(int64(2 * time.Second))))
				}
				mu.Lock()
				latencies = append(latencies, mine...)
				for p, l := range minePath {
					byPath[p] = append(byPath[p], l...)
				}
				mu.Unlock()
			}(uint64(i))
		}
		users.Wait()
		rss, peak := rssMB()
		if n := openStreams.Load(); n != 100 {
			b.Errorf("%d of 100 event streams opened", n)
		}
		cancel()
		srv.CloseClientConnections()
		streams.Wait()

		sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
		if len(latencies) == 0 {
			b.Fatal("no request was answered")
		}
		for p, l := range byPath {
			sort.Slice(l, func(i, j int) bool { return l[i] < l[j] })
			b.Logf("%s: %d requests, p50 %s, p99 %s", p, len(l), l[len(l)/2], l[len(l)*99/100])
		}
		b.ReportMetric(float64(errors.Load()), "errors")
		b.ReportMetric(float64(latencies[len(latencies)*99/100].Microseconds())/1000, "p99-ms")
		b.ReportMetric(float64(latencies[len(latencies)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(len(latencies))/loadSeconds().Seconds(), "req/s")
		b.ReportMetric(rss, "rss-MB")
		b.ReportMetric(peak, "peak-rss-MB")
	}
}

// BenchmarkOverviewVersusStatic serves, in the same run and process, the
// overview of a cache of 10,000 devices through the dashboard and the very
// same bytes, with the same headers, as a static file through the same
// HTTP stack (net/http's server, on loopback), each to 64 clients with a
// session that send their next request as soon as the last is answered.
// The two take turns of overviewTurn, 16 each, so that whatever else the
// machine does falls on both alike. The dashboard's clock moves on by a
// second every second, as the real one does, so that the overview crosses
// seconds as it does in service. It reports each one's throughput and 99th
// percentile latency, and the overview's against the static file's:
// "plain" asks for the page uncompressed (as wrk does), "gzip" as browsers
// do.
func BenchmarkOverviewVersusStatic(b *testing.B) {
	for _, enc := range []string{"plain", "gzip"} {
		b.Run(enc, func(b *testing.B) { benchOverviewVersusStatic(b, enc == "gzip") })
	}
}

// overviewClients, overviewTurns and overviewTurn are
// BenchmarkOverviewVersusStatic's clients, its turns each way and the
// length of each turn: 8 s each way in all, in turns short enough that a
// burst of other work on the machine falls on both sides.
const (
	overviewClients = 64
	overviewTurns   = 16
	overviewTurn    = 500 * time.Millisecond
)

// versusTurns is how many turns each way benchVersusStatic takes:
// overviewTurns, or WASHBOARD_VERSUS_TURNS (a page that takes seconds to
// render takes minutes a turn).
func versusTurns() int {
	if v, err := strconv.Atoi(os.Getenv("WASHBOARD_VERSUS_TURNS")); err == nil && v > 0 {
		return v
	}
	return overviewTurns
}

func benchOverviewVersusStatic(b *testing.B, gzipped bool) {
	e := newBenchEnv(b, 5, 10)
	signedIn := benchSession(b, e.srv)
	u, _ := http.NewRequest(http.MethodGet, e.srv.URL, nil)
	benchVersusStatic(b, e, signedIn.Jar.Cookies(u.URL), "/", "overview", gzipped)
}

// benchVersusStatic serves the page at path of e's dashboard, to
// overviewClients clients with the cookies, against the same bytes as a
// static file, as BenchmarkOverviewVersusStatic says, and reports the
// figures under name ("overview/static").
func benchVersusStatic(b *testing.B, e *benchEnv, cookies []*http.Cookie, path, name string, gzipped bool) {
	srv := e.srv
	request := func(url string) *http.Request {
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		for _, c := range cookies {
			req.AddCookie(c)
		}
		if gzipped {
			req.Header.Set("Accept-Encoding", "gzip")
		} else {
			req.Header.Set("Accept-Encoding", "identity")
		}
		return req
	}
	// The page as it is sent, with its headers: the static server sends
	// the very same bytes.
	resp, err := http.DefaultTransport.RoundTrip(request(srv.URL + path))
	if err != nil {
		b.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || (resp.Header.Get("Content-Encoding") == "gzip") != gzipped {
		b.Fatalf("%s was sent %s with Content-Encoding %q", path, resp.Status, resp.Header.Get("Content-Encoding"))
	}
	header := resp.Header.Clone()
	static := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range header {
			if k != "Set-Cookie" && k != "Content-Length" {
				w.Header()[k] = v
			}
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(page)))
		w.Write(page)
	}))
	b.Cleanup(static.Close)

	// The clock moves on by a second every second, until the end.
	ticking := make(chan struct{})
	var ticked sync.WaitGroup
	ticked.Add(1)
	go func() {
		defer ticked.Done()
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				e.clk.Advance(time.Second)
			case <-ticking:
				return
			}
		}
	}()
	defer func() { close(ticking); ticked.Wait() }()

	// serve sends requests to url from overviewClients clients for a
	// turn, over transport's connections, and adds their latencies to
	// *latencies.
	serve := func(transport *http.Transport, url string, latencies *[]time.Duration) {
		end := time.Now().Add(overviewTurn)
		var mu sync.Mutex
		var wg sync.WaitGroup
		for range overviewClients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var mine []time.Duration
				for time.Now().Before(end) {
					t0 := time.Now()
					resp, err := transport.RoundTrip(request(url))
					if err != nil {
						b.Error(err)
						return
					}
					n, err := io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					// The page's size moves a little with the clock; a
					// page compressed as it is written comes in chunks.
					if err != nil || resp.StatusCode != http.StatusOK || n == 0 || resp.ContentLength >= 0 && n != resp.ContentLength {
						b.Errorf("GET %s: %s, %d bytes of %d (%v)", url, resp.Status, n, resp.ContentLength, err)
						return
					}
					mine = append(mine, time.Since(t0))
				}
				mu.Lock()
				*latencies = append(*latencies, mine...)
				mu.Unlock()
			}()
		}
		wg.Wait()
	}
	p99 := func(l []time.Duration) float64 {
		slices.Sort(l)
		return float64(l[len(l)*99/100].Microseconds()) / 1000
	}
	for b.Loop() {
		var dynamic, fixed []time.Duration
		toDynamic := &http.Transport{MaxIdleConnsPerHost: overviewClients}
		toFixed := &http.Transport{MaxIdleConnsPerHost: overviewClients}
		for range versusTurns() {
			serve(toDynamic, srv.URL+path, &dynamic)
			serve(toFixed, static.URL+"/", &fixed)
		}
		toDynamic.CloseIdleConnections()
		toFixed.CloseIdleConnections()
		if len(dynamic) == 0 || len(fixed) == 0 {
			b.Fatal("no request was answered")
		}
		seconds := float64(versusTurns()) * overviewTurn.Seconds()
		b.ReportMetric(float64(len(dynamic))/seconds, name+"-req/s")
		b.ReportMetric(float64(len(fixed))/seconds, "static-req/s")
		b.ReportMetric(float64(len(dynamic))/float64(len(fixed)), name+"/static")
		od, of := p99(dynamic), p99(fixed)
		b.ReportMetric(od, name+"-p99-ms")
		b.ReportMetric(of, "static-p99-ms")
		b.ReportMetric(od/of, "p99-"+name+"/static")
	}
}
