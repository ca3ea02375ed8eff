package views_test

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/trends"
	. "washboard/views"
)

// sampleTrends is a building's trends: a few alerts over a week, and a
// heat map of one dispenser's Tuesday.
func sampleTrends() TrendsPage {
	at := func(day, hour int) time.Time { return time.Date(2026, 11, 15+day, hour, 0, 0, 0, time.UTC) }
	p := trends.NewPeriod(7, now, cet)
	place := trends.Place{BuildingID: "b1", Building: `North <Tower>`, Floor: "Level 1", RoomID: "r1", Room: "Gents", LocationID: "17", Location: "Stall 2"}
	spans := []store.AlertSpan{
		{LocationID: "17", Type: domain.AlertConsumableOut, Created: at(1, 9), Resolved: at(1, 11)},
		{LocationID: "17", Type: domain.AlertJam, Created: at(2, 9), Resolved: at(2, 10)},
		{LocationID: "99", Type: domain.AlertConsumableOut, Created: at(3, 9)},
	}
	c := trends.NewHeatCounter(now, cet)
	c.Add([]store.Reading{{At: at(-20, 8), Levels: []int{90}}, {At: at(2, 9), Levels: []int{80}}, {At: at(2, 10), Levels: []int{60}}})
	heat := c.Heat()
	m := TrendsPage{Page: samplePage("Trends"), Days: 7, Scope: `North <Tower>`, Zone: cet, Period: p,
		Alerts: trends.CountAlerts(p, spans, map[string]trends.Place{"17": place}), Top: 10, Heat: heat,
		HeatMaps: []HeatMap{{Title: `North <Tower>`, Heat: heat}}, Computed: now, HeatComputed: now,
		KeptFor: 5 * time.Minute, CSV: map[string]string{"perday": "/trends.csv?table=perday&period=7", "heatmap": "/trends.csv?table=heatmap"},
		Periods: []Option{{Value: "30", Label: "Last 30 days"}}, Buildings: []Option{{Value: "b1", Label: `North <Tower>`, Selected: true}}}
	m.Nav = "trends"
	return m
}

// The page draws each chart with its numbers behind a disclosure and a
// CSV link; names are escaped; a location not in the layout is listed
// without a link.
func TestTrendsPage(t *testing.T) {
	doc, raw := render(t, TrendsPageView(sampleTrends()))
	if strings.Contains(raw, "<Tower>") || !strings.Contains(text(doc.Find("h1")), "North <Tower>") {
		t.Error("the building's name is not escaped, or not shown")
	}
	if n := doc.Find("details.trend-numbers[data-print-open]").Length(); n != 3 {
		t.Errorf("%d disclosures of numbers; want the days', the weeks' and the heat map's", n)
	}
	if href := doc.Find(`a[download][href="/trends.csv?table=perday&period=7"]`).Length(); href != 1 {
		t.Error("no CSV link of the alerts per day")
	}
	strips := doc.Find("figure.day-strips svg[role=img]")
	if strips.Length() != 3 || strips.Eq(1).AttrOr("aria-label", "") != "Product out: 2 in all, at most 1 a day (16 Nov), a bar a day" {
		t.Errorf("%d strips, the second named %q", strips.Length(), strips.Eq(1).AttrOr("aria-label", ""))
	}
	rows := doc.Find("#table-locations tbody tr")
	if rows.Length() != 2 || rows.Eq(0).Find("a").AttrOr("href", "") != "/locations/17" || rows.Eq(1).Find("a").Length() != 0 {
		t.Errorf("the locations: %q", text(rows))
	}
	if got := text(rows.Eq(1).Find("td").Eq(1)); got != "Location 99 (not in the account's layout)" {
		t.Errorf("the unknown location is %q", got)
	}
	if got := text(rows.Eq(0).Find("td").Eq(3)); got != "1 product out, 1 jammed" {
		t.Errorf("the first location's alerts by type: %q", got)
	}
	// The heat map: wide and tall, 11:00 on Tuesdays in the zone the
	// busiest (20 points on one Tuesday of the four observed: 5 a week),
	// 10:00 the other.
	wide := doc.Find("svg.heat-wide")
	if wide.Length() != 1 || doc.Find("svg.heat-tall").Length() != 1 {
		t.Fatal("no wide and tall heat map")
	}
	if got := text(wide.Find("text.heat-text-5")); got != "5" {
		t.Errorf("the darkest cell says %q; want 5", got)
	}
	if got := text(wide.Find("text.heat-text-3")); got != "3" {
		t.Errorf("the middle cell says %q; want 2.5 rounded, 3", got)
	}
	if got := wide.Find("desc").Text(); !strings.Contains(got, "Busiest hours: Tuesday 11:00 (5), Tuesday 10:00 (2.5)") {
		t.Errorf("the heat map in words: %q", got)
	}
	if got := text(doc.Find(".heat-table tbody tr").Eq(1).Find("td").Eq(10)); got != "2.5" {
		t.Errorf("the table's Tuesday 10:00 is %q", got)
	}
	if got := text(doc.Find(".heat-legend")); got != "Points a week: none up to 1 1–2 2–3 3–4 4–5" {
		t.Errorf("the legend says %q", got)
	}
}

// With nothing to show, each chart says so in words.
func TestTrendsPageEmpty(t *testing.T) {
	m := sampleTrends()
	p := m.Period
	m.Alerts = trends.CountAlerts(p, nil, nil)
	m.Heat = trends.NewHeat(now, cet)
	m.HeatMaps = nil
	doc, _ := render(t, TrendsPageView(m))
	got := text(doc.Find("main"))
	for _, want := range []string{
		"No alert was created in these 7 days.",
		"No alert was resolved in these 7 days.",
		"No dispenser's levels were recorded in these 28 days.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the empty page does not say %q", want)
		}
	}
	if doc.Find("svg").Length() != doc.Find("svg.icon").Length() {
		t.Error("an empty page draws a chart")
	}
}

// The shades of a heat map go by the share of the busiest hour; a cell
// shows its value rounded. Monday's first hours hold the values (the
// points used over a hundred weeks, a week's share); the busiest is 10.
func TestHeatLevels(t *testing.T) {
	tests := []struct {
		v     float64
		level int
		text  string
	}{
		{0, 0, ""}, {0.2, 1, "<1"}, {2, 1, "2"}, {2.1, 2, "2"}, {10, 5, "10"}, {9.99, 5, "10"}, {5, 3, "5"},
	}
	heat := trends.NewHeat(now, cet)
	heat.Devices = 1
	for hr, tt := range tests {
		heat.Used[0][hr], heat.Hours[0][hr] = int(math.Round(tt.v*100)), 100
	}
	cells := heatCells(t, heat)
	for hr, tt := range tests {
		if got := cells[hr]; got.level != tt.level || got.text != tt.text {
			t.Errorf("%v of 10 is shade %d, %q; want %d, %q", tt.v, got.level, got.text, tt.level, tt.text)
		}
	}

	// A map where nothing was used has no shade and no number.
	heat = trends.NewHeat(now, cet)
	heat.Devices = 1
	for i, got := range heatCells(t, heat) {
		if got.level != 0 || got.text != "" {
			t.Errorf("cell %d of an empty map is shade %d, %q", i, got.level, got.text)
		}
	}
}

// heatCell is a cell of a drawn heat map: its shade and its number.
type heatCell struct {
	level int
	text  string
}

// heatCells are the cells of heat drawn wide on the trends page, a day's
// hours after another's, Monday first.
func heatCells(t *testing.T, heat trends.Heat) []heatCell {
	t.Helper()
	m := sampleTrends()
	m.Heat, m.HeatMaps = heat, []HeatMap{{Title: "North Tower", Heat: heat}}
	doc, _ := render(t, TrendsPageView(m))
	var cells []heatCell
	doc.Find("svg.heat-wide rect.heat-cell").Each(func(_ int, r *goquery.Selection) {
		c := heatCell{level: -1}
		for l := 0; l <= 5; l++ {
			if r.HasClass("heat-" + strconv.Itoa(l)) {
				c.level = l
			}
		}
		if next := r.Next(); next.HasClass("heat-text") {
			c.text = next.Text()
		}
		cells = append(cells, c)
	})
	if len(cells) != 7*24 {
		t.Fatalf("%d cells in the heat map; want one an hour of the week", len(cells))
	}
	return cells
}
