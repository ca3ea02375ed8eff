package views_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"

	"washboard/internal/domain"
	"washboard/static"
	. "washboard/views"
)

// The tests render components with sample models and read the HTML back
// with goquery, as a browser would see it.

// now is the sample models' present.
var now = time.Date(2026, 11, 21, 13, 2, 0, 0, time.UTC)

// cet is the zone pages are shown in.
var cet = time.FixedZone("CET", 3600)

// iconsURL is the address of the icon sprite, as pages write it.
var iconsURL = static.URL("icons/icons.svg")

// render renders c and returns the document and the raw HTML.
func render(t *testing.T, c templ.Component) (*goquery.Document, string) {
	t.Helper()
	var buf bytes.Buffer
	if err := c.Render(context.Background(), &buf); err != nil {
		t.Fatalf("render: %v", err)
	}
	raw := buf.String()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(raw))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return doc, raw
}

// text is the text of the selection as a browser lays it out, roughly:
// block elements are apart, inline ones run on, white space is collapsed.
func text(s *goquery.Selection) string {
	var b strings.Builder
	var walk func(*goquery.Selection)
	walk = func(s *goquery.Selection) {
		s.Each(func(_ int, n *goquery.Selection) {
			name := goquery.NodeName(n)
			if name == "#text" {
				b.WriteString(n.Text())
				return
			}
			if blocks[name] {
				b.WriteByte(' ')
				defer b.WriteByte(' ')
			}
			walk(n.Contents())
		})
	}
	walk(s)
	return strings.Join(strings.Fields(b.String()), " ")
}

var blocks = map[string]bool{
	"address": true, "article": true, "caption": true, "dd": true, "div": true, "dl": true, "dt": true,
	"footer": true, "form": true, "h1": true, "h2": true, "h3": true, "h4": true, "header": true, "li": true,
	"main": true, "nav": true, "ol": true, "p": true, "section": true, "table": true, "td": true, "th": true,
	"tr": true, "ul": true,
}

func ptr(n int) *int { return &n }

func samplePage(title string) Page {
	return Page{
		Title:       title,
		Nav:         "overview",
		SignedIn:    true,
		AccountName: "Acme Facilities",
		CSRFToken:   "csrf-123",
		Crumbs:      []Crumb{{Label: "Overview", Href: "/"}, {Label: "North Tower", Href: "/buildings/b1"}, {Label: "Level 3"}},
		Freshness:   Freshness{AsOf: now.Add(-time.Minute)},
		Flash:       "You have signed in.",
		Version:     "v1.2.3",
		Zone:        cet,
		Live:        true,
		PersonName:  "Ana Lima",
		Role:        domain.Owner,
	}
}

func sampleAlert() AlertRow {
	return AlertRow{
		ID: "a1", Type: domain.AlertConsumableOut, Open: true, Overdue: true,
		Created: now.Add(-5 * time.Hour), RefillCount: 2,
		LocationName: "Stall 2", LocationHref: "/locations/17", Where: "North Tower › Level 3 › Men's Restroom 3.12",
		Now: now,
	}
}

// sampleCard is a four-roll tissue dispenser with a low and an out roll,
// a low battery, a generation 1 tear bar jam and an overdue alert.
func sampleCard() DeviceCard {
	return DeviceCard{
		LocationID: "17",
		Name:       "Stall 2",
		Href:       "/locations/17",
		Type:       domain.Tissue,
		Where:      "North Tower › Level 3 › Men's Restroom 3.12",
		Health:     domain.HealthAction,
		Devices: []DeviceView{{
			MAC:          "A1B2C3D4E5F6",
			Position:     "main",
			Generation:   "1.0",
			Compartments: []domain.Compartment{{Level: 80}, {Level: 10, Low: true}, {Level: 0, Low: true, Out: true}, {Level: 55}},
			Battery:      ptr(15),
			BatteryState: domain.BatteryLow,
			Faults:       []domain.Fault{{Kind: domain.FaultJam, Key: "tear_bar_fault"}},
			LastSeen:     now.Add(-3 * time.Minute),
			Health:       domain.HealthAction,
		}},
		Alerts: []AlertRow{sampleAlert()},
		Now:    now,
		Zone:   cet,
	}
}

func samplePlace() Place {
	card := sampleCard()
	return Place{
		Page:  samplePage("Level 3"),
		Kind:  "floor",
		ID:    "f3",
		Name:  "Level 3",
		Where: "North Tower",
		Rollup: domain.Rollup{Counts: domain.Counts{OK: 10, Attention: 2, Action: 1, Offline: 1},
			OpenAlerts: 4, OverdueAlerts: 1},
		Parts: []PlaceCard{{ID: "r1", Name: "Men's Restroom 3.12", Href: "/rooms/r1", Detail: "6 locations",
			Rollup: domain.Rollup{Counts: domain.Counts{OK: 5, Action: 1}, OpenAlerts: 1}}},
		Filter: DeviceFilter{
			Action:  "/floors/f3",
			Types:   []Option{{Value: "tissue", Label: "Tissue", Selected: true}, {Value: "soap", Label: "Soap"}},
			Healths: []Option{{Value: "action", Label: "Needs action"}},
			Active:  true,
		},
		Sections: []RoomSection{{ID: "r1", Name: "Men's Restroom 3.12", Href: "/rooms/r1",
			Rollup: domain.Rollup{Counts: domain.Counts{Action: 1}}, Cards: []DeviceCard{card}}},
		CSVHref: "/floors/f3/devices.csv?type=tissue",
		Self:    "/floors/f3?type=tissue",
	}
}

func sampleAlerts() Alerts {
	closedOffline := AlertRow{
		ID: "a2", Type: domain.AlertJam, Open: false,
		Created: now.Add(-30 * time.Hour), Resolved: now.Add(-28*time.Hour - 40*time.Minute),
		Resolution: domain.ResolvedByOffline, TimeToResolve: 80 * time.Minute,
		LocationName: "Sink Left", LocationHref: "/locations/18", Where: "North Tower › Level 3 › Staff Kitchen 3.20",
		Now: now,
	}
	closedFine := AlertRow{
		ID: "a3", Type: domain.AlertBatteryOut, Open: false,
		Created: now.Add(-3 * time.Hour), Resolved: now.Add(-time.Hour), Resolution: domain.ResolvedByDevice,
		TimeToResolve: 2 * time.Hour, RefillCount: 1, LocationName: "Stall 4", LocationHref: "/locations/19", Now: now,
	}
	return Alerts{
		Page: samplePage("Alerts"),
		Filter: AlertFilter{
			Buildings: []Option{{Value: "b1", Label: "North Tower", Selected: true}},
			Statuses:  []Option{{Value: "open", Label: "Open"}, {Value: "closed", Label: "Closed"}, {Value: "all", Label: "All", Selected: true}},
			From:      "2026-11-14", To: "2026-11-21", Active: true,
		},
		Rows:      []AlertRow{sampleAlert(), closedOffline, closedFine},
		Total:     1200,
		Truncated: true,
		RefillTotals: []RefillTotal{{Building: "North Tower", Floor: "Level 3", Items: []RefillItem{
			{Count: 12, Noun: "tissue rolls"}, {Count: 2, Noun: "soap refills"}, {Count: 1, Noun: "battery set"}}}},
		CSVHref: "/alerts.csv?building=b1&status=all",
		Self:    "/alerts?building=b1&status=all",
	}
}

func sampleOverview() Overview {
	return Overview{
		Page:       samplePage("Overview"),
		Rollup:     domain.Rollup{Counts: domain.Counts{OK: 900, Attention: 50, Action: 30, Offline: 20}, OpenAlerts: 61, OverdueAlerts: 7},
		Buildings:  []PlaceCard{{ID: "b1", Name: "North Tower", Href: "/buildings/b1", Detail: "8 floors", Rollup: domain.Rollup{Counts: domain.Counts{OK: 400, Action: 3}, OpenAlerts: 5, OverdueAlerts: 1}}},
		Alerts:     []AlertRow{sampleAlert()},
		MoreAlerts: 60,
	}
}

// allPages renders every full page and fragment with sample models.
func allPages() map[string]templ.Component {
	signedOut := Page{Title: "Sign in", CSRFToken: "csrf-123", Version: "v1"}
	return map[string]templ.Component{
		"sign-in":          SignInPage(SignIn{Page: signedOut, Error: "The service answered 401.", Kind: "rejected", Demo: true, Next: "/alerts"}),
		"progress":         ProgressPage(SyncProgress{Page: samplePage("Loading"), Phase: "devices", Pages: 3, Devices: 300, Total: 1000}),
		"progress-unknown": ProgressFragment(SyncProgress{Phase: "metadata"}),
		"overview":         Frame(sampleOverview().Page, OverviewContent(sampleOverview())),
		"place":            Frame(samplePlace().Page, PlaceContent(samplePlace())),
		"location":         LocationView(LocationPage{Page: samplePage("Stall 2"), Card: sampleCard()}),
		"search":           SearchPage(Search{Page: samplePage("Search"), Query: "stall", Results: []DeviceCard{sampleCard()}, Truncated: true}),
		"search-empty":     SearchPage(Search{Page: samplePage("Search"), Query: "nothing"}),
		"alerts":           AlertsPage(sampleAlerts()),
		"error":            ErrorView(ErrorPage{Page: samplePage("Error"), Status: 500, Heading: "Something went wrong", Message: "The cache could not be read.", ErrorID: "e-42"}),
		"error-fragment":   ErrorFragment(ErrorPage{Status: 404, Message: "No such room."}),
		"banner-stale":     FreshnessBanner(Freshness{AsOf: now, Stale: true, Reason: "the service answered 503"}, cet),
		"notifications":    NotificationsPage(sampleNotifications()),
		"channel-test":     ChannelTestResult(ChannelTest{Delivered: true, Message: "hooks.example.com accepted the test JSON message (200 OK)."}),
		"channel-test-bad": ChannelTestResult(ChannelTest{Message: "The test was not delivered: hooks.example.com answered 500."}),
	}
}

func TestNoInlineStyleOrScriptInAnyPage(t *testing.T) {
	for name, c := range allPages() {
		t.Run(name, func(t *testing.T) {
			doc, raw := render(t, c)
			if n := doc.Find("[style]").Length(); n > 0 {
				t.Errorf("%d elements have a style attribute (the CSP forbids inline styles)", n)
			}
			if n := doc.Find("style").Length(); n > 0 {
				t.Errorf("%d <style> elements", n)
			}
			doc.Find("script").Each(func(_ int, s *goquery.Selection) {
				if src, ok := s.Attr("src"); !ok || !strings.HasPrefix(src, "/static/") {
					t.Errorf("script without a src in /static: %s", raw)
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

// healthBadge is the badge of health h on a location's card.
func healthBadge(t *testing.T, h domain.Health) *goquery.Selection {
	t.Helper()
	c := sampleCard()
	c.Health = h
	doc, _ := render(t, DeviceCardView(c))
	return doc.Find(".card-header .badge")
}

func TestEveryHealthBadgeAndIconHasWords(t *testing.T) {
	for _, h := range domain.Healths {
		badge := healthBadge(t, h)
		if got := text(badge); got != h.Label() {
			t.Errorf("badge of %s reads %q, want %q", h, got, h.Label())
		}
		if use, _ := badge.Find("svg use").Attr("href"); use != iconsURL+"#"+h.String() {
			t.Errorf("badge of %s shows icon %q", h, use)
		}
	}
	for name, c := range allPages() {
		doc, _ := render(t, c)
		doc.Find(".badge, .health-count, .tile").Each(func(_ int, s *goquery.Selection) {
			if text(s) == "" {
				t.Errorf("%s: a health badge or count without words", name)
			}
		})
		doc.Find("svg").Each(func(_ int, s *goquery.Selection) {
			if v, _ := s.Attr("aria-hidden"); v != "true" {
				t.Errorf("%s: an icon that screen readers would announce", name)
			}
			if text(s.Parent()) == "" {
				t.Errorf("%s: an icon without words beside it", name)
			}
		})
	}
}

func TestHealthShapesDiffer(t *testing.T) {
	seen := map[string]domain.Health{}
	for _, h := range domain.Healths {
		id := strings.TrimPrefix(healthBadge(t, h).Find("svg use").AttrOr("href", ""), iconsURL+"#")
		if other, ok := seen[id]; ok {
			t.Errorf("%s and %s share the icon %q", h, other, id)
		}
		seen[id] = h
	}
}
