package web

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/sim"
	"washboard/internal/syncer"
	"washboard/views"
	"washboard/web/httpkit"
)

// freshServer is a second dashboard over the app's cache and sessions,
// with nothing kept yet: what it answers is what a render shows now. A
// browser's cookies reach it too (cookies do not tell ports apart).
func (a *app) freshServer() *httptest.Server {
	a.t.Helper()
	s, err := New(a.cfg, a.deps)
	if err != nil {
		a.t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	a.t.Cleanup(srv.Close)
	return srv
}

// getFrom asks another server than the app's.
func (b *browser) getFrom(srv *httptest.Server, path string) response {
	req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
	return b.do(req)
}

// live is the live region of a page, as HTML.
func live(t *testing.T, r response) string {
	t.Helper()
	if r.StatusCode != http.StatusOK {
		t.Fatalf("status %d", r.StatusCode)
	}
	sel := r.doc(t).Find("#live")
	if sel.Length() != 1 {
		t.Fatalf("%d live regions", sel.Length())
	}
	h, err := goquery.OuterHtml(sel)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// levels is what a card says of its product levels.
func levels(t *testing.T, r response, card string) string {
	t.Helper()
	return strings.Join(strings.Fields(r.doc(t).Find(card+" .levels").Text()), " ")
}

// emptiableLocation is a location of the account with one dispenser whose
// card does not say it is out, and its floor page.
func emptiableLocation(t *testing.T, b *browser, acc *sim.Account) (*sim.Location, string) {
	t.Helper()
	for _, l := range acc.Locations {
		if l.Type == sim.Collector || len(l.Devices) != 1 {
			continue
		}
		floor := "/floors/" + l.Room.Floor.ID
		if got := levels(t, b.get(floor), fmt.Sprintf("#card-%d", l.ID)); got != "" && !strings.Contains(got, "out") {
			return l, floor
		}
	}
	t.Fatal("the account has no location with one dispenser that is not out")
	return nil, ""
}

// waitForChange waits for the account's next refresh of res that changed
// the cache.
func waitForChange(t *testing.T, events <-chan syncer.Event, res domain.Resource) {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case ev := <-events:
			if ev.Kind == syncer.EventChanged && ev.Resource == res {
				return
			}
		case <-timeout:
			t.Fatalf("no %s change within 20 s", res)
		}
	}
}

// TestPagesShowAChangeAsSoonAsTheSyncAnnouncesIt: a page kept for the
// current second is not shown once a refresh has changed the data in it.
// The sync's request for devices is held while the page is asked for, so
// that the page is rendered and kept with the old data for the second in
// which the new data arrives.
func TestPagesShowAChangeAsSoonAsTheSyncAnnouncesIt(t *testing.T) {
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	acc := a.world.Accounts()[0]
	loc, floor := emptiableLocation(t, b, acc)
	card := fmt.Sprintf("#card-%d", loc.ID)

	// The refresh of devices waits until the page has been asked for; the
	// refresh of alerts that follows waits until the floor page has been
	// compared with a fresh render, so that nothing changes in between.
	arrived, release, releaseAlerts := make(chan struct{}), make(chan struct{}), make(chan struct{})
	var once sync.Once
	hold := func(r *http.Request) {
		switch {
		case r.URL.Path == "/devices":
			once.Do(func() { close(arrived) })
			<-release
		case strings.HasPrefix(r.URL.Path, "/alerts"):
			<-releaseAlerts
		}
	}
	a.beforeUpstream.Store(&hold)
	var devicesGo, alertsGo sync.Once
	letDevicesGo := func() { devicesGo.Do(func() { close(release) }) }
	letAlertsGo := func() { alertsGo.Do(func() { close(releaseAlerts) }) }
	t.Cleanup(letDevicesGo)
	t.Cleanup(letAlertsGo)
	events, stop := a.engine.Subscribe(acc.ID)
	defer stop()
	if !a.world.Empty(loc.Devices[0].MAC) {
		t.Fatal("the simulator does not know the device")
	}
	a.clock.Advance(time.Minute) // the next refresh starts, and waits for its devices
	select {
	case <-arrived:
	case <-time.After(20 * time.Second):
		t.Fatal("the sync did not ask for devices")
	}
	during := b.get(floor)
	if got := levels(t, during, card); strings.Contains(got, "out") {
		t.Fatalf("the page shows the device out before the refresh wrote it: %q", got)
	}
	if again := b.get(floor); live(t, again) != live(t, during) {
		t.Fatal("two requests in the same second with the same data got different pages")
	}

	letDevicesGo()
	waitForChange(t, events, domain.ResourceDevices)
	after := b.get(floor)
	if got := levels(t, after, card); !strings.Contains(got, "out") {
		t.Errorf("right after the devices changed, the card's levels read %q, want the device out", got)
	}
	if fresh := b.getFrom(a.freshServer(), floor); live(t, after) != live(t, fresh) {
		t.Error("the floor page after the change differs from a fresh render of it")
	}
	frag := b.get(floor, "HX-Request", "true")
	if got := levels(t, frag, card); strings.Contains(frag.body, "<html") || !strings.Contains(got, "out") {
		t.Errorf("the live region fetched by htmx after the change reads %q, want the device out", got)
	}

	letAlertsGo()
	waitForChange(t, events, domain.ResourceAlerts) // the emptied device's alert opens
	over := b.get("/")
	if fresh := b.getFrom(a.freshServer(), "/"); live(t, over) != live(t, fresh) {
		t.Error("the overview after the alerts changed differs from a fresh render of it")
	}
}

// TestPagesMoveWithTheClock: relative times are rendered against the
// second of the request. In the next second the page kept is served at
// once, while the next one renders in the background; from then on, and
// for a request more than httpkit.PageClockSlack seconds after the page kept, the
// page is the clock's.
func TestPagesMoveWithTheClock(t *testing.T) {
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	floor := "/floors/" + a.world.Accounts()[0].Buildings[0].Floors[0].ID
	now := func(r response) string { return r.doc(t).Find("#live time[data-now]").First().AttrOr("data-now", "") }
	clockNow := func() string { return a.clock.Now().UTC().Format(time.RFC3339) }
	kept := b.get(floor)
	first := now(kept)
	if first != clockNow() {
		t.Fatalf("data-now = %q, want the clock's %s", first, clockNow())
	}
	a.clock.Advance(time.Second)
	if next := b.get(floor); live(t, next) != live(t, kept) {
		t.Errorf("a second later the page has data-now %q, not the kept page's %q: the request waited for a render only the clock asked for", now(next), first)
	}
	a.handler.Load().pages.Settle() // the render the clock asked for
	next := b.get(floor)
	if got, want := now(next), clockNow(); got != want {
		t.Errorf("after the render in the background data-now = %q, want %q", got, want)
	}
	if fresh := b.getFrom(a.freshServer(), floor); live(t, next) != live(t, fresh) {
		t.Error("the page a second later differs from a fresh render of it")
	}
	a.clock.Advance((httpkit.PageClockSlack + 1) * time.Second)
	late := b.get(floor)
	if got, want := now(late), clockNow(); got != want {
		t.Errorf("%d s later data-now = %q, want %q: a page more than %d s behind the clock was served", httpkit.PageClockSlack+1, got, want, httpkit.PageClockSlack)
	}
	if fresh := b.getFrom(a.freshServer(), floor); live(t, late) != live(t, fresh) {
		t.Error("the page past the slack differs from a fresh render of it")
	}
}

// TestPagesAreNeverSharedBetweenAccounts: two accounts asking for the same
// address get their own pages, and a page kept for one account answers no
// request of another.
func TestPagesAreNeverSharedBetweenAccounts(t *testing.T) {
	a := newApp(t, Config{})
	ba, bb := a.browser(), a.browser()
	ba.signIn(credA)
	bb.signIn(credB)
	accA, accB := a.world.Accounts()[0], a.world.Accounts()[1]
	for i := 0; i < 2; i++ { // the second time from what is kept
		la, lb := live(t, ba.get("/")), live(t, bb.get("/"))
		if la == lb {
			t.Fatal("both accounts got the same overview")
		}
		if !strings.Contains(la, accA.Buildings[0].Name) || strings.Contains(la, accB.Buildings[0].Name) {
			t.Error("account A's overview does not show A's buildings alone")
		}
		if !strings.Contains(lb, accB.Buildings[0].Name) || strings.Contains(lb, accA.Buildings[0].Name) {
			t.Error("account B's overview does not show B's buildings alone")
		}
	}
	floorB := "/floors/" + accB.Buildings[0].Floors[0].ID
	if r := bb.get(floorB); r.StatusCode != http.StatusOK {
		t.Fatalf("B's own floor = %d", r.StatusCode)
	}
	for _, h := range []string{"", "true"} {
		r := ba.get(floorB, "HX-Request", h)
		if r.StatusCode != http.StatusNotFound || strings.Contains(r.body, accB.Buildings[0].Name) {
			t.Errorf("A asking for B's floor (HX-Request %q) after B saw it: %d", h, r.StatusCode)
		}
	}
}

// TestKeptPagesCarryEachClientsOwnToken: the page around a kept live region
// is each client's: its CSRF token is the client's own, and the region
// holds no token.
func TestKeptPagesCarryEachClientsOwnToken(t *testing.T) {
	a := newApp(t, Config{})
	b1, b2 := a.browser(), a.browser()
	b1.signIn(credA)
	b2.signIn(credA)
	floor := "/floors/" + a.world.Accounts()[0].Buildings[0].Floors[0].ID
	r1, r2 := b1.get(floor), b2.get(floor)
	if live(t, r1) != live(t, r2) {
		t.Fatal("two sessions of one account got different live regions in the same second")
	}
	var tokens []string
	for _, r := range []response{r1, r2} {
		meta := r.doc(t).Find(`meta[name="csrf-token"]`).AttrOr("content", "")
		form := csrfInput.FindStringSubmatch(r.body)
		if meta == "" || form == nil || form[1] != meta {
			t.Fatalf("the page's token %q and its sign-out form's %v disagree", meta, form)
		}
		if strings.Contains(live(t, r), meta) {
			t.Error("the live region holds the client's CSRF token")
		}
		tokens = append(tokens, meta)
	}
	if tokens[0] == tokens[1] {
		t.Error("two clients got the same CSRF token")
	}
}

// TestFrameHasAPlaceForTheLiveRegion: the page is sent as its frame with
// the kept region where the frame has liveMark.
func TestFrameHasAPlaceForTheLiveRegion(t *testing.T) {
	var buf strings.Builder
	if err := views.Frame(views.Page{Title: "T"}, rawHTML([]byte(liveMark))).Render(t.Context(), &buf); err != nil {
		t.Fatal(err)
	}
	if strings.Count(buf.String(), liveMark) != 1 || !strings.Contains(buf.String(), `<main id="main" tabindex="-1">`+liveMark+`</main>`) {
		t.Errorf("the frame does not hold the live region once, in <main>:\n%s", buf.String())
	}
}

// TestKeptFrameFollowsItsModel: the frame kept around a page's region
// answers only a request whose page is the same but for its CSRF token: a
// freshness banner that changed shows at once, plain and gzipped, and each
// response carries its own token where the frame has one.
func TestKeptFrameFollowsItsModel(t *testing.T) {
	p := &renderedPage{title: "Level 3", live: []byte(`<div id="live">cards</div>`)}
	p.compressLive()
	asOf := time.Date(2026, 11, 18, 9, 30, 0, 0, time.UTC)
	page := func(token string, f views.Freshness) views.Page {
		return views.Page{Title: p.title, SignedIn: true, AccountName: "Estates", CSRFToken: token, Freshness: f, Zone: time.UTC, Live: true}
	}
	send := func(m views.Page, gzipped bool) string {
		t.Helper()
		rec := httptest.NewRecorder()
		c := echo.New().NewContext(httptest.NewRequest(http.MethodGet, "/", nil), rec)
		if err := sendFramed(c, m, p, gzipped); err != nil {
			t.Fatal(err)
		}
		if gzipped {
			return gunzip(t, rec.Body.String())
		}
		return rec.Body.String()
	}
	banner := func(body string) string {
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(strings.Fields(doc.Find("#freshness").Text()), " ")
	}
	fresh, failed := views.Freshness{AsOf: asOf}, views.Freshness{AsOf: asOf, Failed: true, Reason: "the service did not answer"}
	steps := []struct {
		token  string
		f      views.Freshness
		banner string
	}{
		{"aaaa", fresh, "Data as of 09:30"},
		{"bbbb", fresh, "Data as of 09:30"}, // the frame kept
		{"cccc", failed, "may be out of date"},
		{"dddd", fresh, "Data as of 09:30"},
	}
	for i, st := range steps {
		for _, gzipped := range []bool{false, true} {
			body := send(page(st.token, st.f), gzipped)
			var want strings.Builder
			if err := views.Frame(page(st.token, st.f), rawHTML(p.live)).Render(t.Context(), &want); err != nil {
				t.Fatal(err)
			}
			if body != want.String() {
				t.Errorf("step %d (gzip %v): the page differs from its frame rendered afresh around the region", i, gzipped)
			}
			if got := banner(body); !strings.Contains(got, st.banner) || (st.f.Failed != strings.Contains(got, "out of date")) {
				t.Errorf("step %d (gzip %v): the banner reads %q, want %q", i, gzipped, got, st.banner)
			}
			if n := strings.Count(body, st.token); n != 2 {
				t.Errorf("step %d (gzip %v): the request's token is on the page %d times, want 2", i, gzipped, n)
			}
		}
	}
}
