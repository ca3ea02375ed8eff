package views_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"washboard/internal/domain"
	. "washboard/views"
)

// utc is a time of the sample history's week, in UTC: utc(16, 10) is
// 10:00 UTC on the 16th of November 2026.
func utc(d, h int) time.Time { return time.Date(2026, 11, d, h, 0, 0, 0, time.UTC) }

// sampleHistory is a four-roll tissue dispenser's week, up to now, two
// rolls reported: roll 1 ran low and was refilled on the 16th as its
// product-out alert was closed; the dispenser was offline on the 18th;
// its battery alert opened on the 20th and is still open.
func sampleHistory() LocationHistory {
	from := now.Add(-7 * 24 * time.Hour)
	out := domain.Alert{ID: "al1", Type: domain.AlertConsumableOut, Status: domain.AlertClosed, Created: utc(16, 10).Add(5 * time.Minute),
		Resolved: utc(16, 11).Add(50 * time.Minute), Resolution: domain.ResolvedByUser}
	battery := domain.Alert{ID: "al2", Type: domain.AlertBatteryOut, Status: domain.AlertOpen, Created: utc(20, 7)}
	return LocationHistory{
		LocationHistory: domain.LocationHistory{From: from, To: now, Alerts: []domain.Alert{out, battery}, Devices: []domain.DeviceHistory{{
			MAC: "A1B2C3D4E5F6", Position: "main", Since: from,
			Levels: [][]domain.LevelStep{
				{{At: from, Level: 60}, {At: utc(16, 10), Level: 5}, {At: utc(16, 12), Level: 100}},
				{{At: from, Level: 80}, {At: utc(19, 8), Level: 40}},
			},
			Offline: []domain.OfflineSpan{{From: utc(18, 6), To: utc(18, 16)}},
			Refills: []domain.Refill{{At: utc(16, 12), Compartment: 0, Before: 5, After: 100, AlertID: "al1"}},
			Alerts:  []domain.Alert{out, battery},
		}}},
		Type: domain.Tissue,
		Zone: cet,
	}
}

func sampleLocationPage(h LocationHistory) LocationPage {
	return LocationPage{Page: samplePage("Stall 2"), Card: sampleCard(), History: h}
}

// The chart is an image named by its title and described in words; each
// roll is a line of its own dashes, the refill a triangle, the alerts
// bars labelled by their type, the span offline hatched, and the days
// those of the page's zone.
func TestLocationHistoryChart(t *testing.T) {
	doc, _ := render(t, LocationView(sampleLocationPage(sampleHistory())))
	section := doc.Find("section.history")
	if got := text(section.Find("h2")); got != "The last 7 days" {
		t.Errorf("heading %q", got)
	}
	svg := section.Find("svg.history-chart")
	if svg.Length() != 1 || svg.AttrOr("role", "") != "img" {
		t.Fatalf("%d charts, role %q; want one image", svg.Length(), svg.AttrOr("role", ""))
	}
	var names []string
	for _, id := range strings.Fields(svg.AttrOr("aria-labelledby", "")) {
		names = append(names, text(doc.Find("#"+id)))
	}
	name := strings.Join(names, " ")
	for _, want := range []string{"Tissue dispenser: levels, refills, alerts and time offline over the last 7 days",
		"Roll 1: 60 % at the start, 100 % now, lowest 5 %.", "Roll 2: 80 % at the start, 40 % now, lowest 40 %.",
		"1 refill.", "2 alerts: Product out, Battery out.", "Offline 1 time, 10 h in all."} {
		if !strings.Contains(name, want) {
			t.Errorf("the chart's accessible name and description %q lack %q", name, want)
		}
	}

	lines := svg.Find("path.chart-level")
	if lines.Length() != 2 || lines.Eq(0).AttrOr("class", "") == lines.Eq(1).AttrOr("class", "") {
		t.Fatalf("%d level lines, classes %q and %q; want two told apart", lines.Length(), lines.Eq(0).AttrOr("class", ""), lines.Eq(1).AttrOr("class", ""))
	}
	// Roll 1 starts at the left edge at 60 % (a fifth of the plot from its
	// top: the plot has one lane of alerts above it), steps down to 5 %
	// and up to 100 %, and holds to the right edge.
	const pad, lane, plot = 10, 30, 260 // the chart's room above its lanes, a lane of alerts, the plot's height
	top := float64(pad + lane + 4)
	d := lines.Eq(0).AttrOr("d", "")
	wantStart := "M64.0 " + ftoa(top+plot*0.4) + " H"
	if !strings.HasPrefix(d, wantStart) || !strings.HasSuffix(d, " V"+ftoa(top)+" H784.0") || strings.Count(d, " V") != 2 {
		t.Errorf("roll 1's path %q, want a step line from %q up to 100 %% and on to the right edge", d, wantStart)
	}

	refill := svg.Find("g.chart-refill")
	if refill.Length() != 1 || !strings.Contains(text(refill.Find("title")), "Refill of Roll 1, 5 % to 100 %") {
		t.Errorf("refill marks: %d, %q", refill.Length(), text(refill.Find("title")))
	}
	var labels []string
	svg.Find("text.chart-alert-label").Each(func(_ int, s *goquery.Selection) { labels = append(labels, text(s)) })
	if strings.Join(labels, ", ") != "Product out, Battery out" || svg.Find("rect.chart-alert-bar").Length() != 2 {
		t.Errorf("alert labels %q, %d bars; want both alerts labelled by their type", labels, svg.Find("rect.chart-alert-bar").Length())
	}
	offline := svg.Find("rect.chart-offline")
	hatch := strings.TrimSuffix(strings.TrimPrefix(offline.AttrOr("fill", ""), "url(#"), ")")
	if offline.Length() != 1 || hatch == "" || svg.Find("pattern#"+hatch).Length() != 1 {
		t.Errorf("offline spans: %d, filled with %q", offline.Length(), offline.AttrOr("fill", ""))
	}

	// Days in CET: the week runs from Sat 14th 14:02 to Sat 21st 14:02;
	// the first midnight is 23:00 UTC on the 14th, and the first day
	// labelled is Sunday (Saturday's ten hours are too narrow).
	first := svg.Find("line.chart-midnight").First()
	x := 64 + 720*float64(utc(14, 23).Sub(now.Add(-7*24*time.Hour)))/float64(7*24*time.Hour)
	if got := first.AttrOr("x1", ""); got != ftoa(x) || svg.Find("line.chart-midnight").Length() != 7 {
		t.Errorf("first midnight at x %s of %d, want %s of 7", got, svg.Find("line.chart-midnight").Length(), ftoa(x))
	}
	var days []string
	svg.Find("text.chart-day").Each(func(_ int, s *goquery.Selection) { days = append(days, s.Text()) })
	if strings.Join(days, ",") != "Sun 15,Mon 16,Tue 17,Wed 18,Thu 19,Fri 20,Sat 21" {
		t.Errorf("day labels %q", days)
	}

	// The legend says in words what each mark is.
	legend := text(section.Find("figcaption"))
	for _, want := range []string{"Roll 1 (solid line)", "Roll 2 (dashed line)", "Refill (triangle)", "Alert: bar from opened to closed", "Offline (hatched)"} {
		if !strings.Contains(legend, want) {
			t.Errorf("the legend %q lacks %q", legend, want)
		}
	}
}

// The same numbers are in a table behind a disclosure: a row at the start
// of the week and at each change, with each roll's level then and what
// happened.
func TestLocationHistoryTable(t *testing.T) {
	doc, _ := render(t, LocationView(sampleLocationPage(sampleHistory())))
	details := doc.Find("section.history details")
	if got := text(details.Find("summary")); got != "Levels as a table" {
		t.Errorf("disclosure %q", got)
	}
	var head []string
	details.Find("thead th").Each(func(_ int, s *goquery.Selection) { head = append(head, text(s)) })
	if strings.Join(head, "|") != "When|Roll 1|Roll 2|What happened" {
		t.Errorf("columns %q", head)
	}
	var rows []string
	details.Find("tbody tr").Each(func(_ int, s *goquery.Selection) {
		var cells []string
		s.Find("td").Each(func(_ int, c *goquery.Selection) { cells = append(cells, text(c)) })
		rows = append(rows, strings.TrimSpace(strings.Join(cells, " | ")))
	})
	want := []string{
		"Sat 14 Nov 14:02 | 60 % | 80 % | Start of the 7 days",
		"Mon 16 Nov 11:00 | 5 % | 80 % | Level changed",
		"Mon 16 Nov 11:05 | 5 % | 80 % | Product out alert opened",
		"Mon 16 Nov 12:50 | 5 % | 80 % | Product out alert resolved by a user",
		"Mon 16 Nov 13:00 | 100 % | 80 % | Refill of Roll 1, 5 % to 100 %",
		"Wed 18 Nov 07:00 | 100 % | 80 % | Went offline (last heard from)",
		"Wed 18 Nov 17:00 | 100 % | 80 % | Back online",
		"Thu 19 Nov 09:00 | 100 % | 40 % | Level changed",
		"Fri 20 Nov 08:00 | 100 % | 40 % | Battery out alert opened",
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
}

// Without a record the page says so in words, and draws no chart; a
// device without one among others says so under its own name.
func TestLocationHistoryWithoutRecord(t *testing.T) {
	h := sampleHistory()
	none := h
	none.LocationHistory.Devices = []domain.DeviceHistory{{MAC: "A1B2C3D4E5F6"}}
	doc, _ := render(t, LocationView(sampleLocationPage(none)))
	if got := text(doc.Find("section.history .history-none")); !strings.Contains(got, "no record of this location's levels over the last 7 days") {
		t.Errorf("without a record the page says %q", got)
	}
	if doc.Find("section.history svg, section.history table").Length() != 0 {
		t.Error("a chart or a table without a record")
	}

	two := h
	two.LocationHistory.Devices = append(append([]domain.DeviceHistory{}, h.Devices...), domain.DeviceHistory{MAC: "B", Position: "right"})
	two.LocationHistory.Devices[0].Position = "left"
	doc, _ = render(t, LocationView(sampleLocationPage(two)))
	var heads []string
	doc.Find("section.history h3").Each(func(_ int, s *goquery.Selection) { heads = append(heads, text(s)) })
	if strings.Join(heads, ", ") != "Left dispenser, Right dispenser" || doc.Find("section.history svg.history-chart").Length() != 1 ||
		!strings.Contains(text(doc.Find("section.history .history-device").Eq(1)), "No record of this device") {
		t.Errorf("two devices, one without a record: headings %q, %d charts", heads, doc.Find("section.history svg.history-chart").Length())
	}
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// gatewayHistory is a gateway's week: online but for a day and a half
// from the evening of the 17th.
func gatewayHistory() LocationHistory {
	from := now.Add(-7 * 24 * time.Hour)
	return LocationHistory{
		LocationHistory: domain.LocationHistory{From: from, To: now, Devices: []domain.DeviceHistory{{
			MAC: "C0FFEE000001", Position: "main", Since: from,
			Offline: []domain.OfflineSpan{{From: utc(17, 20), To: utc(19, 8)}},
		}}},
		Type: domain.Collector,
		Zone: cet,
	}
}

// A gateway has no levels: its page charts when it was online and
// offline over the days, as a band, with the same in a table, and draws
// no empty chart of levels.
func TestGatewayHistoryChartsOnlineAndOffline(t *testing.T) {
	doc, _ := render(t, LocationView(sampleLocationPage(gatewayHistory())))
	section := doc.Find("section.history")
	if n := section.Find("svg").Not(".key-swatch").Length(); n != 1 || section.Find("svg.presence-chart").Length() != 1 {
		t.Fatalf("%d charts, %d of them bands; want the one band", n, section.Find("svg.presence-chart").Length())
	}
	if section.Find(".chart-level, .chart-norecord, text.chart-norecord-label").Length() != 0 || strings.Contains(text(section), "level") {
		t.Errorf("the gateway's section speaks of levels or of no record: %q", text(section))
	}
	svg := section.Find("svg.presence-chart")
	var names []string
	for _, id := range strings.Fields(svg.AttrOr("aria-labelledby", "")) {
		names = append(names, text(doc.Find("#"+id)))
	}
	if got, want := strings.Join(names, " "), "Gateway: online and offline over the last 7 days Gateway, Sat 14 Nov 14:02 to Sat 21 Nov 14:02. Offline 1 time, 1 day 12 h in all; online the rest of the time."; got != want {
		t.Errorf("the band's name and description\n%s\nwant\n%s", got, want)
	}
	var labels []string
	svg.Find("text.chart-band-label").Each(func(_ int, s *goquery.Selection) { labels = append(labels, text(s)) })
	if strings.Join(labels, ",") != "Online,Offline,Online" || svg.Find("rect.chart-online").Length() != 2 || svg.Find("rect.chart-offline").Length() != 1 {
		t.Errorf("band labels %q, %d online and %d offline stretches; want online, offline, online", labels,
			svg.Find("rect.chart-online").Length(), svg.Find("rect.chart-offline").Length())
	}
	// The offline stretch runs from 20:00 UTC on the 17th to 08:00 on the 19th.
	off := svg.Find("rect.chart-offline")
	x := func(t time.Time) string {
		return ftoa(64 + 720*float64(t.Sub(now.Add(-7*24*time.Hour)))/float64(7*24*time.Hour))
	}
	if off.AttrOr("x", "") != x(utc(17, 20)) || off.AttrOr("width", "") != ftoa(720*36/168.0) ||
		!strings.Contains(text(off.Find("title")), "Offline, Tue 17 Nov 21:00 to Thu 19 Nov 09:00") {
		t.Errorf("the offline stretch at x %s, %s wide (%q); want %s, %s", off.AttrOr("x", ""), off.AttrOr("width", ""), text(off.Find("title")),
			x(utc(17, 20)), ftoa(720*36/168.0))
	}
	var days []string
	svg.Find("text.chart-day").Each(func(_ int, s *goquery.Selection) { days = append(days, s.Text()) })
	if strings.Join(days, ",") != "Sun 15,Mon 16,Tue 17,Wed 18,Thu 19,Fri 20,Sat 21" {
		t.Errorf("day labels %q", days)
	}
	if legend := text(section.Find("figcaption")); legend != "Online (filled) Offline (hatched)" {
		t.Errorf("the legend reads %q", legend)
	}

	details := section.Find("details")
	var rows []string
	details.Find("tbody tr").Each(func(_ int, s *goquery.Selection) {
		var cells []string
		s.Find("td").Each(func(_ int, c *goquery.Selection) { cells = append(cells, text(c)) })
		rows = append(rows, strings.Join(cells, " | "))
	})
	want := []string{"Sat 14 Nov 14:02 | Start of the 7 days", "Tue 17 Nov 21:00 | Went offline (last heard from)", "Thu 19 Nov 09:00 | Back online"}
	if text(details.Find("summary")) != "Online and offline as a table" || strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("the table %q:\n%s\nwant\n%s", text(details.Find("summary")), strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}

	// Recorded only since Thursday: the days before are marked as such.
	late := gatewayHistory()
	late.Devices[0].Since, late.Devices[0].Offline = utc(19, 8), nil
	doc, _ = render(t, LocationView(sampleLocationPage(late)))
	svg = doc.Find("svg.presence-chart")
	if text(svg.Find("text.chart-band-label")) != "No recordOnline" || !strings.Contains(text(svg.Find("desc")), "No record before Thu 19 Nov 09:00. Online throughout.") {
		t.Errorf("a band recorded since Thursday reads %q, %q", text(svg.Find("text.chart-band-label")), text(svg.Find("desc")))
	}

	// Without any record, a sentence about the gateway, and no chart.
	none := gatewayHistory()
	none.Devices[0] = domain.DeviceHistory{MAC: "C0FFEE000001"}
	doc, _ = render(t, LocationView(sampleLocationPage(none)))
	if got := text(doc.Find("section.history .history-none")); !strings.Contains(got, "no record of this gateway over the last 7 days") || doc.Find("section.history svg").Length() != 0 {
		t.Errorf("a gateway without a record: %q, %d charts", got, doc.Find("section.history svg").Length())
	}
}
