package views_test

import (
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"washboard/internal/domain"
	. "washboard/views"
)

func TestDeviceCardSaysLevelsInWords(t *testing.T) {
	doc, _ := render(t, DeviceCardView(sampleCard()))
	card := doc.Find("article#card-17")
	if card.Length() != 1 {
		t.Fatal("no article#card-17")
	}
	if !card.HasClass("card") || !card.HasClass("health-action") {
		t.Errorf("card classes = %q", card.AttrOr("class", ""))
	}
	levels := card.Find(".level")
	want := []string{"Roll 1: 80 %", "Roll 2: 10 % — low", "Roll 3: 0 % — out", "Roll 4: 55 %"}
	if levels.Length() != len(want) {
		t.Fatalf("%d levels, want %d", levels.Length(), len(want))
	}
	for i, w := range want {
		li := levels.Eq(i)
		if got := text(li.Find("label")); got != w {
			t.Errorf("level %d reads %q, want %q", i, got, w)
		}
		meter := li.Find("meter")
		if meter.AttrOr("value", "") != []string{"80", "10", "0", "55"}[i] || meter.AttrOr("max", "") != "100" {
			t.Errorf("level %d meter value=%q max=%q", i, meter.AttrOr("value", ""), meter.AttrOr("max", ""))
		}
		if id := meter.AttrOr("id", ""); id == "" || li.Find("label").AttrOr("for", "") != id {
			t.Errorf("level %d: the label does not name its meter", i)
		}
	}
	// Low and out are marked by an icon too, not by colour alone.
	if use := levels.Eq(1).Find("use").AttrOr("href", ""); !strings.HasSuffix(use, "#attention") {
		t.Errorf("low roll icon = %q", use)
	}
	if use := levels.Eq(2).Find("use").AttrOr("href", ""); !strings.HasSuffix(use, "#action") {
		t.Errorf("out roll icon = %q", use)
	}
	if levels.Eq(0).Find("svg").Length() != 0 {
		t.Error("a full roll is marked as a problem")
	}
}

func TestDeviceCardSingleCompartmentIsProduct(t *testing.T) {
	c := sampleCard()
	c.Type = domain.Soap
	c.Devices[0].Compartments = []domain.Compartment{{Level: 12, Low: true}}
	doc, _ := render(t, DeviceCardView(c))
	if got := text(doc.Find(".level label")); got != "Product: 12 % — low" {
		t.Errorf("soap level reads %q", got)
	}
}

func TestDeviceCardBatteryInWords(t *testing.T) {
	tests := []struct {
		level *int
		state domain.BatteryState
		want  string
	}{
		{ptr(15), domain.BatteryLow, "Battery 15 % — low"},
		{ptr(3), domain.BatteryShutdown, "Battery 3 % — depleted, the device has shut down"},
		{ptr(90), domain.BatteryNormal, "Battery 90 %"},
		{nil, domain.BatteryUnknown, "Battery not reported"},
	}
	for _, tt := range tests {
		c := sampleCard()
		c.Devices[0].Battery, c.Devices[0].BatteryState = tt.level, tt.state
		doc, _ := render(t, DeviceCardView(c))
		battery := doc.Find(".battery")
		if got := text(battery); !strings.HasPrefix(got, tt.want) {
			t.Errorf("battery reads %q, want %q", got, tt.want)
		}
		if tt.level != nil && battery.Find("meter").AttrOr("value", "") == "" {
			t.Errorf("%q has no meter", tt.want)
		}
	}
}

func TestDeviceCardFaultsOfBothGenerations(t *testing.T) {
	c := sampleCard()
	c.Devices = append(c.Devices, DeviceView{
		MAC: "0A0B0C0D0E0F", Position: "right", Generation: "2.0",
		Compartments: []domain.Compartment{{Level: 70}}, Battery: ptr(80), BatteryState: domain.BatteryNormal,
		Faults:   []domain.Fault{{Kind: domain.FaultSensor, Key: "sensor_fault"}},
		LastSeen: now.Add(-10 * time.Minute), Health: domain.HealthAction,
	})
	c.Devices[0].Position = "left"
	doc, _ := render(t, DeviceCardView(c))

	devices := doc.Find(".device")
	if devices.Length() != 2 {
		t.Fatalf("%d devices", devices.Length())
	}
	for i, want := range []string{"Left dispenser", "Right dispenser"} {
		if got := text(devices.Eq(i).Find(".device-name")); !strings.HasPrefix(got, want) {
			t.Errorf("device %d is named %q, want %q", i, got, want)
		}
	}
	gen1, gen2 := devices.Eq(0), devices.Eq(1)
	if got := text(gen1.Find(".fault-name")); got != "Jammed (tear bar)" {
		t.Errorf("generation 1 fault reads %q", got)
	}
	if got := text(gen1.Find(".fault .action")); !strings.Contains(got, domain.AlertJam.Action()) {
		t.Errorf("generation 1 fault action reads %q", got)
	}
	if got := text(gen2.Find(".fault-name")); got != "Sensor fault" {
		t.Errorf("generation 2 fault reads %q", got)
	}
	if got := text(gen2.Find(".fault .action")); !strings.Contains(got, domain.AlertSensor.Action()) {
		t.Errorf("generation 2 fault action reads %q", got)
	}
	if got := text(gen1.Find(".device-meta")); got != "Generation 1.0 MAC A1B2C3D4E5F6" {
		t.Errorf("generation 1 meta reads %q", got)
	}
	if got := text(gen2.Find(".device-meta")); got != "Generation 2.0 MAC 0A0B0C0D0E0F" {
		t.Errorf("generation 2 meta reads %q", got)
	}
	// Meter ids stay unique with two devices on the card.
	ids := map[string]bool{}
	doc.Find("meter").Each(func(_ int, s *goquery.Selection) {
		id := s.AttrOr("id", "")
		if ids[id] {
			t.Errorf("meter id %q used twice", id)
		}
		ids[id] = true
	})
}

func TestDeviceCardOfflineWithLastSeen(t *testing.T) {
	c := sampleCard()
	c.Health = domain.HealthOffline
	c.Devices[0].Offline = true
	c.Devices[0].LastSeen = now.Add(-50 * time.Hour)
	doc, _ := render(t, DeviceCardView(c))

	conn := doc.Find(".connectivity")
	if got := text(conn); !strings.HasPrefix(got, "Offline — last seen 2 days ago") {
		t.Errorf("connectivity reads %q", got)
	}
	tm := conn.Find("time")
	if tm.AttrOr("datetime", "") != "2026-11-19T11:02:00Z" {
		t.Errorf("datetime = %q", tm.AttrOr("datetime", ""))
	}
	if _, ok := tm.Attr("data-relative"); !ok {
		t.Error("last seen is not kept current by app.js (no data-relative)")
	}
	// The absolute time is shown in the page's zone, not only in a tooltip.
	if abs := "Thu 19 Nov 2026, 12:02 CET"; tm.AttrOr("title", "") != abs || !strings.Contains(text(conn), abs) {
		t.Errorf("absolute time: title %q, text %q", tm.AttrOr("title", ""), text(conn))
	}
	if got := text(doc.Find(".badge").First()); got != "Offline" {
		t.Errorf("badge reads %q", got)
	}

	c.Devices[0].Offline = false
	c.Devices[0].LastSeen = now.Add(-3 * time.Minute)
	doc, _ = render(t, DeviceCardView(c))
	if got := text(doc.Find(".connectivity")); !strings.HasPrefix(got, "Online — last seen 3 min ago") {
		t.Errorf("connectivity reads %q", got)
	}
}

func TestDeviceCardOpenAlerts(t *testing.T) {
	doc, _ := render(t, DeviceCardView(sampleCard()))
	alert := doc.Find(".card-alerts .alert-item")
	if alert.Length() != 1 {
		t.Fatalf("%d alerts on the card", alert.Length())
	}
	got := text(alert)
	for _, want := range []string{"Product out", "Overdue", "Open since 5 h ago", "Bring 2 tissue rolls", domain.AlertConsumableOut.Action()} {
		if !strings.Contains(got, want) {
			t.Errorf("alert reads %q, want it to say %q", got, want)
		}
	}
}

func TestCollectorShowsGatewayAndConnectivityOnly(t *testing.T) {
	c := sampleCard()
	c.Type = domain.Collector
	c.Devices[0].Compartments = nil
	c.Devices[0].Faults = nil
	c.Devices[0].Battery, c.Devices[0].BatteryState = ptr(100), domain.BatteryNormal
	doc, _ := render(t, DeviceCardView(c))
	if got := text(doc.Find(".card-type")); got != "Gateway" {
		t.Errorf("collector reads %q", got)
	}
	if n := doc.Find("meter, .battery, .levels, .levels-none").Length(); n != 0 {
		t.Errorf("collector shows %d product or battery elements", n)
	}
	if doc.Find(".connectivity").Length() != 1 {
		t.Error("collector without connectivity")
	}
}

func TestLocationNameIsEscaped(t *testing.T) {
	c := sampleCard()
	c.Name = `<script>alert("x")</script>`
	c.Where = `North <b>Tower</b>`
	c.Href = `javascript:alert(1)`
	doc, raw := render(t, DeviceCardView(c))
	if doc.Find("script, b").Length() != 0 {
		t.Errorf("markup in a name became elements: %s", raw)
	}
	if got := doc.Find(".card-name a").Text(); got != c.Name {
		t.Errorf("name reads %q, want %q as text", got, c.Name)
	}
	if !strings.Contains(raw, "&lt;script&gt;") {
		t.Error("name not escaped in the HTML")
	}
	if href := doc.Find(".card-name a").AttrOr("href", ""); strings.HasPrefix(href, "javascript:") {
		t.Errorf("a javascript: link was kept: %q", href)
	}
}

func TestCardTimesInZone(t *testing.T) {
	c := sampleCard()
	c.Zone = nil
	lastSeen := func(doc *goquery.Document) string { return doc.Find(".connectivity time").AttrOr("title", "") }

	doc, _ := render(t, DeviceCardView(c))
	if got := lastSeen(doc); got != "Sat 21 Nov 2026, 12:59 UTC" {
		t.Errorf("a card on its own without a zone shows %q, want UTC", got)
	}
	p := samplePlace()
	p.Sections[0].Cards = []DeviceCard{c}
	doc, _ = render(t, PlaceContent(p))
	if got := lastSeen(doc); got != "Sat 21 Nov 2026, 13:59 CET" {
		t.Errorf("a card on a page shows %q, want the page's zone", got)
	}
	c.Zone = time.FixedZone("EST", -5*3600)
	doc, _ = render(t, SearchPage(Search{Page: samplePage("Search"), Query: "x", Results: []DeviceCard{c}}))
	if got := lastSeen(doc); got != "Sat 21 Nov 2026, 07:59 EST" {
		t.Errorf("a card with its own zone shows %q", got)
	}
}

func TestLocationPageRefreshesItsCard(t *testing.T) {
	doc, _ := render(t, LocationView(LocationPage{Page: samplePage("Stall 2"), Card: sampleCard()}))
	live := doc.Find("#live")
	for attr, want := range map[string]string{
		"hx-get":     "/locations/17",
		"hx-select":  "#card-17",
		"hx-trigger": "sse:devices, sse:alerts, every 120s",
		"hx-swap":    "innerHTML",
	} {
		if got := live.AttrOr(attr, ""); got != want {
			t.Errorf("%s = %q, want %q", attr, got, want)
		}
	}
	if live.Find("article#card-17").Length() != 1 {
		t.Error("the card is not inside the live region")
	}
	if got := text(doc.Find("h1")); got != "Stall 2" {
		t.Errorf("heading = %q", got)
	}
}
