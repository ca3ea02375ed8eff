package web

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"washboard/internal/syncer"
	"washboard/internal/webhook"
)

// benchEvent is a signed event opening an alert at a location of the
// benchmark's account.
func benchEvent(secret webhook.Secret, n int) (http.Header, []byte) {
	id := fmt.Sprintf("evt_bench_%d", n)
	loc := 1_000_000 + n%10_000
	data := fmt.Sprintf(`{"alert_id":"bench-event-%d","device_location_id":"%d","device_macid":["%012X"],"alert_status":"OPEN",`+
		`"alert_type":"jam_fault","created_date":"2026-11-18T09:00:00.000Z","resolved_date":null,"resolution_type":null,"overdue":false,"refill_count":0}`,
		n, loc, loc-1_000_000)
	body, _ := json.Marshal(webhook.Event{ID: id, Type: webhook.AlertCreated, CreatedAt: start, Data: json.RawMessage(data)})
	return webhook.Sign(secret, id, time.Now(), body), body
}

func quantileOf(ds []time.Duration, q float64) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(float64(len(s))*q))]
}

// BenchmarkEvents measures the service's events on a cache of 10,000
// devices. One at a time, it reports the time from sending an event to
// its alert being in the cache (the sync's change announced) and to the
// "alerts" event reaching a page's event stream over HTTP, at p50, p95
// and p99. Then 16 senders post as fast as they can for a few seconds: the
// events accepted a second, and the 99th percentile of the answers, which
// must come within 100 ms.
func BenchmarkEvents(b *testing.B) {
	e := newBenchEnv(b, 5, 10)
	ctx := context.Background()
	id, secret, err := e.events.Create(ctx, e.account, "", start)
	if err != nil {
		b.Fatal(err)
	}
	addr := e.srv.URL + "/hooks/" + id
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	send := func(h http.Header, body []byte) (int, error) {
		req, _ := http.NewRequest(http.MethodPost, addr, bytes.NewReader(body))
		req.Header = h
		resp, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		resp.Body.Close()
		return resp.StatusCode, nil
	}

	// A page's event stream, as a browser holds it.
	page := benchSession(b, e.srv)
	streamCtx, stop := context.WithCancel(ctx)
	defer stop()
	req, _ := http.NewRequestWithContext(streamCtx, http.MethodGet, e.srv.URL+"/events", nil)
	resp, err := page.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		b.Fatalf("opening the event stream: %v", err)
	}
	defer resp.Body.Close()
	sse := make(chan time.Time, 1024)
	go func() {
		lines := bufio.NewScanner(resp.Body)
		for lines.Scan() {
			if lines.Text() == "event: alerts" {
				sse <- time.Now()
			}
		}
	}()
	changes, unsubscribe := e.engine.Subscribe(e.account)
	defer unsubscribe()

	var toCache, toStream []time.Duration
	n := 0
	for b.Loop() {
		n++
		h, body := benchEvent(secret, n)
		began := time.Now()
		if code, err := send(h, body); err != nil || code != http.StatusNoContent {
			b.Fatalf("event %d: %d, %v", n, code, err)
		}
		for ev := range changes {
			if ev.Kind == syncer.EventChanged {
				toCache = append(toCache, time.Since(began))
				break
			}
		}
		select {
		case at := <-sse:
			toStream = append(toStream, at.Sub(began))
		case <-time.After(10 * time.Second):
			b.Fatal("no alerts event on the stream within 10 s")
		}
	}
	b.ReportMetric(float64(quantileOf(toCache, 0.5).Microseconds())/1000, "cache-p50-ms")
	b.ReportMetric(float64(quantileOf(toCache, 0.95).Microseconds())/1000, "cache-p95-ms")
	b.ReportMetric(float64(quantileOf(toCache, 0.99).Microseconds())/1000, "cache-p99-ms")
	b.ReportMetric(float64(quantileOf(toStream, 0.5).Microseconds())/1000, "sse-p50-ms")
	b.ReportMetric(float64(quantileOf(toStream, 0.95).Microseconds())/1000, "sse-p95-ms")
	b.ReportMetric(float64(quantileOf(toStream, 0.99).Microseconds())/1000, "sse-p99-ms")

	// Throughput: 16 senders, each event new.
	b.StopTimer()
	const senders, seconds = 16, 5
	var accepted, busy atomic.Int64
	var mu sync.Mutex
	var answers []time.Duration
	next := atomic.Int64{}
	next.Store(int64(n) + 1)
	deadline := time.Now().Add(seconds * time.Second)
	var wg sync.WaitGroup
	for range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			for time.Now().Before(deadline) {
				h, body := benchEvent(secret, int(next.Add(1)))
				t0 := time.Now()
				code, err := send(h, body)
				mine = append(mine, time.Since(t0))
				switch {
				case err != nil:
					b.Error(err)
					return
				case code == http.StatusNoContent:
					accepted.Add(1)
				case code == http.StatusServiceUnavailable:
					busy.Add(1)
				default:
					b.Errorf("a delivery answered %d", code)
					return
				}
			}
			mu.Lock()
			answers = append(answers, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	b.ReportMetric(float64(accepted.Load())/seconds, "accepted/s")
	b.ReportMetric(float64(busy.Load())/seconds, "busy/s")
	b.ReportMetric(float64(quantileOf(answers, 0.99).Microseconds())/1000, "answer-p99-ms")
	if p := quantileOf(answers, 0.99); p > 100*time.Millisecond {
		b.Logf("the 99th percentile answer took %s, more than 100 ms", p)
	}
}
