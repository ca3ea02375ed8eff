package web

import (
	"bufio"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"washboard/internal/sim"
	"washboard/internal/syncer"
)

var (
	screenLink      = regexp.MustCompile(`https?://[^"<\s]+/s/([A-Za-z0-9_-]{43})`)
	screenIDPattern = regexp.MustCompile(`/screens/([0-9a-f]{16})/revoke`)
)

func formWith(kv ...string) url.Values {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return v
}

// createScreen makes a screen through the management page and returns its
// link's token.
func (b *browser) createScreen(form url.Values) string {
	t := b.a.t
	t.Helper()
	page := b.get("/screens")
	token := csrfInput.FindStringSubmatch(page.body)
	if page.StatusCode != http.StatusOK || token == nil {
		t.Fatalf("GET /screens = %d", page.StatusCode)
	}
	form.Set("csrf_token", token[1])
	r := b.post("/screens", form)
	if r.StatusCode != http.StatusOK {
		t.Fatalf("creating a screen = %d\n%s", r.StatusCode, r.body)
	}
	links := screenLink.FindAllStringSubmatch(r.body, -1)
	if len(links) != 1 {
		t.Fatalf("the new screen's link appears %d times, want once", len(links))
	}
	return links[0][1]
}

func screenForm(name, scope string) url.Values {
	return url.Values{"name": {name}, "scope": {scope}, "health": {"action", "offline", "attention"},
		"page_seconds": {"10"}, "contact": {"the facilities desk"}}
}

func TestScreenLinkOpensOnceAndGrantsOnlyTheScreen(t *testing.T) {
	a := newApp(t, Config{})
	user := a.browser()
	user.signIn(credA)
	acc := a.world.Accounts()[0]
	floor := acc.Buildings[0].Floors[0]
	token := user.createScreen(screenForm("Staff room", "floor:"+floor.ID))

	tv := a.browser()
	r := tv.get("/s/" + token)
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/screen" {
		t.Fatalf("opening the link = %d to %q, want a redirect to /screen", r.StatusCode, r.Header.Get("Location"))
	}
	var ck *http.Cookie
	for _, c := range r.Cookies() {
		if c.Name == screenCookie {
			ck = c
		}
	}
	if ck == nil || !ck.HttpOnly || ck.MaxAge < 30*24*3600 || strings.Contains(ck.Value, token) {
		t.Fatalf("screen cookie = %+v; want a long-lived HttpOnly cookie without the token in clear", ck)
	}
	page := tv.get("/screen")
	if page.StatusCode != http.StatusOK || !strings.Contains(page.body, floor.Name) {
		t.Fatalf("the screen = %d, without its floor's name\n%s", page.StatusCode, page.body)
	}
	// Its groups are the floor's rooms, no other floor's.
	for _, other := range acc.Buildings[0].Floors[1:] {
		if strings.Contains(page.body, other.Name+" › ") {
			t.Errorf("the screen of %s shows rooms of %s", floor.Name, other.Name)
		}
	}
	for _, path := range []string{"/", "/alerts", "/floors/" + floor.ID, "/screens", "/alerts.csv", "/events"} {
		r := tv.get(path)
		if r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/signin") {
			t.Errorf("the screen asking for %s: %d, want to be sent to sign in", path, r.StatusCode)
		}
	}
	if r := tv.get("/screen?scope=account&account=" + a.world.Accounts()[1].ID); strings.Contains(r.body, a.world.Accounts()[1].Buildings[0].Name) {
		t.Error("a screen shows another account's building")
	}
	if strings.Contains(a.logs.String(), token) {
		t.Error("the screen link's token appears in the log")
	}
	if !strings.Contains(a.logs.String(), "/s/REDACTED") {
		t.Error("the link request is not logged with its token redacted")
	}
	if strings.Contains(a.seen.String(), "Location: /s/") {
		t.Error("a redirect carries the token")
	}
}

func TestScreenWithoutLinkIsRefused(t *testing.T) {
	a := newApp(t, Config{})
	tv := a.browser()
	if r := tv.get("/screen"); r.StatusCode != http.StatusForbidden {
		t.Errorf("/screen without a linked cookie = %d, want 403", r.StatusCode)
	}
	u, _ := url.Parse(a.srv.URL + "/screen")
	tv.client.Jar.SetCookies(u, []*http.Cookie{{Name: screenCookie, Value: "forged", Path: "/screen"}})
	if r := tv.get("/screen"); r.StatusCode != http.StatusForbidden {
		t.Errorf("/screen with a forged cookie = %d, want 403", r.StatusCode)
	}
	if r := tv.get("/s/" + strings.Repeat("A", 43)); r.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown link = %d, want 404", r.StatusCode)
	}
}

func TestRevokedScreenSaysSoWithinAHeartbeat(t *testing.T) {
	const beat = time.Second
	a := newApp(t, Config{ScreenHeartbeat: beat})
	user := a.browser()
	user.signIn(credA)
	token := user.createScreen(screenForm("Lobby", "account"))
	tv := a.browser()
	tv.get("/s/" + token)
	if r := tv.get("/screen"); !strings.Contains(r.body, a.world.Accounts()[0].Name) {
		t.Fatal("the account screen does not show the account")
	}

	// The screen's event stream is open when the screen is revoked.
	req, _ := http.NewRequest(http.MethodGet, a.srv.URL+"/screen/events", nil)
	resp, err := tv.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	lines := bufio.NewScanner(resp.Body)
	next := func() string {
		for lines.Scan() {
			if l := lines.Text(); strings.HasPrefix(l, "data: {") {
				return l
			}
		}
		return ""
	}
	if first := next(); !strings.Contains(first, `"version"`) || strings.Contains(first, "unlinked") {
		t.Fatalf("first heartbeat = %q", first)
	}
	list := user.get("/screens")
	id := regexp.MustCompile(`/screens/([0-9a-f]{16})/revoke`).FindStringSubmatch(list.body)
	if id == nil {
		t.Fatal("no revoke form on the screens page")
	}
	r := user.post("/screens/"+id[1]+"/revoke", url.Values{"csrf_token": {csrfInput.FindStringSubmatch(list.body)[1]}})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("revoking = %d", r.StatusCode)
	}
	done := make(chan string, 1)
	go func() { done <- next() }()
	select {
	case beat := <-done:
		if !strings.Contains(beat, `"stopped":{"title":"This screen was unlinked"`) {
			t.Errorf("the heartbeat after the revocation = %q, want unlinked", beat)
		}
	case <-time.After(beat + 5*time.Second):
		t.Fatal("no heartbeat within one heartbeat of the revocation")
	}
	if r := tv.get("/screen"); !strings.Contains(r.body, "This screen was unlinked") {
		t.Errorf("the revoked screen shows:\n%s", r.body)
	}
	if r := tv.get("/s/" + token); r.StatusCode != http.StatusNotFound {
		t.Errorf("the revoked screen's link = %d, want 404", r.StatusCode)
	}
}

func TestRelinkedScreenDropsTheOldBrowser(t *testing.T) {
	a := newApp(t, Config{})
	user := a.browser()
	user.signIn(credA)
	old := user.createScreen(screenForm("Corridor", "account"))
	tv := a.browser()
	tv.get("/s/" + old)
	list := user.get("/screens")
	id := regexp.MustCompile(`/screens/([0-9a-f]{16})/relink`).FindStringSubmatch(list.body)
	r := user.post("/screens/"+id[1]+"/relink", url.Values{"csrf_token": {csrfInput.FindStringSubmatch(list.body)[1]}})
	fresh := screenLink.FindStringSubmatch(r.body)
	if fresh == nil || fresh[1] == old {
		t.Fatal("a new link was not shown")
	}
	if r := tv.get("/screen"); !strings.Contains(r.body, "This screen was unlinked") {
		t.Error("the browser of the old link still shows the screen")
	}
	tv2 := a.browser()
	tv2.get("/s/" + fresh[1])
	if r := tv2.get("/screen"); !strings.Contains(r.body, a.world.Accounts()[0].Name) {
		t.Error("the new link does not open the screen")
	}
}

func TestScreenFormRejectsBadInputAndKeepsIt(t *testing.T) {
	a := newApp(t, Config{})
	user := a.browser()
	user.signIn(credA)
	token := csrfInput.FindStringSubmatch(user.get("/screens").body)[1]
	other := a.world.Accounts()[1].Buildings[0].ID
	for name, form := range map[string]url.Values{
		"no name":            {"name": {""}, "scope": {"account"}, "health": {"action"}, "page_seconds": {"10"}},
		"another account":    {"name": {"Hall"}, "scope": {"building:" + other}, "health": {"action"}, "page_seconds": {"10"}},
		"no health":          {"name": {"Hall"}, "scope": {"account"}, "page_seconds": {"10"}},
		"interval too short": {"name": {"Hall"}, "scope": {"account"}, "health": {"action"}, "page_seconds": {"1"}},
		"half a dimming":     {"name": {"Hall"}, "scope": {"account"}, "health": {"action"}, "page_seconds": {"10"}, "dim_from": {"22:00"}},
	} {
		form.Set("csrf_token", token)
		r := user.post("/screens", form)
		if r.StatusCode != http.StatusBadRequest || r.doc(t).Find(`[role="alert"]`).Length() == 0 {
			t.Errorf("%s: %d, want 400 with the problem in words", name, r.StatusCode)
		}
		if name != "no name" && !strings.Contains(r.body, `value="Hall"`) {
			t.Errorf("%s: the typed name was not kept", name)
		}
		if screenLink.MatchString(r.body) {
			t.Errorf("%s: a link was made from a bad form", name)
		}
	}
}

func TestScreenWithRejectedCredentialsSaysWhoShouldRelinkIt(t *testing.T) {
	a := newApp(t, Config{})
	user := a.browser()
	user.signIn(credA)
	token := user.createScreen(screenForm("Staff room", "account"))
	tv := a.browser()
	tv.get("/s/" + token)
	events, stop := a.engine.Subscribe(a.world.Accounts()[0].ID)
	defer stop()
	a.world.SetCredentials(0, sim.Credentials{APIKey: credA.APIKey, Authorization: "Bearer reissued"})
	a.clock.Advance(time.Minute)
	for ev := range events {
		if ev.Kind == syncer.EventRejected {
			break
		}
	}
	r := tv.get("/screen")
	banner := r.doc(t).Find("#screen-banner").Text()
	if !strings.Contains(banner, "The Authorization value was refused") || !strings.Contains(banner, "the facilities desk") {
		t.Errorf("the screen's banner = %q; want the rejection in words and who should re-link it", strings.Join(strings.Fields(banner), " "))
	}
}

func TestScreenCanBeRenamedAndRescoped(t *testing.T) {
	a := newApp(t, Config{})
	user := a.browser()
	user.signIn(credA)
	acc := a.world.Accounts()[0]
	token := user.createScreen(screenForm("Staff room", "account"))
	tv := a.browser()
	tv.get("/s/" + token)

	list := user.get("/screens")
	id := regexp.MustCompile(`/screens/([0-9a-f]{16})/edit`).FindStringSubmatch(list.body)
	if id == nil {
		t.Fatal("no edit link")
	}
	edit := user.get("/screens/" + id[1] + "/edit")
	if !strings.Contains(edit.body, `value="Staff room"`) {
		t.Fatal("the edit form is not filled with the screen")
	}
	b := acc.Buildings[len(acc.Buildings)-1]
	form := screenForm("Cleaners' room", "building:"+b.ID)
	form.Set("csrf_token", csrfInput.FindStringSubmatch(edit.body)[1])
	if r := user.post("/screens/"+id[1], form); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("saving the screen = %d\n%s", r.StatusCode, r.body)
	}
	page := tv.get("/screen")
	if !strings.Contains(page.body, "Cleaners&#39; room") && !strings.Contains(page.body, "Cleaners' room") {
		t.Error("the screen does not show its new name")
	}
	if !strings.Contains(page.body, b.Name) {
		t.Errorf("the screen does not show its new scope %s", b.Name)
	}
	if r := user.get("/screens"); !strings.Contains(r.body, b.Name) {
		t.Error("the screens page does not list the new scope")
	}
	other := a.browser()
	other.signIn(credB)
	if r := other.get("/screens/" + id[1] + "/edit"); r.StatusCode != http.StatusNotFound {
		t.Errorf("account B editing A's screen: %d, want 404\n%s", r.StatusCode, r.body[:min(len(r.body), 3000)])
	}
}
