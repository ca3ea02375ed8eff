// Package floorplan makes an uploaded floor plan safe to keep and to show
// (docs/floor-plans.md, "What is accepted, and how it is made safe").
//
// A Checker reads at most Limits.MaxBytes of an upload, tells its type from
// its content (never from its name or the Content-Type the browser sent),
// and returns a Plan built anew from what it read: an SVG re-written from
// an allow-list of drawing elements and attributes, a PNG or JPEG decoded
// and encoded again without its metadata, a one-page PDF drawn as a PNG by
// poppler's pdftoppm. No byte of the upload is passed through as it was.
//
// What it refuses, it refuses with an *Error whose words a page shows as
// they are: the upload's fault, never the server's. Only a PDF touches the
// disk, in a directory of its own removed before Accept returns.
package floorplan

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"time"

	"washboard/internal/i18n"
)

// Type is what a plan's bytes are.
type Type string

// The types of plan.
const (
	SVG  Type = "svg"
	PNG  Type = "png"
	JPEG Type = "jpeg"
	PDF  Type = "pdf" // only ever a Plan's From: a PDF is kept as the PNG it is drawn as
)

// Name is the type as people know it: "SVG", "PNG", "JPEG", "PDF".
func (t Type) Name() string {
	switch t {
	case SVG:
		return "SVG"
	case PNG:
		return "PNG"
	case JPEG:
		return "JPEG"
	case PDF:
		return "PDF"
	}
	return string(t)
}

// Plan is an accepted floor plan, safe to keep and to serve.
type Plan struct {
	Type Type   // what Data is: SVG, PNG or JPEG
	From Type   // what was uploaded: Type, or PDF for a PDF drawn as a PNG
	Data []byte // the plan as built anew; never the upload's own bytes
	// Width and Height are the plan's size in CSS pixels, each from 1 to
	// Limits.MaxSide: the size it is shown at when not scaled, and the
	// space placements are measured in.
	Width, Height int
}

// ContentType is the media type to serve Data with.
func (p Plan) ContentType() string {
	switch p.Type {
	case SVG:
		return "image/svg+xml"
	case JPEG:
		return "image/jpeg"
	}
	return "image/png"
}

// ContentSecurityPolicy is the policy to serve a plan with, so that a
// browser opening it on its own address runs nothing and fetches nothing:
// no script at all, styles only from the plan itself, images only
// embedded in it. Serve with "X-Content-Type-Options: nosniff" too, and
// show a plan as an image (<img>), never pasted into a page's HTML.
const ContentSecurityPolicy = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox"

// Limits bound what a Checker accepts and the work it does.
type Limits struct {
	MaxBytes int64 // the largest upload read, in bytes
	MaxSide  int   // the longest side of a plan, in pixels
	// MaxPixels bounds width × height of an image before it is decoded
	// (and the pixels of all images embedded in an SVG together): a small
	// file that claims a huge image is refused before it takes the memory.
	MaxPixels   int
	MaxElements int // the most elements an SVG may have
	// MaxDrawn bounds the elements an SVG draws once its use elements are
	// followed: a few uses of uses of groups would draw billions.
	MaxDrawn int
	MaxDepth int // how deep an SVG's elements may nest
	// PDFSide is the long side, in pixels, a PDF's page is drawn at.
	PDFSide int
	// PDFTimeout bounds each run of poppler's tools on a PDF.
	PDFTimeout time.Duration
	// TempDir is where a PDF is written while it is drawn, in a directory
	// of its own removed afterwards; "" for the system's.
	TempDir string
}

// DefaultLimits are the limits of docs/floor-plans.md.
func DefaultLimits() Limits {
	return Limits{
		MaxBytes:    10 << 20,
		MaxSide:     8000,
		MaxPixels:   40_000_000,
		MaxElements: 50_000,
		MaxDrawn:    200_000,
		MaxDepth:    100,
		PDFSide:     4000,
		PDFTimeout:  20 * time.Second,
	}
}

// Checker accepts uploaded plans within its limits; NewChecker makes one.
// It is safe for use by several uploads at once.
type Checker struct {
	limits Limits
	// pdftoppm and pdfinfo are the names or paths of poppler's tools.
	pdftoppm, pdfinfo string
	// renders holds a place per PDF being drawn: at most two at once, so
	// that a burst of PDFs waits rather than starves the machine.
	renders chan struct{}
}

// NewChecker returns a Checker with limits l, a field of l left zero
// taking its DefaultLimits value, which draws PDFs with the pdftoppm and
// pdfinfo found on PATH.
func NewChecker(l Limits) *Checker {
	d := DefaultLimits()
	orDefault(&l.MaxBytes, d.MaxBytes)
	orDefault(&l.MaxSide, d.MaxSide)
	orDefault(&l.MaxPixels, d.MaxPixels)
	orDefault(&l.MaxElements, d.MaxElements)
	orDefault(&l.MaxDrawn, d.MaxDrawn)
	orDefault(&l.MaxDepth, d.MaxDepth)
	orDefault(&l.PDFSide, d.PDFSide)
	orDefault(&l.PDFTimeout, d.PDFTimeout)
	return &Checker{limits: l, pdftoppm: "pdftoppm", pdfinfo: "pdfinfo", renders: make(chan struct{}, 2)}
}

func orDefault[T int | int64 | time.Duration](v *T, d T) {
	if *v <= 0 {
		*v = d
	}
}

// Limits are the Checker's limits.
func (c *Checker) Limits() Limits { return c.limits }

// Accept reads an upload from r and returns it as a plan safe to keep, or
// an *Error saying in words why it is refused. Any other error is the
// server's: a *ToolError when poppler's tools are missing, ctx's error
// when it ended.
func (c *Checker) Accept(ctx context.Context, r io.Reader) (Plan, error) {
	data, err := io.ReadAll(io.LimitReader(r, c.limits.MaxBytes+1))
	if err != nil {
		return Plan{}, fmt.Errorf("reading the upload: %w", err)
	}
	if int64(len(data)) > c.limits.MaxBytes {
		return Plan{}, refuse(TooLarge, func(l *i18n.Localizer) string {
			return l.T("floorplan.too_large", "max", megabytes(l, c.limits.MaxBytes))
		})
	}
	switch sniff(data) {
	case PNG:
		return c.acceptImage(data, PNG)
	case JPEG:
		return c.acceptImage(data, JPEG)
	case PDF:
		return c.acceptPDF(ctx, data)
	case SVG:
		return c.acceptSVG(data)
	}
	return Plan{}, errNotAPlan
}

var errNotAPlan = refuse(NotAPlan, func(l *i18n.Localizer) string { return l.T("floorplan.not_a_plan") })

// sniff tells a plan's type from its first bytes: "" when it is none of
// them. Text that opens with a tag may be an SVG; reading it tells.
func sniff(data []byte) Type {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return PNG
	case bytes.HasPrefix(data, []byte("\xff\xd8\xff")):
		return JPEG
	}
	text := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), " \t\r\n")
	switch {
	case bytes.HasPrefix(text, []byte("%PDF-")):
		return PDF
	case bytes.HasPrefix(text, []byte("<")):
		return SVG
	}
	return ""
}

// megabytes writes n bytes as l writes a size: "10 MB".
func megabytes(l *i18n.Localizer, n int64) string {
	if n%(1<<20) == 0 {
		return l.Number(int(n>>20)) + " MB"
	}
	return l.Number(int(n)) + " B"
}
