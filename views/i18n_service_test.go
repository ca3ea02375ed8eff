package views_test

import (
	"strings"
	"testing"
	"time"

	"github.com/a-h/templ"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	. "washboard/views"
)

func init() {
	convertedParts["service"] = func() map[string]templ.Component { return servicePages(i18n.Marked()) }
	pageDataParts = append(pageDataParts, `Restroom 1\.02|Sinks|Stall 1|North Tower|Level 1|Ana Lima|Ben Okafor|the lid is broken|`+
		`2026-11-1[78]|2026-11-24|2026-11|\d+ [A-Z][a-z]{2} \d{4}( \d\d:\d\d)?`)
}

// sampleService is a record that shows everything a record can: every
// kind of entry, every state of a dispenser, a location with two
// dispensers and a cut.
func sampleService() ServiceVisits {
	at := time.Date(2026, 11, 24, 9, 25, 0, 0, time.UTC)
	state := func(level string, lowest int) ServiceState { return ServiceState{Level: level, Lowest: lowest} }
	return ServiceVisits{Zone: time.UTC, Since: at.Add(-48 * time.Hour), Visits: []ServiceVisit{
		{Who: "Ana Lima", Start: at, End: at.Add(20 * time.Minute),
			Entries: []ServiceEntry{
				{Kind: "claimed", At: at, AlertType: domain.AlertConsumableOut, Location: "Sinks", TookOver: "Ben Okafor"},
				{Kind: "done", At: at.Add(20 * time.Minute), Outcome: domain.Refilled, AlertType: domain.AlertConsumableOut, Location: "Sinks"},
				{Kind: "done", At: at.Add(20 * time.Minute), Outcome: domain.BatteriesChanged, AlertType: domain.AlertBatteryOut, Location: "Stall 1"},
				{Kind: "done", At: at.Add(20 * time.Minute), Outcome: domain.FaultCleared, AlertType: domain.AlertJam},
				{Kind: "room_ticked", At: at.Add(20 * time.Minute)},
				{Kind: "door_scan", At: at},
			},
			Dispensers: []ServiceDispenser{
				{Location: "Sinks", Position: "left", Type: domain.Soap, Several: true, Before: state("out", 0), After: state("full", 100)},
				{Location: "Sinks", Position: "right", Type: domain.Soap, Several: true, Before: state("low", 12), After: state("some", 60)},
				{Location: "Stall 1", Type: domain.Tissue, Before: state("offline", -1), After: state("unknown", -1)},
			}},
		{Who: "Ben Okafor", Start: at.Add(-time.Hour), End: at.Add(-time.Hour),
			Entries: []ServiceEntry{
				{Kind: "claimed", At: at.Add(-time.Hour), AlertType: domain.AlertJam, Location: "Stall 1"},
				{Kind: "done", At: at.Add(-time.Hour), Outcome: domain.CouldNotFix, Reason: "the lid is broken", AlertType: domain.AlertJam, Location: "Stall 1"},
			}},
	}}
}

// servicePages are the service record's pages in every state they may
// show; the words a handler gives them are the catalogs' in mk's
// language.
func servicePages(mk *i18n.Localizer) map[string]templ.Component {
	page := Page{Title: "T", SignedIn: true, AccountName: "North Tower", CSRFToken: "csrf-123", Version: "v1.2.3",
		Zone: time.UTC, PersonName: "Ben Okafor", Role: domain.Supervisor}
	full := RoomService{Page: page, Room: "Restroom 1.02", Where: "North Tower › Level 1", RoomHref: "/rooms/r1", From: "2026-11-18", To: "2026-11-24",
		Period: mk.T("servicerecord.period", "from", "18 Nov 2026", "to", "24 Nov 2026"), Record: sampleService(),
		CSVHref: "/rooms/r1/service.csv?from=2026-11-18&to=2026-11-24", EarlierHref: "/rooms/r1/service?from=2026-11-11&to=2026-11-17",
		LaterHref: "/rooms/r1/service?from=2026-11-25&to=2026-12-01", MaxDays: 31}
	empty := full
	empty.Record, empty.EarlierHref, empty.LaterHref = ServiceVisits{Zone: time.UTC}, "", ""
	service := sampleService()
	room := Place{Page: page, Kind: "room", ID: "r1", Name: "Restroom 1.02", Where: "North Tower › Level 1", Self: "/rooms/r1",
		Service: &service, ServiceHref: "/rooms/r1/service"}
	client := ClientReport{Page: page, Month: "2026-11", Zone: time.UTC, PrintedAt: time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC),
		Scope: mk.T("client.all_buildings"), CSVHref: "/reports/client.csv?month=2026-11", PDFHref: "/reports/client.pdf?month=2026-11",
		Report: &ClientReportBody{Period: mk.T("client.month_11", "year", "2026"), Prior: mk.T("client.month_10", "year", "2026"),
			Service: &ClientService{
				Summary: []string{mk.N("servicerecord.client_visits", 12, "period", mk.T("client.month_11", "year", "2026")),
					mk.T("servicerecord.client_cut", "since", "3 Nov 2026 08:00")},
				Buildings: []ClientServiceRow{{Name: "North Tower", Visits: 12, Rooms: mk.T("servicerecord.client_of", "visited", "1", "rooms", "2")}},
				Least: []ClientServiceRow{
					{Name: "Restroom 1.02 (Level 1)", Building: "North Tower", Last: mk.T("servicerecord.client_never")},
					{Name: "Stall 1 (Level 1)", Building: "North Tower", Visits: 12, Last: mk.T("servicerecord.client_last", "when", "24 Nov 2026 09:25", "name", "Ana Lima")},
				},
				CSVHref: "/reports/service.csv?from=2026-11-01&to=2026-11-30"}}}
	return map[string]templ.Component{
		"room-service":          RoomServicePage(full),
		"room-service-empty":    RoomServicePage(empty),
		"room-with-service":     Frame(page, PlaceContent(room)),
		"client-report-service": ClientReportPage(client),
	}
}

// The service record's pages speak the page's language: headings, what
// was done, the dispensers' states, the client report's section.
func TestServiceRecordSpeaksItsLanguage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lang, page, selector, want string
	}{
		{"en", "room-service", "h1", "Service record of Restroom 1.02"},
		{"de", "room-service", "h1", "Reinigungsnachweis: Restroom 1.02"},
		{"fr", "room-service", ".service-level-out", "Vide (0 %)"},
		{"es", "room-service", ".service-level-full", "Lleno (100 %)"},
		{"de", "room-service", ".service-entries li", "Dran, übernommen von Ben Okafor: Produkt leer bei Sinks"},
		{"es", "room-service-empty", ".empty", "Ninguna visita registrada en este periodo."},
		{"fr", "room-with-service", "#service-heading", "Registre d'entretien"},
		{"de", "client-report-service", "#table-service-least caption", "Am wenigsten besuchte Räume"},
		{"fr", "client-report-service", "#client-service + p", "12 passages sur novembre 2026"},
	} {
		doc := renderIn(t, i18n.For(tc.lang), servicePages(i18n.For(tc.lang))[tc.page])
		got := strings.Join(strings.Fields(doc.Find(tc.selector).First().Text()), " ")
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s in %s: %s says %q; want %q", tc.page, tc.lang, tc.selector, got, tc.want)
		}
	}
}

// In every language but English, the service record's pages show none
// of its English words.
func TestServiceRecordTranslationsDifferFromEnglish(t *testing.T) {
	t.Parallel()
	for _, l := range i18n.Languages[1:] {
		for name, c := range servicePages(i18n.For(l.Code)) {
			text := renderIn(t, i18n.For(l.Code), c).Find("body").Text()
			for _, en := range []string{"Service record", "Before", "After", "Refilled", "On it", "Full (", "Out (", "Not reported",
				"Earlier", "Later", "Rooms visited", "Last visit", "No visit", "Download CSV"} {
				if strings.Contains(text, en) {
					t.Errorf("%s in %s shows %q", name, l.Code, en)
				}
			}
		}
	}
}

// Each dispenser's state before and after a visit is said in words and
// an icon, never by colour alone.
func TestAVisitSaysItsDispensersInWordsAndIcons(t *testing.T) {
	t.Parallel()
	doc := renderIn(t, i18n.For("en"), servicePages(i18n.For("en"))["room-with-service"])
	for _, c := range []struct{ level, words, icon string }{
		{"out", "Out (0 %)", "#action"}, {"full", "Full (100 %)", "#ok"}, {"low", "Low (12 %)", "#attention"},
		{"some", "Partly full (60 %)", "#ok"}, {"offline", "Offline", "#offline"}, {"unknown", "Not reported", "#info"},
	} {
		s := doc.Find(".service-level-" + c.level).First()
		if got := strings.TrimSpace(s.Text()); got != c.words {
			t.Errorf("a dispenser %s says %q; want %q", c.level, got, c.words)
		}
		if href := s.Find("svg use").AttrOr("href", ""); !strings.HasSuffix(href, c.icon) {
			t.Errorf("a dispenser %s shows the icon %q; want %s", c.level, href, c.icon)
		}
	}
	first := doc.Find(".service-dispensers li").First()
	if got := strings.Join(strings.Fields(first.Text()), " "); got != "Sinks, Left Before Out (0 %) → After Full (100 %)" {
		t.Errorf("the first dispenser reads %q", got)
	}
	if href := doc.Find(".service-links a").First().AttrOr("href", ""); href != "/rooms/r1/service" {
		t.Errorf("the link to the whole record is %q", href)
	}
}
