package web

import (
	"context"
	"encoding/json"
	"image/png"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/push"
	"washboard/internal/push/pushtest"
	"washboard/internal/store"
	"washboard/internal/upstream"
)

// Washboard installs as an app: every page names the manifest and the
// icon iOS takes; the manifest opens "My work" standalone, in the
// header's colour, with a 192 and a 512 px icon, a maskable one and the
// SVG, each served as the image it says it is.
func TestManifestMakesWashboardInstallable(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	head := b.get("/signin").doc(t).Find("head")
	if href, _ := head.Find(`link[rel="manifest"]`).Attr("href"); href != "/manifest.webmanifest" {
		t.Errorf("the page names the manifest %q", href)
	}
	touch, _ := head.Find(`link[rel="apple-touch-icon"]`).Attr("href")
	if r := b.get(touch); r.StatusCode != http.StatusOK || r.Header.Get("Content-Type") != "image/png" {
		t.Errorf("the apple-touch-icon %q: %d %s", touch, r.StatusCode, r.Header.Get("Content-Type"))
	}

	r := b.get("/manifest.webmanifest")
	if r.StatusCode != http.StatusOK || r.Header.Get("Content-Type") != "application/manifest+json" || r.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("the manifest: %d, %q, %q", r.StatusCode, r.Header.Get("Content-Type"), r.Header.Get("Cache-Control"))
	}
	var m manifest
	if err := json.Unmarshal([]byte(r.body), &m); err != nil {
		t.Fatal(err)
	}
	if m.StartURL != "/my" || m.Scope != "/" || m.Display != "standalone" || m.ThemeColor != "#1d2a3a" || m.BackgroundColor != "#f4f6f8" || m.Name != "Washboard" {
		t.Errorf("the manifest: %+v", m)
	}
	var kinds []string
	for _, ic := range m.Icons {
		kinds = append(kinds, ic.Sizes+" "+ic.Purpose)
		res := b.get(ic.Src)
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != ic.Type {
			t.Errorf("icon %s: %d %s; want %s", ic.Src, res.StatusCode, res.Header.Get("Content-Type"), ic.Type)
			continue
		}
		if ic.Type == "image/png" {
			img, err := png.Decode(strings.NewReader(res.body))
			if err != nil || ic.Sizes != strconv.Itoa(img.Bounds().Dx())+"x"+strconv.Itoa(img.Bounds().Dy()) {
				t.Errorf("icon %s says %s: %v", ic.Src, ic.Sizes, err)
			}
		}
	}
	if want := []string{"192x192 any", "512x512 any", "512x512 maskable", "any any"}; !slices.Equal(kinds, want) {
		t.Errorf("the icons: %q; want %q", kinds, want)
	}
}

// The service worker is served at the root, so that its scope is the
// whole site, as a script browsers check again on every visit; it keeps
// the app shell in a cache named after the release and its files, which
// are all there to fetch, and the offline page. A release with other
// files names another cache, which replaces the old.
func TestServiceWorkerKeepsTheShellOfTheRelease(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	r := b.get("/sw.js")
	if r.StatusCode != http.StatusOK || r.Header.Get("Content-Type") != "text/javascript; charset=utf-8" || r.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("/sw.js: %d, %q, %q", r.StatusCode, r.Header.Get("Content-Type"), r.Header.Get("Cache-Control"))
	}
	version := regexp.MustCompile(`var VERSION = "([0-9a-f]{16})";`).FindStringSubmatch(r.body)
	shell := regexp.MustCompile(`var SHELL = \[(.*)\];`).FindStringSubmatch(r.body)
	if version == nil || shell == nil || strings.Contains(r.body, "{{") {
		t.Fatalf("/sw.js names no cache version or shell:\n%s", r.body[:min(len(r.body), 800)])
	}
	var files []string
	if err := json.Unmarshal([]byte("["+shell[1]+"]"), &files); err != nil || len(files) < 5 {
		t.Fatalf("the shell %q: %v", shell[1], err)
	}
	for _, f := range append(files, "/offline") {
		if res := b.get(f); res.StatusCode != http.StatusOK {
			t.Errorf("the shell's %s: %d", f, res.StatusCode)
		}
	}
	if !slices.ContainsFunc(files, func(f string) bool { return strings.HasPrefix(f, "/static/js/mywork.js?v=") }) {
		t.Errorf("the shell lacks My work's script: %q", files)
	}
	if off := b.get("/offline"); !strings.Contains(off.body, "cannot be fetched without signal") {
		t.Errorf("the offline page says:\n%s", off.body)
	}
	if r := b.get("/sw.js", "If-None-Match", r.Header.Get("ETag")); r.StatusCode != http.StatusNotModified {
		t.Errorf("/sw.js asked again with its ETag: %d", r.StatusCode)
	}

	next, err := newPWAFiles("v-next")
	if err != nil {
		t.Fatal(err)
	}
	if next.version == version[1] || !strings.Contains(string(next.worker), `"`+next.version+`"`) {
		t.Errorf("another release keeps the cache version %s", version[1])
	}
}

// queued posts an action kept on a phone, as static/js/queue.js sends it.
func (b *browser) queued(path, csrf string, form url.Values, headers ...string) response {
	req, _ := http.NewRequest(http.MethodPost, b.a.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if csrf != "" {
		req.Header.Set("X-CSRF-Token", csrf)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return b.do(req)
}

// closeAlert closes an open alert as the service would.
func (a *app) closeAlert(account, alertID string) time.Time {
	a.t.Helper()
	alerts, err := a.store.FindAlerts(context.Background(), store.AlertFilter{Account: account, AlertID: alertID, Limit: 1})
	if err != nil || len(alerts) != 1 {
		a.t.Fatalf("alert %s: %v", alertID, err)
	}
	al := alerts[0]
	at := a.clock.Now().Truncate(time.Minute)
	closed := upstream.Alert{ID: al.ID, LocationID: al.LocationID, MacIDs: al.MACs, Status: upstream.StatusClosed,
		Type: string(al.Type), Created: al.Created, Resolved: at, ResolutionType: upstream.ResolvedByDevice, RefillCount: al.RefillCount}
	if _, err := a.engine.ApplyAlerts(context.Background(), account, []upstream.Alert{closed}); err != nil {
		a.t.Fatal(err)
	}
	return at
}

// claimNames are the names of the account's claims of the last hours,
// oldest first.
func (a *app) claimNames(account string) []string {
	a.t.Helper()
	claims, err := a.store.ClaimsDuring(context.Background(), account, a.clock.Now().Add(-24*time.Hour), a.clock.Now().Add(time.Hour), nil, 0)
	if err != nil {
		a.t.Fatal(err)
	}
	var names []string
	for _, c := range claims {
		names = append(names, c.Name+" "+c.AlertID)
	}
	return names
}

// Actions kept on a phone without signal are sent later with keys made
// on the phone: each is done once however often it is sent, and answered
// as JSON. An "I'm on it" that no longer applies says why: the alert
// closed before it arrived, or someone else said so since the page was
// drawn. One of a page that showed the claim takes it over, as a tap does.
func TestMyWorkActionsKeptOnThePhoneAreDoneOnce(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{Zone: time.UTC})
	a.browser().signIn(credA)
	maria := a.browserAs(domain.Staff, "Maria")
	account := a.accountOf(false)
	page := maria.get("/my")
	open := myItems(t, page, "my-open")
	if len(open) < 3 {
		t.Fatalf("the test needs 3 open alerts, /my lists %v", open)
	}
	csrf := page.doc(t).Find(`meta[name="csrf-token"]`).AttrOr("content", "")
	claimOf := func(item string) string { return "/my/alerts/" + strings.TrimPrefix(item, "alert-") + "/claim" }

	first := url.Values{"key": {"phone-0123456789abcdef0123456789abcdef"}, "seen": {"0"}}
	for i := range 2 {
		if r := maria.queued(claimOf(open[0]), csrf, first); r.StatusCode != http.StatusOK || strings.TrimSpace(r.body) != `{"sent":true}` {
			t.Fatalf("I'm on it from the phone, the %d. time: %d %s", i+1, r.StatusCode, r.body)
		}
	}
	done := url.Values{"key": {"phone-fedcba9876543210fedcba9876543210"}, "outcome": {string(domain.Refilled)}}
	doneOf := strings.Replace(claimOf(open[1]), "/claim", "/done", 1)
	for range 2 {
		if r := maria.queued(doneOf, csrf, done); r.StatusCode != http.StatusOK {
			t.Fatalf("done from the phone: %d %s", r.StatusCode, r.body)
		}
	}
	if got, want := a.claimNames(account), []string{"Maria " + strings.TrimPrefix(open[0], "alert-")}; !slices.Equal(got, want) {
		t.Errorf("claims after one I'm on it sent twice: %q; want %q", got, want)
	}
	reports, err := a.store.LastDoneReports(context.Background(), account, []string{strings.TrimPrefix(open[1], "alert-")})
	if err != nil || len(reports) != 1 {
		t.Errorf("done reports: %v, %v", reports, err)
	}

	// Someone else said they were on the second since the page was drawn:
	// refused, saying who and since when.
	second := strings.TrimPrefix(open[1], "alert-")
	since := a.clock.Now()
	if err := a.store.ClaimAlert(context.Background(), account, domain.Claim{AlertID: second, Name: "Ali", At: since}); err != nil {
		t.Fatal(err)
	}
	late := url.Values{"key": {"phone-11111111111111111111111111111111"}, "seen": {"0"}}
	r := maria.queued(claimOf(open[1]), csrf, late)
	var answer jsonError
	json.Unmarshal([]byte(r.body), &answer)
	if want := "Ali has been on it since " + since.In(time.UTC).Format("15:04") + "."; r.StatusCode != http.StatusConflict || answer.Error != want {
		t.Errorf("I'm on it after Ali's: %d %q; want 409 %q", r.StatusCode, answer.Error, want)
	}
	// The page showed Ali's claim: taken over, as a tap does.
	late.Set("seen", itoa(since.UnixMilli()))
	if r := maria.queued(claimOf(open[1]), csrf, late); r.StatusCode != http.StatusOK {
		t.Errorf("I'm on it of a page that showed Ali's claim: %d %s", r.StatusCode, r.body)
	}

	// The third closed before the phone had signal again.
	third := strings.TrimPrefix(open[2], "alert-")
	closedAt := a.closeAlert(account, third)
	r = maria.queued(claimOf(open[2]), csrf, url.Values{"key": {"phone-22222222222222222222222222222222"}, "seen": {"0"}})
	json.Unmarshal([]byte(r.body), &answer)
	if want := "the alert was closed at " + closedAt.In(time.UTC).Format("15:04") + " before you were on it."; r.StatusCode != http.StatusConflict || answer.Error != want {
		t.Errorf("I'm on it of the closed alert: %d %q; want 409 %q", r.StatusCode, answer.Error, want)
	}
	// In German, as the person reads it.
	r = maria.queued(claimOf(open[2])+"?lang=de", csrf, url.Values{"key": {"phone-33333333333333333333333333333333"}, "seen": {"0"}})
	json.Unmarshal([]byte(r.body), &answer)
	if !strings.HasPrefix(answer.Error, "der Alarm wurde um ") {
		t.Errorf("the refusal in German: %q", answer.Error)
	}
}

// A push's "I'm on it" is posted by the service worker with the push's
// action token instead of a form token: it claims the alert once, however
// often it is sent; it is refused for another person, past its time, on
// another alert or another route, and a request without it or a form
// token is refused as a forged form.
func TestPushActionClaimsOnceForItsPerson(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{Zone: time.UTC})
	svc := a.usePush(pushtest.New(t))
	a.browser().signIn(credA)
	maria := a.browserAs(domain.Staff, "Maria")
	ali := a.browserAs(domain.Staff, "Ali")
	account := a.accountOf(false)
	open := myItems(t, maria.get("/my"), "my-open")
	alertID := strings.TrimPrefix(open[0], "alert-")
	members, err := a.store.Members(context.Background(), account)
	if err != nil {
		t.Fatal(err)
	}
	var mariaID string
	for _, m := range members {
		if m.Name == "Maria" {
			mariaID = m.PersonID
		}
	}
	token := svc.ActionToken(mariaID, account, alertID)
	path := "/my/alerts/" + alertID + "/claim"
	withToken := func(b *browser, path, token string) response {
		return b.queued(path, "", url.Values{}, push.ActionHeader, token)
	}

	if r := withToken(ali, path, token); r.StatusCode != http.StatusForbidden || !strings.Contains(r.body, "is not for you") {
		t.Errorf("Maria's token sent by Ali: %d %s", r.StatusCode, r.body)
	}
	if r := withToken(maria, "/my/alerts/"+strings.TrimPrefix(open[1], "alert-")+"/claim", token); r.StatusCode != http.StatusForbidden {
		t.Errorf("the token on another alert: %d %s", r.StatusCode, r.body)
	}
	if r := withToken(maria, strings.Replace(path, "/claim", "/done", 1), token); r.StatusCode != http.StatusForbidden || !strings.Contains(r.body, "This form has expired") {
		t.Errorf("the token on another route: %d %s", r.StatusCode, r.body)
	}
	for i := range 2 {
		if r := withToken(maria, path, token); r.StatusCode != http.StatusOK {
			t.Fatalf("the token, the %d. time: %d %s", i+1, r.StatusCode, r.body)
		}
	}
	// Ali takes it over; Maria's token sent again changes nothing.
	if err := a.store.ClaimAlert(context.Background(), account, domain.Claim{AlertID: alertID, Name: "Ali", At: a.clock.Now()}); err != nil {
		t.Fatal(err)
	}
	withToken(maria, path, token)
	if got, want := a.claimNames(account), []string{"Maria " + alertID, "Ali " + alertID}; !slices.Equal(got, want) {
		t.Errorf("claims: %q; want %q", got, want)
	}

	old := svc.ActionToken(mariaID, account, strings.TrimPrefix(open[1], "alert-"))
	a.clock.Advance(push.ActionTTL)
	if r := withToken(maria, "/my/alerts/"+strings.TrimPrefix(open[1], "alert-")+"/claim", old); r.StatusCode != http.StatusForbidden || !strings.Contains(r.body, "has expired") {
		t.Errorf("a token past its time: %d %s", r.StatusCode, r.body)
	}
	if r := maria.queued(path, "", url.Values{"key": {"phone-44444444444444444444444444444444"}}); r.StatusCode != http.StatusForbidden {
		t.Errorf("neither a token nor a form token: %d", r.StatusCode)
	}
}
