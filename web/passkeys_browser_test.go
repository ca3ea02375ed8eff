package web

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/webauthn"
	"github.com/chromedp/chromedp"

	"washboard/internal/domain"
	"washboard/internal/passkey"
)

// A person invited by link adds a passkey on the page they land on,
// through the page's own script and the browser's WebAuthn (a virtual
// authenticator of Chromium's), signs out, and signs in with it from the
// sign-in page. What only a browser shows: the script's conversions
// between the server's JSON and the browser's credentials, and the
// buttons appearing where the browser can use passkeys.
func TestBrowserAddsAPasskeyAndSignsInWithIt(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	a.browser().signIn(credA)
	// Passkeys need a host name: the browser reaches the server at
	// localhost, which browsers treat as secure over http.
	base := strings.Replace(a.srv.URL, "127.0.0.1", "localhost", 1)
	cfg, err := passkey.ConfigFor(base)
	must(t, err, "configuring passkeys")
	cfg.Clock = a.clock
	a.deps.Passkeys, err = passkey.New(cfg)
	must(t, err, "configuring passkeys")
	s, err := New(a.cfg, a.deps)
	must(t, err, "restarting the server with passkeys for localhost")
	a.handler.Store(s)
	token := a.invite(a.accountOf(false), domain.Viewer, "")

	ctx := newChrome(t, 1280, 900)
	_, err = chromedp.Call(ctx, webauthn.Enable, webauthn.EnableParams{})
	must(t, err, "enabling WebAuthn's virtual authenticators")
	_, err = chromedp.Call(ctx, webauthn.AddVirtualAuthenticator, webauthn.AddVirtualAuthenticatorParams{Options: &webauthn.VirtualAuthenticatorOptions{
		Protocol: webauthn.AuthenticatorProtocolCtap2, Ctap2version: webauthn.Ctap2versionCtap21, Transport: webauthn.AuthenticatorTransportInternal,
		HasResidentKey: true, HasUserVerification: true, IsUserVerified: true, AutomaticPresenceSimulation: true}})
	must(t, err, "adding a virtual authenticator")

	must(t, chromedp.Do(ctx, chromedp.Navigate(base+"/invitations/"+token), chromedp.SendKeys(chromedp.ID("invitation-name"), "Pia Pass")), "opening the invitation")
	loadAfter(t, ctx, chromedp.Submit(chromedp.ID("invitation-name")), "accepting the invitation")
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`form[data-passkey="register"]`))), "waiting for the offer of a passkey")
	checkAxe(t, ctx, "/me, offering a passkey")
	// Added later, from the page itself: the page reloads to list it.
	must(t, chromedp.Do(ctx, chromedp.Navigate(base+"/me"), chromedp.WaitVisible(chromedp.CSS(`form[data-passkey="register"]`)),
		chromedp.SendKeys(chromedp.ID("passkey-new-name"), "Laptop"),
		chromedp.Click(chromedp.CSS(`form[data-passkey="register"] button`))), "adding a passkey on /me")
	wctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	must(t, chromedp.Do(wctx, chromedp.WaitVisible(chromedp.CSS(".passkey-table"))), "waiting for /me to list the passkey")
	if got := text(t, ctx, `.passkey-table td[data-label="Name"]`); got != "Laptop" {
		t.Fatalf("/me lists the passkey %q; want Laptop", got)
	}
	checkAxe(t, ctx, "/me, with a passkey")
	// The same device again: the browser refuses (the passkey is among
	// those to exclude), and the script says so in the page's language,
	// with the words the page gives it.
	must(t, chromedp.Do(ctx, chromedp.Navigate(base+"/me?lang=de"), chromedp.WaitVisible(chromedp.CSS(`form[data-passkey="register"]`)),
		chromedp.Click(chromedp.CSS(`form[data-passkey="register"] button`))), "adding this device's passkey again, in German")
	refused := "Dieses Gerät hat bereits einen Passkey von Ihnen für diese Website: Siehe Ihre Passkeys oben."
	must(t, chromedp.Do(wctx, chromedp.Poll[chromedp.Void](`document.querySelector("#passkeys [data-passkey-status]").textContent === `+strconv.Quote(refused))),
		"waiting for the script to say in German that the device holds a passkey already")
	must(t, chromedp.Do(ctx, chromedp.Navigate(base+"/me?lang=en"), chromedp.WaitVisible(chromedp.CSS("main h1"))), "back to English")
	onAPhone := func(p string) {
		t.Helper()
		must(t, chromedp.Do(ctx, chromedp.EmulateViewport(360, 740), chromedp.Navigate(base+p), chromedp.WaitVisible(chromedp.CSS("main"))), "opening "+p+" on a phone")
		over, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth - window.innerWidth`))
		must(t, err, "measuring "+p)
		if over > 0 {
			t.Errorf("%s is %d px wider than a 360 px phone", p, over)
		}
		must(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(base+p), chromedp.WaitVisible(chromedp.CSS("main"))), "back to a desktop")
	}
	onAPhone("/me")

	loadAfter(t, ctx, chromedp.Evaluate[chromedp.Void](`document.querySelector('form[action="/signout"]').submit()`), "signing out")
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`form[data-passkey="sign-in"] button`))), "waiting for the passkey's sign-in button")
	checkAxe(t, ctx, "the sign-in page, offering a passkey")
	onAPhone("/signin")
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`form[data-passkey="sign-in"] button`))), "waiting for the passkey's sign-in button")
	loadAfter(t, ctx, chromedp.Click(chromedp.CSS(`form[data-passkey="sign-in"] button`)), "signing in with the passkey")
	must(t, chromedp.Do(ctx, chromedp.Navigate(base+"/me"), chromedp.WaitVisible(chromedp.CSS("main h1"))), "opening /me")
	if got := text(t, ctx, "main h1"); got != "Pia Pass" {
		status := text(t, ctx, "main")
		t.Fatalf("after signing in with the passkey, /me is %q's; want Pia Pass's\n%s", got, status)
	}
}
