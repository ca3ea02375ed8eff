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
	convertedParts["vreports"] = vreportPages
	pageDataParts = append(pageDataParts, `The door does not lock|Ladies' Room 1\.04|Ana Lima`)
}

// visitorAlertRows are visitors' reports as alerts: one of each kind,
// one claimed, one with the words the visitor wrote.
func visitorAlertRows() []AlertRow {
	var rows []AlertRow
	for i, k := range append(domain.VisitorKinds, domain.VisitorFlood) {
		r := AlertRow{ID: "v-" + string(rune('1'+i)), Type: domain.AlertVisitor, Open: true, Created: now.Add(-20 * time.Minute),
			LocationName: "Ladies' Room 1.04", LocationHref: "/rooms/r1", Where: "North Tower › Level 3 › Ladies' Room 1.04", Now: now,
			ClaimHref: "/alerts/v-1/claim", Visitor: k}
		if k == domain.VisitorOther {
			r.VisitorText = "The door does not lock"
		}
		rows = append(rows, r)
	}
	rows[0].Claim = &ClaimView{Name: "Ana Lima", Since: now.Add(-5 * time.Minute)}
	return rows
}

// vreportPages are the pages that show visitors' reports as alerts: the
// alerts page, beside a service's alert, and a room's page.
func vreportPages() map[string]templ.Component {
	page := alertsPage()
	alerts := Alerts{Page: page, Rows: append(visitorAlertRows(), sampleAlert()), Total: 8, Self: "/alerts", CSVHref: "/alerts.csv"}
	ratings := Ratings{Count: 13, Average: 3.46, Zone: cet, Weeks: []RatingWeek{{Week: now.AddDate(0, 0, -7), Count: 1, Average: 2},
		{Week: now, Count: 12, Average: 3.58}}}
	room := Place{Page: page, Kind: "room", ID: "r1", Name: "Ladies' Room 1.04", Where: "North Tower › Level 3", Self: "/rooms/r1",
		Filter: DeviceFilter{Action: "/rooms/r1"}, Visitors: visitorAlertRows(), Ratings: &ratings}
	unrated := room
	unrated.Visitors, unrated.Ratings = nil, &Ratings{Zone: cet}
	trends := ratings
	trends.Lowest = []RatedRoom{{Room: "Ladies' Room 1.04", Where: "North Tower › Level 3", Href: "/rooms/r1", Count: 1, Average: 1},
		{Room: "Ladies' Room 1.04", Count: 12, Average: 2.5}}
	trendsPage := sampleTrends()
	trendsPage.Page, trendsPage.Ratings = page, trends
	trendsPage.Periods = []Option{{Value: "30", Label: marked("Last 30 days")}}
	client := Ratings{Count: 13, Average: 3.46, Buildings: []RatedRoom{{Room: "North Tower", Count: 13, Average: 3.46}}, Lowest: trends.Lowest}
	return map[string]templ.Component{
		"vreports-alerts":  AlertsPage(alerts),
		"vreports-room":    Frame(page, PlaceContent(room)),
		"vreports-unrated": Frame(page, PlaceContent(unrated)),
		"vreports-trends":  TrendsPageView(trendsPage),
		"vreports-client": ClientReportPage(ClientReport{Page: page, Month: "2026-11", Zone: time.UTC, PrintedAt: now,
			Report: &ClientReportBody{Period: "2026-11", Prior: "2026-10", Ratings: client}}),
		"vreports-claim": ClaimPage(Claim{Page: page, Alert: visitorAlertRows()[5], Name: "Ana Lima", NameFixed: true, Back: "/alerts",
			Action: "/alerts/v-6/claim", Release: "/alerts/v-6/release", CloseReport: "/alerts/v-6/close"}),
	}
}

// The visitors' alerts say their source in the page's language.
func TestVisitorAlertsSpeakTheirLanguage(t *testing.T) {
	t.Parallel()
	pages := vreportPages()
	for _, tc := range []struct{ lang, page, selector, want string }{
		{"en", "vreports-alerts", ".visitor-said", "Reported by a visitor: Out of toilet paper"},
		{"de", "vreports-alerts", ".visitor-said", "Von Besuchern gemeldet: Kein Toilettenpapier"},
		{"es", "vreports-room", ".visitor-alerts h2", "Avisos de visitantes"},
		{"fr", "vreports-room", ".visitor-said", "Signalé par un visiteur : "},
		{"fr", "vreports-alerts", ".visitor-text", "The door does not lock"},
		{"de", "vreports-room", ".ratings-summary", "Im Schnitt 3,5 von 5, aus 13 Bewertungen"},
		{"fr", "vreports-room", ".rating-weeks li:last-child .rating-words", "3,6 sur 5 (12 notes)"},
		{"es", "vreports-unrated", ".ratings .empty", "Ninguna valoración de visitantes en este tiempo."},
		{"en", "vreports-trends", ".rating-lowest li:first-child", "Ladies' Room 1.04 North Tower › Level 3 1.0 of 5 (1 rating)"},
		{"de", "vreports-trends", ".ratings h3", "Am schlechtesten bewertete Räume"},
		{"fr", "vreports-client", ".rating-buildings li", "North Tower 3,5 sur 5 (13 notes)"},
		{"de", "vreports-claim", ".close-report button", "Meldung schließen"},
	} {
		doc := renderIn(t, i18n.For(tc.lang), pages[tc.page])
		if got := strings.Join(strings.Fields(doc.Find(tc.selector).First().Text()), " "); !strings.Contains(got, tc.want) {
			t.Errorf("%s in %s: %s says %q; want %q", tc.page, tc.lang, tc.selector, got, tc.want)
		}
	}
}

// In every language but English, the visitors' alerts show none of
// their English words.
func TestVisitorAlertTranslationsDifferFromEnglish(t *testing.T) {
	t.Parallel()
	for _, l := range i18n.Languages[1:] {
		for name, c := range vreportPages() {
			text := renderIn(t, i18n.For(l.Code), c).Find("body").Text()
			for _, en := range []string{"Reported by a visitor", "Reported by visitors", "put right what was reported", "Visitors' ratings",
				"of 5", "Week of", "Rooms rated lowest", "from visitors"} {
				if strings.Contains(text, en) {
					t.Errorf("%s in %s shows %q", name, l.Code, en)
				}
			}
		}
	}
}

// TestAScreensVisitorItemSpeaksItsLanguage: a wall screen says a
// visitor's report is one in its language, beside the person icon, with
// the words the visitor wrote quoted the language's way.
func TestAScreensVisitorItemSpeaksItsLanguage(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 7, 14, 5, 0, 0, time.UTC)
	it := ScreenItem{What: domain.ScreenProblem{Kind: domain.ProblemVisitor, Visitor: domain.VisitorOther, Text: "The door does not lock"},
		Severity: domain.HealthAction, Since: now.Add(-time.Hour), ClaimedBy: "Ana Lima", ClaimedAt: now.Add(-time.Minute)}
	for lang, want := range map[string]string{
		"en": "Reported by a visitor: Something else – “The door does not lock”",
		"de": "Von Besuchern gemeldet: Etwas anderes – „The door does not lock“",
		"es": "Avisado por un visitante: Otra cosa – «The door does not lock»",
		"fr": "Signalé par un visiteur\u00a0: Autre chose – «\u00a0The door does not lock\u00a0»",
	} {
		doc := renderIn(t, i18n.For(lang), screenOf(it, now, time.UTC))
		problem := doc.Find(".screen-item-problem")
		if got := strings.Join(strings.Fields(problem.Text()), " "); got != strings.Join(strings.Fields(want), " ") {
			t.Errorf("in %s the screen says %q; want %q", lang, got, want)
		}
		if problem.Find(`use[href$="#person"]`).Length() == 0 {
			t.Errorf("in %s the visitor's report has no person icon", lang)
		}
	}
}
