package floorplan

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"washboard/internal/i18n"
)

// acceptPDF draws a one-page PDF as a PNG with poppler's pdftoppm, then
// accepts the PNG as an uploaded one. Poppler draws; it runs no script a
// PDF holds. The PDF is written in a directory of its own, removed before
// acceptPDF returns, and the tools run with a timeout, without a shell.
func (c *Checker) acceptPDF(ctx context.Context, data []byte) (Plan, error) {
	select {
	case c.renders <- struct{}{}:
		defer func() { <-c.renders }()
	case <-ctx.Done():
		return Plan{}, ctx.Err()
	}
	dir, err := os.MkdirTemp(c.limits.TempDir, "washboard-plan-")
	if err != nil {
		return Plan{}, fmt.Errorf("making a directory to draw a PDF in: %w", err)
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "plan.pdf"), data, 0o600); err != nil {
		return Plan{}, fmt.Errorf("writing a PDF to draw: %w", err)
	}
	info, err := c.run(ctx, dir, c.pdfinfo, "plan.pdf")
	if err != nil {
		return Plan{}, err
	}
	switch pages := pageCount(info); {
	case pages < 1:
		return Plan{}, unreadable(PDF, errors.New("pdfinfo gave no page count"))
	case pages > 1:
		return Plan{}, refuse(Pages, func(l *i18n.Localizer) string { return l.T("floorplan.pages", "count", l.Number(pages)) })
	}
	if _, err := c.run(ctx, dir, c.pdftoppm, "-png", "-singlefile", "-f", "1", "-l", "1",
		"-scale-to", strconv.Itoa(min(c.limits.PDFSide, c.limits.MaxSide)), "plan.pdf", "page"); err != nil {
		return Plan{}, err
	}
	f, err := os.Open(filepath.Join(dir, "page.png"))
	if err != nil {
		return Plan{}, fmt.Errorf("reading the page pdftoppm drew: %w", err)
	}
	defer f.Close()
	// A page drawn at PDFSide a side is at most 4 bytes a pixel, and
	// compressed.
	png, err := io.ReadAll(io.LimitReader(f, int64(4*c.limits.PDFSide*c.limits.PDFSide)+1<<20))
	if err != nil {
		return Plan{}, fmt.Errorf("reading the page pdftoppm drew: %w", err)
	}
	plan, err := c.acceptImage(png, PNG)
	if err != nil {
		return Plan{}, err
	}
	plan.From = PDF
	return plan, nil
}

// run runs one of poppler's tools in dir with the PDF limits' timeout, and
// returns what it wrote on its standard output. A tool that fails or takes
// too long refuses the PDF; one that is missing is a *ToolError.
func (c *Checker) run(ctx context.Context, dir, tool string, args ...string) ([]byte, error) {
	path, err := exec.LookPath(tool)
	if err != nil {
		e := &ToolError{Err: err, tool: filepath.Base(tool)}
		e.Msg = e.MsgIn(i18n.For(i18n.Default))
		return nil, e
	}
	timed, cancel := context.WithTimeout(ctx, c.limits.PDFTimeout)
	defer cancel()
	cmd := exec.CommandContext(timed, path, args...)
	cmd.Dir = dir
	// Nothing of the server's environment reaches the tool; fontconfig
	// keeps any cache it writes in the directory removed afterwards.
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + dir, "LC_ALL=C"}
	stdout, stderr := &capped{max: 64 << 10}, &capped{max: 4 << 10}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = c.limits.PDFTimeout
	err = cmd.Run()
	switch {
	case err == nil:
		return stdout.Bytes(), nil
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case timed.Err() != nil:
		secs := int(math.Ceil(c.limits.PDFTimeout.Seconds()))
		return nil, refuse(TooSlow, func(l *i18n.Localizer) string { return l.N("floorplan.too_slow", secs) }).because(err)
	case strings.Contains(strings.ToLower(stderr.String()), "password"):
		return nil, refuse(Password, func(l *i18n.Localizer) string { return l.T("floorplan.password") }).because(errors.New(stderr.String()))
	}
	return nil, unreadable(PDF, fmt.Errorf("%s: %v: %s", filepath.Base(tool), err, strings.TrimSpace(stderr.String())))
}

// pageCount reads the page count pdfinfo writes: the last "Pages:" line,
// as the PDF's own title, written before it, could hold one too.
func pageCount(info []byte) int {
	pages := 0
	sc := bufio.NewScanner(bytes.NewReader(info))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "Pages:"); ok {
			if n, err := strconv.Atoi(strings.TrimSpace(rest)); err == nil {
				pages = n
			}
		}
	}
	return pages
}

// capped keeps the first max bytes written to it and drops the rest, so
// that a tool's output is bounded however much it writes.
type capped struct {
	bytes.Buffer
	max int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.Len(); room > 0 {
		c.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
