package web

import (
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"washboard/internal/domain"
	"washboard/internal/push/pushtest"
)

// TestBrowserPeoplePages opens the pages about people (the account's
// people with a new invitation's link and QR code, an invitation as the
// invited see it, one's own page, the accounts, the audit log, the
// account and its disconnection; one's own page with a device that
// receives pushes) in the light and the dark theme, runs
// axe-core on each, and checks that a 360 px phone needs no sideways
// scrolling.
func TestBrowserPeoplePages(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	pushes := pushtest.New(t)
	push := a.usePush(pushes) // /me with a device that receives pushes
	ctx := newChrome(t, 1280, 900)
	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/signin"),
		chromedp.SendKeys(chromedp.ID("api_key"), credA.APIKey),
		chromedp.SendKeys(chromedp.ID("authorization"), credA.Authorization)), "typing the credentials")
	loadAfter(t, ctx, chromedp.Submit(chromedp.ID("api_key")), "signing in")
	a.clock.BlockUntil(1)
	// The sync's progress page goes on to the overview by itself: a page
	// opened before it does would be cut off.
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("buildings-heading"))), "waiting for the overview")
	// Someone joined, so that the lists and the log have rows.
	a.browserAs(domain.Staff, "Bo Ek")
	invitation := a.invite(a.accountOf(false), domain.Viewer, "")
	if _, err := push.Subscribe(t.Context(), a.owner(a.accountOf(false)).PersonID, "Firefox on Android", pushes.NewDevice(t, "phone").Sub); err != nil {
		t.Fatal(err)
	}

	pages := []string{
		"/people", "/me", "/accounts", "/audit", "/account", "/account/disconnect",
		"/invitations/" + invitation, "/invitations/unknown",
	}
	for _, scheme := range []string{"light", "dark"} {
		_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		must(t, err, "emulating the "+scheme+" theme")
		for _, p := range pages {
			must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+p), chromedp.WaitVisible(chromedp.CSS("main"))), "opening "+p)
			checkAxe(t, ctx, p+" ("+scheme+")")
		}
	}

	// An invitation just made: its link and QR code, shown once.
	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/people"), chromedp.WaitVisible(chromedp.ID("invite-role")),
		chromedp.SetValue(chromedp.ID("invite-role"), "staff")), "filling in the invitation")
	loadAfter(t, ctx, chromedp.Submit(chromedp.ID("invite-role")), "inviting")
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("invitation-link"))), "looking for the new invitation's link")
	checkAxe(t, ctx, "/people with a new invitation")

	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(360, 740)), "emulating a phone")
	for _, p := range pages {
		must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+p), chromedp.WaitVisible(chromedp.CSS("main"))), "opening "+p)
		over, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth - window.innerWidth`))
		must(t, err, "measuring "+p)
		if over > 0 {
			t.Errorf("%s is %d px wider than a 360 px phone", p, over)
			wide, _ := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > window.innerWidth).slice(0, 8).map(e => e.tagName + '.' + e.className + '#' + e.id + ' ' + Math.round(e.getBoundingClientRect().right))`))
			t.Logf("what reaches past the right edge: %v", wide)
		}
	}
}
