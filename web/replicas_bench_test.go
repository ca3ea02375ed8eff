package web

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"washboard/internal/store/postgres/pgtest"
	"washboard/internal/upstream"
)

// BenchmarkChangeReachesAnotherReplica measures how long a change written
// by one replica takes to reach a page's event stream on another, both on
// one PostgreSQL database: from the start of the write (an alert the
// service's events opened, applied and announced with NOTIFY) to the
// "alerts" event read over HTTP from the other replica's /events, at p50,
// p95 and p99. It needs WASHBOARD_TEST_ENGINE=postgres.
func BenchmarkChangeReachesAnotherReplica(b *testing.B) {
	if testEngine(b) != "postgres" {
		b.Skip(pgtest.NeededEngine)
	}
	e := newBenchEnv(b, 1, 1)
	_, writer := e.replica(b)
	reader, _ := e.replica(b)

	page := benchSession(b, reader)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, reader.URL+"/events", nil)
	resp, err := page.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		b.Fatalf("opening the event stream: %v", err)
	}
	defer resp.Body.Close()
	heard := make(chan time.Time, 1024)
	go func() {
		lines := bufio.NewScanner(resp.Body)
		for lines.Scan() {
			if lines.Text() == "event: alerts" {
				heard <- time.Now()
			}
		}
	}()
	// The stream subscribes before it answers, but the reader's replica
	// listens for notifications once asked to: a first change, unmeasured,
	// makes sure it does.
	n := 0
	apply := func() time.Time {
		for len(heard) > 0 {
			<-heard // anything late of the changes before
		}
		n++
		loc := 1_000_000 + n%200
		began := time.Now()
		_, err := writer.ApplyAlerts(ctx, e.account, []upstream.Alert{{
			ID: fmt.Sprintf("replica-bench-%d", n), LocationID: fmt.Sprint(loc), MacIDs: []string{fmt.Sprintf("%012X", loc-1_000_000)},
			Status: upstream.StatusOpen, Type: upstream.AlertJam, Created: start,
		}})
		if err != nil {
			b.Fatal(err)
		}
		return began
	}
	wait := func() (time.Time, bool) {
		select {
		case at := <-heard:
			return at, true
		case <-time.After(10 * time.Second):
			return time.Time{}, false
		}
	}
	for warm := 0; ; warm++ {
		apply()
		if _, ok := wait(); ok {
			break
		}
		if warm == 3 {
			b.Fatal("the other replica's stream heard no change in 40 s")
		}
	}

	var took []time.Duration
	for b.Loop() {
		began := apply()
		at, ok := wait()
		if !ok {
			b.Fatalf("change %d: the other replica's stream heard nothing within 10 s", n)
		}
		took = append(took, at.Sub(began))
	}
	b.ReportMetric(float64(quantileOf(took, 0.5).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(quantileOf(took, 0.95).Microseconds())/1000, "p95-ms")
	b.ReportMetric(float64(quantileOf(took, 0.99).Microseconds())/1000, "p99-ms")
}
