package web

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserScreenInGermanFits: a wall screen in German, the longest of
// Washboard's languages (and in French and Spanish), on the demo's fleet
// in a TV's English browser, fits a 1080p and a 720p TV: nothing
// scrolls, what needs action shows on the page, and none of its own
// words (the counts, the states, the problems, the times) is cut short.
func TestBrowserScreenInGermanFits(t *testing.T) {
	t.Parallel()
	a := newAppWith(t, Config{}, appOptions{locations: 400, seed: 1, history: 14 * 24 * time.Hour}) // the demo's world
	user := a.browser()
	user.signIn(credA)
	ctx := newChrome(t, 1920, 1080)
	for lang, open := range map[string]string{"en": "Open alerts", "de": "Offene Alarme", "fr": "Alertes ouvertes", "es": "Alertas abiertas"} {
		form := screenForm("Serviceraum Etage 3", "account")
		form.Set("language", lang)
		token := user.createScreen(form)
		checkScreenFits(t, ctx, a.srv.URL+"/s/"+token, lang, open)
	}
}

// checkScreenFits opens a screen's link on a 1080p and a 720p TV and
// checks that it speaks lang (its open alerts labelled open), scrolls
// nowhere and cuts none of its words short.
func checkScreenFits(t *testing.T, ctx context.Context, link, lang, open string) {
	t.Helper()
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(1920, 1080)), "a 1080p TV")
	loadAfter(t, ctx, chromedp.Navigate(link), "opening the screen's link")
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(".screen-groups.screen-fitted")), "waiting for the screen")
	says, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.documentElement.lang + " " + document.querySelector('.screen-count-alerts .screen-count-label').textContent`))
	must(t, err, "reading the language")
	if says != lang+" "+open {
		t.Fatalf("the screen says %q; want it in %s", says, lang)
	}
	for _, size := range []struct {
		name string
		w, h int64
	}{{"1080p", 1920, 1080}, {"720p", 1280, 720}} {
		must(t, chromedp.Do(ctx, chromedp.EmulateViewport(size.w, size.h)), "resizing to "+size.name)
		// The script fits the page again within a second of a resize.
		must(t, chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`document.querySelectorAll('.screen-part-action .screen-item:not(.screen-off)').length > 0 &&
			[...document.querySelectorAll('.screen-item')].filter(el => el.getClientRects().length > 0).every(el => el.getBoundingClientRect().bottom <= innerHeight)`,
			chromedp.WithPollingTimeout(3*time.Second))), "waiting for the screen to fit "+size.name)
		over, err := chromedp.Run(ctx, chromedp.Evaluate[int](`Math.max(document.documentElement.scrollHeight - window.innerHeight, document.documentElement.scrollWidth - window.innerWidth)`))
		must(t, err, "measuring")
		if over > 0 {
			t.Errorf("at %s the screen in %s overflows by %d px", size.name, lang, over)
		}
		cut, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll(
			'.screen-count-label, .screen-item-severity, .screen-item-problem, .screen-item-since, .screen-item-level, .screen-part-title, .screen-asof, .screen-level-counts, .screen-warning')]
			.filter(el => el.getClientRects().length > 0 && el.scrollWidth > el.clientWidth + 1).map(el => el.textContent.trim())`))
		must(t, err, "finding words cut short")
		if len(cut) > 0 {
			t.Errorf("at %s the screen in %s cuts short %q", size.name, lang, cut)
		}
	}
}
