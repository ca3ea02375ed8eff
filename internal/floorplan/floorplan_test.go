package floorplan

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"washboard/internal/i18n"
)

// TestAcceptRefusesOtherFiles: what is not an SVG, PNG, JPEG or PDF by
// its content is refused in words, whatever it might be named.
func TestAcceptRefusesOtherFiles(t *testing.T) {
	t.Parallel()
	for name, in := range map[string][]byte{
		"empty":      nil,
		"text":       []byte("Floor 2: washrooms 2.14 and 2.15"),
		"GIF":        []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;"),
		"ZIP":        []byte("PK\x03\x04\x14\x00\x00\x00"),
		"executable": []byte("\x7fELF\x02\x01\x01\x00"),
		"WebP":       []byte("RIFF\x1a\x00\x00\x00WEBPVP8 "),
		"HTML":       []byte("<!doctype html><script>alert(1)</script>"),
	} {
		_, err := accept(t, in)
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		refusedAs(t, err, NotAPlan, "This file is not an SVG, PNG, JPEG or PDF.")
	}
}

// TestAcceptReadsAtMostTheLimit: an upload of more than 10 MB is refused
// in words that give the limit, having read no more than one byte past
// it, whatever length the client said it would send.
func TestAcceptReadsAtMostTheLimit(t *testing.T) {
	t.Parallel()
	endless := &counting{r: io.MultiReader(bytes.NewReader(pngOf(t, 2, 2)), zeros{})}
	_, err := NewChecker(DefaultLimits()).Accept(context.Background(), endless)
	refusedAs(t, err, TooLarge, "larger than 10 MB")
	if endless.n > 10<<20+1 {
		t.Errorf("read %d bytes of the upload, want at most %d", endless.n, 10<<20+1)
	}

	exactly := make([]byte, 10<<20)
	copy(exactly, pngOf(t, 2, 2))
	if p := mustAccept(t, exactly); p.Width != 2 || len(p.Data) > 1<<10 {
		t.Errorf("an upload of exactly 10 MB came out %d px wide, %d bytes; want the 2 px PNG at its start", p.Width, len(p.Data))
	}
}

type counting struct {
	r io.Reader
	n int
}

func (c *counting) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestRefusalsInTheReadersLanguage: a refusal says why in the reader's
// language, numbers written as the language writes them; its Msg, for
// the log, stays English.
func TestRefusalsInTheReadersLanguage(t *testing.T) {
	t.Parallel()
	_, err := accept(t, pngHeader(9000, 100, nil))
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v, want a refusal", err)
	}
	if got, want := e.MsgIn(i18n.For("de")), "Dieses Bild ist 9.000 × 100 px groß; ein Plan darf je Seite höchstens 8.000 px haben."; got != want {
		t.Errorf("in German: %q, want %q", got, want)
	}
	if got, want := e.Msg, "This image is 9,000 × 100 px; a plan may be at most 8,000 px a side."; got != want || e.MsgIn(i18n.For("en")) != want {
		t.Errorf("in English: %q, want %q", got, want)
	}
	c, _ := checkerIn(t)
	c.pdfinfo = "/nonexistent/pdfinfo"
	_, err = c.Accept(context.Background(), bytes.NewReader(pdfPages(1, "")))
	var te *ToolError
	if !errors.As(err, &te) || !strings.Contains(te.MsgIn(i18n.For("fr")), "installez poppler-utils") {
		t.Errorf("got %v, want a ToolError that says in French to install poppler-utils", err)
	}
}

// TestNewCheckerTakesDefaults: limits left zero are the defaults; those
// given are kept, and said in the refusals.
func TestNewCheckerTakesDefaults(t *testing.T) {
	t.Parallel()
	c := NewChecker(Limits{MaxBytes: 1 << 20})
	if l := c.Limits(); l.MaxBytes != 1<<20 || l.MaxSide != 8000 || l.MaxElements != 50_000 || l.PDFTimeout != DefaultLimits().PDFTimeout {
		t.Errorf("limits %+v", l)
	}
	_, err := c.Accept(context.Background(), bytes.NewReader(make([]byte, 2<<20)))
	refusedAs(t, err, TooLarge, "larger than 1 MB")
}
