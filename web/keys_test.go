package web

import (
	"bufio"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"
)

// cookieOf returns the browser's cookie of that name, "" if none.
func (b *browser) cookieOf(name string) string {
	u, _ := url.Parse(b.a.srv.URL + "/screen")
	for _, c := range b.client.Jar.Cookies(u) {
		if c.Name == name {
			return c.Value
		}
	}
	return ""
}

// setCookie plants a cookie in the browser, as another site of the same
// host could.
func (b *browser) setCookie(name, value string) {
	u, _ := url.Parse(b.a.srv.URL)
	b.client.Jar.SetCookies(u, []*http.Cookie{{Name: name, Value: value, Path: "/"}})
}

func TestFormTokensBelongToTheSession(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})

	// A planted cookie and a form value made to match it: the double
	// submit of old accepted this pair.
	zeros := strings.Repeat("0", 64)
	victim := a.browser()
	victim.setCookie(csrfCookie, zeros)
	if r := victim.post("/signin", url.Values{"csrf_token": {strings.Repeat("0", 128)}, "api_key": {credA.APIKey}, "authorization": {credA.Authorization}}); r.StatusCode != http.StatusForbidden {
		t.Errorf("a planted cookie with a matching form value = %d, want 403", r.StatusCode)
	}

	// An attacker takes a genuine pair for themselves and plants its
	// cookie in the browser of someone signed in: the pair was for a
	// browser that is not signed in, and does not forge the victim's forms.
	attacker := a.browser()
	attackerToken := attacker.csrf()
	victim = a.browser()
	victim.signIn(credA)
	victim.setCookie(csrfCookie, attacker.cookieOf(csrfCookie))
	if r := victim.post("/signout", url.Values{"csrf_token": {attackerToken}}); r.StatusCode != http.StatusForbidden {
		t.Errorf("sign-out forged with a planted pair = %d, want 403", r.StatusCode)
	}

	// Signing in renews the token: a form from before no longer posts.
	b := a.browser()
	before := b.csrf()
	b.signIn(credA)
	if r := b.post("/signout", url.Values{"csrf_token": {before}}); r.StatusCode != http.StatusForbidden {
		t.Errorf("sign-out with the token from before sign-in = %d, want 403", r.StatusCode)
	}
	// Each session has tokens of its own.
	other := a.browser()
	other.signIn(credA)
	othersToken := csrfInput.FindStringSubmatch(other.get("/screens").body)[1]
	if r := b.post("/signout", url.Values{"csrf_token": {othersToken}}); r.StatusCode != http.StatusForbidden {
		t.Errorf("sign-out with another session's token = %d, want 403", r.StatusCode)
	}
	mine := csrfInput.FindStringSubmatch(b.get("/screens").body)[1]
	if r := b.post("/signout", url.Values{"csrf_token": {mine}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-out with the session's own token = %d, want 303", r.StatusCode)
	}
	// Signing out renews it too: the signed-in token is spent, and so is
	// the anonymous one from before.
	if r := b.post("/signin", url.Values{"csrf_token": {mine}, "api_key": {credA.APIKey}, "authorization": {credA.Authorization}}); r.StatusCode != http.StatusForbidden {
		t.Errorf("sign-in with the token of the session that signed out = %d, want 403", r.StatusCode)
	}
	if r := b.post("/signin", url.Values{"csrf_token": {before}, "api_key": {credA.APIKey}, "authorization": {credA.Authorization}}); r.StatusCode != http.StatusForbidden {
		t.Errorf("sign-in with the anonymous token from before the session = %d, want 403", r.StatusCode)
	}
}

func TestFormTokenCookieIsHostOnlyOverTLS(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}})
	r := a.browser().get("/signin", "X-Forwarded-Proto", "https")
	var found bool
	for _, c := range r.Cookies() {
		switch c.Name {
		case csrfCookieSecure:
			found = true
			if !c.Secure || c.Path != "/" || c.Domain != "" || !c.HttpOnly {
				t.Errorf("%s: Secure %v, Path %q, Domain %q, HttpOnly %v; want Secure, /, none, HttpOnly", c.Name, c.Secure, c.Path, c.Domain, c.HttpOnly)
			}
		case csrfCookie:
			t.Errorf("over TLS the token cookie is %s, which other hosts could set", c.Name)
		}
	}
	if !found {
		t.Errorf("no %s cookie over TLS", csrfCookieSecure)
	}
}

// heartbeatOf reads a screen's event stream up to its first heartbeat.
func (b *browser) heartbeatOf() string {
	b.a.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, b.a.srv.URL+"/screen/events", nil)
	resp, err := b.client.Do(req)
	if err != nil {
		b.a.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b.a.t.Fatalf("GET /screen/events = %d", resp.StatusCode)
	}
	lines := bufio.NewScanner(resp.Body)
	for lines.Scan() {
		if l := lines.Text(); strings.HasPrefix(l, "data: {") {
			return l
		}
	}
	return ""
}

func TestAChangedKeyAsksScreensForANewLinkInWords(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{ScreenHeartbeat: time.Second})
	user := a.browser()
	user.signIn(credA)
	user.createScreen(screenForm("Staff room", "account"))
	tv := a.browser()
	tv.get("/s/" + user.createScreen(screenForm("Lobby", "account")))
	if r := tv.get("/screen"); r.StatusCode != http.StatusOK || !strings.Contains(r.body, a.world.Accounts()[0].Name) {
		t.Fatalf("the screen before the restart = %d", r.StatusCode)
	}

	a.restart(testKeys(t, 8)) // another key, and the old one lost
	for _, path := range []string{"/screen", "/screen/content"} {
		r := tv.get(path)
		if r.StatusCode != http.StatusOK || !strings.Contains(r.body, "This screen needs a new link") {
			t.Errorf("GET %s after the key changed = %d:\n%s", path, r.StatusCode, r.body)
		}
	}
	if beat := tv.heartbeatOf(); !strings.Contains(beat, "This screen needs a new link") {
		t.Errorf("the heartbeat after the key changed = %q", beat)
	}
	// The user is asked to sign in again, and the Screens page says which
	// screens need a new link.
	if r := user.get("/screens"); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("a session sealed with the lost key still opens: %d", r.StatusCode)
	}
	user = a.browser()
	user.signIn(credA)
	page := user.get("/screens")
	d := page.doc(t)
	if n := d.Find(".screen-status-needs-link").Length(); n != 2 {
		t.Errorf("%d screens marked as needing a new link, want 2", n)
	}
	if !strings.Contains(d.Find("[role=status]").Text(), "2 screens need a new link") {
		t.Errorf("the Screens page does not say that two screens need a new link:\n%s", d.Find("main").Text())
	}
	// A new link brings a screen back.
	id := screenIDPattern.FindAllStringSubmatch(page.body, -1)
	if len(id) == 0 {
		t.Fatal("no screens listed")
	}
	r := user.post("/screens/"+id[0][1]+"/relink", url.Values{"csrf_token": {csrfInput.FindStringSubmatch(page.body)[1]}})
	links := screenLink.FindStringSubmatch(r.body)
	if links == nil {
		t.Fatalf("relinking = %d, without a link", r.StatusCode)
	}
	tv2 := a.browser()
	tv2.get("/s/" + links[1])
	if r := tv2.get("/screen"); strings.Contains(r.body, "needs a new link") || !strings.Contains(r.body, a.world.Accounts()[0].Name) {
		t.Errorf("the relinked screen still needs a new link")
	}
	if n := user.get("/screens").doc(t).Find(".screen-status-needs-link").Length(); n != 1 {
		t.Errorf("after one relink, %d screens need a new link, want 1", n)
	}
}

func TestARotatedKeySignsNobodyOut(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	user := a.browser()
	user.signIn(credA)
	tv := a.browser()
	tv.get("/s/" + user.createScreen(screenForm("Lobby", "account")))
	cookieBefore := tv.cookieOf(screenCookie)

	a.restart(testKeys(t, 8, 7)) // a new key, with the old one
	if r := user.get("/screens"); r.StatusCode != http.StatusOK || user.get("/screens").doc(t).Find(".screen-status-needs-link").Length() != 0 {
		t.Errorf("during the rotation the user's Screens page = %d, or marks a screen as needing a link", r.StatusCode)
	}
	r := tv.get("/screen")
	if r.StatusCode != http.StatusOK || !strings.Contains(r.body, a.world.Accounts()[0].Name) {
		t.Fatalf("the screen during the rotation = %d", r.StatusCode)
	}
	cookieAfter := tv.cookieOf(screenCookie)
	if cookieAfter == "" || cookieAfter == cookieBefore {
		t.Fatal("the screen's cookie was not sealed again with the new key")
	}
}
