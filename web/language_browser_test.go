package web

import (
	"testing"

	"github.com/chromedp/chromedp"

	"washboard/internal/i18n"
)

// TestBrowserConvertedPagesInEveryLanguage opens the converted pages in
// every language on a 360 px phone, the menu open: no page needs
// sideways scrolling (German's long words included), and axe-core finds
// nothing, <html lang> and the languages' own names among its checks.
func TestBrowserConvertedPagesInEveryLanguage(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	ctx := newChrome(t, 1280, 900)
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(360, 740)), "emulating a phone")
	check := func(path string) {
		t.Helper()
		must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+path), chromedp.WaitVisible(chromedp.CSS("main"))), "opening "+path)
		_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const m = document.querySelector(".site-menu"); if (m) m.open = true; return true })()`))
		must(t, err, "opening the menu of "+path)
		over, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth - window.innerWidth`))
		must(t, err, "measuring "+path)
		if over > 0 {
			t.Errorf("%s is %d px wider than a 360 px phone", path, over)
		}
		checkAxe(t, ctx, path)
	}
	for _, l := range i18n.Languages {
		check("/signin?lang=" + l.Code)
	}
	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/signin?lang=en"),
		chromedp.SendKeys(chromedp.ID("api_key"), credA.APIKey),
		chromedp.SendKeys(chromedp.ID("authorization"), credA.Authorization)), "typing the credentials")
	loadAfter(t, ctx, chromedp.Submit(chromedp.ID("api_key")), "signing in")
	a.clock.BlockUntil(1)
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("buildings-heading"))), "waiting for the overview")
	for _, l := range i18n.Languages {
		check("/me?lang=" + l.Code)
		check("/no/such/page")
	}
}
