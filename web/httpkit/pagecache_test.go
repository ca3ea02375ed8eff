package httpkit

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// testKey names a page of the tests.
type testKey struct{ account, path string }

// testPage is a page of the tests: its live region alone.
type testPage struct{ live []byte }

func (p *testPage) Size() int { return len(p.live) }

// testPageCache is a page cache of maxBytes, closed when the test ends.
func testPageCache(t *testing.T, maxBytes int) *PageCache[testKey, *testPage] {
	pc := NewPageCache[testKey, *testPage](maxBytes, slog.New(slog.DiscardHandler))
	t.Cleanup(pc.Close)
	return pc
}

// pageOf renders a page whose live region is s.
func pageOf(s string) Render[*testPage] {
	return func(context.Context) (*testPage, error) { return &testPage{live: []byte(s)}, nil }
}

// gate holds the renders that pass it until it is opened, and counts them.
type gate struct {
	open    chan struct{}
	mu      sync.Mutex
	started []string // the pages whose renders reached the gate
	reached chan string
}

func newGate() *gate { return &gate{open: make(chan struct{}), reached: make(chan string, 64)} }

// page renders a page whose live region is s once the gate opens, or
// fails when ctx ends first.
func (g *gate) page(s string) Render[*testPage] {
	return func(ctx context.Context) (*testPage, error) {
		g.mu.Lock()
		g.started = append(g.started, s)
		g.mu.Unlock()
		g.reached <- s
		select {
		case <-g.open:
			return &testPage{live: []byte(s)}, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func (g *gate) renders() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.started)
}

// getAsync asks the cache for a page in a goroutine: the channel receives
// its live region, or its error.
func getAsync(pc *PageCache[testKey, *testPage], key testKey, stamp Stamp, build Render[*testPage]) <-chan string {
	got := make(chan string, 1)
	go func() {
		p, err := pc.Get(context.Background(), key, stamp, build)
		if err != nil {
			got <- "error: " + err.Error()
			return
		}
		got <- string(p.live)
	}()
	return got
}

// answered is what a request started with getAsync got; it fails the test
// if the request is still waiting after a while (held by a render it
// should not wait for).
func answered(t *testing.T, got <-chan string, what string) string {
	t.Helper()
	select {
	case s := <-got:
		return s
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: no answer while a render is held", what)
		return ""
	}
}

func TestPageCacheRendersOncePerStamp(t *testing.T) {
	pc := testPageCache(t, 1<<20)
	key := testKey{account: "a", path: "/"}
	builds := 0
	build := func(s string) Render[*testPage] {
		return func(ctx context.Context) (*testPage, error) {
			builds++
			return pageOf(s)(ctx)
		}
	}
	get := func(st Stamp, s string) string {
		t.Helper()
		p, err := pc.Get(t.Context(), key, st, build(s))
		if err != nil {
			t.Fatal(err)
		}
		pc.Settle()
		return string(p.live)
	}
	if get(Stamp{1, 10}, "v1") != "v1" || get(Stamp{1, 10}, "other") != "v1" || builds != 1 {
		t.Fatalf("the same stamp twice built %d times", builds)
	}
	if get(Stamp{2, 10}, "v2") != "v2" || builds != 2 {
		t.Fatalf("a new generation got the kept page, or built %d times in all, want 2", builds)
	}
	if got := get(Stamp{2, 11}, "v2 at 11"); got != "v2" || builds != 3 {
		t.Errorf("the next second got %q after %d builds, want the kept v2 and its next render in the background", got, builds)
	}
	if got := get(Stamp{2, 11}, "x"); got != "v2 at 11" || builds != 3 {
		t.Errorf("after the render in the background, the same second got %q after %d builds, want what it rendered", got, builds)
	}
	if got := get(Stamp{2, 11 + PageClockSlack + 1}, "v2 late"); got != "v2 late" || builds != 4 {
		t.Errorf("%d s past the page kept, a request got %q after %d builds, want its own render", PageClockSlack+1, got, builds)
	}
	if get(Stamp{1, 30}, "older") != "older" || get(Stamp{2, 14}, "x") != "v2 late" || get(Stamp{2, 13}, "x") != "v2 late" {
		t.Error("a render from older data replaced the newer page")
	}
	other := testKey{account: "b", path: "/"}
	p, _ := pc.Get(t.Context(), other, Stamp{2, 14}, build("b's"))
	if string(p.live) != "b's" {
		t.Error("another account's page was answered from the first account's")
	}
}

// TestPageCacheServesTheKeptPageWhileTheClocksRenderRuns: a request in
// the next second gets the page kept without waiting for the render the
// clock asked for, and so do the requests after it, which start no other
// render; once it is done, they get what it rendered.
func TestPageCacheServesTheKeptPageWhileTheClocksRenderRuns(t *testing.T) {
	pc := testPageCache(t, 1<<20)
	key := testKey{account: "a", path: "/"}
	if p, err := pc.Get(t.Context(), key, Stamp{1, 10}, pageOf("at 10")); err != nil || string(p.live) != "at 10" {
		t.Fatalf("first render: %v", err)
	}
	g := newGate()
	for i := range 5 {
		if got := answered(t, getAsync(pc, key, Stamp{1, 11}, g.page(fmt.Sprint("at 11, render ", i))), "a request in the next second"); got != "at 10" {
			t.Errorf("request %d in the next second got %q, want the page kept", i, got)
		}
	}
	close(g.open)
	pc.Settle()
	if r := g.renders(); len(r) != 1 {
		t.Errorf("five requests in the next second started %d renders, want 1: %v", len(r), r)
	}
	if p, _ := pc.Get(t.Context(), key, Stamp{1, 11}, pageOf("another")); string(p.live) != "at 11, render 0" {
		t.Errorf("after the render, the next second got %q", p.live)
	}
}

// TestPageCacheNeverServesAChangeFromOlderData: after the generation
// moved, a request gets the new data, neither the page kept nor a render
// of older data under way.
func TestPageCacheNeverServesAChangeFromOlderData(t *testing.T) {
	pc := testPageCache(t, 1<<20)
	key := testKey{account: "a", path: "/"}
	pc.Get(t.Context(), key, Stamp{1, 10}, pageOf("old data"))
	g := newGate()
	t.Cleanup(func() { close(g.open) })
	clockStale := getAsync(pc, key, Stamp{1, 11}, g.page("old data at 11"))
	<-g.reached // the render the clock asked for is held
	if got := answered(t, getAsync(pc, key, Stamp{2, 11}, pageOf("new data")), "a request after a change"); got != "new data" {
		t.Errorf("after a change a request got %q, want the new data", got)
	}
	if got := answered(t, clockStale, "a request in the next second"); got != "old data" {
		t.Errorf("the request in the next second got %q", got)
	}
}

// TestPageCacheRenderHoldsUpNoOtherPage: while a change's render of one
// page is held, a request for another page of the account is answered, and
// one of the same page waits for the change's render, not for the held
// render the clock asked for.
func TestPageCacheRenderHoldsUpNoOtherPage(t *testing.T) {
	pc := testPageCache(t, 1<<20)
	overview, floor := testKey{account: "a", path: "/"}, testKey{account: "a", path: "/floors/1"}
	pc.Get(t.Context(), overview, Stamp{1, 10}, pageOf("overview"))
	pc.Get(t.Context(), floor, Stamp{1, 10}, pageOf("floor"))
	g := newGate()
	t.Cleanup(func() { close(g.open) })
	change := getAsync(pc, overview, Stamp{2, 10}, g.page("overview changed"))
	<-g.reached // the change's render of the overview is held
	if got := answered(t, getAsync(pc, floor, Stamp{1, 11}, g.page("floor at 11")), "the floor page while the overview renders"); got != "floor" {
		t.Errorf("the floor page got %q while the overview rendered, want the floor page kept", got)
	}
	select {
	case got := <-change:
		t.Fatalf("the overview's change answered %q before its render was let go", got)
	default:
	}
}

// TestPageCacheBoundsItsRendersInTheBackground: the renders the clock asks
// for run at most maxBackgroundRenders at once over all pages, and Close
// ends them and starts no more: no render is left running.
func TestPageCacheBoundsItsRendersInTheBackground(t *testing.T) {
	pc := NewPageCache[testKey, *testPage](1<<20, slog.New(slog.DiscardHandler))
	const pages = 3 * maxBackgroundRenders
	key := func(i int) testKey { return testKey{account: "a", path: fmt.Sprint("/floors/", i)} }
	for i := range pages {
		pc.Get(t.Context(), key(i), Stamp{1, 10}, pageOf("kept"))
	}
	g := newGate() // never opened: the renders end when their context does
	var running atomic.Int64
	held := func(i int) Render[*testPage] {
		return func(ctx context.Context) (*testPage, error) {
			running.Add(1)
			defer running.Add(-1)
			return g.page(fmt.Sprint(i))(ctx)
		}
	}
	for i := range pages {
		if got := answered(t, getAsync(pc, key(i), Stamp{1, 11}, held(i)), "a page in the next second"); got != "kept" {
			t.Errorf("page %d in the next second got %q, want the page kept", i, got)
		}
	}
	for range maxBackgroundRenders {
		<-g.reached
	}
	if n := len(g.renders()); n != maxBackgroundRenders {
		t.Errorf("%d pages in the next second started %d renders at once, want %d", pages, n, maxBackgroundRenders)
	}
	pc.Close()
	if n := running.Load(); n != 0 {
		t.Errorf("%d renders still run after Close", n)
	}
	for i := range pages {
		pc.Get(t.Context(), key(i), Stamp{1, 12}, held(i))
	}
	if n := len(g.renders()); n != maxBackgroundRenders || running.Load() != 0 {
		t.Errorf("after Close, %d renders in all (want %d), %d running", n, maxBackgroundRenders, running.Load())
	}
}

func TestPageCacheKeepsNoErrorAndSharesARender(t *testing.T) {
	pc := testPageCache(t, 1<<20)
	key, stamp := testKey{account: "a", path: "/floors/1"}, Stamp{1, 1}
	boom := errors.New("boom")
	if _, err := pc.Get(t.Context(), key, stamp, func(context.Context) (*testPage, error) { return nil, boom }); err != boom {
		t.Fatalf("err = %v", err)
	}
	started, release := make(chan struct{}), make(chan struct{})
	var mu sync.Mutex
	builds := 0
	build := func(context.Context) (*testPage, error) {
		mu.Lock()
		builds++
		mu.Unlock()
		close(started)
		<-release
		return &testPage{live: []byte("page")}, nil
	}
	var wg sync.WaitGroup
	results := make(chan string, 8)
	wg.Add(1)
	go func() {
		defer wg.Done()
		p, _ := pc.Get(t.Context(), key, stamp, build)
		results <- string(p.live)
	}()
	<-started // the render is under way: everyone else waits for it
	for range 7 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := pc.Get(t.Context(), key, stamp, func(context.Context) (*testPage, error) { return nil, errors.New("a second render") })
			if err != nil {
				results <- err.Error()
				return
			}
			results <- string(p.live)
		}()
	}
	close(release)
	wg.Wait()
	close(results)
	for r := range results {
		if r != "page" {
			t.Errorf("a request got %q, want the shared render", r)
		}
	}
	if builds != 1 {
		t.Errorf("after an error, one render for eight requests ran %d times", builds)
	}
}

func TestPageCacheStaysWithinItsBudget(t *testing.T) {
	pc := testPageCache(t, 100)
	page := func(n int) Render[*testPage] {
		return func(context.Context) (*testPage, error) { return &testPage{live: make([]byte, n)}, nil }
	}
	for i := range 5 {
		pc.Get(t.Context(), testKey{account: "a", path: fmt.Sprint(i)}, Stamp{1, 1}, page(30))
	}
	pc.Get(t.Context(), testKey{account: "a", path: "2"}, Stamp{1, 1}, page(30)) // used again: kept over 3 and 4's elders
	pc.Get(t.Context(), testKey{account: "a", path: "huge"}, Stamp{1, 1}, page(101))
	kept := map[string]bool{}
	for k := range pc.byKey {
		kept[k.path] = true
	}
	if pc.bytes > 100 || len(kept) != 3 || !kept["2"] || !kept["3"] || !kept["4"] || kept["huge"] {
		t.Errorf("kept %v in %d bytes, want 2, 3 and 4 within 100", kept, pc.bytes)
	}
}
