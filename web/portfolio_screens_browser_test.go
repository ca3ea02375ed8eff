package web

import (
	"net/url"
	"regexp"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestBrowserPortfolioScreenPages: a portfolio screen whose clients do not
// fit on a 1080p TV (the test's organisation of two grown to 60 clients
// in the page, as a large one's would be) pages through them every N
// seconds with "2 / 3" in the corner, every client on some page, nothing
// outside the screen and nothing to scroll; on a 4K TV it pages the same.
func TestBrowserPortfolioScreenPages(t *testing.T) {
	t.Parallel()
	a, owner, _ := portfolioApp(t)
	token := owner.makePortfolioScreen(url.Values{"name": {"Staff room"}, "page_seconds": {"5"}})

	ctx := newChrome(t, 1920, 1080)
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(1920, 1080)), "a 1080p TV")
	const speed = 50 // each one-second timer fires every 20 ms
	_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `(() => {
		const every = window.setInterval;
		window.setInterval = (fn, ms, ...args) => every(fn, ms === 1000 ? 1000 / ` + itoa(speed) + ` : ms, ...args);
	})()`})
	must(t, err, "speeding up the screen's timer")
	loadAfter(t, ctx, chromedp.Navigate(a.srv.URL+"/s/"+token), "opening the portfolio screen")
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("screen-live"))), "waiting for the screen")
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`(() => {
		const first = document.querySelector('.screen-client');
		if (!first) return 0;
		const list = first.parentNode;
		for (let i = 1; i < 60; i++) {
			const c = first.cloneNode(true);
			c.querySelector('.screen-item-location').textContent = 'Client ' + i;
			list.appendChild(c);
		}
		// The grown list stays: a refresh from the server is not swapped in.
		document.addEventListener('htmx:beforeSwap', e => { e.detail.shouldSwap = false; });
		window.dispatchEvent(new Event('resize'));
		return document.querySelectorAll('.screen-client').length;
	})()`))
	must(t, err, "growing the organisation")
	if n < 60 {
		t.Fatalf("the screen has %d client lines; want at least 60", n)
	}
	pages := regexp.MustCompile(`^(\d+) / (\d+)$`)
	read := func() (label string, shown []string, outside int, scrolls bool) {
		type state struct {
			Page    string   `json:"page"`
			Shown   []string `json:"shown"`
			Outside int      `json:"outside"`
			Scrolls bool     `json:"scrolls"`
		}
		s, err := chromedp.Run(ctx, chromedp.Evaluate[state](`(() => {
			const shown = [...document.querySelectorAll('.screen-client')].filter(el => el.getClientRects().length > 0);
			const inside = el => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; };
			return {
				page: document.getElementById('screen-pages').textContent.trim(),
				shown: shown.map(el => el.querySelector('.screen-item-location').textContent.trim()),
				outside: shown.filter(el => !inside(el)).length,
				scrolls: document.scrollingElement.scrollHeight > innerHeight || document.scrollingElement.scrollWidth > innerWidth,
			};
		})()`))
		must(t, err, "reading the screen")
		return s.Page, s.Shown, s.Outside, s.Scrolls
	}
	walk := func(size string) (total string) {
		must(t, chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`/^\d+ \/ \d+$/.test(document.getElementById('screen-pages').textContent.trim())`,
			chromedp.WithPollingTimeout(20*time.Second))), "waiting for the screen to page on "+size)
		seen, labels := map[string]bool{}, map[string]bool{}
		for range 60 {
			label, shown, outside, scrolls := read()
			m := pages.FindStringSubmatch(label)
			if m == nil {
				t.Fatalf("%s: the corner says %q; want \"2 / 3\"", size, label)
			}
			total, labels[label] = m[2], true
			if outside > 0 || scrolls {
				t.Errorf("%s: page %s has %d clients outside the screen (scrolls: %v)", size, label, outside, scrolls)
			}
			for _, c := range shown {
				seen[c] = true
			}
			must(t, chromedp.Do(ctx, chromedp.Sleep(50*time.Millisecond)), "waiting")
		}
		if len(labels) < 2 {
			t.Errorf("%s: the screen did not page: %v", size, labels)
		}
		if len(seen) < n-1 { // the clones and the clients
			t.Errorf("%s: %d of %d clients shown on some page", size, len(seen), n)
		}
		return total
	}
	hd := walk("1920×1080")
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(3840, 2160)), "a 4K TV")
	if uhd := walk("3840×2160"); uhd != hd {
		t.Errorf("a 4K TV pages the clients in %s pages, a 1080p one in %s; want the same", uhd, hd)
	}
}
