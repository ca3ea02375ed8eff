package dashboard

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Computed values answer again for TrendsKeptFor; a value asked for while
// it is computed is computed once; a failure is not kept; a caller that
// goes away stops waiting without stopping the computation.
func TestKeptValues(t *testing.T) {
	var c keptValues[string, int]
	ctx := context.Background()
	t0 := time.Date(2026, 11, 18, 9, 30, 0, 0, time.UTC)
	var calls atomic.Int32
	compute := func(context.Context) (int, error) { return int(calls.Add(1)), nil }

	if v, err := c.get(ctx, "a", t0, TrendsKeptFor, compute); v != 1 || err != nil {
		t.Fatalf("first: %d, %v", v, err)
	}
	if v, _ := c.get(ctx, "a", t0.Add(TrendsKeptFor-time.Second), TrendsKeptFor, compute); v != 1 {
		t.Errorf("within %v: %d; want the value kept", TrendsKeptFor, v)
	}
	if v, _ := c.get(ctx, "b", t0, TrendsKeptFor, compute); v != 2 {
		t.Errorf("another key: %d; want it computed", v)
	}
	if v, _ := c.get(ctx, "a", t0.Add(TrendsKeptFor), TrendsKeptFor, compute); v != 3 {
		t.Errorf("after %v: %d; want it computed again", TrendsKeptFor, v)
	}

	// Asked for twice at once: computed once, both get it.
	release := make(chan struct{})
	started := make(chan struct{})
	slow := func(ctx context.Context) (int, error) {
		close(started)
		<-release
		return 42, ctx.Err()
	}
	var wg sync.WaitGroup
	results := make([]int, 2)
	wg.Add(1)
	go func() { defer wg.Done(); results[0], _ = c.get(ctx, "slow", t0, TrendsKeptFor, slow) }()
	<-started
	waiting, cancel := context.WithCancel(ctx)
	gone := make(chan error)
	go func() { _, err := c.get(waiting, "slow", t0, TrendsKeptFor, slow); gone <- err }()
	wg.Add(1)
	go func() { defer wg.Done(); results[1], _ = c.get(ctx, "slow", t0, TrendsKeptFor, slow) }()
	cancel()
	if err := <-gone; !errors.Is(err, context.Canceled) {
		t.Errorf("a caller gone: %v; want context.Canceled", err)
	}
	close(release)
	wg.Wait()
	if results[0] != 42 || results[1] != 42 {
		t.Errorf("results %v; want 42 twice from one computation", results)
	}

	// A failure is not kept.
	fail := func(context.Context) (int, error) { calls.Add(1); return 0, errors.New("the database is away") }
	before := calls.Load()
	c.get(ctx, "f", t0, TrendsKeptFor, fail)
	if _, err := c.get(ctx, "f", t0, TrendsKeptFor, fail); err == nil || calls.Load() != before+2 {
		t.Errorf("a failure: %v after %d calls; want it tried again", err, calls.Load()-before)
	}
}

// No more than trendsKept values are kept: the oldest go first.
func TestKeptValuesAreBounded(t *testing.T) {
	var c keptValues[int, int]
	t0 := time.Date(2026, 11, 18, 9, 30, 0, 0, time.UTC)
	for i := range 3 * trendsKept {
		c.get(context.Background(), i, t0.Add(time.Duration(i)*time.Second), time.Hour, func(context.Context) (int, error) { return i, nil })
	}
	if len(c.m) > trendsKept {
		t.Errorf("%d values kept; want at most %d", len(c.m), trendsKept)
	}
	if _, ok := c.m[3*trendsKept-1]; !ok {
		t.Error("the newest value is not kept")
	}
	if _, ok := c.m[0]; ok {
		t.Error("the oldest value is still kept")
	}
}
