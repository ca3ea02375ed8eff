package web

import (
	"bytes"
	"compress/flate"
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

	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/views"
	"washboard/web/httpkit"
)

// pageCacheBytes bounds the memory the rendered pages take: about 170 floor
// pages of 200 device cards.
const pageCacheBytes = 64 << 20

// A page's live region (the part that htmx fetches again when the data
// changes) is most of its bytes and all of its reads from the cache of the
// service's data. Clients of an account ask for the same few pages at the
// same moments: after every change the event stream tells each open page
// to fetch its region again. So the region is rendered once and kept
// (httpkit.PageCache), for as long as it is what a render would show, and
// framed for each request with what is the client's own: the CSRF token,
// the freshness banner.
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
// When only the second moved, the kept region is served at once while one
// render in the background brings it up to the second: it is at most
// httpkit.PageClockSlack seconds behind the clock, and app.js counts on
// from its data-now, so that "5 min ago" turns into "6 min ago" up to 2 s
// late.

// pageKey names a page as its region shows it.
type pageKey struct {
	account string
	path    string // path and normalized query
	name    string // the account's name as the session holds it
	scope   string // the buildings the person sees (domain.BuildingScope.Key)
	lang    string // the language it is in: its frame and, once converted, its region

	// role is the person's role: what the page offers them (a floor's
	// room codes to supervisors).
	role domain.Role
}

// LogValue is what a log line says of the page: its path.
func (k pageKey) LogValue() slog.Value { return slog.StringValue(k.path) }

// renderedPage is a page's rendered region and what frames it.
type renderedPage struct {
	title  string
	nav    string
	crumbs []views.Crumb
	live   []byte // the live region, as htmx fetches it

	liveZ    httpkit.DeflatePiece      // the live region compressed, to frame for each request
	liveGzip []byte                    // the live region gzipped, as htmx fetches it
	kept     atomic.Pointer[keptFrame] // the frame around the region, as last rendered
}

// compressLive compresses the page's live region once for all who ask
// for it: the region alone, and a piece to put between each request's
// frame.
func (p *renderedPage) compressLive() {
	p.liveZ = httpkit.CompressPiece(p.live, flate.DefaultCompression, false)
	p.liveGzip = httpkit.AppendGzip(nil, p.liveZ, httpkit.DeflateLast)
}

// Size is the memory the page's bytes take.
func (p *renderedPage) Size() int { return len(p.live) + p.liveZ.Size() + len(p.liveGzip) }

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
	z     []httpkit.DeflatePiece
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
	f := framedParts{parts: make([][]byte, len(parts)), z: make([]httpkit.DeflatePiece, len(parts))}
	for i, part := range parts {
		f.parts[i] = bytes.Clone(part)
		if end := last && i == len(parts)-1; len(part) > 0 || end {
			f.z[i] = httpkit.CompressPiece(part, flate.DefaultCompression, end)
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
func (f *framedParts) pieces(dst []httpkit.DeflatePiece, token httpkit.DeflatePiece) []httpkit.DeflatePiece {
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

// pageBuilder renders a page's region and says what frames it, from the
// cache as it is now, with relative times against now.
type pageBuilder func(ctx context.Context, now time.Time) (*renderedPage, error)

// servePage answers with a page of the signed-in account: its live region
// alone to htmx, the whole page otherwise.
func (s *Server) servePage(c echo.Context, path string, build pageBuilder) error {
	ss := sessionOf(c)
	key := pageKey{account: ss.Account, path: path, name: ss.AccountName, scope: s.scopeOf(c).Key(), lang: i18n.From(c.Request().Context()).Lang(), role: ss.Role}
	return s.serveKept(c, key, s.sync.Generation(ss.Account), build)
}

// serveKept answers with the page named key, kept while generation, that
// of its data, has not moved (and for the second); see servePage.
func (s *Server) serveKept(c echo.Context, key pageKey, generation uint64, build pageBuilder) error {
	now := s.clock.Now().Truncate(time.Second)
	stamp := httpkit.Stamp{Generation: generation, Second: now.Unix()}
	p, err := s.pages.Get(c.Request().Context(), key, stamp, func(ctx context.Context) (*renderedPage, error) {
		p, err := build(i18n.WithLocalizer(ctx, i18n.For(key.lang)), now)
		if err == nil {
			p.compressLive()
		}
		return p, err
	})
	if err != nil {
		return err
	}
	h := c.Response().Header()
	httpkit.AddVary(h, hxRequest)
	httpkit.AddVary(h, "Accept-Language")
	gzipped := httpkit.AcceptsGzip(c.Request())
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
		var pieces [8]httpkit.DeflatePiece
		token := httpkit.StoredPiece([]byte(m.CSRFToken))
		z := f.head.pieces(pieces[:0], token)
		z = f.tail.pieces(append(z, p.liveZ), token)
		size := httpkit.GzipOverhead
		for _, piece := range z {
			size += piece.Size()
		}
		buf.Grow(size)
		page = httpkit.AppendGzip(buf.AvailableBuffer(), z...)
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
