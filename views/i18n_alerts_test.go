package views_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/a-h/templ"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	. "washboard/views"
)

// The alerts part's pages: the overview, buildings, floors and rooms, a
// location's card and history, search, the alerts page and its claims,
// the freshness banner and the first sync's progress.
func init() {
	convertedParts["alerts"] = alertsPages
	pageDataParts = append(pageDataParts, `North Tower|Level 3|Stall \d|Men's Restroom 3\.12|Staff Kitchen 3\.20|Sink Left|`+
		`[Tt]he service answered 503|A1B2C3D4E5F6|C0FFEE000001|B1B2B3B4B5B6|Maria Rossi|Ben Okafor|Bring gloves|the service answered 503|Refilled at 14:05|stall|`+
		`Shelf|Gen 9|the service said no|2026-11-14|2026-11-21`)
}

// alertsPage is a page of the part's, signed in, its freshness live.
func alertsPage() Page {
	return Page{Title: "T", Nav: "alerts", SignedIn: true, AccountName: "Acme Facilities", CSRFToken: "csrf-123",
		Version: "v1.2.3", Zone: cet, PersonName: "Ana Lima", Role: domain.Supervisor, Live: true,
		Freshness: Freshness{AsOf: now.Add(-time.Minute), Live: true}}
}

// marked is a word a handler gives a page, as the handler says it from
// the catalogs.
func marked(s string) string { return "⟦" + s + "⟧" }

// alertsCard is a location with two dispensers side by side: one with
// nothing reported, its battery unknown and never seen; one offline, its
// battery out, with every kind of fault.
func alertsCard() DeviceCard {
	c := sampleCard()
	c.LocationID, c.Name, c.Type, c.Health = "18", "Stall 3", domain.Soap, domain.HealthOffline
	c.Devices = []DeviceView{
		{MAC: "B1B2B3B4B5B6", Position: "left", BatteryState: domain.BatteryUnknown, Health: domain.HealthAttention},
		{MAC: "A1B2C3D4E5F6", Position: "right", Generation: "2.0", Compartments: []domain.Compartment{{Level: 40}},
			Battery: ptr(0), BatteryState: domain.BatteryShutdown, Offline: true, LastSeen: now.Add(-50 * time.Hour), Health: domain.HealthOffline,
			Faults: []domain.Fault{{Kind: domain.FaultSensor, Key: "incorrectly_loaded"}, {Kind: domain.FaultSystem},
				{Kind: domain.FaultOther, Key: "leak"}, {Kind: domain.FaultOther, Key: "maintenance_required"},
				{Kind: domain.FaultOther, Key: "no_i2c_communication"}, {Kind: domain.FaultOther, Key: "safety_check"},
				{Kind: domain.FaultSensor, Key: "calibration_fault"}, {Kind: domain.FaultSensor, Key: "communication_fault"},
				{Kind: domain.FaultSensor, Key: "user_sensor_occluded"}}},
	}
	battery := sampleAlert()
	battery.ID, battery.Type, battery.Overdue, battery.RefillCount = "a9", domain.AlertBatteryOut, false, 1
	battery.Claim = &ClaimView{Name: "Maria Rossi", Note: "Bring gloves", Since: now.Add(-80 * time.Minute)}
	battery.ClaimHref = "/alerts/a9/claim"
	c.Alerts = []AlertRow{sampleAlert(), battery}
	return c
}

// gatewayCard is a gateway, with no levels and a battery reported normal.
func gatewayCard() DeviceCard {
	c := sampleCard()
	c.LocationID, c.Name, c.Type, c.Alerts = "19", "Stall 4", domain.Collector, nil
	c.Devices = []DeviceView{{MAC: "C0FFEE000001", BatteryState: domain.BatteryNormal, LastSeen: now.Add(-30 * time.Second)}}
	return c
}

// alertRows are alerts in every state the table shows: open and overdue,
// claimed with a note, open for others to take, closed in each way.
func alertRows() []AlertRow {
	open := sampleAlert()
	open.ClaimHref = "/alerts/a1/claim"
	open.Level = &Level{State: "at-risk", Claim: LevelOutcome{State: "at-risk", Target: 15 * time.Minute, Used: 13 * time.Minute, Deadline: now.Add(2 * time.Minute)},
		Resolve: LevelOutcome{State: "pending", Target: time.Hour, Used: 13 * time.Minute}}
	claimed := sampleAlert()
	claimed.ID, claimed.Type, claimed.Overdue, claimed.LocationHref, claimed.Where = "a4", domain.AlertSystem, false, "", ""
	claimed.Claim, claimed.ClaimHref = &ClaimView{Name: "Maria Rossi", Note: "Bring gloves", Since: now.Add(-30 * time.Second)}, "/alerts/a4/claim"
	var rows []AlertRow
	for i, t := range []domain.AlertType{domain.AlertJam, domain.AlertSensor, domain.AlertIncorrectlyLoaded, domain.AlertDeviceOff} {
		rows = append(rows, AlertRow{ID: "c" + string(rune('0'+i)), Type: t, Created: now.Add(-30 * time.Hour),
			Resolved: now.Add(-28 * time.Hour), Resolution: domain.Resolutions[i%3], TimeToResolve: 2*time.Hour + 5*time.Minute,
			LocationName: "Sink Left", LocationHref: "/locations/18", Where: "North Tower › Level 3 › Staff Kitchen 3.20", Now: now})
	}
	closed := AlertRow{ID: "c9", Type: domain.AlertBatteryOut, Created: now.Add(-3 * time.Hour), Resolved: now.Add(-time.Hour),
		TimeToResolve: 30 * time.Second, LocationID: "99", Now: now}
	return append([]AlertRow{open, claimed}, append(rows, closed)...)
}

// fullAlertFilter is a filter with everything chosen, its choices' words as
// the handler gives them.
func fullAlertFilter() AlertFilter {
	return AlertFilter{
		Buildings:   []Option{{Value: "", Label: marked("All buildings")}, {Value: "b1", Label: "North Tower", Selected: true}},
		Floors:      []Option{{Value: "f3", Label: "Level 3", Selected: true}},
		Rooms:       []Option{{Value: "r1", Label: "Men's Restroom 3.12"}},
		Types:       []Option{{Value: "jam_fault", Label: marked("Jammed"), Selected: true}},
		Statuses:    []Option{{Value: "open", Label: marked("Open")}, {Value: "all", Label: marked("Open and closed"), Selected: true}},
		Resolutions: []Option{{Value: "resolved", Label: marked("Resolved"), Selected: true}},
		RunsOut:     []Option{{Value: "", Label: marked("Any time")}, {Value: "4h", Label: marked("Within 4 h"), Selected: true}},
		Sorts:       []Option{{Value: "", Label: marked("Overdue first")}, {Value: "runs_out", Label: marked("Runs out first"), Selected: true}},
		From:        "2026-11-14", To: "2026-11-21", Active: true,
	}
}

func alertsPages() map[string]templ.Component {
	page := alertsPage()
	alerts := Alerts{Page: page, Filter: fullAlertFilter(), Rows: alertRows(), Total: 1200, Truncated: true, CSVHref: "/alerts.csv", Self: "/alerts",
		RefillTotals: []RefillTotal{{Building: "North Tower", Floor: "Level 3", Items: []RefillItem{{Count: 12, Words: marked("12 tissue rolls")}}}}}
	fromOnly, toOnly := alerts, alerts
	fromOnly.Filter.To, toOnly.Filter.From = "", ""
	none := Alerts{Page: page, Self: "/alerts"}
	noMatch := Alerts{Page: page, Self: "/alerts", Filter: AlertFilter{Active: true}}

	claim := Claim{Page: page, Alert: alertRows()[1], Name: "Ana Lima", Note: "Bring gloves", Problem: "the service said no",
		Action: "/alerts/a4/claim", Release: "/alerts/a4/release", Back: "/alerts", MayRelease: true,
		People: []Option{{Value: "p1", Label: "Maria Rossi"}, {Value: "p2", Label: "Ben Okafor", Selected: true}},
		Done:   "Refilled at 14:05", DoneContradicted: true}
	claim.Alert.Overdue = true
	claim.Alert.Level = &Level{State: "missed", Claim: LevelOutcome{State: "missed", Target: 15 * time.Minute, Used: 20 * time.Minute},
		Resolve: LevelOutcome{State: "pending", Target: time.Hour, Used: 20 * time.Minute},
		Clock:   &ClockStops{Stops: []ClockStop{{From: now.Add(-time.Hour), To: now.Add(-30 * time.Minute)}}, Stopped: 30 * time.Minute, Resumes: now.Add(time.Hour), Zone: cet}}
	staffLevels := []*Level{{State: "met", Claim: LevelOutcome{State: "met", Target: time.Hour, Used: time.Minute}}, {State: "pending", Resolve: LevelOutcome{State: "not-applicable"}}}
	staffClaim := Claim{Page: page, Alert: alertRows()[0], Name: "Ana Lima", Action: "/alerts/a1/claim", Back: "/alerts", NameFixed: true}
	staffClaim.Alert.Level = staffLevels[0]
	pendingClaim := staffClaim
	pendingClaim.Alert.Level = staffLevels[1]

	overview := sampleOverview()
	overview.Page = page
	overview.Buildings[0].Detail = marked("8 floors")
	overview.Levels = &LevelCounts{AtRisk: 2, Missed: 1}
	overview.Buildings[0].Levels = &LevelCounts{AtRisk: 1}
	overview.Alerts = []AlertRow{alertRows()[0], alertRows()[1]}
	emptyOverview := Overview{Page: page}

	building := Place{Page: page, Kind: "building", ID: "b1", Name: "North Tower", Self: "/buildings/b1", CSVHref: "/devices.csv",
		Parts: []PlaceCard{{ID: "f3", Name: "Level 3", Href: "/floors/f3", Detail: marked("12 rooms")}}}
	floor := samplePlace()
	floor.Page, floor.Parts[0].Detail = page, marked("6 rooms")
	floor.Filter = DeviceFilter{Action: "/floors/f3", Types: []Option{{Value: "soap", Label: marked("Soap"), Selected: true}},
		Healths: []Option{{Value: "action", Label: marked("Needs action"), Selected: true}}, RunsOut: fullAlertFilter().RunsOut, Sorts: fullAlertFilter().Sorts, Active: true}
	floor.Sections[0].Cards = []DeviceCard{sampleCard(), alertsCard(), gatewayCard()}
	emptyRoom := Place{Page: page, Kind: "room", ID: "r1", Name: "Men's Restroom 3.12", Where: "North Tower › Level 3", Self: "/rooms/r1",
		Filter: DeviceFilter{Action: "/rooms/r1"}}
	noMatchRoom := emptyRoom
	noMatchRoom.Filter.Active = true

	location := sampleLocationPage(sampleHistory())
	location.Page = page
	twoDevices := sampleHistory()
	second := twoDevices.Devices[0]
	second.MAC, second.Position, second.Since = "B1B2B3B4B5B6", "left", now.Add(-2*24*time.Hour)
	second.Refills = []domain.Refill{{At: now.Add(-time.Hour), Compartment: -1}}
	second.Offline = []domain.OfflineSpan{{From: now.Add(-3 * time.Hour), To: now, Ongoing: true}}
	second.Alerts = append(second.Alerts, domain.Alert{Type: domain.AlertJam, Status: domain.AlertClosed, Created: now.Add(-9 * 24 * time.Hour),
		Resolved: now.Add(-4 * time.Hour), Resolution: domain.ResolvedByOffline},
		domain.Alert{Type: domain.AlertSensor, Status: domain.AlertClosed, Created: now.Add(-5 * time.Hour), Resolved: now.Add(-4 * time.Hour), Resolution: "OTHER"})
	noRecord := domain.DeviceHistory{MAC: "C0FFEE000001", Position: "right"}
	twoDevices.Devices = append(twoDevices.Devices, second, noRecord)
	several := LocationPage{Page: page, Card: alertsCard(), History: twoDevices}
	gateway := LocationPage{Page: page, Card: gatewayCard(), History: gatewayHistory()}
	lateGateway := gatewayHistory()
	lateGateway.Devices[0].Since = now.Add(-5 * 24 * time.Hour)
	lateGateway.Devices[0].Offline = nil
	gatewayLate := LocationPage{Page: page, Card: gatewayCard(), History: lateGateway}
	unrecorded := LocationPage{Page: page, Card: sampleCard(), History: LocationHistory{LocationHistory: domain.LocationHistory{From: now.Add(-7 * 24 * time.Hour), To: now}, Type: domain.Tissue}}
	unrecordedGateway := LocationPage{Page: page, Card: gatewayCard(), History: LocationHistory{LocationHistory: domain.LocationHistory{From: now.Add(-7 * 24 * time.Hour), To: now}, Type: domain.Collector}}

	stale := func(f Freshness) templ.Component { return FreshnessBanner(f, cet) }
	return map[string]templ.Component{
		"alerts":                  AlertsPage(alerts),
		"alerts-from":             AlertsPage(fromOnly),
		"alerts-to":               AlertsPage(toOnly),
		"alerts-none":             AlertsPage(none),
		"alerts-no-match":         AlertsPage(noMatch),
		"claim":                   ClaimPage(claim),
		"claim-staff":             ClaimPage(staffClaim),
		"claim-pending":           ClaimPage(pendingClaim),
		"claim-gone":              ClaimGonePage(ClaimGone{Page: page, Back: "/alerts"}),
		"overview":                Frame(page, OverviewContent(overview)),
		"overview-empty":          Frame(page, OverviewContent(emptyOverview)),
		"building":                Frame(page, PlaceContent(building)),
		"floor":                   Frame(page, PlaceContent(floor)),
		"room-empty":              Frame(page, PlaceContent(emptyRoom)),
		"room-no-match":           Frame(page, PlaceContent(noMatchRoom)),
		"location":                LocationView(location),
		"location-several":        LocationView(several),
		"location-gateway":        LocationView(gateway),
		"location-gateway-late":   LocationView(gatewayLate),
		"location-unrecorded":     LocationView(unrecorded),
		"location-unrecorded-gw":  LocationView(unrecordedGateway),
		"location-card":           DeviceCardView(alertsCard()),
		"search":                  SearchPage(Search{Page: page, Query: "stall", Results: []DeviceCard{sampleCard(), gatewayCard()}, Truncated: true}),
		"search-nothing":          SearchPage(Search{Page: page, Query: "stall"}),
		"search-blank":            SearchPage(Search{Page: Page{SignedIn: true, Portfolio: true, Zone: cet}}),
		"progress":                ProgressPage(SyncProgress{Page: page, Phase: "devices", Pages: 3, Devices: 300, Total: 1000, Failure: "the service answered 503", RetryEvery: 5 * time.Minute}),
		"progress-metadata":       ProgressFragment(SyncProgress{Phase: "metadata"}),
		"progress-alerts":         ProgressFragment(SyncProgress{Phase: "alerts", Total: 1}),
		"progress-starting":       ProgressFragment(SyncProgress{}),
		"progress-other":          ProgressFragment(SyncProgress{Phase: "Shelf"}),
		"freshness-revoked":       stale(Freshness{Rejected: true, Rejection: "revoked"}),
		"freshness-expired":       stale(Freshness{Rejected: true, Rejection: "expired"}),
		"freshness-rejected":      stale(Freshness{Rejected: true, Rejection: "rejected"}),
		"freshness-no-data":       stale(Freshness{Failed: true, Reason: domain.ReasonCacheUnreadable}),
		"freshness-stale":         stale(Freshness{AsOf: now.Add(-time.Hour), Stale: true, Reason: domain.ReasonStale}),
		"freshness-failed":        stale(Freshness{AsOf: now.Add(-time.Hour), Failed: true, Reason: "the service answered 503"}),
		"freshness-loading":       stale(Freshness{}),
		"freshness-not-live":      stale(Freshness{AsOf: now}),
		"location-unknown-device": DeviceCardView(DeviceCard{LocationID: "20", Name: "Stall 5", Devices: []DeviceView{{Position: "", Generation: "Gen 9", BatteryState: domain.BatteryLow}, {Position: "main", Battery: ptr(50), BatteryState: domain.BatteryNormal}}}),
	}
}

// TestAlertsPagesSpeakTheirLanguage: the part's pages in German, Spanish
// and French say their headings, states, counts and times in the
// language, with its plural forms and its way of writing days.
func TestAlertsPagesSpeakTheirLanguage(t *testing.T) {
	t.Parallel()
	pages := alertsPages()
	for _, tc := range []struct {
		lang, page, selector, want string
	}{
		{"en", "alerts", ".alerts-table caption", "1,200 alerts match the filters"},
		{"de", "alerts", ".alerts-table caption", "1.200 Meldungen passen zu den Filtern"},
		{"fr", "alerts", ".alerts-table caption", "1 200 alertes correspondent aux filtres"},
		{"es", "alerts", "h1", "Alertas"},
		{"de", "alerts", ".alerts-table tbody tr:first-child td[data-label='Meldung']", "Produkt leer"},
		{"es", "alerts", ".alerts-table tbody tr:first-child td[data-label='Qué hacer']", "Sustituir por un recambio lleno."},
		{"fr", "alerts", ".alerts-table tbody tr:first-child time", "il y a 5 h"},
		{"de", "alerts", ".alerts-table tbody tr:first-child .abs-time", "(Sa, 21. Nov. 2026, 09:02 CET)"},
		{"es", "alerts", ".alerts-table tbody tr:first-child .abs-time", "(sáb 21 nov 2026, 09:02 CET)"},
		{"de", "alerts", ".alerts-table tbody tr:nth-child(2) .claim-since", "— gerade eben"},
		{"es", "alerts", ".alerts-table tbody tr:nth-child(3) .time-to-resolve", "tras 2 h 5 min"},
		{"de", "alerts", ".alerts-table tbody tr:nth-child(4) .status", "Geschlossen: Gerät ging offline — evtl. nicht behoben"},
		{"fr", "alerts", ".alerts-table tbody tr:first-child .claim-take", "Je m’en charge : Produit épuisé, Stall 2"},
		{"fr", "alerts-none", ".empty", "Aucune alerte ouverte."},
		{"de", "alerts", ".alerts-table tbody tr:last-child td[data-label='Standort']", "Standort 99"},
		{"de", "claim", ".alert-level li:first-child", "Zeit bis Übernahme: verfehlt, 20 Min. von 15 Min. vergangen."},
		{"es", "claim", ".alert-level p .level", "Objetivo incumplido"},
		{"fr", "alerts", ".alerts-table tbody tr:first-child .level", "Objectif à risque"},
		{"de", "overview", ".place-card .level-counts", "1 gefährdet 0 verfehlt"},
		{"de", "claim", ".claim-current p", "Maria Rossi, gerade eben"},
		{"fr", "location-card", ".card-alerts li:nth-child(2) .claim-since", "— 1 h 20 min"},
		{"es", "claim", ".claim-form button[type=submit]", "Pasarla a esta persona"},
		{"fr", "claim-staff", ".claim-as", "Vous la prenez en charge en tant que Ana Lima."},
		{"de", "overview", "#urgent-heading", "Dringendste Meldungen"},
		{"fr", "overview", ".more", "et 60 de plus"},
		{"es", "overview", ".tiles .health-action .tile-label", "Requiere acción"},
		{"de", "floor", ".card-alerts h4", "1 offene Meldung"},
		{"es", "floor", "#card-17 .levels li:nth-child(2) label", "Rollo 2: 10 % — bajo"},
		{"fr", "floor", "#card-17 .battery", "Piles 15 % — faibles"},
		{"de", "floor", "#card-17 .refill", "Mitbringen: 2 Toilettenpapierrollen"},
		{"fr", "floor", "#card-17 .fault-name", "Bloqué (barre de coupe)"},
		{"de", "floor", "#card-18 .device-name", "Spender linksBeachten"},
		{"es", "floor", "#card-18 .connectivity.is-offline", "Sin conexión — visto por última vez hace 2 días (jue 19 nov 2026, 12:02 CET)"},
		{"de", "building", "#parts-heading", "Etagen"},
		{"fr", "room-empty", ".empty", "Il n’y a aucun emplacement d’appareil ici."},
		{"de", "location", "#history-heading", "Die letzten 7 Tage"},
		{"de", "location", ".history-rows caption", "Toilettenpapierspender: Füllstände und Ereignisse"},
		{"fr", "location", ".history-rows tbody tr:first-child td:last-child", "Début des 7 jours"},
		{"es", "location", ".chart-day", "dom 15"},
		{"de", "location-gateway", ".history-rows tbody tr:nth-child(2) td:last-child", "Offline gegangen (zuletzt gehört)"},
		{"es", "search", "#results-heading", "2 ubicaciones encontradas"},
		{"de", "search-nothing", ".empty", "Kein Gerätestandort passt zu „stall“."},
		{"fr", "progress", ".sync-counts div:nth-child(2) dd", "300 sur 1 000"},
		{"de", "progress", "label[for=sync-progress-bar]", "Geräte werden gelesen"},
		{"es", "freshness-stale", "#freshness p", "Datos de las 13:02 pueden estar desactualizados: la última actualización tiene más de dos intervalos de sincronización"},
		{"de", "freshness-revoked", "#freshness a", "Erneut anmelden"},
		{"fr", "overview", "#freshness .live-mark", "· alertes en direct"},
	} {
		doc := renderIn(t, i18n.For(tc.lang), pages[tc.page])
		if got := strings.Join(strings.Fields(doc.Find(tc.selector).First().Text()), " "); got != tc.want {
			t.Errorf("%s in %s: %s says %q; want %q", tc.page, tc.lang, tc.selector, got, tc.want)
		}
	}
}

// TestAlertsPagesTranslationsDifferFromEnglish: in every language but
// English, the part's pages show none of its English words.
func TestAlertsPagesTranslationsDifferFromEnglish(t *testing.T) {
	t.Parallel()
	for _, l := range i18n.Languages[1:] {
		for name, c := range alertsPages() {
			doc := renderIn(t, i18n.For(l.Code), c)
			doc.Find(strings.Join(notYetConverted, ", ")).Remove()
			// The fixtures' words of handlers are marked; they are not the
			// page's.
			text := regexp.MustCompile(`⟦[^⟧]*⟧`).ReplaceAllString(doc.Find("body").Text(), "")
			for _, en := range []string{"Who is on it", "Open alerts", "What to bring", "Download CSV", "Data as of", "Most urgent",
				"Filters", "Product out", "What to do", "min ago", "h ago", "just now", "Loading", "The last", "as a table", "No device location",
				"Battery", "Needs action", "Overdue", "Clear filters", "I'm on it", "Back online", "Refill (", "dispenser", "Sat ", "Nov 2026"} {
				if strings.Contains(text, en) {
					t.Errorf("%s in %s shows %q", name, l.Code, en)
				}
			}
		}
	}
}
