package web

import (
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestBrowserLocationHistory opens a location's page with a week's chart,
// a refill and an alert on it, in the light and the dark theme, with its
// table open, and runs axe-core on each; a 360 px phone shows it without
// sideways scrolling; and the chart is there when the page is printed.
// Screenshots go to WASHBOARD_SCREENSHOTS.
//
// On a crowded machine (as on a slow phone) the browser paints the page
// before all of it has arrived; the header's first row is as tall from the
// first paint as at the end, or the brand and the search field would move
// down a few pixels as the menu arrives, a layout shift this test reports.
func TestBrowserLocationHistory(t *testing.T) {
	t.Parallel()
	a := newAppOf(t, Config{}, 12)
	ctx := newChrome(t, 1280, 900)
	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/signin"),
		chromedp.SendKeys(chromedp.ID("api_key"), credA.APIKey),
		chromedp.SendKeys(chromedp.ID("authorization"), credA.Authorization)), "typing the credentials")
	loadAfter(t, ctx, chromedp.Submit(chromedp.ID("api_key")), "signing in")
	a.clock.BlockUntil(1)
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("buildings-heading"))), "waiting for the overview")
	location := a.srv.URL + "/locations/" + a.runOutAndRefill()

	shoot := func(name string) { saveScreenshot(t, ctx, "location-history-"+name, true, 100) }

	for _, scheme := range []string{"light", "dark"} {
		_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		must(t, err, "emulating the "+scheme+" theme")
		must(t, chromedp.Do(ctx, chromedp.Navigate(location), chromedp.WaitVisible(chromedp.CSS("svg.history-chart"))), "opening the location")
		must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(".history-table > summary")),
			chromedp.WaitVisible(chromedp.CSS(".history-table tbody tr"))), "opening the table")
		checkAxe(t, ctx, "a location's page with its history ("+scheme+")")
		shoot(scheme)
	}

	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(360, 740)), "emulating a phone")
	// Nothing on the page moves as it shows, nor when its card refreshes
	// itself: the layout shifts are counted from before the first paint.
	_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `(() => {
		window.shifted = [];
		new PerformanceObserver((list) => {
			for (const e of list.getEntries()) {
				if (!e.hadRecentInput) window.shifted.push(e.value.toFixed(5) + ' (' + (e.sources || []).map((s) => {
					const n = s.node;
					return !n ? '?' : n.nodeType === 1 ? n.tagName.toLowerCase() + (n.id ? '#' + n.id : '') + (n.className && typeof n.className === 'string' ? '.' + n.className.trim().split(/\s+/).join('.') : '') : n.nodeName;
				}).join(', ') + ')');
			}
		}).observe({type: 'layout-shift', buffered: true});
	})()`})
	must(t, err, "watching for layout shifts")
	must(t, chromedp.Do(ctx, chromedp.Navigate(location), chromedp.WaitVisible(chromedp.CSS("svg.history-chart"))), "opening the location")
	refreshed, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise((done) => {
		const live = document.getElementById('live');
		live.addEventListener('htmx:afterSettle', () => requestAnimationFrame(() => requestAnimationFrame(() => done(true))), {once: true});
		htmx.trigger(live, 'sse:devices');
		setTimeout(() => done(false), 10000);
	})`, chromedp.EvalAwaitPromise))
	must(t, err, "refreshing the card")
	if !refreshed {
		t.Fatal("the location's card did not refresh itself on a devices event")
	}
	// A shift of a pixel's fraction, under a crowded machine's late
	// paints, is logged; one a person could see (a thousandth of the page,
	// a hundredth of what Lighthouse calls good) fails.
	shifts, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.shifted`))
	must(t, err, "reading the layout shifts")
	total, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`window.shifted.reduce((sum, s) => sum + parseFloat(s), 0)`))
	must(t, err, "adding the layout shifts")
	if total >= 0.001 {
		t.Errorf("the location's page moved as it showed or as its card refreshed: layout shifts (of what) %v", shifts)
	} else if len(shifts) > 0 {
		t.Logf("layout shifts too small to see: %v", shifts)
	}
	must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(".history-table > summary"))), "opening the table")
	over, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth - window.innerWidth`))
	must(t, err, "measuring the page")
	if over > 0 {
		t.Errorf("the location's page is %d px wider than a 360 px phone", over)
	}
	// The day labels are still legible: at least 9 px high on the screen.
	px, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.querySelector('svg.history-chart text.chart-day').getBoundingClientRect().height`))
	must(t, err, "measuring a day label")
	if px < 9 {
		t.Errorf("on a phone the chart's day labels are %.1f px high", px)
	}
	shoot("phone")

	_, err = chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
	must(t, err, "emulating print")
	width, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.querySelector('svg.history-chart').getBoundingClientRect().width`))
	must(t, err, "measuring the printed chart")
	if width < 200 {
		t.Errorf("printed, the chart is %.0f px wide", width)
	}
}
