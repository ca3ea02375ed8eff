package web

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// rowLine is the first line of an alert row in the report's PDF: it starts
// with the alert's creation time, "Tue 17 Nov 15:02".
var rowLine = regexp.MustCompile(`(?m)^\s*(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2} \d\d:\d\d\b`)

// headerLine is the header of a table of alerts.
var headerLine = regexp.MustCompile(`(?m)^\s*Opened\s+Alert\s+Where\b`)

var pageFooter = regexp.MustCompile(`Page (\d+) of (\d+)`)

// TestBrowserShiftReportPrints prints a report of five days (several
// pages of tables) to PDF on A4 and on Letter, and reads the PDF's text:
// every alert row is there, every page that holds rows repeats the table
// header, every page carries the report's period and its page number, and
// no page is empty. axe-core finds nothing on the page. On screen, the rows
// far below it are not laid out until they come near.
func TestBrowserShiftReportPrints(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	ctx := newChrome(t, 1280, 900)
	pdftotext := pdftotextPath(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/signin"),
		chromedp.SendKeys(chromedp.ID("api_key"), credA.APIKey),
		chromedp.SendKeys(chromedp.ID("authorization"), credA.Authorization)), "typing the credentials")
	loadAfter(t, ctx, chromedp.Submit(chromedp.ID("api_key")), "signing in")
	a.clock.BlockUntil(1)
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("buildings-heading"))), "waiting for the overview")

	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/reports/shift?from=2026-11-13T00:00&to=2026-11-18T09:00"),
		chromedp.WaitVisible(chromedp.CSS(".report-body"))), "opening the report")
	checkAxe(t, ctx, "the shift report")
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#table-opened tbody tr, #table-resolved tbody tr, #table-open tbody tr').length`))
	must(t, err, "counting the rows")
	if rows < 100 {
		t.Fatalf("the report has %d alert rows; the test needs several pages of them", rows)
	}
	// A busy shift's rows far below the screen are not laid out until one
	// scrolls near them, so that the report shows as fast as a quiet one's;
	// printed, every row is there (below).
	skipped, err := chromedp.Run(ctx, chromedp.Evaluate[[]bool](`[
		document.querySelector('#table-open tbody tr').checkVisibility({contentVisibilityAuto: true}),
		document.querySelector('#table-top tbody tr').checkVisibility({contentVisibilityAuto: true}),
	]`))
	must(t, err, "asking which rows are laid out")
	if skipped[0] || skipped[1] {
		t.Errorf("rows far below the screen are laid out at once (open, top locations: %v): a busy shift's report shows slowly", skipped)
	}
	running, err := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.documentElement).getPropertyValue('--running')`))
	must(t, err, "reading the running header")
	if !strings.Contains(running, "Shift report") {
		t.Errorf("--running is %q; the printed pages would carry no period", running)
	}

	dir := printsDir(t)
	pages := map[string]int{}
	for _, paper := range []struct {
		name string
		w, h float64 // inches
	}{{"a4", 8.27, 11.69}, {"letter", 8.5, 11}} {
		res, err := chromedp.Call(ctx, page.PrintToPDF, page.PrintToPDFParams{PaperWidth: paper.w, PaperHeight: paper.h})
		must(t, err, "printing on "+paper.name)
		path := filepath.Join(dir, "shift-report-"+paper.name+".pdf")
		must(t, os.WriteFile(path, res.Data, 0o644), "writing the PDF")
		t.Logf("PDF: %s", path)
		out, err := exec.Command(pdftotext, "-layout", path, "-").Output()
		must(t, err, "reading the PDF's text")
		texts := strings.Split(strings.TrimRight(string(out), "\f"), "\f")
		pages[paper.name] = len(texts)

		if got := len(rowLine.FindAllString(string(out), -1)); got != rows {
			t.Errorf("%s: the PDF holds %d alert rows; the page has %d", paper.name, got, rows)
		}
		for i, text := range texts {
			n := strconv.Itoa(i + 1)
			if m := pageFooter.FindStringSubmatch(text); m == nil || m[1] != n || m[2] != strconv.Itoa(len(texts)) {
				t.Errorf("%s page %s: footer %q; want \"Page %s of %d\"", paper.name, n, m, n, len(texts))
			}
			if !strings.Contains(text, "Shift report · Whole account · 13 Nov 2026 00:00") || !strings.Contains(text, "printed") {
				t.Errorf("%s page %s does not carry the report's period and print time", paper.name, n)
			}
			body := pageFooter.ReplaceAllString(text, "")
			body = strings.Replace(body, strings.Trim(running, `"`), "", 1)
			if len(strings.Fields(body)) < 5 {
				t.Errorf("%s page %s is (nearly) empty: %q", paper.name, n, strings.TrimSpace(body))
			}
			if first := rowLine.FindStringIndex(text); first != nil {
				if h := headerLine.FindStringIndex(text); h == nil || h[0] > first[0] {
					t.Errorf("%s page %s has alert rows without the table's header above them", paper.name, n)
				}
			}
		}
	}
	// In German, every page says its number and the period in German.
	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/reports/shift?from=2026-11-13T00:00&to=2026-11-18T09:00&lang=de"),
		chromedp.WaitVisible(chromedp.CSS(".report-body"))), "opening the report in German")
	res, err := chromedp.Call(ctx, page.PrintToPDF, page.PrintToPDFParams{PaperWidth: 8.27, PaperHeight: 11.69})
	must(t, err, "printing in German")
	path := filepath.Join(dir, "shift-report-de.pdf")
	must(t, os.WriteFile(path, res.Data, 0o644), "writing the PDF")
	out, err := exec.Command(pdftotext, "-layout", path, "-").Output()
	must(t, err, "reading the German PDF's text")
	german := strings.Split(strings.TrimRight(string(out), "\f"), "\f")
	footer := regexp.MustCompile(`Seite (\d+) von (\d+)`)
	for i, text := range german {
		if m := footer.FindStringSubmatch(text); m == nil || m[1] != strconv.Itoa(i+1) || m[2] != strconv.Itoa(len(german)) ||
			!strings.Contains(text, "Schichtbericht · Ganzes Konto · 13.11.2026, 00:00") || strings.Contains(text, "Page ") {
			t.Errorf("German page %d: footer %q, or no German period at its top", i+1, m)
		}
	}

	// The same content on longer paper takes no more pages, but for one:
	// Letter is shorter and also wider, so its lines of text wrap less, and
	// a section near a page's end may fit on Letter and spill over on A4.
	if pages["a4"] < 3 || pages["letter"] < pages["a4"]-1 {
		t.Errorf("pages: %v; want several, and Letter (shorter) at most one fewer than A4", pages)
	}
	t.Logf("pages: %v for %d alert rows", pages, rows)
}
