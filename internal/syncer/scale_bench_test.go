package syncer

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"washboard/internal/clock"
	"washboard/internal/sim"
	"washboard/internal/store/sqlite"
	"washboard/internal/upstream"
)

// The portfolio benchmark's simulator runs in a process of its own (this
// test binary, run again with scaleSimEnv set), so that the CPU time the
// benchmark measures is the sync's and the cache's alone.
const (
	scaleSimEnv       = "WASHBOARD_SCALE_SIM"
	scaleAccounts     = 200
	scaleLocations    = 500
	scaleSecondsEnv   = "WASHBOARD_SCALE_SECONDS" // the steady window in seconds; default 120
	scaleSlowEnv      = "WASHBOARD_SCALE_SLOW"    // set: the first account's service answers in 30 s
	scaleDefaultSteps = 120
)

func scaleCred(k int) upstream.Credentials {
	return upstream.Credentials{APIKey: fmt.Sprintf("key-%d", k), Authorization: fmt.Sprintf("auth-%d", k)}
}

// TestScaleSimulatorProcess is the simulator of BenchmarkPortfolioSync
// when run by it; otherwise it is skipped. It serves 200 accounts of 500
// locations with a week of history, their world standing still, prints
// its address and the accounts' ids, and serves until stdin closes.
func TestScaleSimulatorProcess(t *testing.T) {
	if os.Getenv(scaleSimEnv) == "" {
		t.Skip("run by BenchmarkPortfolioSync")
	}
	creds := make([]sim.Credentials, scaleAccounts)
	for k := range creds {
		c := scaleCred(k)
		creds[k] = sim.Credentials{APIKey: c.APIKey, Authorization: c.Authorization}
	}
	w := sim.New(sim.Config{Seed: 26, Locations: scaleLocations, Accounts: scaleAccounts, History: 7 * 24 * time.Hour,
		Clock: sim.NewManualClock(time.Now()), Zone: time.UTC, Credentials: creds})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := w.Handler()
	h := served
	if os.Getenv(scaleSlowEnv) != "" {
		h = http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			if r.Header.Get("x-api-key") == scaleCred(0).APIKey {
				select {
				case <-time.After(30 * time.Second):
				case <-r.Context().Done():
					return
				}
			}
			served.ServeHTTP(rw, r)
		})
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	ids := make([]string, 0, scaleAccounts)
	for _, a := range w.Accounts() {
		ids = append(ids, a.ID)
	}
	fmt.Printf("serving http://%s %s\n", ln.Addr(), strings.Join(ids, ","))
	io.Copy(io.Discard, os.Stdin)
	srv.Close()
}

// startScaleSimulator runs the simulator process and returns its address
// and the accounts' ids.
func startScaleSimulator(b *testing.B) (string, []string) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestScaleSimulatorProcess$", "-test.bench=^$")
	cmd.Env = append(os.Environ(), scaleSimEnv+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { stdin.Close(); _ = cmd.Wait() })
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "serving "); ok {
			base, ids, _ := strings.Cut(rest, " ")
			go io.Copy(io.Discard, out)
			return base, strings.Split(ids, ",")
		}
	}
	b.Fatal("the simulator process ended without serving")
	return "", nil
}

// BenchmarkPortfolioSync keeps 200 accounts of 500 locations (100,000
// locations, a week of alerts each) current from the simulator, on one
// engine over a SQLite cache, in real time with the default interval of a
// minute. It waits for every account's first sync, then for a steady
// window (2 minutes; WASHBOARD_SCALE_SECONDS) in which nothing changes
// upstream, and reports the lag from each round's due time to its devices
// and alerts written (p50, p99, max), the rounds in the window, the
// process's CPU time over the window's wall time (share of one core), and
// its resident memory at the end and at its peak. One op is the whole run.
// With WASHBOARD_SCALE_SLOW set, the first account's service answers every
// request in 30 s (its client gives up at 30 s): the figures are the other
// accounts'.
//
//	go test ./internal/syncer -run '^$' -bench PortfolioSync -benchtime 1x -timeout 30m
func BenchmarkPortfolioSync(b *testing.B) {
	window := time.Duration(scaleDefaultSteps) * time.Second
	if v, err := strconv.Atoi(os.Getenv(scaleSecondsEnv)); err == nil && v > 0 {
		window = time.Duration(v) * time.Second
	}
	base, ids := startScaleSimulator(b)
	measured := ids
	slow := ""
	if os.Getenv(scaleSlowEnv) != "" {
		slow, measured = ids[0], ids[1:]
	}
	for b.Loop() {
		client, err := upstream.New(upstream.Config{BaseURL: base})
		if err != nil {
			b.Fatal(err)
		}
		st, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "cache.db"))
		if err != nil {
			b.Fatal(err)
		}
		var mu sync.Mutex
		var lags []time.Duration
		measuring := false
		ctx, cancel := context.WithCancel(context.Background())
		e := New(ctx, UpstreamSource{Client: client}, st, clock.Real{}, Config{ObserveLag: func(account string, lag time.Duration) {
			mu.Lock()
			defer mu.Unlock()
			if measuring && account != slow {
				lags = append(lags, lag)
			}
		}}, nil)

		t0 := time.Now()
		for k, id := range ids {
			e.Hold(fmt.Sprintf("bench-%d", k), id, scaleCred(k), t0.Add(24*time.Hour))
		}
		for !allSynced(e, measured) {
			<-time.After(250 * time.Millisecond)
		}
		firstSync := time.Since(t0)
		// One interval for the first rounds' accounts to reach their
		// phases, then the window.
		<-time.After(MinInterval)
		mu.Lock()
		measuring = true
		mu.Unlock()
		cpu0, wall0 := cpuTime(b), time.Now()
		<-time.After(window)
		cpu, wall := cpuTime(b)-cpu0, time.Since(wall0)
		mu.Lock()
		measuring = false
		got := slices.Clone(lags)
		mu.Unlock()
		rss := residentMB(b)
		cancel()
		e.Wait()
		st.Close()
		client.Close()

		if want := int(window/MinInterval) * len(measured) * 9 / 10; len(got) < want {
			b.Fatalf("%d rounds in %s for %d accounts, want at least %d", len(got), window, len(measured), want)
		}
		slices.Sort(got)
		at := func(q float64) float64 { return got[int(q*float64(len(got)-1))].Seconds() }
		b.ReportMetric(0, "ns/op")
		b.ReportMetric(firstSync.Seconds(), "first-sync-s")
		b.ReportMetric(float64(len(got)), "rounds")
		b.ReportMetric(at(0.5), "lag-p50-s")
		b.ReportMetric(at(0.99), "lag-p99-s")
		b.ReportMetric(got[len(got)-1].Seconds(), "lag-max-s")
		b.ReportMetric(100*cpu.Seconds()/wall.Seconds(), "cpu-%-of-a-core")
		b.ReportMetric(rss, "rss-MB")
		b.ReportMetric(maxRSSMB(b), "peak-rss-MB")
	}
}

func allSynced(e *Engine, ids []string) bool {
	for _, id := range ids {
		if !e.Progress(id).FirstSyncDone {
			return false
		}
	}
	return true
}

// cpuTime is the process's CPU time so far, user and system.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// maxRSSMB is the process's peak resident memory (Linux counts it in KB).
func maxRSSMB(b *testing.B) float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return float64(ru.Maxrss) / 1024
}

// residentMB is the process's resident memory now, from /proc.
func residentMB(b *testing.B) float64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			if err != nil {
				b.Fatal(err)
			}
			return float64(kb) / 1024
		}
	}
	b.Fatal("no VmRSS in /proc/self/status")
	return 0
}
