package httpkit

import (
	"container/list"
	"context"
	"errors"
	"log/slog"
	"sync"
)

// PageCache keeps rendered pages, each for as long as it is what a render
// would show, the most recently used first, within a budget of bytes.
//
// A page is stamped with what it was rendered from: the generation of its
// data, and the second of the clock it was rendered at (relative times,
// "5 min ago", are rendered against it). A change is never served from an
// older page: whoever asks for the page after its generation moved waits
// for the render of the new data (one render, shared by all who ask for it
// meanwhile). The clock is not a change: when only the second moved, the
// kept page is served at once while one render in the background brings
// it up to the second, so that no request waits for a render only the
// clock asked for. Such a page is at most PageClockSlack seconds behind
// the clock: its times relative to now read as they did that much
// earlier, and no more. Beyond the slack (a page nobody asked for in a
// while, renders in the background that did not keep up), the request
// waits for a render as it does after a change.
//
// Requests for a page that is being rendered wait for that render rather
// than starting their own. The cache's lock is held only to look pages up
// and keep them, never during a render: a render of one page holds up no
// request for another.
type PageCache[K comparable, P Page] struct {
	maxBytes int

	// Renders in the background: their context, cancelled by Close, and
	// a slot each.
	ctx        context.Context
	cancel     context.CancelFunc
	slots      chan struct{}
	background sync.WaitGroup
	log        *slog.Logger

	mu      sync.Mutex
	closed  bool // no more renders in the background
	bytes   int
	lru     list.List // of *keptPage, most recently used at the front
	byKey   map[K]*list.Element
	flights map[K]*pageFlight[P]
}

// Page is a rendered page as the cache keeps it.
type Page interface {
	// Size is the memory the page's bytes take.
	Size() int
}

// Stamp says what a page was rendered from.
type Stamp struct {
	Generation uint64 // of the page's data: moves with every change
	Second     int64  // Unix second of the render's now
}

// PageClockSlack is how many seconds behind the clock a kept page may be
// served while the next one renders in the background.
const PageClockSlack = 2

// maxBackgroundRenders bounds the renders the clock asks for that run at
// once, over all pages. A page whose render finds no room is served as
// kept and tried again by its next request; once it is beyond the slack,
// its requests render it themselves.
const maxBackgroundRenders = 4

func (a Stamp) before(b Stamp) bool {
	if a.Generation != b.Generation {
		return a.Generation < b.Generation
	}
	return a.Second < b.Second
}

// serves says whether a page rendered with stamp a may answer a request
// with stamp b: it shows b's data or later, and is at most PageClockSlack
// seconds behind b's clock.
func (a Stamp) serves(b Stamp) bool {
	return a.Generation >= b.Generation && b.Second-a.Second <= PageClockSlack
}

// current says whether a page rendered with stamp a is what a render with
// stamp b would show, or later.
func (a Stamp) current(b Stamp) bool {
	return a.Generation >= b.Generation && a.Second >= b.Second
}

// keptPage is a page the cache keeps, with its key and stamp.
type keptPage[K comparable, P Page] struct {
	key   K
	stamp Stamp
	page  P
}

// pageFlight is a render under way; done closes when it ends.
type pageFlight[P Page] struct {
	stamp Stamp
	done  chan struct{}
	page  P
	err   error
}

// Render renders a page in ctx.
type Render[P Page] func(ctx context.Context) (P, error)

// NewPageCache returns a cache of pages within maxBytes. A render in the
// background that panics is logged to log, with the page's key as its
// path (a key that is a slog.LogValuer says what of it is logged).
func NewPageCache[K comparable, P Page](maxBytes int, log *slog.Logger) *PageCache[K, P] {
	ctx, cancel := context.WithCancel(context.Background())
	return &PageCache[K, P]{maxBytes: maxBytes, ctx: ctx, cancel: cancel, slots: make(chan struct{}, maxBackgroundRenders), log: log,
		byKey: map[K]*list.Element{}, flights: map[K]*pageFlight[P]{}}
}

// Get returns the page to answer a request with stamp, rendering it with
// build in ctx (without its cancellation: others may wait for the render)
// when none kept will do: a page kept for an earlier second of the same
// data is returned at once, and build runs in the background. Requests
// that arrive during a render share its outcome, an error included;
// errors are not kept.
func (pc *PageCache[K, P]) Get(ctx context.Context, key K, stamp Stamp, build Render[P]) (P, error) {
	pc.mu.Lock()
	if el, ok := pc.byKey[key]; ok && el.Value.(*keptPage[K, P]).stamp.serves(stamp) {
		kept := el.Value.(*keptPage[K, P])
		pc.lru.MoveToFront(el)
		if !kept.stamp.current(stamp) {
			pc.renderInBackgroundLocked(key, stamp, build)
		}
		pc.mu.Unlock()
		return kept.page, nil
	}
	if f, ok := pc.flights[key]; ok && f.stamp.serves(stamp) {
		pc.mu.Unlock()
		<-f.done
		return f.page, f.err
	}
	f := pc.startLocked(key, stamp)
	pc.mu.Unlock()
	pc.render(context.WithoutCancel(ctx), f, key, build)
	return f.page, f.err
}

// startLocked records a render of the page with stamp under way.
func (pc *PageCache[K, P]) startLocked(key K, stamp Stamp) *pageFlight[P] {
	f := &pageFlight[P]{stamp: stamp, done: make(chan struct{})}
	pc.flights[key] = f
	return f
}

// render runs the render f stands for, keeps its page and lets those who
// wait for it go on.
func (pc *PageCache[K, P]) render(ctx context.Context, f *pageFlight[P], key K, build Render[P]) {
	built := false
	defer func() {
		if !built {
			f.err = errors.New("rendering the page failed") // build panicked; the panic goes on up
		}
		pc.mu.Lock()
		if pc.flights[key] == f {
			delete(pc.flights, key)
		}
		if f.err == nil {
			pc.keepLocked(&keptPage[K, P]{key: key, stamp: f.stamp, page: f.page})
		}
		pc.mu.Unlock()
		close(f.done)
	}()
	f.page, f.err = build(ctx)
	built = true
}

// renderInBackgroundLocked renders the page with stamp in the background,
// unless it is being rendered already, the renders in the background have
// no room left or the cache is closed.
func (pc *PageCache[K, P]) renderInBackgroundLocked(key K, stamp Stamp, build Render[P]) {
	if _, ok := pc.flights[key]; ok || pc.closed {
		return
	}
	select {
	case pc.slots <- struct{}{}:
	default:
		return
	}
	f := pc.startLocked(key, stamp)
	pc.background.Add(1)
	go func() {
		defer pc.background.Done()
		defer func() { <-pc.slots }()
		defer func() {
			// No request is there to take a panic up: it is logged, and
			// the next request past the slack renders the page itself.
			if v := recover(); v != nil {
				pc.log.Error("rendering a page in the background panicked", "path", key, "panic", v)
			}
		}()
		// An error is not kept, and shows to the first request past the
		// slack, which renders the page itself.
		pc.render(pc.ctx, f, key, build)
	}()
}

// Settle waits for the renders under way in the background to end: the
// pages they rendered are kept from then on.
func (pc *PageCache[K, P]) Settle() { pc.background.Wait() }

// Close cancels the renders in the background, waits for them to end and
// starts no more: pages are rendered from then on only by the requests
// that wait for them.
func (pc *PageCache[K, P]) Close() {
	pc.mu.Lock()
	pc.closed = true
	pc.mu.Unlock()
	pc.cancel()
	pc.background.Wait()
}

// keepLocked keeps a page, unless a page rendered from later data is kept
// already, and drops the least recently used pages beyond the budget.
func (pc *PageCache[K, P]) keepLocked(p *keptPage[K, P]) {
	if el, ok := pc.byKey[p.key]; ok {
		old := el.Value.(*keptPage[K, P])
		if p.stamp.before(old.stamp) {
			return
		}
		pc.bytes -= old.page.Size()
		pc.lru.Remove(el)
		delete(pc.byKey, p.key)
	}
	if p.page.Size() > pc.maxBytes {
		return
	}
	pc.byKey[p.key] = pc.lru.PushFront(p)
	pc.bytes += p.page.Size()
	for pc.bytes > pc.maxBytes {
		el := pc.lru.Back()
		old := el.Value.(*keptPage[K, P])
		pc.bytes -= old.page.Size()
		pc.lru.Remove(el)
		delete(pc.byKey, old.key)
	}
}
