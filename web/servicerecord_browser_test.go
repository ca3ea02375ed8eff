package web

import (
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"washboard/internal/i18n"
)

// The service record's pages (a room's page with its recent record, the
// record of a period, the client report's section) fit a 360 px phone in
// every language, axe-core finding nothing, and pass axe-core in the dark
// theme on a desktop.
func TestBrowserServiceRecordFitsAPhone(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	ctx := newChrome(t, 1280, 900)
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(360, 740)), "emulating a phone")
	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/signin?lang=en"),
		chromedp.SendKeys(chromedp.ID("api_key"), credA.APIKey),
		chromedp.SendKeys(chromedp.ID("authorization"), credA.Authorization)), "typing the credentials")
	loadAfter(t, ctx, chromedp.Submit(chromedp.ID("api_key")), "signing in")
	a.clock.BlockUntil(1)
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("buildings-heading"))), "waiting for the overview")
	room := a.serviceVisit()
	day := a.clock.Now().In(time.UTC).Format(time.DateOnly)
	pages := []string{"/rooms/" + room, "/rooms/" + room + "/service", "/reports/client?from=" + day + "&to=" + day}
	var skip []string
	for i, l := range i18n.Languages {
		if i > 0 {
			skip = []string{"color-contrast"}
		}
		must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/me?lang="+l.Code)), "choosing "+l.Name)
		for _, p := range pages {
			must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+p), chromedp.WaitVisible(chromedp.CSS("main"))), "opening "+p)
			over, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth - window.innerWidth`))
			must(t, err, "measuring "+p)
			if over > 0 {
				t.Errorf("%s in %s is %d px wider than a 360 px phone", p, l.Code, over)
			}
			if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll(".service-visit, #client-service").length`)); err != nil || n == 0 {
				t.Errorf("%s in %s shows no service record (%v)", p, l.Code, err)
			}
			for _, v := range axeViolationsBut(t, ctx, skip...) {
				t.Errorf("axe on %s (%s): %s", p, l.Code, v)
			}
		}
	}
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)), "emulating a desktop")
	_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}})
	must(t, err, "emulating the dark theme")
	for _, p := range pages {
		must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+p), chromedp.WaitVisible(chromedp.CSS("main"))), "opening "+p)
		checkAxe(t, ctx, p+" (dark)")
	}
}
