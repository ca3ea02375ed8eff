package web

import (
	"bufio"
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
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

// BenchmarkOverviewVersusStatic compares, in the same run and process, the
// overview's throughput with serving the same bytes (gzipped, as both are
// sent to browsers) as a static file, both
// to 32 clients that send their next request as soon as the last is
// answered, for 5 s each. It reports the overview's share of the static
// throughput.
func BenchmarkOverviewVersusStatic(b *testing.B) {
	srv, _, _ := benchServer(b)
	signedIn := benchSession(b, srv)
	// The page as it is sent, gzipped, with its headers: the static
	// server sends the very same bytes.
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := signedIn.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.Header.Get("Content-Encoding") != "gzip" {
		b.Fatalf("the overview was sent with Content-Encoding %q", resp.Header.Get("Content-Encoding"))
	}
	header := resp.Header.Clone()
	static := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range header {
			if k != "Set-Cookie" && k != "Content-Length" {
				w.Header()[k] = v
			}
		}
		w.Write(page)
	}))
	b.Cleanup(static.Close)
	u, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
	cookies := signedIn.Jar.Cookies(u.URL)

	throughput := func(url string) float64 {
		transport := &http.Transport{MaxIdleConnsPerHost: 64}
		defer transport.CloseIdleConnections()
		var n atomic.Int64
		end := time.Now().Add(5 * time.Second)
		var wg sync.WaitGroup
		for i := 0; i < 32; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for time.Now().Before(end) {
					req, _ := http.NewRequest(http.MethodGet, url, nil)
					for _, c := range cookies {
						req.AddCookie(c)
					}
					req.Header.Set("Accept-Encoding", "gzip")
					resp, err := transport.RoundTrip(req)
					if err != nil {
						b.Error(err)
						return
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != http.StatusOK {
						b.Errorf("GET %s: %s", url, resp.Status)
						return
					}
					n.Add(1)
				}
			}()
		}
		wg.Wait()
		return float64(n.Load()) / 5
	}
	for b.Loop() {
		dynamic := throughput(srv.URL + "/")
		fixed := throughput(static.URL + "/")
		b.ReportMetric(dynamic, "overview-req/s")
		b.ReportMetric(fixed, "static-req/s")
		b.ReportMetric(dynamic/fixed, "overview/static")
	}
}
