package views_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"washboard/static"
	. "washboard/views"
)

func TestLayout(t *testing.T) {
	doc, raw := render(t, Frame(sampleOverview().Page, OverviewContent(sampleOverview())))
	if !strings.HasPrefix(strings.ToLower(raw), "<!doctype html>") {
		t.Error("no doctype")
	}
	if doc.Find("html").AttrOr("lang", "") != "en" {
		t.Error("no lang")
	}
	if got := doc.Find("title").Text(); got != "Overview · Washboard" {
		t.Errorf("title = %q", got)
	}
	for sel, want := range map[string]string{
		`meta[name="csrf-token"]`:   "csrf-123",
		`meta[name="color-scheme"]`: "light dark",
	} {
		if got := doc.Find(sel).AttrOr("content", ""); got != want {
			t.Errorf("%s = %q, want %q", sel, got, want)
		}
	}
	if cfg := doc.Find(`meta[name="htmx-config"]`).AttrOr("content", ""); !strings.Contains(cfg, `"includeIndicatorStyles":false`) {
		t.Errorf("htmx-config = %q", cfg)
	}
	var scripts []string
	doc.Find("script").Each(func(_ int, s *goquery.Selection) {
		scripts = append(scripts, s.AttrOr("src", ""))
		if _, ok := s.Attr("defer"); !ok {
			t.Errorf("script %s is not deferred", s.AttrOr("src", ""))
		}
	})
	if got := strings.Join(scripts, " "); got != static.URL("vendor/htmx.min.js")+" "+static.URL("vendor/sse.js")+" "+static.URL("js/live.js")+" "+static.URL("js/app.js") {
		t.Errorf("scripts = %s", got)
	}
	if doc.Find(`link[rel="stylesheet"]`).AttrOr("href", "") != static.URL("css/app.css") {
		t.Error("no stylesheet")
	}
	if doc.Find(`a.skip-link[href="#main"]`).Length() != 1 || doc.Find("main#main").Length() != 1 {
		t.Error("no skip link to main#main")
	}
	body := doc.Find("body")
	if body.AttrOr("hx-ext", "") != "sse" || body.AttrOr("sse-connect", "") != "/events" {
		t.Errorf("live page body: hx-ext %q sse-connect %q", body.AttrOr("hx-ext", ""), body.AttrOr("sse-connect", ""))
	}
	if got := doc.Find(`.site-nav a[aria-current="page"]`).AttrOr("href", ""); got != "/" {
		t.Errorf("current nav item = %q", got)
	}
	search := doc.Find(`form[action="/search"]`)
	if search.AttrOr("method", "") != "get" || search.Find(`input[name="q"]`).Length() != 1 || search.Find("label").Length() != 1 {
		t.Error("header search form lacks method, q or label")
	}
	signOut := doc.Find(`form[action="/signout"]`)
	if signOut.AttrOr("method", "") != "post" || signOut.Find(`input[name="csrf_token"]`).AttrOr("value", "") != "csrf-123" {
		t.Error("sign-out form lacks method or csrf_token")
	}
	if got := text(doc.Find(".account")); got != "Acme Facilities" {
		t.Errorf("account = %q", got)
	}
	crumbs := doc.Find(`nav[aria-label="Breadcrumb"] li`)
	if crumbs.Length() != 3 || crumbs.Last().Find(`[aria-current="page"]`).Length() != 1 || crumbs.Last().Find("a").Length() != 0 {
		t.Errorf("breadcrumbs: %d crumbs, last %q", crumbs.Length(), text(crumbs.Last()))
	}
	if got := crumbs.Eq(1).Find("a").AttrOr("href", ""); got != "/buildings/b1" {
		t.Errorf("second crumb links to %q", got)
	}
	if doc.Find("#freshness").Length() != 1 {
		t.Error("no freshness banner")
	}
	if got := text(doc.Find(`.flash[role="status"]`)); got != "You have signed in." {
		t.Errorf("flash = %q", got)
	}
	if got := text(doc.Find("footer")); got != "Washboard v1.2.3" {
		t.Errorf("footer = %q", got)
	}

	m := sampleOverview()
	m.Live = false
	doc, _ = render(t, Frame(m.Page, OverviewContent(m)))
	if _, ok := doc.Find("body").Attr("sse-connect"); ok {
		t.Error("a page that is not live opens the event stream")
	}
}

func TestFreshnessBanner(t *testing.T) {
	asOf := now.Add(-4 * time.Minute) // 12:58 UTC, 13:58 CET
	tests := []struct {
		name    string
		f       Freshness
		want    string
		warning bool
	}{
		{"fresh", Freshness{AsOf: now}, "Data as of 14:02", false},
		{"before the first sync", Freshness{FirstSync: true}, "Loading…", false},
		{"stale", Freshness{AsOf: asOf, Stale: true, Reason: "the service answered 503 Service Unavailable"},
			"Data as of 13:58 may be out of date: the service answered 503 Service Unavailable", true},
		{"failed", Freshness{AsOf: asOf, Failed: true, Reason: "timeout"}, "Data as of 13:58 may be out of date: timeout", true},
		{"rejected", Freshness{AsOf: asOf, Rejected: true},
			"The Device Monitoring Service rejected your credentials. Sign in again.", true},
	}
	for _, tt := range tests {
		doc, _ := render(t, FreshnessBanner(tt.f, cet))
		banner := doc.Find("#freshness")
		if got := text(banner); got != tt.want {
			t.Errorf("%s: banner reads %q, want %q", tt.name, got, tt.want)
		}
		if banner.HasClass("freshness-warning") != tt.warning {
			t.Errorf("%s: warning = %v", tt.name, !tt.warning)
		}
		if tt.warning && banner.Find("svg use").Length() != 1 {
			t.Errorf("%s: a warning without an icon", tt.name)
		}
		for attr, want := range map[string]string{
			"hx-get": "/status", "hx-trigger": "sse:status, sse:devices, sse:alerts, every 60s",
			"hx-swap": "outerHTML", "role": "status",
		} {
			if got := banner.AttrOr(attr, ""); got != want {
				t.Errorf("%s: %s = %q", tt.name, attr, got)
			}
		}
	}
	doc, _ := render(t, FreshnessBanner(Freshness{Rejected: true}, nil))
	if doc.Find(`#freshness a[href="/signin"]`).Length() != 1 {
		t.Error("rejected banner without a link to sign in")
	}
	doc, _ = render(t, FreshnessBanner(Freshness{AsOf: now}, nil))
	if got := text(doc.Find("#freshness")); got != "Data as of 13:02" {
		t.Errorf("nil zone: banner reads %q, want UTC", got)
	}
}

func TestProgress(t *testing.T) {
	doc, _ := render(t, ProgressPage(SyncProgress{Page: samplePage("Loading"), Phase: "alerts", Pages: 12, Devices: 1200, Alerts: 3400, Total: 10000}))
	if got := text(doc.Find("h1")); got != "Loading your account for the first time" {
		t.Errorf("heading = %q", got)
	}
	frag := doc.Find("#sync-progress")
	for attr, want := range map[string]string{"hx-get": "/sync/progress", "hx-trigger": "every 1s", "hx-swap": "outerHTML"} {
		if got := frag.AttrOr(attr, ""); got != want {
			t.Errorf("%s = %q, want %q", attr, got, want)
		}
	}
	bar := frag.Find("progress")
	if bar.AttrOr("value", "") != "1200" || bar.AttrOr("max", "") != "10000" {
		t.Errorf("progress value %q max %q", bar.AttrOr("value", ""), bar.AttrOr("max", ""))
	}
	if got := text(frag); !strings.Contains(got, "Reading alerts") || !strings.Contains(got, "Pages fetched 12") ||
		!strings.Contains(got, "Devices 1,200 of 10,000") || !strings.Contains(got, "Alerts so far 3,400") {
		t.Errorf("progress reads %q", got)
	}

	doc, _ = render(t, ProgressFragment(SyncProgress{Phase: "metadata"}))
	if _, ok := doc.Find("progress").Attr("value"); ok {
		t.Error("progress with an unknown total is not indeterminate")
	}
}

func TestOverview(t *testing.T) {
	doc, _ := render(t, OverviewContent(sampleOverview()))
	live := doc.Find("#live")
	for attr, want := range map[string]string{"hx-get": "/", "hx-trigger": "sse:devices, sse:alerts, sse:metadata, every 120s", "hx-swap": "outerHTML"} {
		if got := live.AttrOr(attr, ""); got != want {
			t.Errorf("%s = %q, want %q", attr, got, want)
		}
	}
	if got := text(live.Find("h1")); got != "Acme Facilities" {
		t.Errorf("heading = %q", got)
	}
	var tiles []string
	live.Find(".tiles").First().Find(".tile").Each(func(_ int, s *goquery.Selection) { tiles = append(tiles, text(s)) })
	if got := strings.Join(tiles, " | "); got != "OK 900 | Needs attention 50 | Needs action 30 | Offline 20" {
		t.Errorf("tiles = %s", got)
	}
	if got := text(live.Find(".tiles-alerts")); got != "Open alerts 61 Overdue alerts 7" {
		t.Errorf("alert tiles = %q", got)
	}
	if live.Find(`.tiles-alerts a[href="/alerts"]`).Length() != 2 {
		t.Error("alert counts do not link to /alerts")
	}
	card := live.Find(".place-card")
	if got := card.Find("h3 a").AttrOr("href", ""); got != "/buildings/b1" {
		t.Errorf("building links to %q", got)
	}
	if got := text(card); !strings.Contains(got, "8 floors") || !strings.Contains(got, "Needs action 3") || !strings.Contains(got, "5 open alerts 1 overdue") {
		t.Errorf("building card reads %q", got)
	}
	if got := text(live.Find(".more")); got != "and 60 more" {
		t.Errorf("more = %q", got)
	}
	if got := text(live.Find(".alert-list .alert-item")); !strings.Contains(got, "Product out at Stall 2") {
		t.Errorf("urgent alert reads %q", got)
	}
}

func TestPlace(t *testing.T) {
	doc, _ := render(t, Frame(samplePlace().Page, PlaceContent(samplePlace())))
	live := doc.Find("#live")
	if got := live.AttrOr("hx-get", ""); got != "/floors/f3?type=tissue" {
		t.Errorf("hx-get = %q", got)
	}
	if got := text(live.Find("h1")); got != "Floor Level 3" {
		t.Errorf("heading = %q", got)
	}
	form := live.Find("form#device-filter")
	if form.AttrOr("action", "") != "/floors/f3" || form.AttrOr("method", "") != "get" {
		t.Errorf("filter form action %q", form.AttrOr("action", ""))
	}
	for _, name := range []string{"type", "health"} {
		sel := form.Find(`select[name="` + name + `"]`)
		if sel.Length() != 1 || form.Find(`label[for="`+sel.AttrOr("id", "")+`"]`).Length() != 1 {
			t.Errorf("select %q missing or without label", name)
		}
	}
	if got := form.Find(`select[name="type"] option[selected]`).AttrOr("value", ""); got != "tissue" {
		t.Errorf("selected type = %q", got)
	}
	if got := form.Find(`select[name="health"] option[selected]`).AttrOr("value", "x"); got != "" {
		t.Errorf("selected health = %q, want the any choice", got)
	}
	if form.Find(`a[href="/floors/f3"]`).Length() != 1 {
		t.Error("no clear link")
	}
	if got := live.Find("a.download").AttrOr("href", ""); got != "/floors/f3/devices.csv?type=tissue" {
		t.Errorf("CSV link = %q", got)
	}
	section := live.Find(".room-section")
	if got := section.Find("h2 a").AttrOr("href", ""); got != "/rooms/r1" {
		t.Errorf("room heading links to %q", got)
	}
	if section.Find("article#card-17").Length() != 1 {
		t.Error("the room's card is missing")
	}
	if got := text(live.Find(".places .place-card h3")); got != "Men's Restroom 3.12" {
		t.Errorf("part = %q", got)
	}

	m := samplePlace()
	m.Sections[0].Cards = nil
	doc, _ = render(t, PlaceContent(m))
	if got := text(doc.Find(".empty")); !strings.HasPrefix(got, "No device location here matches these filters.") {
		t.Errorf("empty filtered floor reads %q", got)
	}
	m.Filter.Active = false
	doc, _ = render(t, PlaceContent(m))
	if got := text(doc.Find(".empty")); got != "There are no device locations here." {
		t.Errorf("empty floor reads %q", got)
	}
}

func TestSearch(t *testing.T) {
	doc, _ := render(t, SearchPage(Search{Page: samplePage("Search"), Query: `<i>x</i>`}))
	if got := text(doc.Find("main .empty")); got != "No device location matches “<i>x</i>”." {
		t.Errorf("empty search reads %q", got)
	}
	if doc.Find("main i").Length() != 0 {
		t.Error("query not escaped")
	}
	if got := doc.Find("#search-q").AttrOr("value", ""); got != `<i>x</i>` {
		t.Errorf("query field = %q", got)
	}
	doc, _ = render(t, SearchPage(Search{Page: samplePage("Search"), Query: "stall", Results: []DeviceCard{sampleCard()}, Truncated: true}))
	if doc.Find("main article.card").Length() != 1 {
		t.Error("no result card")
	}
	if got := text(doc.Find("main .note")); !strings.HasPrefix(got, "Only the first 1 matches are shown") {
		t.Errorf("truncation note = %q", got)
	}
}

func TestErrors(t *testing.T) {
	doc, _ := render(t, ErrorView(ErrorPage{Page: samplePage("Error"), Status: 500, Heading: "Something went wrong", Message: "The cache could not be read.", ErrorID: "e-42"}))
	main := text(doc.Find("main"))
	for _, want := range []string{"Error 500", "Something went wrong", "The cache could not be read.", "Error id: e-42", "Back to the overview"} {
		if !strings.Contains(main, want) {
			t.Errorf("error page %q lacks %q", main, want)
		}
	}
	doc, _ = render(t, ErrorFragment(ErrorPage{Status: 404, Message: "No such room."}))
	frag := doc.Find(`[role="alert"]`)
	if got := text(frag); got != "Not found (error 404) No such room. Back to the overview" {
		t.Errorf("fragment reads %q", got)
	}
	if strings.Contains(text(frag), "Error id") {
		t.Error("an error id without one")
	}
}

// Every icon a page uses is in the sprite.
func TestIconsExistInSprite(t *testing.T) {
	sprite, err := os.ReadFile("../static/icons/icons.svg")
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, m := range regexp.MustCompile(`<symbol id="([^"]+)"`).FindAllStringSubmatch(string(sprite), -1) {
		ids[m[1]] = true
	}
	for name, c := range allPages() {
		doc, _ := render(t, c)
		doc.Find("use").Each(func(_ int, s *goquery.Selection) {
			href := s.AttrOr("href", "")
			id, ok := strings.CutPrefix(href, iconsURL+"#")
			if !ok || !ids[id] {
				t.Errorf("%s: icon %q is not in the sprite", name, href)
			}
		})
	}
}
