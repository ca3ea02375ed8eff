package web

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"washboard/internal/sim"
	"washboard/internal/syncer"
)

// signInWithClient signs in with account A's API key and OAuth client, as
// the second form of the sign-in page does, and waits for the sync's
// round to end.
func (b *browser) signInWithClient(client sim.Client) response {
	b.a.t.Helper()
	r := b.post("/signin", url.Values{"csrf_token": {b.csrf()}, "api_key": {credA.APIKey}, "client_id": {client.ID}, "client_secret": {client.Secret}})
	if r.StatusCode == http.StatusSeeOther {
		b.a.clock.BlockUntil(1) // the loop waits for its next round
	}
	return r
}

// waitForRejection lets the next poll of account A run, and waits until it
// finds the credential in use rejected (the loop then stops: nobody holds
// a valid one).
func waitForRejection(t *testing.T, a *app) {
	t.Helper()
	events, stop := a.engine.Subscribe(a.world.Accounts()[0].ID)
	defer stop()
	a.clock.Advance(time.Minute)
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev := <-events:
			if ev.Kind == syncer.EventRejected {
				return
			}
		case <-timeout:
			t.Fatal("the credential was not rejected within 10 s of the next poll")
		}
	}
}

func TestSignInWithAClientIDAndSecret(t *testing.T) {
	t.Parallel()
	a := newAppWith(t, Config{}, appOptions{locations: 120, tokenLifetime: time.Hour})
	client := a.world.Client(0)
	b := a.browser()
	if r := b.signInWithClient(client); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("signing in with a client ID and secret = %d:\n%s", r.StatusCode, r.doc(t).Find("[role=alert]").Text())
	}
	if r := b.get("/"); r.StatusCode != http.StatusOK || !strings.Contains(r.body, a.world.Accounts()[0].Name) {
		t.Fatalf("the overview after signing in with a client = %d", r.StatusCode)
	}
	if n := a.world.TokensIssued(0); n != 1 {
		t.Errorf("%d tokens issued for one sign-in and a first sync, want 1", n)
	}
	// The fixed value is refused by this service: the page says what to do.
	other := a.browser()
	if r := other.signIn(credA); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("a fixed Authorization value where only tokens are taken = %d, want 401", r.StatusCode)
	}
	for _, tc := range []struct {
		name string
		form url.Values
		code int
		says string
	}{
		{"a wrong secret", url.Values{"api_key": {credA.APIKey}, "client_id": {client.ID}, "client_secret": {"wrong"}}, http.StatusUnauthorized, "refused the client ID and secret"},
		{"no secret", url.Values{"api_key": {credA.APIKey}, "client_id": {client.ID}}, http.StatusBadRequest, "Enter the client secret"},
		{"both kinds at once", url.Values{"api_key": {credA.APIKey}, "authorization": {"x"}, "client_id": {client.ID}, "client_secret": {client.Secret}}, http.StatusBadRequest, "not both"},
		{"no API key", url.Values{"client_id": {client.ID}, "client_secret": {client.Secret}}, http.StatusBadRequest, "API key"},
	} {
		tc.form.Set("csrf_token", other.csrf())
		r := other.post("/signin", tc.form)
		if r.StatusCode != tc.code || !strings.Contains(r.body, tc.says) {
			t.Errorf("%s: %d, want %d saying %q:\n%s", tc.name, r.StatusCode, tc.code, tc.says, r.doc(t).Find("[role=alert]").Text())
		}
	}
}

func TestARevokedClientIsSaidSoToSessionsAndScreens(t *testing.T) {
	t.Parallel()
	a := newAppWith(t, Config{ScreenHeartbeat: time.Second}, appOptions{locations: 120, tokenLifetime: time.Hour})
	b := a.browser()
	b.signInWithClient(a.world.Client(0))
	token := b.createScreen(screenForm("Lobby", "account"))
	tv := a.browser()
	tv.get("/s/" + token)

	a.world.RevokeClient(0)
	a.world.ExpireTokens(0) // the token in use is refused: a new one is asked for, and refused
	waitForRejection(t, a)

	r := b.get("/alerts")
	if r.StatusCode != http.StatusSeeOther || !strings.Contains(r.Header.Get("Location"), "reason=revoked") {
		t.Fatalf("a page of the session whose client was revoked = %d to %q", r.StatusCode, r.Header.Get("Location"))
	}
	if page := b.get(r.Header.Get("Location")); !strings.Contains(page.body, "revoked the client your session signed in with") {
		t.Errorf("the sign-in page does not say the client was revoked:\n%s", page.doc(t).Find("[role=alert]").Text())
	}
	if got := tv.get("/screen").doc(t).Find("#screen-banner").Text(); !strings.Contains(got, "This screen's credentials were revoked — ask the facilities desk") {
		t.Errorf("the screen does not say its credentials were revoked:\n%s", got)
	}
	// The supplier gives a new client, and someone signs in with it: the
	// Screens page says which screen needs new credentials.
	fresh := sim.NewClient()
	a.world.SetClient(0, fresh)
	admin := a.browser()
	if r := admin.signInWithClient(fresh); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("signing in with the new client = %d", r.StatusCode)
	}
	if got := admin.get("/screens").doc(t).Find(`td[data-label="Status"]`).Text(); !strings.Contains(got, "Needs new credentials: the client was revoked") {
		t.Errorf("the Screens page says %q of the screen whose client was revoked", got)
	}
}

func TestARefusedAuthorizationValueSaysItMayHaveExpired(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	a.world.SetCredentials(0, sim.Credentials{APIKey: credA.APIKey, Authorization: "Bearer a-new-one"})
	waitForRejection(t, a)
	r := b.get("/")
	if r.StatusCode != http.StatusSeeOther || !strings.Contains(r.Header.Get("Location"), "reason=expired") {
		t.Fatalf("the session whose value was refused = %d to %q", r.StatusCode, r.Header.Get("Location"))
	}
	if page := b.get(r.Header.Get("Location")); !strings.Contains(page.body, "The Authorization value was refused — it may have expired") {
		t.Errorf("the sign-in page says:\n%s", page.doc(t).Find("[role=alert]").Text())
	}
}

// TestBrowserTokensAreRenewedUnnoticed: the simulator runs an hour a
// second with hour-long tokens; a signed-in browser and a wall screen run
// for 30 simulated hours while the token is renewed some thirty times: no
// sign-in page, no word about credentials, no refresh failing, and one
// token request per renewal, however many share the token.
func TestBrowserTokensAreRenewedUnnoticed(t *testing.T) {
	t.Parallel()
	a := newAppWith(t, Config{ScreenHeartbeat: time.Second}, appOptions{locations: 120, tokenLifetime: time.Hour,
		simClock: sim.NewScaledClock(3600)}) // tokens last a real second
	client := a.world.Client(0)
	user := a.browser()
	user.signInWithClient(client)
	other := a.browser()
	other.signInWithClient(client) // a second session with the same client
	token := user.createScreen(screenForm("Lobby", "account"))

	ctx := newChrome(t, 1280, 900)
	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/signin"),
		chromedp.SendKeys(chromedp.ID("client_api_key"), credA.APIKey),
		chromedp.SendKeys(chromedp.ID("client_id"), client.ID),
		chromedp.SendKeys(chromedp.ID("client_secret"), client.Secret)), "typing the credentials")
	loadAfter(t, ctx, chromedp.Submit(chromedp.ID("client_id")), "signing in")
	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS("main h1"))), "opening the overview")
	screen, cancel := newTab(t, ctx, 1280, 900)
	defer cancel()
	loadAfter(t, screen, chromedp.Navigate(a.srv.URL+"/s/"+token), "opening the screen's link")

	began, issuedBefore := time.Now(), a.world.TokensIssued(0)
	for time.Since(began) < 30*time.Second {
		// A poll every half second, with whatever token is current.
		a.clock.Advance(time.Minute)
		a.clock.BlockUntil(1)
		statuses, err := a.store.SyncStatuses(context.Background(), a.world.Accounts()[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		for res, st := range statuses {
			if st.LastError != "" {
				t.Fatalf("after %s the %s refresh failed: %s", time.Since(began).Round(time.Millisecond), res, st.LastError)
			}
		}
		for _, b := range []*browser{user, other} {
			if r := b.get("/status"); r.StatusCode != http.StatusOK || strings.Contains(r.body, "Sign in again") {
				t.Fatalf("after %s a session got %d:\n%s", time.Since(began).Round(time.Millisecond), r.StatusCode, r.body)
			}
		}
		must(t, chromedp.Do(ctx, chromedp.Sleep(500*time.Millisecond)), "waiting")
	}
	elapsed := time.Since(began)
	renewals := a.world.TokensIssued(0) - issuedBefore
	t.Logf("%d token requests in %s (%s simulated) with tokens of a real second", renewals, elapsed.Round(time.Millisecond), 3600*elapsed.Round(time.Second))
	if renewals < 20 {
		t.Errorf("%d renewals in %s, want at least 20", renewals, elapsed.Round(time.Second))
	}
	// Renewed at 80 % of its life: one request every 0.8 s at most, for
	// the two sessions, the screen and the browser together.
	if max := int(elapsed/(800*time.Millisecond)) + 2; renewals > max {
		t.Errorf("%d token requests in %s, more than one per renewal (%d)", renewals, elapsed.Round(time.Second), max)
	}
	if loc, _ := chromedp.Run(ctx, chromedp.Location()); strings.Contains(loc, "/signin") {
		t.Errorf("the browser was sent to sign in: %s", loc)
	}
	banner := text(t, ctx, "#freshness")
	if strings.Contains(banner, "Sign in") || strings.Contains(banner, "refused") || strings.Contains(banner, "revoked") {
		t.Errorf("the overview's data line reads %q", banner)
	}
	if got := text(t, screen, "#screen-banner"); strings.Contains(got, "credentials") || strings.Contains(got, "refused") {
		t.Errorf("the screen's banner reads %q", got)
	}
}
