package syncer

import (
	"context"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/sim"
	"washboard/internal/store"
	"washboard/internal/store/sqlite"
	"washboard/internal/upstream"
)

// The benchmark account: 10,000 device locations in about 2,300 rooms, with
// about 50,000 alerts, served by the simulator over loopback.
var (
	benchOnce  sync.Once
	benchWorld *sim.World
	benchClock *sim.ManualClock // the world's
	benchSrv   *httptest.Server
)

const benchAlerts = 50_000

func benchSetup(b *testing.B) (*sim.World, UpstreamSource) {
	b.Helper()
	benchOnce.Do(func() {
		benchClock = sim.NewManualClock(start)
		benchWorld = sim.New(sim.Config{
			Seed: 5, Locations: 10_000, History: 19 * 24 * time.Hour, Clock: benchClock, Zone: time.UTC,
			Credentials: []sim.Credentials{{APIKey: "key-1", Authorization: "auth-1"}},
		})
		benchSrv = httptest.NewServer(benchWorld.Handler())
	})
	if n := len(benchWorld.Accounts()[0].AlertRecords()); n < benchAlerts {
		b.Fatalf("the benchmark account has %d alerts, want at least %d", n, benchAlerts)
	}
	client, err := upstream.New(upstream.Config{BaseURL: benchSrv.URL})
	if err != nil {
		b.Fatal(err)
	}
	return benchWorld, UpstreamSource{Client: client}
}

var benchCred = upstream.Credentials{APIKey: "key-1", Authorization: "auth-1"}

// benchLoop is a loop over a fresh cache, driven by hand.
func benchLoop(b *testing.B, src Source, account string) (*loop, store.Store) {
	st, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "cache.db"))
	if err != nil {
		b.Fatal(err)
	}
	e := New(context.Background(), src, st, clock.NewFake(start), Config{}, nil)
	e.holders["bench"] = &holder{account: account, credID: CredentialID(benchCred), cred: benchCred, until: start.Add(time.Hour)}
	return &loop{e: e, account: account, done: make(chan struct{}), wakeup: make(chan struct{}, 1)}, st
}

// round runs one round of the loop: metadata, devices, alerts.
func (l *loop) round(b *testing.B) domain.Change {
	ctx := context.Background()
	var total domain.Change
	for _, r := range []struct {
		res domain.Resource
		fn  refreshFunc
	}{{domain.ResourceMetadata, l.refreshLayout}, {domain.ResourceDevices, l.refreshDevices}, {domain.ResourceAlerts, l.refreshAlerts}} {
		if err := l.refresh(ctx, r.res, r.fn); err != nil {
			b.Fatalf("%s: %v", r.res, err)
		}
		st, _ := l.e.store.SyncStatuses(ctx, l.account)
		total = total.Plus(st[r.res].Change)
	}
	return total
}

// fetchOnly fetches and decodes the same pages as a first sync, without
// storing them.
func fetchOnly(b *testing.B, src Source) int {
	ctx := context.Background()
	n := 0
	if _, err := src.Layout(ctx, benchCred, func(p domain.Layout) error { n += len(p.Locations); return nil }); err != nil {
		b.Fatal(err)
	}
	if _, err := src.Devices(ctx, benchCred, func(p []domain.Device) error { n += len(p); return nil }); err != nil {
		b.Fatal(err)
	}
	to := start.Truncate(24*time.Hour).AddDate(0, 0, 2)
	count := func(p []domain.Alert) error { n += len(p); return nil }
	if _, err := src.Alerts(ctx, benchCred, domain.AlertOpen, start.Add(-30*24*time.Hour), to, count); err != nil {
		b.Fatal(err)
	}
	if _, err := src.Alerts(ctx, benchCred, domain.AlertClosed, start.Add(-90*24*time.Hour), to, count); err != nil {
		b.Fatal(err)
	}
	return n
}

// peakHeap samples the heap while fn runs and returns the highest value.
func peakHeap(fn func()) uint64 {
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peak.Load() {
				peak.Store(m.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	fn()
	close(stop)
	<-done
	return peak.Load()
}

// BenchmarkFirstSync compares, in the same run, the first sync of the
// benchmark account into an empty cache with fetching and decoding the same
// pages without storing them. One op is one of each.
func BenchmarkFirstSync(b *testing.B) {
	w, src := benchSetup(b)
	account := w.Accounts()[0].ID
	var fetch, syncing time.Duration
	var peak uint64
	var rows int
	for b.Loop() {
		b.StopTimer()
		l, st := benchLoop(b, src, account)
		runtime.GC()
		b.StartTimer()

		t0 := time.Now()
		rows = fetchOnly(b, src)
		t1 := time.Now()
		var c domain.Change
		p := peakHeap(func() { c = l.round(b) })
		t2 := time.Now()
		fetch += t1.Sub(t0)
		syncing += t2.Sub(t1)
		peak = max(peak, p)
		if c.Added < rows/2 {
			b.Fatalf("the first sync added %d rows for %d records", c.Added, rows)
		}
		b.StopTimer()
		st.Close()
		b.StartTimer()
	}
	n := float64(b.N)
	b.ReportMetric(float64(fetch.Milliseconds())/n, "fetch-ms")
	b.ReportMetric(float64(syncing.Milliseconds())/n, "sync-ms")
	b.ReportMetric(float64(syncing)/float64(fetch), "sync/fetch")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(rows), "records")
}

// BenchmarkUnchangedSync measures a round of the loop when nothing changed
// upstream since the last one. One op is one round.
func BenchmarkUnchangedSync(b *testing.B) {
	w, src := benchSetup(b)
	l, st := benchLoop(b, src, w.Accounts()[0].ID)
	defer st.Close()
	l.round(b)
	written := 0
	for b.Loop() {
		c := l.round(b)
		written += c.Added + c.Changed + c.Removed
	}
	if written != 0 {
		b.Fatalf("rounds without upstream change wrote %d rows", written)
	}
	b.ReportMetric(float64(written), "rows-written")
}

// BenchmarkHistoryCost measures what keeping the devices' history adds to
// an ordinary sync round of the benchmark account: the world, and the
// sync's clock, move on five minutes before each round, and the rounds
// keep the history and do not in turn, on one cache. One op is a round of
// each, in alternating order. It reports each one's time, the ratio of
// the first's to the second's (on/off), and the readings a round keeping
// the history recorded, which vary with the simulated time of day: the
// world goes on from one count to the next.
//
//	go test ./internal/syncer -run '^$' -bench HistoryCost -benchtime 30x -count 3
func BenchmarkHistoryCost(b *testing.B) {
	w, src := benchSetup(b)
	l, st := benchLoop(b, src, w.Accounts()[0].ID)
	defer st.Close()
	fake := l.e.clock.(*clock.Fake)
	fake.Set(benchClock.Now())
	l.e.holders["bench"].until = benchClock.Now().AddDate(1, 0, 0)
	l.round(b)
	first := countReadings(b, st, l.account)
	var took [2]time.Duration
	var changed [2]int
	turn := 0
	for b.Loop() {
		order := []int{0, 1}
		if turn%2 == 1 {
			order = []int{1, 0}
		}
		turn++
		for _, i := range order {
			benchClock.Add(5 * time.Minute)
			fake.Set(benchClock.Now())
			st.KeepHistory(i == 0)
			t0 := time.Now()
			c := l.round(b)
			took[i] += time.Since(t0)
			changed[i] += c.Changed
		}
	}
	st.KeepHistory(true)
	n := float64(b.N)
	recorded := float64(countReadings(b, st, l.account) - first)
	if changed[0] == 0 || changed[1] == 0 || recorded == 0 {
		b.Fatalf("rounds changed %d and %d rows and recorded %.0f readings: they must change and record some", changed[0], changed[1], recorded)
	}
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(float64(took[0].Milliseconds())/n, "on-ms")
	b.ReportMetric(float64(took[1].Milliseconds())/n, "off-ms")
	b.ReportMetric(float64(took[0])/float64(took[1]), "on/off")
	b.ReportMetric(float64(changed[0]+changed[1])/(2*n), "changed/round")
	b.ReportMetric(recorded/n, "readings/on-round")
}

// countReadings counts the readings of an account's history.
func countReadings(b *testing.B, st store.Store, account string) int {
	h, err := st.DeviceHistory(context.Background(), account, nil, time.Time{})
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for _, rs := range h {
		n += len(rs)
	}
	return n
}

var _ = fmt.Sprint

// BenchmarkFirstSyncGrowth runs the first sync of accounts of 1,000, 10,000
// and 50,000 device locations (a week of alert history each) in the same
// run, and reports each one's time and the time per location of the larger
// ones against the smallest: 1.0 is linear growth.
func BenchmarkFirstSyncGrowth(b *testing.B) {
	sizes := []int{1_000, 10_000, 50_000}
	type subject struct {
		account string
		src     UpstreamSource
	}
	subjects := make([]subject, len(sizes))
	for i, n := range sizes {
		w := sim.New(sim.Config{
			Seed: 9, Locations: n, History: 7 * 24 * time.Hour, Clock: sim.NewManualClock(start), Zone: time.UTC,
			Credentials: []sim.Credentials{{APIKey: "key-1", Authorization: "auth-1"}},
		})
		srv := httptest.NewServer(w.Handler())
		b.Cleanup(srv.Close)
		client, err := upstream.New(upstream.Config{BaseURL: srv.URL})
		if err != nil {
			b.Fatal(err)
		}
		subjects[i] = subject{w.Accounts()[0].ID, UpstreamSource{Client: client}}
	}
	took := make([]time.Duration, len(sizes))
	for b.Loop() {
		for i, s := range subjects {
			b.StopTimer()
			l, st := benchLoop(b, s.src, s.account)
			runtime.GC()
			b.StartTimer()
			t0 := time.Now()
			l.round(b)
			took[i] += time.Since(t0)
			b.StopTimer()
			st.Close()
			b.StartTimer()
		}
	}
	n := float64(b.N)
	for i, size := range sizes {
		b.ReportMetric(float64(took[i].Milliseconds())/n, fmt.Sprintf("sync-%dk-ms", size/1000))
		if i > 0 {
			perLocation := (float64(took[i]) / float64(size)) / (float64(took[0]) / float64(sizes[0]))
			b.ReportMetric(perLocation, fmt.Sprintf("per-location-%dk/1k", size/1000))
		}
	}
}
