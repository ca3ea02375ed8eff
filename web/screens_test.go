package web

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
	// A heartbeat made while the revocation was being written may still
	// say the screen is linked; the one after it says it is not.
	done := make(chan string, 1)
	go func() {
		beat := next()
		for i := 0; i < 2 && beat != "" && !strings.Contains(beat, `"stopped"`); i++ {
			beat = next()
		}
		done <- beat
	}()
	select {
	case beat := <-done:
		if !strings.Contains(beat, `"stopped":{"title":"This screen was unlinked"`) {
			t.Errorf("the heartbeats after the revocation end with %q, want unlinked", beat)
		}
	case <-time.After(2*beat + 5*time.Second):
		t.Fatal("no heartbeat said unlinked within two heartbeats of the revocation")
	}
	if r := tv.get("/screen"); !strings.Contains(r.body, "This screen was unlinked") {
		t.Errorf("the revoked screen shows:\n%s", r.body)
	}
	if r := tv.get("/s/" + token); r.StatusCode != http.StatusNotFound {
		t.Errorf("the revoked screen's link = %d, want 404", r.StatusCode)
	}
}

func TestRelinkedScreenDropsTheOldBrowser(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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

// listedScreens returns the names of the screens the Screens page lists,
// and the id of each by name.
func (b *browser) listedScreens() map[string]string {
	t := b.a.t
	t.Helper()
	r := b.get("/screens")
	if r.StatusCode != http.StatusOK {
		t.Fatalf("GET /screens = %d", r.StatusCode)
	}
	out := map[string]string{}
	r.doc(t).Find(".screens-table tbody tr").Each(func(_ int, row *goquery.Selection) {
		id := regexp.MustCompile(`^/screens/([0-9a-f]{16})/edit$`).FindStringSubmatch(row.Find(`a[href$="/edit"]`).AttrOr("href", ""))
		if id != nil {
			out[strings.TrimSpace(row.Find("th").Text())] = id[1]
		}
	})
	return out
}

// removeScreen posts the Remove form of the screen of the id.
func (b *browser) removeScreen(id string) response {
	return b.post("/screens/"+id+"/remove", url.Values{"csrf_token": {b.pageCSRF("/screens")}})
}

// TestRevokedScreenCanBeRemoved: a revoked screen has a Remove button that
// takes it off the list for good; its old link and the browser opened with
// it say it is unlinked, as for a revoked screen.
func TestRevokedScreenCanBeRemoved(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	user := a.browser()
	user.signIn(credA)
	token := user.createScreen(screenForm("Old lobby", "account"))
	user.createScreen(screenForm("Staff room", "account"))
	tv := a.browser()
	tv.get("/s/" + token)
	id := user.listedScreens()["Old lobby"]
	if r := user.post("/screens/"+id+"/revoke", url.Values{"csrf_token": {user.pageCSRF("/screens")}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("revoking = %d", r.StatusCode)
	}

	row := user.get("/screens").doc(t).Find(`.screens-table tr:has(a[href="/screens/` + id + `/edit"])`)
	button := row.Find(`form[action="/screens/` + id + `/remove"] button`)
	if got := strings.Join(strings.Fields(button.Text()), " "); got != "Remove Old lobby" || button.AttrOr("title", "") != "Remove this revoked screen from the list" {
		t.Errorf("the revoked screen's Remove button reads %q, titled %q", got, button.AttrOr("title", ""))
	}
	if r := user.removeScreen(id); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/screens" {
		t.Fatalf("removing the revoked screen = %d to %q, want 303 to /screens\n%s", r.StatusCode, r.Header.Get("Location"), r.body)
	}
	if got := user.listedScreens(); len(got) != 1 || got["Staff room"] == "" {
		t.Errorf("the screens listed after the removal: %v, want Staff room only", got)
	}
	if r := tv.get("/screen"); r.StatusCode != http.StatusOK || !strings.Contains(r.body, "This screen was unlinked") {
		t.Errorf("the removed screen's browser = %d:\n%s", r.StatusCode, r.body)
	}
	if r := a.browser().get("/s/" + token); r.StatusCode != http.StatusNotFound {
		t.Errorf("the removed screen's link = %d, want 404", r.StatusCode)
	}
	if r := user.removeScreen(id); r.StatusCode != http.StatusNotFound {
		t.Errorf("removing it again = %d, want 404", r.StatusCode)
	}
}

// TestLinkedScreenIsNotRemoved: a screen still linked has no Remove
// button, and a removal asked all the same is refused in words, the
// screen kept.
func TestLinkedScreenIsNotRemoved(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	user := a.browser()
	user.signIn(credA)
	token := user.createScreen(screenForm("Lobby", "account"))
	id := user.listedScreens()["Lobby"]
	if strings.Contains(user.get("/screens").body, "/remove") {
		t.Error("a linked screen has a Remove button")
	}
	r := user.removeScreen(id)
	alert := strings.Join(strings.Fields(r.doc(t).Find(`[role="alert"]`).Text()), " ")
	if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(alert, "The screen was not removed.") || !strings.Contains(alert, "This screen is still linked") ||
		!strings.Contains(alert, "only a revoked screen can be removed") {
		t.Errorf("removing a linked screen = %d saying %q; want 422 saying why", r.StatusCode, alert)
	}
	if got := user.listedScreens(); got["Lobby"] != id {
		t.Errorf("the screens listed after the refusal: %v, want Lobby", got)
	}
	tv := a.browser()
	if r := tv.get("/s/" + token); r.StatusCode != http.StatusSeeOther {
		t.Errorf("the kept screen's link = %d, want it to open", r.StatusCode)
	}
}

// TestAnotherAccountsScreenIsNotRemoved: a revoked screen of account A is
// not found by account B, and stays; A can remove it.
func TestAnotherAccountsScreenIsNotRemoved(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	userA := a.browser()
	userA.signIn(credA)
	userA.createScreen(screenForm("Lobby", "account"))
	id := userA.listedScreens()["Lobby"]
	if err := a.deps.Dashboard.RevokeScreen(context.Background(), a.world.Accounts()[0].ID, domain.EveryBuilding(), id); err != nil {
		t.Fatal(err)
	}
	userB := a.browser()
	userB.signIn(credB)
	for _, x := range []string{id, "0123456789abcdef"} {
		if r := userB.removeScreen(x); r.StatusCode != http.StatusNotFound {
			t.Errorf("account B removing screen %s = %d, want 404", x, r.StatusCode)
		}
	}
	if got := userA.listedScreens(); got["Lobby"] != id {
		t.Fatalf("account A's screens after B's attempt: %v, want Lobby", got)
	}
	if r := userA.removeScreen(id); r.StatusCode != http.StatusSeeOther {
		t.Errorf("account A removing its revoked screen = %d, want 303", r.StatusCode)
	}
}

// TestRemovingARevokedScreenMakesRoomAtTheScreenLimit: an account at its
// limit of screens, revoked ones included, is told that revoked screens
// can be removed to make room; removing one lets a new screen be made.
func TestRemovingARevokedScreenMakesRoomAtTheScreenLimit(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	user := a.browser()
	user.signIn(credA)
	ctx := context.Background()
	acc := a.world.Accounts()[0]
	var last domain.Screen
	for i := range dashboard.MaxScreens {
		sc, _, err := a.deps.Dashboard.CreateScreen(ctx, domain.EveryBuilding(), domain.Screen{Account: acc.ID, Name: fmt.Sprint("Screen ", i), Scope: domain.ScreenScope{Kind: "account"}},
			domain.Credentials{APIKey: credA.APIKey, Authorization: credA.Authorization})
		if err != nil {
			t.Fatal(err)
		}
		last = sc
	}
	if err := a.deps.Dashboard.RevokeScreen(ctx, acc.ID, domain.EveryBuilding(), last.ID); err != nil {
		t.Fatal(err)
	}
	form := screenForm("In its place", "account")
	form.Set("csrf_token", user.pageCSRF("/screens"))
	r := user.post("/screens", form)
	text := strings.Join(strings.Fields(r.doc(t).Find(`[role="alert"]`).Text()), " ")
	if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(text, "An account keeps at most 200 wall screens, and this one has as many. Revoked screens can be removed to make room") {
		t.Fatalf("a screen past the limit = %d saying %q; want 422 saying that revoked screens can be removed", r.StatusCode, text)
	}
	if r := user.removeScreen(last.ID); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("removing the revoked screen = %d\n%s", r.StatusCode, r.body)
	}
	user.createScreen(screenForm("In its place", "account"))
	if got := user.listedScreens(); len(got) != dashboard.MaxScreens || got["In its place"] == "" || got[last.Name] != "" {
		t.Errorf("after the removal and the new screen, %d screens listed, the new one %q, the removed one %q", len(got), got["In its place"], got[last.Name])
	}
}
