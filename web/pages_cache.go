package web

import (
	"bytes"
	"compress/flate"
	"container/list"
	"context"
	"crypto/rand"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"reflect"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"washboard/views"
)

// pageCacheBytes bounds the memory the rendered pages take: about 170 floor
// pages of 200 device cards.
const pageCacheBytes = 64 << 20

// A page's live region (the part that htmx fetches again when the data
// changes) is most of its bytes and all of its reads from the cache of the
// service's data. Clients of an account ask for the same few pages at the
// same moments: after every change the event stream tells each open page
// to fetch its region again. So the region is rendered once and kept, for
// as long as it is what a render would show, and framed for each request
// with what is the client's own: the CSRF token, the freshness banner.
//
// A kept region is what a render would show while
//   - the account's cache has not changed: the sync engine's generation of
//     the account has not moved;
//   - the clock has not moved on to the next second: relative times ("5 min
//     ago") are rendered against the second the page is rendered at, which
//     the page also carries for app.js to count on from;
//   - the request names the same page: account, path and normalized query,
//     and the account's name as the session knows it (the overview's
//     heading).
//
// A change is never served from an older region: whoever asks for the
// page after its generation moved waits for the render of the new data
// (one render, shared by all who ask for it meanwhile). The clock is not a
// change: when only the second moved, the kept region is served at once
// while one render in the background brings it up to the second, so that
// no request waits for a render only the clock asked for. Such a region
// is at most pageClockSlack seconds behind the clock: its times relative
// to now ("5 min ago", "runs out in 3 h") read as they did that much
// earlier, and app.js counts on from its data-now, so they stay that much
// behind and no more ("5 min ago" turns into "6 min ago" up to 2 s late).
// Beyond the slack (a page nobody asked for in a while, renders in the
// background that did not keep up), the request waits for a render as it
// does after a change.

// pageClockSlack is how many seconds behind the clock a kept region may be
// served while the next one renders in the background.
const pageClockSlack = 2

// maxBackgroundRenders bounds the renders the clock asks for that run at
// once, over all pages. A page whose render finds no room is served as
// kept and tried again by its next request; once it is beyond the slack,
// its requests render it themselves.
const maxBackgroundRenders = 4

// pageKey names a page as its region shows it.
type pageKey struct {
	account string
	path    string // path and normalized query
	name    string // the account's name as the session holds it
}

// pageStamp says what a region was rendered from.
type pageStamp struct {
	generation uint64 // the sync engine's generation of the account
	second     int64  // Unix second of the render's now
}

func (a pageStamp) before(b pageStamp) bool {
	if a.generation != b.generation {
		return a.generation < b.generation
	}
	return a.second < b.second
}

// renderedPage is a page's rendered region and what frames it.
type renderedPage struct {
	key    pageKey
	stamp  pageStamp
	title  string
	nav    string
	crumbs []views.Crumb
	live   []byte // the live region, as htmx fetches it

	liveZ    deflatePiece              // the live region compressed, to frame for each request
	liveGzip []byte                    // the live region gzipped, as htmx fetches it
	kept     atomic.Pointer[keptFrame] // the frame around the region, as last rendered
}

// compressLive compresses the page's live region once for all who ask
// for it: the region alone, and a piece to put between each request's
// frame.
func (p *renderedPage) compressLive() {
	p.liveZ = compressPiece(p.live, flate.DefaultCompression, false)
	p.liveGzip = appendGzip(nil, p.liveZ, deflateLast)
}

// size is the memory the page's bytes take.
func (p *renderedPage) size() int { return len(p.live) + len(p.liveZ.z) + len(p.liveGzip) }

// keptFrame is a page's frame around its live region as last rendered:
// the model it was rendered from, with csrfMark in the place of the CSRF
// token, and its two sides, before the region and after it. Views are
// functions of their models alone, so a request whose model is the same
// but for its token is framed with the frame kept, its own token put in,
// without rendering it again.
type keptFrame struct {
	model      views.Page
	head, tail framedParts
}

// framedParts is a side of the frame cut at the places of the CSRF token:
// the parts between them, and each part compressed. The token, new in
// every response, is stored between the parts as it is: kept out of the
// compressor, it cannot be matched against anything else on the page,
// which is what BREACH needs.
type framedParts struct {
	parts [][]byte
	z     []deflatePiece
}

// csrfMark stands for the CSRF token in a kept frame: letters and digits,
// which templ writes as they are, drawn afresh by each process, which no
// page can hold otherwise.
var csrfMark = "csrf" + rand.Text()

// cutFrame cuts b, a side of a frame rendered with csrfMark for its
// token, at the token's places, and compresses each part; last says the
// side ends the page.
func cutFrame(b []byte, last bool) framedParts {
	parts := bytes.Split(b, []byte(csrfMark))
	f := framedParts{parts: make([][]byte, len(parts)), z: make([]deflatePiece, len(parts))}
	for i, part := range parts {
		f.parts[i] = bytes.Clone(part)
		if end := last && i == len(parts)-1; len(part) > 0 || end {
			f.z[i] = compressPiece(part, flate.DefaultCompression, end)
		}
	}
	return f
}

// size is the length of the side of the frame with token in its places.
func (f *framedParts) size(token string) int {
	n := (len(f.parts) - 1) * len(token)
	for _, part := range f.parts {
		n += len(part)
	}
	return n
}

// appendTo appends the side of the frame to dst, token in its places.
func (f *framedParts) appendTo(dst []byte, token string) []byte {
	for i, part := range f.parts {
		if i > 0 {
			dst = append(dst, token...)
		}
		dst = append(dst, part...)
	}
	return dst
}

// pieces appends the side of the frame to dst as pieces of a deflate
// stream, token stored in its places.
func (f *framedParts) pieces(dst []deflatePiece, token deflatePiece) []deflatePiece {
	for i, z := range f.z {
		if i > 0 {
			dst = append(dst, token)
		}
		dst = append(dst, z)
	}
	return dst
}

// frame returns the frame for m around the page's live region, rendering
// it unless the one kept was rendered from the same model.
func (p *renderedPage) frame(ctx context.Context, m views.Page) (*keptFrame, error) {
	if m.CSRFToken != "" {
		m.CSRFToken = csrfMark
	}
	if f := p.kept.Load(); f != nil && reflect.DeepEqual(f.model, m) {
		return f, nil
	}
	var buf bytes.Buffer
	if err := views.Frame(m, liveMarkHTML).Render(ctx, &buf); err != nil {
		return nil, err
	}
	i := bytes.Index(buf.Bytes(), []byte(liveMark))
	if i < 0 {
		return nil, errors.New("the page's frame has no place for its live region")
	}
	f := &keptFrame{model: m, head: cutFrame(buf.Bytes()[:i], false), tail: cutFrame(buf.Bytes()[i+len(liveMark):], true)}
	p.kept.Store(f)
	return f, nil
}

// pageCache keeps rendered pages, the most recently used first, within a
// budget of bytes. Requests for a page that is being rendered wait for that
// render rather than starting their own. The cache's lock is held only to
// look pages up and keep them, never during a render: a render of one page
// holds up no request for another.
type pageCache struct {
	maxBytes int

	// Renders in the background: their context, cancelled by close, and
	// a slot each.
	ctx        context.Context
	cancel     context.CancelFunc
	slots      chan struct{}
	background sync.WaitGroup
	log        *slog.Logger

	mu      sync.Mutex
	closed  bool // no more renders in the background
	bytes   int
	lru     list.List // of *renderedPage, most recently used at the front
	byKey   map[pageKey]*list.Element
	flights map[pageKey]*pageFlight
}

// pageFlight is a render under way; done closes when it ends.
type pageFlight struct {
	stamp pageStamp
	done  chan struct{}
	page  *renderedPage
	err   error
}

// serves says whether a page rendered with stamp a may answer a request
// with stamp b: it shows b's data or later, and is at most pageClockSlack
// seconds behind b's clock.
func (a pageStamp) serves(b pageStamp) bool {
	return a.generation >= b.generation && b.second-a.second <= pageClockSlack
}

// current says whether a page rendered with stamp a is what a render with
// stamp b would show, or later.
func (a pageStamp) current(b pageStamp) bool {
	return a.generation >= b.generation && a.second >= b.second
}

func newPageCache(maxBytes int, log *slog.Logger) *pageCache {
	ctx, cancel := context.WithCancel(context.Background())
	return &pageCache{maxBytes: maxBytes, ctx: ctx, cancel: cancel, slots: make(chan struct{}, maxBackgroundRenders), log: log,
		byKey: map[pageKey]*list.Element{}, flights: map[pageKey]*pageFlight{}}
}

// pageRender renders a page in ctx.
type pageRender func(ctx context.Context) (*renderedPage, error)

// get returns the page to answer a request with stamp, rendering it with
// build in ctx (without its cancellation: others may wait for the render)
// when none kept will do: a page kept for an earlier second of the same
// data is returned at once, and build runs in the background. Requests
// that arrive during a render share its outcome, an error included;
// errors are not kept.
func (pc *pageCache) get(ctx context.Context, key pageKey, stamp pageStamp, build pageRender) (*renderedPage, error) {
	pc.mu.Lock()
	if el, ok := pc.byKey[key]; ok && el.Value.(*renderedPage).stamp.serves(stamp) {
		p := el.Value.(*renderedPage)
		pc.lru.MoveToFront(el)
		if !p.stamp.current(stamp) {
			pc.renderInBackgroundLocked(key, stamp, build)
		}
		pc.mu.Unlock()
		return p, nil
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
func (pc *pageCache) startLocked(key pageKey, stamp pageStamp) *pageFlight {
	f := &pageFlight{stamp: stamp, done: make(chan struct{})}
	pc.flights[key] = f
	return f
}

// render runs the render f stands for, keeps its page and lets those who
// wait for it go on.
func (pc *pageCache) render(ctx context.Context, f *pageFlight, key pageKey, build pageRender) {
	defer func() {
		if f.page == nil && f.err == nil {
			f.err = errors.New("rendering the page failed") // build panicked; the panic goes on up
		}
		pc.mu.Lock()
		if pc.flights[key] == f {
			delete(pc.flights, key)
		}
		if f.err == nil {
			f.page.key, f.page.stamp = key, f.stamp
			pc.keepLocked(f.page)
		}
		pc.mu.Unlock()
		close(f.done)
	}()
	f.page, f.err = build(ctx)
}

// renderInBackgroundLocked renders the page with stamp in the background,
// unless it is being rendered already, the renders in the background have
// no room left or the cache is closed.
func (pc *pageCache) renderInBackgroundLocked(key pageKey, stamp pageStamp, build pageRender) {
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
				pc.log.Error("rendering a page in the background panicked", "path", key.path, "panic", v)
			}
		}()
		// An error is not kept, and shows to the first request past the
		// slack, which renders the page itself.
		pc.render(pc.ctx, f, key, build)
	}()
}

// close cancels the renders in the background, waits for them to end and
// starts no more: pages are rendered from then on only by the requests
// that wait for them.
func (pc *pageCache) close() {
	pc.mu.Lock()
	pc.closed = true
	pc.mu.Unlock()
	pc.cancel()
	pc.background.Wait()
}

// keepLocked keeps a page, unless a page rendered from later data is kept
// already, and drops the least recently used pages beyond the budget.
func (pc *pageCache) keepLocked(p *renderedPage) {
	if el, ok := pc.byKey[p.key]; ok {
		old := el.Value.(*renderedPage)
		if p.stamp.before(old.stamp) {
			return
		}
		pc.bytes -= old.size()
		pc.lru.Remove(el)
		delete(pc.byKey, p.key)
	}
	if p.size() > pc.maxBytes {
		return
	}
	pc.byKey[p.key] = pc.lru.PushFront(p)
	pc.bytes += p.size()
	for pc.bytes > pc.maxBytes {
		el := pc.lru.Back()
		old := el.Value.(*renderedPage)
		pc.bytes -= old.size()
		pc.lru.Remove(el)
		delete(pc.byKey, old.key)
	}
}

// pageBuilder renders a page's region and says what frames it, from the
// cache as it is now, with relative times against now.
type pageBuilder func(ctx context.Context, now time.Time) (*renderedPage, error)

// servePage answers with a page of the signed-in account: its live region
// alone to htmx, the whole page otherwise.
func (s *Server) servePage(c echo.Context, path string, build pageBuilder) error {
	ss := sessionOf(c)
	now := s.clock.Now().Truncate(time.Second)
	key := pageKey{account: ss.Account, path: path, name: ss.AccountName}
	stamp := pageStamp{generation: s.sync.Generation(ss.Account), second: now.Unix()}
	p, err := s.pages.get(c.Request().Context(), key, stamp, func(ctx context.Context) (*renderedPage, error) {
		p, err := build(ctx, now)
		if err == nil {
			p.compressLive()
		}
		return p, err
	})
	if err != nil {
		return err
	}
	h := c.Response().Header()
	addVary(h, hxRequest)
	gzipped := acceptsGzip(c.Request())
	if isHTMX(c) {
		body := p.live
		if gzipped {
			body = p.liveGzip
			h.Set(echo.HeaderContentEncoding, "gzip")
		}
		h.Set(echo.HeaderContentLength, strconv.Itoa(len(body)))
		return c.HTMLBlob(http.StatusOK, body)
	}
	m := s.page(c, p.title, p.nav)
	m.Crumbs = p.crumbs
	return sendFramed(c, m, p, gzipped)
}

// renderLive renders a page's live region into bytes to keep.
func renderLive(ctx context.Context, comp templ.Component) ([]byte, error) {
	var buf bytes.Buffer
	if err := comp.Render(ctx, &buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// rawHTML is HTML rendered before, as a component.
func rawHTML(b []byte) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// liveMark stands for the live region while the frame around it is
// rendered: an HTML comment, which no text that templ escapes can contain.
const liveMark = "<!--live-->"

var liveMarkHTML = rawHTML([]byte(liveMark))

// sendFramed sends a page: its frame for m, with the kept live region in
// its place, in one write. Gzipped, it joins the region and the frame's
// parts, compressed before, with m's CSRF token stored between them.
func sendFramed(c echo.Context, m views.Page, p *renderedPage, gzipped bool) error {
	f, err := p.frame(c.Request().Context(), m)
	if err != nil {
		return err
	}
	buf := pagePool.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= maxPooledPage {
			pagePool.Put(buf)
		}
	}()
	buf.Reset()
	var page []byte
	if gzipped {
		c.Response().Header().Set(echo.HeaderContentEncoding, "gzip")
		var pieces [8]deflatePiece
		token := storedPiece([]byte(m.CSRFToken))
		z := f.head.pieces(pieces[:0], token)
		z = f.tail.pieces(append(z, p.liveZ), token)
		size := gzipOverhead
		for _, piece := range z {
			size += len(piece.z)
		}
		buf.Grow(size)
		page = appendGzip(buf.AvailableBuffer(), z...)
	} else {
		buf.Grow(f.head.size(m.CSRFToken) + len(p.live) + f.tail.size(m.CSRFToken))
		page = f.head.appendTo(buf.AvailableBuffer(), m.CSRFToken)
		page = append(page, p.live...)
		page = f.tail.appendTo(page, m.CSRFToken)
	}
	c.Response().Header().Set(echo.HeaderContentLength, strconv.Itoa(len(page)))
	return c.HTMLBlob(http.StatusOK, page)
}

// pagePool holds the buffers pages are put together in, so that a page
// goes out in one write without a buffer of its size being allocated and
// cleared for every request. Buffers that grew past maxPooledPage are let go.
var pagePool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

const maxPooledPage = 1 << 20
