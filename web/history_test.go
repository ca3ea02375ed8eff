package web

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"washboard/internal/sim"
)

// runOutAndRefill picks a towel dispenser of the first account alone at
// its location and without an open alert, has it run out, and lets the
// simulated days pass, a sync every two hours, until staff have refilled
// it and its alert has closed: the cache's history then holds a level
// falling to 0, a refill and an alert opened and closed. It returns the
// location's id.
func (a *app) runOutAndRefill() string {
	a.t.Helper()
	acc := a.world.Accounts()[0]
	open := map[int64]bool{}
	for _, al := range acc.AlertRecords() {
		if al.Resolved.IsZero() {
			open[al.LocationID] = true
		}
	}
	var loc *sim.Location
	for _, r := range acc.Rooms {
		for _, l := range r.Locations {
			if loc == nil && l.Type == "towel" && len(l.Devices) == 1 && !open[l.ID] {
				loc = l
			}
		}
	}
	if loc == nil {
		a.t.Fatal("no towel dispenser alone at its location without an open alert")
	}
	mac := loc.Devices[0].MAC
	if !a.world.Empty(mac) {
		a.t.Fatal("the simulator did not find the device")
	}
	a.clock.Advance(time.Minute) // the next sync sees it out
	a.clock.BlockUntil(1)
	refilled := func() bool {
		for _, al := range acc.AlertRecords() {
			if al.MAC == mac && al.Type == sim.AlertConsumableOut && !al.Created.Before(start) {
				return !al.Resolved.IsZero()
			}
		}
		return false
	}
	for i := 0; !refilled(); i++ {
		if i == 36 {
			a.t.Fatal("staff did not refill the dispenser within three days")
		}
		a.clock.Advance(2 * time.Hour)
		a.clock.BlockUntil(1)
	}
	a.clock.Advance(2 * time.Hour) // the sync after sees it refilled
	a.clock.BlockUntil(1)
	return fmt.Sprint(loc.ID)
}

// A location's page charts its last 7 days: an image with an accessible
// name and description, the level line, a refill marked with a triangle,
// the product-out alert as a bar labelled by its type, and the numbers in
// a table behind a disclosure. The card alone, fetched by htmx, holds no
// chart; a location whose devices have no record says so in words.
func TestLocationPageChartsTheLastSevenDays(t *testing.T) {
	t.Parallel()
	a := newAppOf(t, Config{}, 12)
	b := a.browser()
	b.signIn(credA)
	signedIn := a.clock.Now()
	loc := a.runOutAndRefill()

	doc := b.get("/locations/" + loc).doc(t)
	section := doc.Find("section.history")
	if got := words(section.Find("h2")); got != "The last 7 days" {
		t.Errorf("the history's heading: %q", got)
	}
	svg := section.Find(`svg[role="img"]`)
	if svg.Length() != 1 {
		t.Fatalf("%d charts on the location's page, want 1", svg.Length())
	}
	var name []string
	for _, id := range strings.Fields(svg.AttrOr("aria-labelledby", "")) {
		name = append(name, words(doc.Find("#"+id)))
	}
	label := strings.Join(name, " ")
	for _, want := range []string{"Towel dispenser: levels, refills, alerts and time offline over the last 7 days",
		"No record before " + signedIn.Format("Mon 2 Jan 15:04"), "lowest 0 %", "Product out"} {
		if !strings.Contains(label, want) {
			t.Errorf("the chart's name and description %q lack %q", label, want)
		}
	}
	if svg.Find("path.chart-level").Length() != 1 {
		t.Errorf("%d level lines, want 1", svg.Find("path.chart-level").Length())
	}
	var refillMarks []string
	svg.Find("g.chart-refill title").Each(func(_ int, s *goquery.Selection) { refillMarks = append(refillMarks, words(s)) })
	if !strings.Contains(strings.Join(refillMarks, "\n"), "Refill of Product, 0 % to") {
		t.Errorf("refill marks %q, want the refill from 0 %%", refillMarks)
	}
	var alertLabels []string
	svg.Find("text.chart-alert-label").Each(func(_ int, s *goquery.Selection) { alertLabels = append(alertLabels, words(s)) })
	if !strings.Contains(strings.Join(alertLabels, ","), "Product out") {
		t.Errorf("alert labels %q, want the product-out alert's", alertLabels)
	}

	table := section.Find("details table")
	if words(section.Find("details summary")) != "Levels as a table" || table.Length() != 1 {
		t.Fatal("no table of the levels behind a disclosure")
	}
	rows := map[string]string{} // what happened → the level then
	table.Find("tbody tr").Each(func(_ int, s *goquery.Selection) {
		rows[words(s.Find("td").Last())] = words(s.Find("td").Eq(1))
	})
	var out, refill, opened bool
	for what, level := range rows {
		out = out || level == "0 %"
		refill = refill || strings.HasPrefix(what, "Refill of Product, 0 % to")
		opened = opened || strings.Contains(what, "Product out alert opened")
	}
	if !out || !refill || !opened {
		t.Errorf("the table shows the level at 0 %%: %v, the refill: %v, the alert opened: %v\n%v", out, refill, opened, rows)
	}

	frag := b.get("/locations/"+loc, "HX-Request", "true")
	if !strings.Contains(frag.body, `id="card-`+loc+`"`) || strings.Contains(frag.body, "history-chart") {
		t.Error("the card fragment is missing, or holds the chart")
	}
}

// Without the devices' history the page says so in words instead of
// drawing an empty chart.
func TestLocationPageWithoutHistorySaysSo(t *testing.T) {
	t.Parallel()
	a := newAppOf(t, Config{}, 12)
	a.store.KeepHistory(false) // --device-history 0
	b := a.browser()
	b.signIn(credA)
	var loc string // a dispenser's
	for _, r := range a.world.Accounts()[0].Rooms {
		for _, l := range r.Locations {
			if loc == "" && l.Type != "collector" {
				loc = fmt.Sprint(l.ID)
			}
		}
	}
	doc := b.get("/locations/" + loc).doc(t)
	if got := words(doc.Find("section.history .history-none")); !strings.Contains(got, "no record of this location's levels over the last 7 days") {
		t.Errorf("without history the page says %q", got)
	}
	if doc.Find("section.history svg").Length() != 0 {
		t.Error("an empty chart is drawn")
	}
}

// A gateway's page charts what a gateway has: when it was online and
// offline, from the first sync on, and no chart of levels.
func TestGatewayPageChartsOnlineAndOffline(t *testing.T) {
	t.Parallel()
	a := newAppOf(t, Config{}, 40)
	b := a.browser()
	b.signIn(credA)
	signedIn := a.clock.Now()
	var loc string
	for _, r := range a.world.Accounts()[0].Rooms {
		for _, l := range r.Locations {
			if loc == "" && l.Type == "collector" {
				loc = fmt.Sprint(l.ID)
			}
		}
	}
	if loc == "" {
		t.Fatal("the simulated fleet has no gateway")
	}
	a.clock.Advance(2 * time.Hour)
	a.clock.BlockUntil(1)
	section := b.get("/locations/" + loc).doc(t).Find("section.history")
	svg := section.Find(`svg[role="img"]`)
	if svg.Length() != 1 || !svg.HasClass("presence-chart") || svg.Find(".chart-level").Length() != 0 {
		t.Fatalf("%d charts, the first of class %q; want one band of online and offline", svg.Length(), svg.AttrOr("class", ""))
	}
	if got, want := words(svg.Find("title").First()), "Gateway: online and offline over the last 7 days"; got != want {
		t.Errorf("the chart is named %q; want %q", got, want)
	}
	if desc := words(svg.Find("desc")); !strings.Contains(desc, "No record before "+signedIn.Format("Mon 2 Jan 15:04")) {
		t.Errorf("the chart's description %q does not say when its record begins", desc)
	}
	if svg.Find("rect.chart-online").Length() == 0 || strings.Contains(words(section), "level") {
		t.Errorf("no stretch online, or the section speaks of levels: %q", words(section))
	}
}

// words is the selection's text with its white space collapsed.
func words(s *goquery.Selection) string { return strings.Join(strings.Fields(s.Text()), " ") }
