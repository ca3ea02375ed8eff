package dashboard

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/store"
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

// heatStore is a store whose DeviceHistory a test answers.
type heatStore struct {
	store.Store
	deviceHistory func(ctx context.Context, account string, macs []string, from time.Time) (map[string][]store.Reading, error)
}

func (h heatStore) DeviceHistory(ctx context.Context, account string, macs []string, from time.Time) (map[string][]store.Reading, error) {
	return h.deviceHistory(ctx, account, macs, from)
}

// heldHistory answers DeviceHistory from st, counting the reads; while it
// is held, a read says it began on began and waits until released.
type heldHistory struct {
	st    store.Store
	reads atomic.Int32
	began chan struct{}
	mu    sync.Mutex
	held  chan struct{} // nil: reads answer at once
	fail  error
}

func newHeldHistory(st store.Store) *heldHistory {
	return &heldHistory{st: st, began: make(chan struct{}, 16)}
}

func (h *heldHistory) store() heatStore {
	return heatStore{Store: h.st, deviceHistory: func(ctx context.Context, account string, macs []string, from time.Time) (map[string][]store.Reading, error) {
		h.reads.Add(1)
		h.mu.Lock()
		held, fail := h.held, h.fail
		h.mu.Unlock()
		if held != nil {
			h.began <- struct{}{}
			<-held
		}
		if fail != nil {
			return nil, fail
		}
		return h.st.DeviceHistory(ctx, account, macs, from)
	}}
}

// hold makes the reads from now on wait until release is called.
func (h *heldHistory) hold() (release func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	held := make(chan struct{})
	h.held = held
	return func() {
		h.mu.Lock()
		h.held = nil
		h.mu.Unlock()
		close(held)
	}
}

func (h *heldHistory) failWith(err error) {
	h.mu.Lock()
	h.fail = err
	h.mu.Unlock()
}

// heatOf says which heat maps a view answered with, as the page shows
// them: the hour they end at, when they were counted, and what they count.
func heatOf(t Trends) string {
	return fmt.Sprintf("to %s, counted at %s, %d points", t.Heat.To.UTC().Format("15:04"), t.HeatComputed.UTC().Format("15:04"), t.Heat.Total())
}

// Once the hour has turned, the trends page answers at once with the heat
// maps of the hour before, saying when they were counted, while the new
// hour's are counted once in the background however many ask; a view
// after that gets the new hour's. Only the account's first view waits.
func TestTrendsAnswerTheHeatMapsOfTheHourBeforeWhileTheHoursAreCounted(t *testing.T) {
	ctx := context.Background()
	st := historyStore(t)
	writeDevices(t, st, day(24, 7), 80, time.Time{})
	writeDevices(t, st, day(24, 8), 60, time.Time{}) // 20 points in the 08:00 hour
	h := newHeldHistory(st)
	clk := clock.NewFake(day(24, 9).Add(20 * time.Minute))
	s := New(Deps{Store: h.store(), Clock: clk})

	// The first views wait for the maps, counted once.
	release := h.hold()
	var wg sync.WaitGroup
	first := make([]Trends, 3)
	for i := range first {
		wg.Go(func() {
			var err error
			if first[i], err = s.Trends(ctx, "acme", domain.EveryBuilding(), "", 30, time.UTC); err != nil {
				t.Error(err)
			}
		})
	}
	<-h.began
	release()
	wg.Wait()
	for i, tr := range first {
		if got, want := heatOf(tr), "to 09:00, counted at 09:20, 20 points"; got != want {
			t.Errorf("first view %d: %s; want %s", i, got, want)
		}
	}
	if n := h.reads.Load(); n != 1 {
		t.Errorf("the first views read the history %d times; want once", n)
	}

	// 30 points used at 09:30; the hour turns and the store is slow.
	writeDevices(t, st, day(24, 9).Add(30*time.Minute), 30, time.Time{})
	clk.Set(day(24, 10).Add(5 * time.Minute))
	release = h.hold()
	views := make([]Trends, 4)
	for i := range views {
		wg.Go(func() {
			var err error
			if views[i], err = s.Trends(ctx, "acme", domain.EveryBuilding(), "", 30, time.UTC); err != nil {
				t.Error(err)
			}
		})
	}
	// All answer with the history's read held; a view that waited for it
	// would wait for ever, so the test gives up on them after a while.
	answered := make(chan struct{})
	go func() { wg.Wait(); close(answered) }()
	select {
	case <-answered:
	case <-time.After(time.Minute):
		release()
		t.Fatal("the views after the hour turned waited for the history's read")
	}
	building, err := s.Trends(ctx, "acme", domain.EveryBuilding(), "b1", 30, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	<-h.began
	for i, tr := range append(views, building) {
		if got, want := heatOf(tr), "to 09:00, counted at 09:20, 20 points"; got != want {
			t.Errorf("view %d after the hour turned: %s; want the hour before's, %s", i, got, want)
		}
	}
	release()
	s.trendHeat.pending.Wait()
	if n := h.reads.Load(); n != 2 {
		t.Errorf("the views after the hour turned read the history %d times in all; want once more", n-1)
	}

	later, err := s.Trends(ctx, "acme", domain.EveryBuilding(), "", 30, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := heatOf(later), "to 10:00, counted at 10:05, 50 points"; got != want {
		t.Errorf("once counted: %s; want %s", got, want)
	}
	b, err := s.Trends(ctx, "acme", domain.EveryBuilding(), "b1", 30, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := heatOf(b), "to 10:00, counted at 10:05, 50 points"; got != want || len(b.Buildings) != 1 {
		t.Errorf("the building's, once counted: %s of %d buildings; want %s of one", got, len(b.Buildings), want)
	}
	if n := h.reads.Load(); n != 2 {
		t.Errorf("the history was read %d times; want the new maps kept", n)
	}
}

// When counting the new hour's maps fails, the hour before's answer, the
// failure is logged, and it is tried again after heatRetryAfter, not at
// every view.
func TestTrendsTryHeatMapsThatFailedAgainLater(t *testing.T) {
	ctx := context.Background()
	st := historyStore(t)
	writeDevices(t, st, day(24, 7), 80, time.Time{})
	writeDevices(t, st, day(24, 8), 60, time.Time{})
	h := newHeldHistory(st)
	clk := clock.NewFake(day(24, 9).Add(20 * time.Minute))
	var logged bytes.Buffer
	s := New(Deps{Store: h.store(), Clock: clk, Log: slog.New(slog.NewTextHandler(&logged, nil))})
	view := func() string {
		t.Helper()
		tr, err := s.Trends(ctx, "acme", domain.EveryBuilding(), "", 30, time.UTC)
		if err != nil {
			t.Fatal(err)
		}
		s.trendHeat.pending.Wait()
		return heatOf(tr)
	}
	view()

	h.failWith(errors.New("the database is away"))
	clk.Set(day(24, 10).Add(5 * time.Minute))
	const before = "to 09:00, counted at 09:20, 20 points"
	for i := range 3 {
		if got := view(); got != before {
			t.Errorf("view %d with the store failing: %s; want %s", i, got, before)
		}
		clk.Advance(time.Minute)
	}
	if n := h.reads.Load(); n != 2 {
		t.Errorf("the history was read %d times by three views; want once after the first", n)
	}
	if log := logged.String(); !strings.Contains(log, "account=acme") || !strings.Contains(log, "the database is away") {
		t.Errorf("the failure is not logged with its account and error: %q", log)
	}

	h.failWith(nil)
	clk.Set(day(24, 10).Add(5*time.Minute + heatRetryAfter))
	view() // tries again, in the background
	if got, want := view(), "to 10:00, counted at 10:10, 20 points"; got != want {
		t.Errorf("once the store answers: %s; want %s", got, want)
	}
}

// No more than trendsKept scopes are kept: those asked for least lately
// go first.
func TestTrendsHeatMapsKeptAreBounded(t *testing.T) {
	var c renewedValues[int, int]
	t0 := time.Date(2026, 11, 18, 9, 30, 0, 0, time.UTC)
	for i := range 3 * trendsKept {
		if _, err := c.get(context.Background(), i, 1, t0.Add(time.Duration(i)*time.Second), func(context.Context) (int, error) { return i, nil }); err != nil {
			t.Fatal(err)
		}
		if i%2 == 1 { // 0 is asked for again and again
			c.get(context.Background(), 0, 1, t0.Add(time.Duration(i)*time.Second), nil)
		}
	}
	if len(c.m) > trendsKept {
		t.Errorf("%d scopes kept; want at most %d", len(c.m), trendsKept)
	}
	for _, s := range []int{0, 3*trendsKept - 1} {
		if _, ok := c.m[s]; !ok {
			t.Errorf("scope %d is not kept", s)
		}
	}
	if _, ok := c.m[1]; ok {
		t.Error("the scope least lately asked for is still kept")
	}
}
