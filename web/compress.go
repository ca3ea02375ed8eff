package web

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"hash/crc32"
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
// Most responses are compressed as they are written (compress below).
// Kept pages and the embedded assets are compressed once and sent as
// they are; their handlers set Content-Encoding, and compress leaves such
// responses alone.

// minCompress is the size below which a response is sent as it is:
// gzip's header and trailer would take back most of what it saves.
const minCompress = 1024

// acceptsGzip reports whether the request accepts a gzipped response.
func acceptsGzip(r *http.Request) bool {
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

// compressible reports whether a body of the media type gains from gzip.
// Event streams are left alone: each event must reach the browser as it
// is written.
func compressible(contentType string) bool {
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

// compress gzips the responses worth it for clients that accept gzip.
func (s *Server) compress(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		res := c.Response()
		addVary(res.Header(), echo.HeaderAcceptEncoding)
		if !acceptsGzip(c.Request()) || c.Request().Method == http.MethodHead {
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
	if h.Get(echo.HeaderContentEncoding) != "" || !compressible(h.Get(echo.HeaderContentType)) {
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

// A gzip member is a header, one deflate stream and a trailer with the
// CRC-32 and the length of what was compressed. A deflate stream may be
// put together from pieces compressed apart, when each piece refers to
// nothing before it and all but the last end at a byte boundary without
// marking the end of the stream: a sync flush, or a stored block. So a
// kept page's region and the frame around it are compressed once, and a
// request joins them around the CSRF token it carries (keptFrame).

// deflatePiece is a piece of a deflate stream, with the CRC-32 and the
// length of what it holds.
type deflatePiece struct {
	z   []byte
	crc uint32
	n   int
}

// deflateLast is the empty piece that ends a stream.
var deflateLast = compressPiece(nil, flate.BestSpeed, true)

// compressPiece compresses b into a piece of a deflate stream, the last
// one when last is set.
func compressPiece(b []byte, level int, last bool) deflatePiece {
	pool := flatePools[level]
	fw := pool.Get().(*flate.Writer)
	defer pool.Put(fw)
	var z bytes.Buffer
	z.Grow(len(b)/4 + 64)
	fw.Reset(&z)
	fw.Write(b)
	if last {
		fw.Close()
	} else {
		fw.Flush()
	}
	return deflatePiece{z: z.Bytes(), crc: crc32.ChecksumIEEE(b), n: len(b)}
}

// storedPiece is b as a piece of a deflate stream, stored as it is: a
// stored block, which starts and ends at a byte boundary. b is at most
// 65,535 bytes.
func storedPiece(b []byte) deflatePiece {
	if len(b) == 0 {
		return deflatePiece{}
	}
	z := make([]byte, 0, 5+len(b))
	z = append(z, 0) // not the last block; stored; padded to the byte
	z = binary.LittleEndian.AppendUint16(z, uint16(len(b)))
	z = binary.LittleEndian.AppendUint16(z, ^uint16(len(b)))
	z = append(z, b...)
	return deflatePiece{z: z, crc: crc32.ChecksumIEEE(b), n: len(b)}
}

// flatePools hold compressors by level: each holds about a megabyte of
// tables, too much to make for every request.
var flatePools = map[int]*sync.Pool{
	flate.BestSpeed:          newFlatePool(flate.BestSpeed),
	flate.DefaultCompression: newFlatePool(flate.DefaultCompression),
}

func newFlatePool(level int) *sync.Pool {
	return &sync.Pool{New: func() any {
		fw, _ := flate.NewWriter(nil, level)
		return fw
	}}
}

// gzipHeader is a gzip member's header: deflate, no name, no time, an
// unknown operating system.
var gzipHeader = []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255}

// gzipOverhead is the size of a gzip member around its deflate stream:
// the header, and the trailer's CRC-32 and length.
const gzipOverhead = 10 + 8

// appendGzip appends to dst a gzip member of pieces, the last of which
// ends the stream. The member's CRC-32 is worked out from the pieces',
// without reading what they hold again.
func appendGzip(dst []byte, pieces ...deflatePiece) []byte {
	dst = append(dst, gzipHeader...)
	var crc uint32
	n := 0
	for _, p := range pieces {
		dst = append(dst, p.z...)
		crc = crc32Combine(crc, p.crc, p.n)
		n += p.n
	}
	dst = binary.LittleEndian.AppendUint32(dst, crc)
	return binary.LittleEndian.AppendUint32(dst, uint32(n))
}

// crc32Combine is the CRC-32 (IEEE) of a followed by b, from the CRC-32
// of each and the length of b, as zlib's crc32_combine works it out: the
// CRC of a is multiplied by x^(8·lenB) modulo the CRC's polynomial, which
// is what running it over lenB more bytes does, and the CRC of b added.
func crc32Combine(crcA, crcB uint32, lenB int) uint32 {
	return multModP(xPow8nModP(lenB), crcA) ^ crcB
}

// Polynomials modulo the CRC-32 polynomial, in its reflected bit order:
// the top bit is x⁰.
const crcPoly = 0xedb88320

// multModP is a·b modulo the CRC-32 polynomial.
func multModP(a, b uint32) uint32 {
	var p uint32
	for m := uint32(1) << 31; m != 0; m >>= 1 {
		if a&m != 0 {
			p ^= b
		}
		if b&1 != 0 {
			b = b>>1 ^ crcPoly
		} else {
			b >>= 1
		}
	}
	return p
}

// xPow8nModP is x^(8n) modulo the CRC-32 polynomial.
func xPow8nModP(n int) uint32 {
	p := uint32(1) << 31 // x⁰
	for k := 3; n > 0; n, k = n>>1, k+1 {
		if n&1 != 0 {
			p = multModP(x2kModP[k&31], p)
		}
	}
	return p
}

// x2kModP[k] is x^(2^k) modulo the CRC-32 polynomial.
var x2kModP = func() (t [32]uint32) {
	p := uint32(1) << 30 // x¹
	for k := range t {
		t[k] = p
		p = multModP(p, p)
	}
	return t
}()
