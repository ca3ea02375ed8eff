package web

import (
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"washboard/internal/i18n"
)

// TestBrowserRoomCodePagesFitAPhone opens the pages of a room's code, in
// every language on a 360 px phone, light and dark: the visitors' form,
// refused as sent, its thanks; then, signed in, the presence recorded and
// the floor's page that leads to its sheet of codes, and the sheet, also
// as printed (the sheet's tools hidden, three codes a row). None needs
// sideways scrolling; axe-core finds nothing.
func TestBrowserRoomCodePagesFitAPhone(t *testing.T) {
	t.Parallel()
	a := newAppOf(t, Config{}, 10)
	sup := a.browser()
	sup.signIn(credA)
	floor := a.firstFloor()
	code := sup.roomCodes(floor)[0]
	ctx := newChrome(t, 1280, 900)
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(360, 740)), "emulating a phone")
	var skip []string
	check := func(what string) {
		t.Helper()
		over, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth - window.innerWidth`))
		must(t, err, "measuring "+what)
		if over > 0 {
			t.Errorf("%s is %d px wider than a 360 px phone", what, over)
		}
		for _, v := range axeViolationsBut(t, ctx, skip...) {
			t.Errorf("axe on %s: %s", what, v)
		}
	}
	open := func(path string) {
		t.Helper()
		must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+path), chromedp.WaitVisible(chromedp.CSS("main"))), "opening "+path)
	}
	for _, dark := range []bool{false, true} {
		if dark {
			_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}})
			must(t, err, "emulating the dark theme")
		}
		for i, l := range i18n.Languages {
			a.clock.Advance(time.Minute) // a room takes 5 reports a minute
			skip = nil
			if i > 0 {
				skip = []string{"color-contrast"} // colours do not change with the language
			}
			what := "the visitors' form in " + l.Code
			if dark {
				what += " (dark)"
			}
			open(code.path + "?lang=" + l.Code)
			check(what)
			// Sent with "something else" and no words: shown again, saying so.
			must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("input[value=other]"))), "choosing other")
			loadAfter(t, ctx, chromedp.Submit(chromedp.CSS("form")), "sending")
			check(what + ", refused")
			must(t, chromedp.Do(ctx, chromedp.SendKeys(chromedp.ID("visitor-text"), "Die Tür schließt nicht"),
				chromedp.Click(chromedp.CSS("input[name=rating][value='4']"))), "writing")
			loadAfter(t, ctx, chromedp.Submit(chromedp.CSS("form")), "sending")
			check(what + ", thanked")
		}
	}
	if got := len(a.visitorReports()); got != 2*len(i18n.Languages) {
		t.Errorf("%d reports sent from the browser; want %d", got, 2*len(i18n.Languages))
	}

	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/signin?lang=de"),
		chromedp.SendKeys(chromedp.ID("api_key"), credA.APIKey),
		chromedp.SendKeys(chromedp.ID("authorization"), credA.Authorization)), "typing the credentials")
	loadAfter(t, ctx, chromedp.Submit(chromedp.ID("api_key")), "signing in")
	a.clock.BlockUntil(1)
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("buildings-heading"))), "waiting for the overview")
	skip = nil
	open(code.path)
	if got := text(t, ctx, ".recorded"); got == "" {
		t.Error("the presence page says nothing")
	}
	check("the presence page in German (dark)")
	open("/floors/" + floor)
	check("the floor's page, with its link to the codes, in German (dark)")
	open("/floors/" + floor + "/codes")
	check("the floor's sheet of codes in German (dark)")
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)), "emulating a desktop")
	_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
	must(t, err, "emulating print")
	hidden, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`getComputedStyle(document.querySelector(".room-code-tools")).display === "none"`))
	must(t, err, "reading the printed sheet")
	columns, err := chromedp.Run(ctx, chromedp.Evaluate[int](`getComputedStyle(document.querySelector(".room-code-sheet")).gridTemplateColumns.split(" ").length`))
	must(t, err, "reading the printed sheet")
	if !hidden || columns != 3 {
		t.Errorf("the printed sheet: tools hidden %v, %d codes a row; want hidden and 3", hidden, columns)
	}
}
