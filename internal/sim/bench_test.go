package sim

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The benchmark world: one account of 10,000 device locations with enough
// history for 100,000 alerts, built once.
var (
	benchOnce  sync.Once
	benchWorld *World
	benchStart time.Time
)

const benchAlerts = 100_000

func benchmarkWorld(b *testing.B) *World {
	b.Helper()
	benchOnce.Do(func() {
		clock := NewManualClock(testNow)
		history := 40 * 24 * time.Hour
		benchWorld = New(Config{
			Seed: 1, Locations: 10_000, History: history, Clock: clock, Zone: time.UTC,
			Credentials: []Credentials{{APIKey: "bench-key", Authorization: "bench-auth"}},
		})
		benchStart = testNow.Add(-history)
	})
	if n := len(benchWorld.accounts[0].alerts); n < benchAlerts {
		b.Fatalf("the benchmark world has %d alerts, want at least %d", n, benchAlerts)
	}
	return benchWorld
}

func benchGet(b *testing.B, client *http.Client, u string, into any) {
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	req.Header.Set("x-api-key", "bench-key")
	req.Header.Set("Authorization", "bench-auth")
	resp, err := client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("GET %s: %s", u, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(into); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkWalkAlerts walks the first 100,000 alerts of the account in
// pages of 500 over loopback, decoding every page as a client would. One
// op is one whole walk.
func BenchmarkWalkAlerts(b *testing.B) {
	w := benchmarkWorld(b)
	srv := httptest.NewServer(w.Handler())
	defer srv.Close()
	client := srv.Client()
	first := srv.URL + "/alerts?" + url.Values{
		"page_size":  {"500"},
		"start_date": {benchStart.Format(time.RFC3339)},
	}.Encode()

	b.ResetTimer()
	for b.Loop() {
		seen := 0
		u := first
		for seen < benchAlerts {
			var page struct {
				Alerts []json.RawMessage `json:"alerts"`
				Next   *string           `json:"next"`
			}
			benchGet(b, client, u, &page)
			seen += len(page.Alerts)
			if page.Next == nil {
				break
			}
			u = srv.URL + "/alerts?page_size=500&next=" + url.QueryEscape(*page.Next)
		}
		if seen < benchAlerts {
			b.Fatalf("walked %d alerts, want %d", seen, benchAlerts)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/walk")
}

// BenchmarkDevicesPages serves /devices pages of 100 and 1000 locations.
// One op is one page.
func BenchmarkDevicesPages(b *testing.B) {
	w := benchmarkWorld(b)
	srv := httptest.NewServer(w.Handler())
	defer srv.Close()
	client := srv.Client()
	for _, limit := range []int{100, 1000} {
		b.Run(fmt.Sprintf("limit=%d", limit), func(b *testing.B) {
			offset := 0
			for b.Loop() {
				var page []json.RawMessage
				benchGet(b, client, fmt.Sprintf("%s/devices?limit=%d&offset=%d", srv.URL, limit, offset), &page)
				if len(page) == 0 {
					b.Fatalf("empty page at offset %d", offset)
				}
				offset = (offset + limit) % 10_000
			}
		})
	}
}

// BenchmarkManyAccounts builds the world of `washboard sim --accounts 200
// --devices 500`: 200 accounts of 500 device locations with two weeks of
// history each. One op is one world built. It reports the time to build it
// (what the simulator takes before it serves), the heap the world holds
// once built, and the process's peak resident memory.
//
//	go test ./internal/sim -run '^$' -bench ManyAccounts -benchtime 1x
func BenchmarkManyAccounts(b *testing.B) {
	const accounts, locations = 200, 500
	var w *World
	for b.Loop() {
		w = nil
		runtime.GC()
		w = New(Config{Seed: 1, Locations: locations, Accounts: accounts, History: 14 * 24 * time.Hour,
			Clock: NewManualClock(testNow), Zone: time.UTC})
	}
	keys := map[string]bool{}
	for _, a := range w.Accounts() {
		keys[a.APIKey] = true
		if n := len(a.Locations); n != locations {
			b.Fatalf("account %s has %d locations, want %d", a.Name, n, locations)
		}
	}
	if len(keys) != accounts {
		b.Fatalf("%d distinct keys for %d accounts", len(keys), accounts)
	}
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "start-s")
	b.ReportMetric(float64(m.HeapInuse)/(1<<20), "heap-MB")
	b.ReportMetric(float64(ru.Maxrss)/1024, "maxrss-MB") // Linux: kilobytes
	runtime.KeepAlive(w)
}
