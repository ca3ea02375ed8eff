package httpkit

import (
	"compress/gzip"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"
)

// Pages are sent gzipped to browsers that accept it: a floor page of 200
// device cards is about 380 KB of HTML and under 25 KB gzipped, which is
// what a phone on a weak network notices first.
//
// Most responses are compressed as they are written (Compress below).
// Kept pages and the embedded assets are compressed once and sent as
// they are; their handlers set Content-Encoding, and Compress leaves such
// responses alone.

// minCompress is the size below which a response is sent as it is:
// gzip's header and trailer would take back most of what it saves.
const minCompress = 1024

// AcceptsGzip reports whether the request accepts a gzipped response.
func AcceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get(echo.HeaderAcceptEncoding), ",") {
		coding, params, _ := strings.Cut(part, ";")
		if !strings.EqualFold(strings.TrimSpace(coding), "gzip") {
			continue
		}
		// "gzip;q=0" refuses it.
		q := strings.TrimSpace(params)
		if v, ok := strings.CutPrefix(q, "q="); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil && f == 0 {
				return false
			}
		}
		return true
	}
	return false
}

// Compressible reports whether a body of the media type gains from gzip.
// Event streams are left alone: each event must reach the browser as it
// is written.
func Compressible(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	switch mt {
	case "text/event-stream":
		return false
	case "application/json", "application/javascript", "image/svg+xml", "application/xml", "application/manifest+json":
		return true
	}
	return strings.HasPrefix(mt, "text/")
}

// Compress gzips the responses worth it for clients that accept gzip.
func Compress(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		res := c.Response()
		AddVary(res.Header(), echo.HeaderAcceptEncoding)
		if !AcceptsGzip(c.Request()) || c.Request().Method == http.MethodHead {
			return next(c)
		}
		w := &gzipWriter{ResponseWriter: res.Writer}
		res.Writer = w
		defer func() {
			w.close()
			res.Writer = w.ResponseWriter
		}()
		return next(c)
	}
}

// gzipWriter decides whether to compress a body when its header is
// written: when no handler encoded it already and its type gains from it.
// A body of unknown length is held back until it is known to be worth it.
type gzipWriter struct {
	http.ResponseWriter
	code    int  // the status, once written
	pending bool // holding back the header and held
	held    []byte
	gz      *gzip.Writer // nil: the body goes out as it is
}

func (w *gzipWriter) WriteHeader(code int) {
	if w.code != 0 {
		return
	}
	w.code = code
	h := w.Header()
	switch {
	case !worthGzip(code, h):
		w.ResponseWriter.WriteHeader(code)
	case h.Get(echo.HeaderContentLength) == "":
		w.pending = true
	default:
		w.startGzip()
	}
}

// worthGzip reports whether a response gains from gzip.
func worthGzip(code int, h http.Header) bool {
	if code < http.StatusOK || code == http.StatusNoContent || code == http.StatusNotModified {
		return false
	}
	if h.Get(echo.HeaderContentEncoding) != "" || !Compressible(h.Get(echo.HeaderContentType)) {
		return false
	}
	if n, err := strconv.Atoi(h.Get(echo.HeaderContentLength)); err == nil && n < minCompress {
		return false
	}
	return true
}

// startGzip sends the header of a gzipped body and what was held back.
func (w *gzipWriter) startGzip() {
	w.pending = false
	h := w.Header()
	h.Del(echo.HeaderContentLength)
	h.Set(echo.HeaderContentEncoding, "gzip")
	w.ResponseWriter.WriteHeader(w.code)
	w.gz = gzipPool.Get().(*gzip.Writer)
	w.gz.Reset(w.ResponseWriter)
	if len(w.held) > 0 {
		w.gz.Write(w.held)
		w.held = nil
	}
}

func (w *gzipWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		if w.Header().Get(echo.HeaderContentType) == "" {
			w.Header().Set(echo.HeaderContentType, http.DetectContentType(b))
		}
		w.WriteHeader(http.StatusOK)
	}
	if w.pending {
		w.held = append(w.held, b...)
		if len(w.held) >= minCompress {
			w.startGzip()
		}
		return len(b), nil
	}
	if w.gz == nil {
		return w.ResponseWriter.Write(b)
	}
	return w.gz.Write(b)
}

// Flush sends what was written so far, compressed as far as it goes.
func (w *gzipWriter) Flush() {
	if w.pending {
		w.startGzip() // more may follow
	}
	if w.gz != nil {
		w.gz.Flush()
	}
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

func (w *gzipWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// close ends the body: a held-back small one goes out as it is.
func (w *gzipWriter) close() {
	if w.pending {
		w.pending = false
		w.Header().Set(echo.HeaderContentLength, strconv.Itoa(len(w.held)))
		w.ResponseWriter.WriteHeader(w.code)
		w.ResponseWriter.Write(w.held)
		w.held = nil
	}
	if w.gz == nil {
		return
	}
	w.gz.Close()
	w.gz.Reset(nil)
	gzipPool.Put(w.gz)
	w.gz = nil
}

// Responses compressed as they are written are compressed fast: they are
// rendered for one request.
var gzipPool = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
	return w
}}
