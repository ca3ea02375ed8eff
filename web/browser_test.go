package web

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"washboard/internal/chromium"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Browser tests drive Debian's Chromium (its headless shell when
// installed, see internal/chromium) against the dashboard on loopback.
// Without a browser they are skipped, unless WASHBOARD_BROWSER_TESTS is
// "required" (as .ci/run sets it), which makes them fail instead.

// The browser tests share one Chromium, started by the first of them and
// stopped by TestMain. Each test gets a tab of its own in a browser context
// of its own (like an incognito window: no cookies, storage or cache in
// common with another test), in a window of the size it asks for.
var sharedChromium struct {
	once sync.Once
	ctx  context.Context // the browser's first tab, which the tests' tabs come from
	err  error
	stop func()
}

// browserSlots bounds the browser tests that drive the browser at once:
// they compute more than the others (rendering, axe-core), and a timer of
// a page waits longer on a crowded machine.
var browserSlots = make(chan struct{}, 3)

// startChromium starts the shared browser once, at path.
func startChromium(path string) (context.Context, error) {
	sharedChromium.once.Do(func() {
		dir, err := os.MkdirTemp("", "washboard-chromium-")
		if err != nil {
			sharedChromium.err = err
			return
		}
		opts := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(path),
			chromedp.NoSandbox,
			chromedp.DisableGPU,
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-quic", true),
			chromedp.UserDataDir(dir),
		)
		actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancelCtx := chromedp.NewContext(actx)
		sharedChromium.stop = func() { cancelCtx(); cancelAlloc(); os.RemoveAll(dir) }
		if err := chromedp.Do(ctx); err != nil { // starts it
			sharedChromium.err = err
			return
		}
		sharedChromium.ctx = ctx
	})
	return sharedChromium.ctx, sharedChromium.err
}

// stopChromium stops the shared browser, if a test started it.
func stopChromium() {
	if sharedChromium.stop != nil {
		sharedChromium.stop()
	}
}

// newChrome opens a tab for the test in a new browser context of the shared
// headless browser, in a window of width × height, once one of the
// browserSlots is free.
func newChrome(t *testing.T, width, height int) context.Context {
	t.Helper()
	return newChromeWithin(t, width, height, 3*time.Minute)
}

// newChromeWithin is newChrome for a test whose browser work may take up
// to within, from when its tab opens.
func newChromeWithin(t *testing.T, width, height int, within time.Duration) context.Context {
	t.Helper()
	path := chromium.Path()
	if path == "" {
		needed(t, chromium.Missing)
	}
	shared, err := startChromium(path)
	if err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	browserSlots <- struct{}{}
	t.Cleanup(func() { <-browserSlots })
	ctx, cancelCtx := chromedp.NewContext(shared, chromedp.WithNewBrowserContext())
	ctx, cancelTimeout := context.WithTimeout(ctx, within)
	t.Cleanup(func() { cancelTimeout(); cancelCtx() })
	sizeWindow(t, ctx, width, height)
	return ctx
}

// newTab opens another tab in the browser context of the test's tab ctx,
// in a window of width × height; cancel closes it.
func newTab(t *testing.T, ctx context.Context, width, height int) (tab context.Context, cancel context.CancelFunc) {
	t.Helper()
	tab, cancel = chromedp.NewContext(ctx)
	sizeWindow(t, tab, width, height)
	return tab, cancel
}

// sizeWindow makes the window of the tab ctx width × height, as the
// browser's --window-size makes its first window.
func sizeWindow(t *testing.T, ctx context.Context, width, height int) {
	t.Helper()
	w, err := chromedp.Call(ctx, cdpbrowser.GetWindowForTarget, cdpbrowser.GetWindowForTargetParams{})
	must(t, err, "finding the tab's window")
	_, err = chromedp.CallBrowser(ctx, cdpbrowser.SetWindowBounds, cdpbrowser.SetWindowBoundsParams{WindowID: w.WindowID,
		Bounds: &cdpbrowser.Bounds{Width: int64(width), Height: int64(height)}})
	must(t, err, "sizing the tab's window")
}

// needed skips a browser test for want of what, in the words of every
// browser test: "needs Chromium: install it …". When the browser tests
// are required (WASHBOARD_BROWSER_TESTS=required, as .ci/run sets it), it
// fails the test instead.
func needed(t *testing.T, what string) {
	t.Helper()
	msg := "needs " + what + "; .ci/run installs it"
	if os.Getenv("WASHBOARD_BROWSER_TESTS") == "required" {
		t.Fatal("WASHBOARD_BROWSER_TESTS=required, and this test " + msg)
	}
	t.Skip(msg)
}

// pdftotextPath is the path of pdftotext, which reads back what a browser
// test printed.
func pdftotextPath(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("pdftotext")
	if err != nil {
		needed(t, "pdftotext to read the printed page: install poppler-utils (apt-get install poppler-utils)")
	}
	return p
}

// printsDir is where a browser test writes what it printed before reading
// it back: WASHBOARD_SCREENSHOTS, for a person to look at too, or else a
// directory of the test's own.
func printsDir(t *testing.T) string {
	t.Helper()
	if dir := os.Getenv("WASHBOARD_SCREENSHOTS"); dir != "" {
		must(t, os.MkdirAll(dir, 0o755), "making the screenshots' directory")
		return dir
	}
	return t.TempDir()
}

// saveScreenshot saves what the tab ctx shows, the whole page when full
// is set, as name (.png, or .jpg with the quality given) in the directory
// WASHBOARD_SCREENSHOTS names, for a person to look at. Without it no
// screenshot is taken: no test reads them, and encoding one costs the
// browser more than checking the page (a 4K screen's, a second of CPU).
func saveScreenshot(t *testing.T, ctx context.Context, name string, full bool, quality int) {
	t.Helper()
	dir := os.Getenv("WASHBOARD_SCREENSHOTS")
	if dir == "" {
		return
	}
	must(t, os.MkdirAll(dir, 0o755), "making the screenshots' directory")
	shoot, ext := chromedp.CaptureScreenshot(), ".png"
	if full {
		shoot = chromedp.FullScreenshot(quality)
		if quality < 100 {
			ext = ".jpg"
		}
	}
	img, err := chromedp.Run(ctx, shoot)
	must(t, err, "taking a screenshot")
	path := filepath.Join(dir, name+ext)
	must(t, os.WriteFile(path, img, 0o644), "saving a screenshot")
	t.Logf("screenshot: %s", path)
}

func must(t *testing.T, err error, what string) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// axeViolations runs axe-core (from node_modules) on the page and returns
// its violations, described.
func axeViolations(t *testing.T, ctx context.Context) []string { return axeViolationsBut(t, ctx) }

// axeViolationsBut is axeViolations without the rules named: the pages
// of a second language skip what the first checked already and language
// does not change (colours).
func axeViolationsBut(t *testing.T, ctx context.Context, skip ...string) []string {
	t.Helper()
	skip = append([]string{}, skip...) // [], not null
	_, file, _, _ := runtime.Caller(0)
	src, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		if os.Getenv("WASHBOARD_BROWSER_TESTS") == "required" {
			t.Fatalf("axe-core is not installed (npm ci): %v", err)
		}
		t.Log("axe-core not installed (run npm ci); accessibility not checked")
		return nil
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](string(src))); err != nil {
		t.Fatalf("loading axe-core: %v", err)
	}
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](
		`axe.run(document, {resultTypes: ['violations'], rules: Object.fromEntries(`+jsonString(t, skip)+`.map(r => [r, {enabled: false}]))}).then(r => r.violations.map(v => ({id: v.id, help: v.help, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 3)})))`,
		chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("running axe-core: %v", err)
	}
	var vs []struct {
		ID    string   `json:"id"`
		Help  string   `json:"help"`
		Nodes []string `json:"nodes"`
	}
	if err := json.Unmarshal(raw, &vs); err != nil {
		t.Fatalf("axe-core result %s: %v", raw, err)
	}
	var out []string
	for _, v := range vs {
		out = append(out, fmt.Sprintf("%s: %s (%s)", v.ID, v.Help, strings.Join(v.Nodes, ", ")))
	}
	return out
}

// jsonString is v as JSON, for a script.
func jsonString(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func checkAxe(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	for _, v := range axeViolations(t, ctx) {
		t.Errorf("axe on %s: %s", page, v)
	}
}

// loadAfter runs an action that leaves the page and waits for the next
// page to load.
func loadAfter(t *testing.T, ctx context.Context, action chromedp.Action[chromedp.Void], what string) {
	t.Helper()
	_, err := chromedp.Run(ctx, chromedp.WaitEvent(page.LoadEventFired, nil, action))
	must(t, err, what)
}

func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	must(t, err, "reading "+sel)
	return s
}

func TestBrowserWalkthrough(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	ctx := newChrome(t, 1280, 900)
	step := time.Now()
	lap := func(what string) {
		t.Logf("%s: %s", what, time.Since(step).Round(time.Millisecond))
		step = time.Now()
	}
	acc := a.world.Accounts()[0]

	// Sign in.
	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/signin")), "opening the sign-in page")
	checkAxe(t, ctx, "the sign-in page")
	must(t, chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.ID("api_key"), credA.APIKey),
		chromedp.SendKeys(chromedp.ID("authorization"), credA.Authorization),
	), "typing the credentials")
	loadAfter(t, ctx, chromedp.Submit(chromedp.ID("api_key")), "signing in")
	a.clock.BlockUntil(1)
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("buildings-heading"))), "waiting for the overview")
	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS("main h1"))), "opening the overview")
	lap("opening the overview")
	if got := text(t, ctx, "main h1"); !strings.Contains(got, acc.Name) {
		t.Errorf("overview heading %q, want the account name %q", got, acc.Name)
	}
	checkAxe(t, ctx, "the overview")

	// Follow a building, then a floor.
	b := acc.Buildings[0]
	loadAfter(t, ctx, chromedp.Click(chromedp.CSS(`a[href="/buildings/`+b.ID+`"]`)), "following the building")
	checkAxe(t, ctx, "a building")
	f := b.Floors[0]
	loadAfter(t, ctx, chromedp.Click(chromedp.CSS(`a[href="/floors/`+f.ID+`"]`)), "following the floor")
	lap("following the floor")
	loc, err := chromedp.Run(ctx, chromedp.Location())
	must(t, err, "reading the location")
	if !strings.HasSuffix(loc, "/floors/"+f.ID) {
		t.Errorf("after following the floor the browser is at %s", loc)
	}
	checkAxe(t, ctx, "a floor")

	// A device on this floor runs out in the simulator: its card changes
	// without a reload.
	var target string
	for _, r := range f.Rooms {
		for _, l := range r.Locations {
			if l.Type == "towel" && target == "" {
				target = fmt.Sprint(l.ID)
				if !a.world.Empty(l.Devices[0].MAC) {
					t.Fatal("the simulator did not find the device")
				}
			}
		}
	}
	if target == "" {
		t.Fatal("no towel dispenser on the floor")
	}
	must(t, chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`window.__washboardMark = 1`)), "marking the page")
	a.clock.Advance(time.Minute) // the next sync picks the change up and pushes it
	must(t, chromedp.Do(ctx, chromedp.Poll[chromedp.Void](
		`(() => { const c = document.getElementById('card-`+target+`'); return c && /\bout\b/i.test(c.textContent) && c.classList.contains('health-action') })()`,
		chromedp.WithPollingTimeout(15*time.Second))), "waiting for the card to show the device out")
	lap("waiting for the card to show the device out")
	mark, err := chromedp.Run(ctx, chromedp.Evaluate[int](`window.__washboardMark || 0`))
	must(t, err, "reading the mark")
	if mark != 1 {
		t.Error("the page reloaded instead of updating the card in place")
	}

	// Filter the alerts; the filter is in the URL.
	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/alerts"), chromedp.WaitVisible(chromedp.ID("filter-alert-type"))), "opening the alerts")
	checkAxe(t, ctx, "the alerts page")
	must(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.ID("filter-alert-type"), "consumable_out")), "choosing a type")
	loadAfter(t, ctx, chromedp.Submit(chromedp.ID("filter-alert-type")), "filtering the alerts")
	lap("filtering the alerts")
	if loc, _ := chromedp.Run(ctx, chromedp.Location()); !strings.Contains(loc, "type=consumable_out") {
		t.Errorf("the filtered view's URL %s does not hold the filter", loc)
	}
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('#live tbody tr')].map(r => r.textContent)`))
	must(t, err, "reading the rows")
	if len(rows) == 0 {
		t.Error("no alerts listed for consumable_out, though a towel just ran out")
	}
	for _, r := range rows {
		if !strings.Contains(r, "Product out") {
			t.Errorf("a row of another type after filtering by consumable_out: %q", strings.Join(strings.Fields(r), " "))
			break
		}
	}

	// Sign out.
	loadAfter(t, ctx, chromedp.Submit(chromedp.CSS(`form[action="/signout"]`)), "signing out")
	if loc, _ := chromedp.Run(ctx, chromedp.Location()); !strings.Contains(loc, "/signin") {
		t.Errorf("after signing out the browser is at %s", loc)
	}
	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/")), "opening the overview after sign-out")
	if loc, _ := chromedp.Run(ctx, chromedp.Location()); !strings.Contains(loc, "/signin") {
		t.Errorf("after sign-out the overview opened at %s", loc)
	}
}

// TestBrowserPhoneShowsTheFloorFirst: on a 360 × 780 phone the header is
// the brand, a menu button and the search field; the navigation opens
// from the button; and a floor page shows its first device card within
// the first screen. On a desktop the navigation is in the header's one
// row, with no button to press.
func TestBrowserPhoneShowsTheFloorFirst(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	ctx := newChrome(t, 1280, 900)
	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/signin"),
		chromedp.SendKeys(chromedp.ID("api_key"), credA.APIKey),
		chromedp.SendKeys(chromedp.ID("authorization"), credA.Authorization)), "typing the credentials")
	loadAfter(t, ctx, chromedp.Submit(chromedp.ID("api_key")), "signing in")
	a.clock.BlockUntil(1)
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("buildings-heading"))), "waiting for the overview")
	floor := a.world.Accounts()[0].Buildings[0].Floors[0]

	visible := func(sel string) bool {
		v, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const el = document.querySelector('`+sel+`'); return !!el && el.checkVisibility({visibilityProperty: true}) })()`))
		must(t, err, "looking for "+sel)
		return v
	}
	rect := func(sel string) (top, height float64) {
		r, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => { const r = document.querySelector('`+sel+`').getBoundingClientRect(); return [r.top, r.height] })()`))
		must(t, err, "measuring "+sel)
		return r[0], r[1]
	}

	// Desktop: everything in one row, nothing to open.
	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/floors/"+floor.ID), chromedp.WaitVisible(chromedp.CSS("main"))), "opening the floor")
	if _, h := rect(".site-header"); h > 80 {
		t.Errorf("the desktop header is %.0f px high: more than one row", h)
	}
	if visible(".site-menu > summary") || !visible(`.site-nav a[href="/alerts"]`) || !visible("#device-filter") {
		t.Error("on a desktop the navigation or the filters sit behind a button")
	}

	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(360, 780)), "emulating a phone")
	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/floors/"+floor.ID), chromedp.WaitVisible(chromedp.CSS("main"))), "opening the floor")
	if _, h := rect(".site-header"); h > 120 {
		t.Errorf("the phone header is %.0f px high", h)
	}
	if !visible("#site-search-q") {
		t.Error("the search field is not one tap away on a phone")
	}
	if visible(`.site-nav a[href="/alerts"]`) {
		t.Error("the navigation takes room on a phone before the menu is opened")
	}
	if top, _ := rect("article.card"); top+40 > 780 {
		t.Errorf("the floor's first device card starts at %.0f px, below the first screen of a 780 px phone", top)
	}
	checkAxe(t, ctx, "a floor on a phone")
	must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(".site-menu > summary"))), "opening the menu")
	if !visible(`.site-nav a[href="/alerts"]`) || !visible(`.sign-out button`) {
		t.Error("the menu does not show the navigation and sign-out")
	}
	loadAfter(t, ctx, chromedp.Click(chromedp.CSS(`.site-nav a[href="/alerts"]`)), "following Alerts from the menu")
	if loc, _ := chromedp.Run(ctx, chromedp.Location()); !strings.HasSuffix(loc, "/alerts") {
		t.Errorf("after choosing Alerts the phone is at %s", loc)
	}
	// The filters open from a button too, and apply.
	if visible("#alert-filter") {
		t.Error("the alert filters take room on a phone before they are opened")
	}
	must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#alert-filter-panel > summary")),
		chromedp.SetValue(chromedp.ID("filter-status"), "closed")), "opening the filters")
	loadAfter(t, ctx, chromedp.Submit(chromedp.ID("filter-status")), "filtering")
	if got := text(t, ctx, "#alert-filter-panel > summary"); !strings.Contains(got, "Closed") {
		t.Errorf("the closed filter button does not say what is chosen: %q", got)
	}
}
