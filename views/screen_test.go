package views_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"

	"washboard/internal/domain"
	"washboard/static"
	. "washboard/views"
)

// sampleScreen is a floor's screen with two rooms' worth of things to do:
// an overdue alert, a jam and a low battery in one room, an offline
// dispenser in the other.
func sampleScreen() ScreenView {
	return ScreenView{
		Name:      "Level 3 service room",
		ScopeName: "North Tower › Level 3",
		Zone:      cet,
		Now:       now,
		Version:   "v1.2.3",
		Freshness: Freshness{AsOf: now.Add(-4 * time.Minute)},
		Contact:   "Facilities desk, ext. 4410",
		Counts:    domain.Counts{OK: 40, Attention: 2, Action: 3, Offline: 1},

		OpenAlerts:    5,
		OverdueAlerts: 1,
		Groups: []ScreenGroup{
			{Where: "Level 3 › Men's Restroom 3.12", Items: []ScreenItem{
				{Location: "Stall 2", Problem: "Overdue: Product out", Severity: domain.HealthAction, Since: now.Add(-5 * time.Hour), Overdue: true},
				{Location: "Sink Left", Problem: "Jammed", Severity: domain.HealthAction},
			}},
			{Where: "Level 3 › Staff Kitchen 3.20", Items: []ScreenItem{
				{Location: "Towel", Problem: "Offline", Severity: domain.HealthOffline, Since: now.Add(-26 * time.Hour)},
			}},
		},
		Attention: []ScreenGroup{
			{Where: "Level 3 › Men's Restroom 3.12", Items: []ScreenItem{
				{Location: "Stall 4", Problem: "Battery low", Severity: domain.HealthAttention},
				{Location: "Stall 1", Problem: "Product low", Severity: domain.HealthAttention},
				{Location: "Stall 3", Problem: "Product low", Severity: domain.HealthAttention},
			}},
		},
		PageSeconds: 20,
		DimFrom:     "22:00",
		DimTo:       "06:00",
	}
}

// screenOf is a screen at now in zone whose one thing to do is it.
func screenOf(it ScreenItem, now time.Time, zone *time.Location) templ.Component {
	return ScreenContent(ScreenView{Now: now, Zone: zone, Groups: []ScreenGroup{{Where: "Men's Restroom 3.12", Items: []ScreenItem{it}}}})
}

// levelledScreen is the sample screen of an account with service level
// targets: one item past its target to claim, one at risk of missing its
// target to resolve.
func levelledScreen() ScreenView {
	m := sampleScreen()
	m.Levels = &LevelCounts{AtRisk: 2, Missed: 1}
	m.Groups[0].Items[0].Level = &Level{State: "missed", Claim: LevelOutcome{State: "missed"}, Resolve: LevelOutcome{State: "pending", Deadline: now.Add(time.Hour)}}
	m.Groups[0].Items[1].Level = &Level{State: "at-risk", Claim: LevelOutcome{State: "met"}, Resolve: LevelOutcome{State: "at-risk", Deadline: now.Add(3 * time.Minute)}}
	return m
}

func allClearScreen() ScreenView {
	m := sampleScreen()
	m.Counts = domain.Counts{OK: 1000}
	m.OpenAlerts, m.OverdueAlerts = 0, 0
	m.Groups, m.Attention, m.AllClear = nil, nil, true
	return m
}

// screenVariants are the screen's documents and fragments in each state.
func screenVariants() map[string]templ.Component {
	stale := sampleScreen()
	stale.Freshness = Freshness{AsOf: now.Add(-4 * time.Minute), Stale: true, Reason: "the service answered 503 Service Unavailable"}
	rejected := sampleScreen()
	rejected.Freshness = Freshness{AsOf: now.Add(-4 * time.Minute), Rejected: true}
	unlinked := sampleScreen()
	unlinked.Stopped = StopUnlinked
	return map[string]templ.Component{
		"page":             ScreenPage(sampleScreen()),
		"content":          ScreenContent(sampleScreen()),
		"page-all-clear":   ScreenPage(allClearScreen()),
		"page-levels":      ScreenPage(levelledScreen()),
		"page-stale":       ScreenPage(stale),
		"page-rejected":    ScreenPage(rejected),
		"page-unlinked":    ScreenPage(unlinked),
		"content-unlinked": ScreenContent(unlinked),
	}
}

func TestScreenPageDocument(t *testing.T) {
	doc, raw := render(t, ScreenPage(sampleScreen()))
	if !strings.HasPrefix(strings.ToLower(raw), "<!doctype html>") {
		t.Error("no doctype")
	}
	html := doc.Find("html")
	if html.AttrOr("lang", "") != "en" || !html.HasClass("screen") {
		t.Errorf("html lang %q class %q", html.AttrOr("lang", ""), html.AttrOr("class", ""))
	}
	if got := doc.Find("title").Text(); got != "Level 3 service room · Washboard screen" {
		t.Errorf("title = %q", got)
	}
	var sheets []string
	doc.Find(`link[rel="stylesheet"]`).Each(func(_ int, s *goquery.Selection) { sheets = append(sheets, s.AttrOr("href", "")) })
	if got := strings.Join(sheets, " "); got != static.URL("css/screen.css") {
		t.Errorf("stylesheets = %s, want screen.css alone", got)
	}
	var scripts []string
	doc.Find(`script:not([type="application/json"])`).Each(func(_ int, s *goquery.Selection) {
		scripts = append(scripts, s.AttrOr("src", ""))
		if _, ok := s.Attr("defer"); !ok {
			t.Errorf("script %s is not deferred", s.AttrOr("src", ""))
		}
	})
	if got := strings.Join(scripts, " "); got != static.URL("vendor/htmx.min.js")+" "+static.URL("vendor/sse.js")+" "+static.URL("js/live.js")+" "+static.URL("js/screen.js") {
		t.Errorf("scripts = %s", got)
	}
	for name, want := range map[string]string{
		"washboard-version":   "v1.2.3",
		"screen-page-seconds": "20",
		"screen-dim-from":     "22:00",
		"screen-dim-to":       "06:00",
		"color-scheme":        "dark",
	} {
		if got := doc.Find(`meta[name="`+name+`"]`).AttrOr("content", "(none)"); got != want {
			t.Errorf("meta %s = %q, want %q", name, got, want)
		}
	}
	if cfg := doc.Find(`meta[name="htmx-config"]`).AttrOr("content", ""); !strings.Contains(cfg, `"includeIndicatorStyles":false`) {
		t.Errorf("htmx-config = %q: htmx would inject an inline style", cfg)
	}
	body := doc.Find("body")
	if body.AttrOr("hx-ext", "") != "sse" || body.AttrOr("sse-connect", "") != "/screen/events" {
		t.Errorf("body: hx-ext %q sse-connect %q", body.AttrOr("hx-ext", ""), body.AttrOr("sse-connect", ""))
	}
	if doc.Find("body > #screen-root > main#screen-live").Length() != 1 {
		t.Error("#screen-live is not in #screen-root, the container the burn-in shift moves")
	}
	if doc.Find("header.site-header, nav, footer.site-footer").Length() != 0 {
		t.Error("the screen has the layout's header, navigation or footer")
	}
	pages := doc.Find("#screen-pages")
	if pages.Length() != 1 || pages.AttrOr("aria-live", "") != "off" || strings.TrimSpace(pages.Text()) != "" {
		t.Errorf("#screen-pages: %d, aria-live %q, text %q", pages.Length(), pages.AttrOr("aria-live", ""), pages.Text())
	}
}

func TestScreenContentRefreshesItself(t *testing.T) {
	doc, _ := render(t, ScreenContent(sampleScreen()))
	main := doc.Find("main#screen-live")
	for attr, want := range map[string]string{
		"hx-get":            "/screen/content",
		"hx-trigger":        "sse:changed",
		"hx-swap":           "outerHTML",
		"data-as-of":        "2026-11-21T12:58:00Z",
		"data-stale":        "false",
		"data-rejected":     "false",
		"data-page-seconds": "20",
		"data-dim-from":     "22:00",
		"data-dim-to":       "06:00",
	} {
		if got := main.AttrOr(attr, "(none)"); got != want {
			t.Errorf("#screen-live %s = %q, want %q", attr, got, want)
		}
	}
	// The header: the scope big, the screen's name, the clock and the
	// data's age in the screen's zone (CET: 13:02 UTC is 14:02).
	if got := text(doc.Find("h1.screen-scope")); got != "North Tower › Level 3" {
		t.Errorf("scope heading = %q", got)
	}
	if got := text(doc.Find(".screen-name")); got != "Level 3 service room" {
		t.Errorf("screen name = %q", got)
	}
	clock := doc.Find("time#screen-clock")
	if text(clock) != "14:02" || clock.AttrOr("datetime", "") != "2026-11-21T13:02:00Z" {
		t.Errorf("clock reads %q (%s)", text(clock), clock.AttrOr("datetime", ""))
	}
	if got := text(doc.Find(".screen-asof")); got != "Data as of 13:58" {
		t.Errorf("data age = %q", got)
	}
	banner := doc.Find("#screen-banner")
	if banner.AttrOr("role", "") != "status" || banner.AttrOr("aria-live", "") != "polite" {
		t.Errorf("banner role %q aria-live %q", banner.AttrOr("role", ""), banner.AttrOr("aria-live", ""))
	}
	// Empty, without even white space, so that the stylesheet's :empty hides it.
	if h, _ := banner.Html(); h != "" {
		t.Errorf("the banner of fresh data is not empty: %q", h)
	}
}

func TestScreenHasNoControlsNorInlineCode(t *testing.T) {
	for name, c := range screenVariants() {
		t.Run(name, func(t *testing.T) {
			doc, raw := render(t, c)
			if n := doc.Find("a, button, form, input, select, textarea, [tabindex], [contenteditable]").Length(); n > 0 {
				t.Errorf("%d controls or links on a screen", n)
			}
			if n := doc.Find("[style], style").Length(); n > 0 {
				t.Errorf("%d inline styles (the CSP forbids them)", n)
			}
			// The screen's words for screen.js are data, which no browser runs.
			doc.Find(`script:not([type="application/json"])`).Each(func(_ int, s *goquery.Selection) {
				if src, ok := s.Attr("src"); !ok || !strings.HasPrefix(src, "/static/") || strings.TrimSpace(s.Text()) != "" {
					t.Errorf("inline script or script outside /static: %s", raw)
				}
			})
			doc.Find("*").Each(func(_ int, s *goquery.Selection) {
				for _, a := range s.Nodes[0].Attr {
					if strings.HasPrefix(a.Key, "on") || strings.HasPrefix(a.Key, "hx-on") {
						t.Errorf("<%s> has an inline handler %s", goquery.NodeName(s), a.Key)
					}
				}
			})
		})
	}
}

func TestScreenAllClear(t *testing.T) {
	doc, _ := render(t, ScreenContent(allClearScreen()))
	clear := doc.Find(".screen-all-clear")
	if got := text(clear); got != "All clear All 1,000 locations OK · no open alerts" {
		t.Errorf("all clear reads %q", got)
	}
	if doc.Find(".screen-groups, .screen-item").Length() != 0 {
		t.Error("an all-clear screen lists items")
	}
	counts := map[string]string{}
	doc.Find(".screen-count").Each(func(_ int, s *goquery.Selection) {
		counts[text(s.Find(".screen-count-label"))] = text(s.Find(".screen-count-n"))
	})
	want := map[string]string{"OK": "1,000", "Needs attention": "0", "Needs action": "0", "Offline": "0", "Open alerts": "0", "Overdue alerts": "0"}
	for label, n := range want {
		if counts[label] != n {
			t.Errorf("count %q = %q, want %q (all: %v)", label, counts[label], n, counts)
		}
	}

	// Before the first sync there is nothing to call clear.
	m := allClearScreen()
	m.Freshness = Freshness{FirstSync: true}
	m.Counts = domain.Counts{}
	doc, _ = render(t, ScreenContent(m))
	if strings.Contains(text(doc.Find("main")), "All clear") {
		t.Error("a screen without data says all clear")
	}
	if got := text(doc.Find(".screen-waiting-title")); got != "Waiting for the first data" {
		t.Errorf("waiting screen reads %q", got)
	}
	if got := text(doc.Find(".screen-asof")); got != "No data yet" {
		t.Errorf("data age without data = %q", got)
	}
}

func TestScreenItemsGroupedByRoom(t *testing.T) {
	doc, _ := render(t, ScreenContent(sampleScreen()))
	if strings.Contains(text(doc.Find("main")), "All clear") {
		t.Error("a screen with items says all clear")
	}
	type item struct{ where, severity, location, problem, since string }
	var got []item
	doc.Find(".screen-part-action > section.screen-group").Each(func(_ int, g *goquery.Selection) {
		where := text(g.Find("h2.screen-where"))
		g.Find("li.screen-item").Each(func(_ int, s *goquery.Selection) {
			got = append(got, item{where, text(s.Find(".screen-item-severity")), text(s.Find(".screen-item-location")),
				text(s.Find(".screen-item-problem")), text(s.Find(".screen-item-since"))})
		})
	})
	room1, room2 := "Level 3 › Men's Restroom 3.12", "Level 3 › Staff Kitchen 3.20"
	want := []item{
		{room1, "Needs action", "Stall 2", "Overdue: Product out", "since 5 h ago"},
		{room1, "Needs action", "Sink Left", "Jammed", ""},
		{room2, "Offline", "Towel", "Offline", "since 1 day ago"},
	}
	if len(got) != len(want) {
		t.Fatalf("items = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("item %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	// What only needs attention comes after, under its own heading, with
	// the room's counts for when it is summed up.
	attention := doc.Find(".screen-part-attention")
	if got := text(attention.Find("h2")); got != "Needs attention" {
		t.Errorf("the attention part's heading reads %q", got)
	}
	if n := attention.Find("li.screen-item.health-attention").Length(); n != 3 {
		t.Errorf("%d attention items listed, want 3", n)
	}
	if got := text(attention.Find(".screen-attention-summary")); got != room1+": 1 battery low, 2 product low" {
		t.Errorf("the attention summary reads %q", got)
	}
	if doc.Find(".screen-part-action .health-attention").Length() != 0 {
		t.Error("an attention item is listed with what needs action")
	}
	first := doc.Find("li.screen-item").First()
	if !first.HasClass("screen-item-overdue") || first.Find(`.screen-item-problem use[href$="#overdue"]`).Length() != 1 {
		t.Error("the overdue item is not marked with the overdue icon")
	}
	since := first.Find(".screen-item-since time")
	if _, ok := since.Attr("data-relative"); !ok || since.AttrOr("datetime", "") != "2026-11-21T08:02:00Z" || since.AttrOr("data-now", "") != "2026-11-21T13:02:00Z" {
		t.Errorf("since time: %v", since.Nodes[0].Attr)
	}

	// An overdue item whose problem does not say so gets the word.
	doc, _ = render(t, screenOf(ScreenItem{Location: "Stall 9", Problem: "Battery out", Severity: domain.HealthAction, Overdue: true}, now, cet))
	if got := text(doc.Find(".screen-item-problem")); got != "Overdue: Battery out" {
		t.Errorf("overdue problem = %q", got)
	}
}

func TestScreenBanner(t *testing.T) {
	asOf := now.Add(-4 * time.Minute) // 13:58 CET
	tests := []struct {
		name    string
		f       Freshness
		contact string
		want    string
		stale   string
	}{
		{"stale", Freshness{AsOf: asOf, Stale: true, Reason: "the service answered 503 Service Unavailable"}, "",
			"Data as of 13:58 may be out of date: the service answered 503 Service Unavailable", "true"},
		{"failed", Freshness{AsOf: asOf, Failed: true, Reason: "the service did not answer in time"}, "",
			"Data as of 13:58 may be out of date: the service did not answer in time", "true"},
		{"no data", Freshness{Failed: true, Reason: "the service could not be reached"}, "",
			"No data yet: the service could not be reached", "true"},
		{"rejected", Freshness{AsOf: asOf, Rejected: true}, "Facilities desk, ext. 4410",
			"The service rejected this screen's access. Ask Facilities desk, ext. 4410 to re-link it. Showing data as of 13:58.", "false"},
		{"rejected without a contact", Freshness{AsOf: asOf, Rejected: true}, "",
			"The service rejected this screen's access. Ask whoever manages Washboard's screens to re-link it. Showing data as of 13:58.", "false"},
		{"fresh", Freshness{AsOf: asOf}, "", "", "false"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := sampleScreen()
			m.Freshness, m.Contact = tt.f, tt.contact
			doc, _ := render(t, ScreenPage(m))
			banner := doc.Find("#screen-banner")
			if got := text(banner); got != tt.want {
				t.Errorf("banner = %q, want %q", got, tt.want)
			}
			if tt.want != "" && banner.Find(`svg[aria-hidden="true"] use`).Length() != 1 {
				t.Error("a warning without its icon")
			}
			if got := doc.Find("#screen-live").AttrOr("data-stale", ""); got != tt.stale {
				t.Errorf("data-stale = %q, want %q", got, tt.stale)
			}
			if got, want := doc.Find("#screen-live").AttrOr("data-rejected", "") == "true", tt.f.Rejected; got != want {
				t.Errorf("data-rejected = %v, want %v", got, want)
			}
		})
	}
}

func TestScreenUnlinkedShowsOnlyThat(t *testing.T) {
	m := sampleScreen()
	m.Stopped = StopUnlinked
	m.Freshness = Freshness{AsOf: now, Stale: true, Reason: "secret reason"}
	const message = "This screen was unlinked It shows no more data. You can turn it off or close this browser window; to use it again, open a new link for it from the Screens page of Washboard."
	doc, _ := render(t, ScreenPage(m))
	if got := text(doc.Find("#screen-root")); got != message {
		t.Errorf("unlinked page reads %q", got)
	}
	if _, ok := doc.Find("body").Attr("sse-connect"); ok {
		t.Error("an unlinked screen still opens the event stream")
	}
	if doc.Find("#screen-banner, #screen-clock, #screen-pages, .screen-count, .screen-item").Length() != 0 {
		t.Error("an unlinked screen shows more than that")
	}
	doc, _ = render(t, ScreenContent(m))
	main := doc.Find("main#screen-live")
	if got := text(main); got != message {
		t.Errorf("unlinked content reads %q", got)
	}
	if _, ok := main.Attr("hx-get"); ok {
		t.Error("unlinked content keeps refreshing")
	}
}

func TestScreenHealthHasWords(t *testing.T) {
	sprite, err := os.ReadFile("../static/icons/icons.svg")
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range screenVariants() {
		doc, _ := render(t, c)
		doc.Find(".screen-count, .screen-item-severity").Each(func(_ int, s *goquery.Selection) {
			if text(s) == "" || strings.Trim(text(s), "0123456789, ") == "" {
				t.Errorf("%s: a health count or severity without words: %q", name, text(s))
			}
		})
		doc.Find("svg").Each(func(_ int, s *goquery.Selection) {
			if s.AttrOr("aria-hidden", "") != "true" {
				t.Errorf("%s: an icon that screen readers would announce", name)
			}
			if text(s.Parent()) == "" {
				t.Errorf("%s: an icon without words beside it", name)
			}
			href := s.Find("use").AttrOr("href", "")
			id, ok := strings.CutPrefix(href, iconsURL+"#")
			if !ok || !strings.Contains(string(sprite), `<symbol id="`+id+`"`) {
				t.Errorf("%s: icon %q is not in the sprite", name, href)
			}
		})
	}
	doc, _ := render(t, ScreenContent(sampleScreen()))
	for _, h := range domain.Healths {
		if got := text(doc.Find(".screen-count.health-" + h.String() + " .screen-count-label")); got != h.Label() {
			t.Errorf("count of %s reads %q", h, got)
		}
	}
}

// The script looks up elements by id and sets classes: each id is on the
// screen and each class is styled. It runs one timer, never a chain of
// new ones.
func TestScreenScriptMatchesPageAndStylesheet(t *testing.T) {
	js, err := os.ReadFile("../static/js/screen.js")
	if err != nil {
		t.Fatal(err)
	}
	css, err := os.ReadFile("../static/css/screen.css")
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := render(t, ScreenPage(sampleScreen()))
	ids := regexp.MustCompile(`getElementById\("([^"]+)"\)`).FindAllStringSubmatch(string(js), -1)
	if len(ids) == 0 {
		t.Fatal("no ids in the script")
	}
	for _, m := range ids {
		if doc.Find("#"+m[1]).Length() != 1 {
			t.Errorf("the script looks up #%s, which the screen does not have once", m[1])
		}
	}
	classes := regexp.MustCompile(`classList\.toggle\("([^"]+)"|className = "([^"]+)"`).FindAllStringSubmatch(string(js), -1)
	for _, m := range classes {
		for _, c := range strings.Fields(m[1] + " " + m[2]) {
			if !regexp.MustCompile(`\.` + regexp.QuoteMeta(c) + `\b`).Match(css) {
				t.Errorf("the script sets class %q, which screen.css does not style", c)
			}
		}
	}
	if n := strings.Count(string(js), "setInterval("); n != 1 {
		t.Errorf("%d setInterval calls, want the one tick", n)
	}
	if strings.Contains(string(js), "setTimeout(") {
		t.Error("the script starts timeouts besides its tick")
	}
	if strings.Contains(string(js), "console.") {
		t.Error("the script writes to the console")
	}
	for _, rule := range []string{"html.dimmed", "--shift-x", "--shift-y", "overflow: hidden"} {
		if !strings.Contains(string(css), rule) {
			t.Errorf("screen.css lacks %q", rule)
		}
	}
	if strings.Contains(string(css), "@import") {
		t.Error("screen.css depends on app.css")
	}
}

func sampleScreens() Screens {
	p := samplePage("Screens")
	p.Nav = "screens"
	return Screens{
		Page: p,
		Now:  now,
		Screens: []ScreenRow{
			{ID: "s1", Name: "Level 3 service room", Scope: "North Tower › Level 3",
				Settings: ScreenSettings{Healths: []domain.Health{domain.HealthAction, domain.HealthOffline}, PageSeconds: 15, DimFrom: "22:00", DimTo: "06:00"}, Contact: "Facilities desk",
				Created: now.Add(-72 * time.Hour), LastSeen: now.Add(-5 * time.Minute),
				EditHref: "/screens/s1/edit", RevokeHref: "/screens/s1/revoke", RelinkHref: "/screens/s1/relink"},
			{ID: "s2", Name: "Lobby", Scope: "Whole account", Settings: ScreenSettings{Healths: []domain.Health{domain.HealthAction}, PageSeconds: 30},
				Created: now.Add(-24 * time.Hour), Revoked: true,
				EditHref: "/screens/s2/edit", RevokeHref: "/screens/s2/revoke", RelinkHref: "/screens/s2/relink", RemoveHref: "/screens/s2/remove"},
		},
		Form: ScreenForm{
			Action: "/screens",
			Scopes: []Option{{Value: "account", Label: "Whole account"}, {Value: "building:b1", Label: "North Tower"},
				{Value: "floor:f3", Label: "North Tower › Level 3", Selected: true}},
			Healths: []Option{{Value: "ok", Label: "OK"}, {Value: "attention", Label: "Needs attention", Selected: true},
				{Value: "action", Label: "Needs action", Selected: true}, {Value: "offline", Label: "Offline"}},
			PageSeconds: 15,
		},
	}
}

func TestScreensPageShowsNewLinkOnceInItsBox(t *testing.T) {
	const link = "https://washboard.example/s/tok-SECRET-123"
	m := sampleScreens()
	m.NewLink, m.NewLinkName = link, "Lobby"
	doc, raw := render(t, ScreensPage(m))
	if n := strings.Count(raw, "tok-SECRET-123"); n != 1 {
		t.Errorf("the link's token appears %d times in the page, want once", n)
	}
	box := doc.Find("section.new-link")
	if got := text(box.Find(".new-link-text")); got != "Link for Lobby: open it once on the screen's browser. It is shown only now." {
		t.Errorf("link box reads %q", got)
	}
	input := box.Find("input#new-link")
	if input.AttrOr("value", "") != link || input.AttrOr("type", "") != "text" {
		t.Errorf("link input: value %q type %q", input.AttrOr("value", ""), input.AttrOr("type", ""))
	}
	if _, ok := input.Attr("readonly"); !ok {
		t.Error("the link input is not read-only")
	}
	if got := text(box.Find(`label[for="new-link"]`)); got == "" {
		t.Error("the link input has no label")
	}
	if doc.Find("main").Children().First().Next().Next().Is("section.new-link") == false {
		t.Error("the link box is not at the top of the page, after the heading and its introduction")
	}

	doc, _ = render(t, ScreensPage(sampleScreens()))
	if doc.Find(".new-link, #new-link").Length() != 0 {
		t.Error("a link box without a new link")
	}
}

func TestScreensPageTable(t *testing.T) {
	doc, _ := render(t, ScreensPage(sampleScreens()))
	if got := doc.Find(`.site-nav a[aria-current="page"]`).AttrOr("href", ""); got != "/screens" {
		t.Errorf("current nav item = %q", got)
	}
	table := doc.Find("table.screens-table")
	if got := text(table.Find("caption")); got != "2 screens" {
		t.Errorf("caption = %q", got)
	}
	var heads []string
	table.Find("thead th").Each(func(_ int, s *goquery.Selection) {
		if s.AttrOr("scope", "") != "col" {
			t.Errorf("column header %q without scope=col", text(s))
		}
		heads = append(heads, text(s))
	})
	if got := strings.Join(heads, "|"); got != "Name|Shows|Settings|Language|Contact|Created|Last checked in|Status|Actions" {
		t.Errorf("columns = %s", got)
	}
	rows := table.Find("tbody tr")
	if rows.Length() != 2 {
		t.Fatalf("%d rows", rows.Length())
	}
	cell := func(row *goquery.Selection, label string) string {
		return text(row.Find(`[data-label="` + label + `"]`))
	}
	active, revoked := rows.Eq(0), rows.Eq(1)
	if h := active.Find(`th[scope="row"]`); text(h) != "Level 3 service room" {
		t.Errorf("row header = %q", text(h))
	}
	for label, want := range map[string]string{
		"Shows":           "North Tower › Level 3",
		"Settings":        "Needs action, Offline · pages every 15 s · dims 22:00–06:00",
		"Contact":         "Facilities desk",
		"Created":         "18 Nov 2026 14:02",
		"Last checked in": "5 min ago (21 Nov 2026 13:57)",
		"Status":          "Active",
	} {
		if got := cell(active, label); got != want {
			t.Errorf("active row %s = %q, want %q", label, got, want)
		}
	}
	if got := cell(revoked, "Last checked in"); got != "Never" {
		t.Errorf("never seen = %q", got)
	}
	if got := cell(revoked, "Status"); got != "Revoked" {
		t.Errorf("revoked status = %q", got)
	}
	if got := cell(revoked, "Contact"); got != "— none" {
		t.Errorf("no contact = %q", got)
	}

	if got := active.Find("a").AttrOr("href", ""); got != "/screens/s1/edit" || text(active.Find("a")) != "Edit Level 3 service room" {
		t.Errorf("edit link %q reads %q", got, text(active.Find("a")))
	}
	actions := func(row *goquery.Selection) map[string]string {
		out := map[string]string{}
		row.Find("form").Each(func(_ int, f *goquery.Selection) { out[f.AttrOr("action", "")] = text(f.Find("button")) })
		return out
	}
	if got := actions(active); got["/screens/s1/relink"] != "New link for Level 3 service room" || got["/screens/s1/revoke"] != "Unlink Level 3 service room" || len(got) != 2 {
		t.Errorf("active row's forms = %v", got)
	}
	if got := actions(revoked); got["/screens/s2/relink"] == "" || got["/screens/s2/remove"] != "Remove Lobby" || len(got) != 2 {
		t.Errorf("revoked row's forms = %v, want New link and Remove", got)
	}
	if got := revoked.Find(`form[action="/screens/s2/remove"] button`).AttrOr("title", ""); got != "Remove this revoked screen from the list" {
		t.Errorf("the Remove button says %q of what it does", got)
	}
}

func TestScreensFormsCarryCSRFToken(t *testing.T) {
	m := sampleScreens()
	m.NewLink, m.NewLinkName = "https://washboard.example/s/tok", "Lobby"
	doc, _ := render(t, ScreensPage(m))
	posts := doc.Find(`main form[method="post"]`)
	if posts.Length() != 5 { // new link ×2, unlink ×1, remove ×1, the screen form
		t.Errorf("%d POST forms, want 5", posts.Length())
	}
	posts.Each(func(_ int, f *goquery.Selection) {
		if got := f.Find(`input[type="hidden"][name="csrf_token"]`).AttrOr("value", ""); got != "csrf-123" {
			t.Errorf("form %s has csrf_token %q", f.AttrOr("action", ""), got)
		}
	})
	if n := doc.Find(`main form:not([method="post"])`).Length(); n != 0 {
		t.Errorf("%d forms in main that do not POST", n)
	}
}

func TestScreenForm(t *testing.T) {
	doc, _ := render(t, ScreensPage(sampleScreens()))
	form := doc.Find("form.screen-form")
	if form.AttrOr("action", "") != "/screens" || text(doc.Find("#screen-form-heading")) != "New screen" {
		t.Errorf("new form: action %q heading %q", form.AttrOr("action", ""), text(doc.Find("#screen-form-heading")))
	}
	// Every visible field has a label.
	form.Find("input:not([type=hidden]):not([type=checkbox]), select").Each(func(_ int, s *goquery.Selection) {
		id := s.AttrOr("id", "")
		if id == "" || form.Find(`label[for="`+id+`"]`).Length() != 1 {
			t.Errorf("field %s has no label", s.AttrOr("name", ""))
		}
	})
	name := form.Find(`input[name="name"]`)
	if _, ok := name.Attr("required"); !ok || name.AttrOr("type", "") != "text" {
		t.Error("the name is not a required text field")
	}
	if got := form.Find(`select[name="scope"] option[selected]`).AttrOr("value", ""); got != "floor:f3" {
		t.Errorf("selected scope = %q", got)
	}
	set := form.Find("fieldset").FilterFunction(func(_ int, s *goquery.Selection) bool {
		return s.Find(`input[name="health"]`).Length() > 0
	})
	if got := text(set.Find("legend")); got != "Health states to show" {
		t.Errorf("health legend = %q", got)
	}
	var checked []string
	set.Find(`input[type="checkbox"][name="health"]`).Each(func(_ int, s *goquery.Selection) {
		if s.Parent().Is("label") && text(s.Parent()) == "" {
			t.Error("a checkbox without words")
		}
		if _, ok := s.Attr("checked"); ok {
			checked = append(checked, s.AttrOr("value", ""))
		}
	})
	if got := strings.Join(checked, ","); got != "attention,action" {
		t.Errorf("checked healths = %s", got)
	}
	secs := form.Find(`input[name="page_seconds"]`)
	if secs.AttrOr("type", "") != "number" || secs.AttrOr("min", "") != "5" || secs.AttrOr("max", "") != "300" || secs.AttrOr("value", "") != "15" {
		t.Errorf("page_seconds: %v", secs.Nodes[0].Attr)
	}
	for _, n := range []string{"dim_from", "dim_to"} {
		in := form.Find(`input[name="` + n + `"]`)
		if in.AttrOr("type", "") != "time" {
			t.Errorf("%s is not a time field", n)
		}
		if _, ok := in.Attr("required"); ok {
			t.Errorf("%s is required", n)
		}
	}
	contact := form.Find(`input[name="contact"]`)
	if got := text(doc.Find("#" + contact.AttrOr("aria-describedby", "none"))); got != "Who should re-link this screen if it loses access" {
		t.Errorf("contact hint = %q", got)
	}
	if got := text(form); !strings.Contains(got, "The screen keeps its data fresh with the credentials you are signed in with; they are stored encrypted on the server and never sent to the screen.") {
		t.Errorf("the form does not say how the screen's data stays fresh: %q", got)
	}
	if doc.Find(`[role="alert"]`).Length() != 0 {
		t.Error("an error box without an error")
	}

	m := sampleScreens()
	m.Form.Action, m.Form.Editing, m.Form.Name = "/screens/s1", true, `Level 3 <b>service</b>`
	m.Error = "Choose at least one health state to show."
	doc, _ = render(t, ScreensPage(m))
	if got := text(doc.Find(`[role="alert"]`)); got != "The screen was not saved. Choose at least one health state to show." {
		t.Errorf("error box = %q", got)
	}
	if doc.Find("form.screen-form").AttrOr("action", "") != "/screens/s1" || text(doc.Find("#screen-form-heading")) != "Edit screen" {
		t.Error("the edit form does not post to its screen")
	}
	if doc.Find(`input[name="name"]`).AttrOr("value", "") != `Level 3 <b>service</b>` || doc.Find("main b").Length() != 0 {
		t.Error("the name is not kept, or not escaped")
	}
	if got := doc.Find(`form.screen-form a`).AttrOr("href", ""); got != "/screens" {
		t.Errorf("cancel link = %q", got)
	}
}

func TestScreensPageWithoutScreens(t *testing.T) {
	m := sampleScreens()
	m.Screens = nil
	doc, _ := render(t, ScreensPage(m))
	if doc.Find("table").Length() != 0 {
		t.Error("an empty table")
	}
	if got := text(doc.Find("main .empty")); got != "No screens yet. Create the first one with the form below." {
		t.Errorf("empty list reads %q", got)
	}
	if n := doc.Find("[style], style").Length(); n > 0 {
		t.Errorf("%d inline styles", n)
	}
}

// An item whose alert is at risk of missing a target, or past one, says
// so in words with an icon, and the counts line how many are; a screen
// of an account without targets says none of it.
func TestScreenSaysServiceLevels(t *testing.T) {
	doc, _ := render(t, ScreenContent(levelledScreen()))
	var got []string
	doc.Find("li.screen-item").Each(func(_ int, s *goquery.Selection) {
		if l := s.Find(".screen-item-level"); l.Length() > 0 {
			got = append(got, text(s.Find(".screen-item-location"))+": "+text(l)+" ["+l.Find("use").AttrOr("href", "")[len(iconsURL):]+"]")
		}
	})
	want := []string{"Stall 2: Past its target to claim [#action]", "Sink Left: At risk: resolve due 14:05 [#attention]"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("items say:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	counts := doc.Find(".screen-level-counts")
	if got := text(counts); got != "Service level: 2 at risk · 1 past target" {
		t.Errorf("the counts line reads %q", got)
	}
	if n := counts.Find("svg").Length(); n != 2 {
		t.Errorf("the counts line has %d icons, want one each", n)
	}

	for _, tc := range []struct {
		level *Level
		want  string
	}{
		{&Level{State: "missed", Claim: LevelOutcome{State: "missed"}, Resolve: LevelOutcome{State: "missed"}}, "Past its targets to claim and resolve"},
		{&Level{State: "missed", Claim: LevelOutcome{State: "met"}, Resolve: LevelOutcome{State: "missed"}}, "Past its target to resolve"},
		{&Level{State: "at-risk", Claim: LevelOutcome{State: "at-risk", Deadline: now.Add(24 * time.Hour)}}, "At risk: claim due Sunday 14:02"},
		{&Level{State: "at-risk", Claim: LevelOutcome{State: "at-risk"}}, "At risk of missing its target to claim"},
		{&Level{State: "pending", Claim: LevelOutcome{State: "pending"}}, ""},
	} {
		doc, _ := render(t, screenOf(ScreenItem{Location: "Stall 2", Problem: "Jammed", Severity: domain.HealthAction, Level: tc.level}, now, cet))
		if got := text(doc.Find("li.screen-item .screen-item-level")); got != tc.want {
			t.Errorf("%+v reads %q, want %q", tc.level, got, tc.want)
		}
	}

	// Targets but none at risk: no counts line.
	m := levelledScreen()
	m.Levels = &LevelCounts{}
	m.Groups[0].Items[0].Level, m.Groups[0].Items[1].Level = nil, nil
	doc, raw := render(t, ScreenContent(m))
	if doc.Find(".screen-level-counts, .screen-item-level").Length() != 0 || strings.Contains(raw, "at risk") {
		t.Error("a screen with nothing at risk speaks of service levels")
	}
	doc, raw = render(t, ScreenContent(sampleScreen()))
	if doc.Find(".screen-level-counts, .screen-item-level").Length() != 0 || strings.Contains(raw, "Service level") {
		t.Error("the screen of an account without targets speaks of service levels")
	}
}
