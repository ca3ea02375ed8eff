package views_test

import (
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	. "washboard/views"
)

func init() {
	convertedParts["visitors"] = visitorPages
	pageDataParts = append(pageDataParts, `Room 2\.14|North Tower|Level 2|The door does not lock|https://washboard\.example\.com/r/tok`)
}

// visitorPages are the pages a room's code opens, in each of their
// states, and a floor's sheet of codes, full and empty. The error a
// handler words comes marked, as it would from the catalogs.
func visitorPages() map[string]templ.Component {
	at := time.Date(2026, 11, 7, 14, 5, 0, 0, time.UTC)
	form := VisitorForm{Room: "Room 2.14", Where: "North Tower › Level 2", Action: "/r/tok", FormToken: "123.abc"}
	sent := form
	sent.Kind, sent.Text, sent.Rating, sent.Error = domain.VisitorOther, "The door does not lock", 2, "⟦Say in a few words what is wrong.⟧"
	presence := Presence{Room: "Room 2.14", Where: "North Tower › Level 2", At: at, Zone: time.UTC, RoomHref: "/rooms/r1", ReportHref: "/r/tok?report",
		Action: "/r/tok", FormToken: "123.abc"}
	confirm := presence
	confirm.Confirm = true
	page := Page{Title: "T", SignedIn: true, AccountName: "Acme Facilities", CSRFToken: "csrf-123", Version: "v1.2.3", Zone: time.UTC,
		PersonName: "Ana Lima", Role: domain.Supervisor, Still: true}
	qr := QRCode{Size: 21, Path: "M0 0h1v1h-1z"}
	sheet := FloorCodes{Page: page, Building: "North Tower", Floor: "Level 2", Action: "/floors/f1/codes", Replaced: "Room 2.14",
		Codes: []RoomCodeCard{{RoomID: "r1", Room: "Room 2.14", Link: "https://washboard.example.com/r/tok", QR: qr}, {RoomID: "r2", Room: "Room 2.14"}}}
	pages := map[string]templ.Component{
		"visitor-form":      VisitorFormPage(form),
		"visitor-form-sent": VisitorFormPage(sent),
		"presence":          PresencePage(presence),
		"presence-confirm":  PresencePage(confirm),
		"room-codes":        FloorCodesPage(sheet),
		"room-codes-empty":  FloorCodesPage(FloorCodes{Page: page, Building: "North Tower", Floor: "Level 2", Action: "/floors/f1/codes"}),
	}
	for _, n := range []struct {
		name string
		kind VisitorNoticeKind
	}{{"visitor-thanks", NoticeThanks}, {"visitor-too-many", NoticeTooMany}, {"visitor-unknown", NoticeUnknownCode},
		{"visitor-replaced", NoticeReplaced}, {"visitor-gone", NoticeRoomGone}} {
		pages[n.name] = VisitorNoticePage(VisitorNotice{Kind: n.kind, Room: "Room 2.14", Again: "/r/tok?report"})
	}
	return pages
}

// The visitors' pages and the sheet of codes speak the page's language.
func TestVisitorPagesSpeakTheirLanguage(t *testing.T) {
	t.Parallel()
	pages := convertedPages()
	for _, tc := range []struct {
		lang, page, selector, attr, want string
	}{
		{"de", "visitor-form", "h1", "", "Stimmt hier etwas nicht?"},
		{"es", "visitor-form", "input[value=soap] + span", "", "Sin jabón"},
		{"fr", "visitor-form", "h1", "", "Un problème ici ?"},
		{"fr", "visitor-form", ".rating legend", "", "Que pensez-vous de ces toilettes ? (facultatif)"},
		{"de", "visitor-form", "input[name=rating][value='1'] + span", "", "Sehr schlecht"},
		{"es", "visitor-thanks", "h1", "", "Gracias"},
		{"de", "visitor-replaced", "p:not(.room)", "", "Dieser Code wurde ersetzt."},
		{"fr", "visitor-gone", "h1", "", "Pièce plus répertoriée"},
		{"de", "presence", ".recorded", "", "Festgehalten: Sie waren um 14:05 in Room 2.14."},
		{"fr", "presence", ".recorded", "", "Enregistré : vous étiez dans Room 2.14 à 14:05."},
		{"es", "presence-confirm", "button", "", "Registrar que estoy aquí"},
		{"de", "room-codes", "h1", "", "Raumcodes"},
		{"es", "room-codes", ".room-code-qr", "aria-label", "Código QR de Room 2.14"},
		{"fr", "room-codes", ".room-code form button", "", "Remplacer le code"},
		{"de", "visitor-form", "html", "lang", "de"},
	} {
		doc := renderIn(t, i18n.For(tc.lang), pages[tc.page])
		got := strings.Join(strings.Fields(doc.Find(tc.selector).First().Text()), " ")
		if tc.attr != "" {
			got = doc.Find(tc.selector).AttrOr(tc.attr, "")
		}
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s in %s: %s says %q; want %q", tc.page, tc.lang, tc.selector, got, tc.want)
		}
	}
}

// In every language but English, the visitors' pages and the sheet show
// none of their English words.
func TestVisitorTranslationsDifferFromEnglish(t *testing.T) {
	t.Parallel()
	for _, l := range i18n.Languages[1:] {
		for name, c := range visitorPages() {
			text := renderIn(t, i18n.For(l.Code), c).Find("body").Text()
			for _, en := range []string{"Something wrong here", "Out of soap", "Out of towels", "Very good", "Out of toilet paper", "Thank you",
				"Code replaced", "Recorded", "Room codes", "Replace the code", "Report something as a visitor", "Nothing about you"} {
				if strings.Contains(text, en) {
					t.Errorf("%s in %s shows %q", name, l.Code, en)
				}
			}
		}
	}
}

// The visitors' pages load no script, and one stylesheet of their own.
func TestVisitorPagesHaveNoScript(t *testing.T) {
	t.Parallel()
	for name, c := range visitorPages() {
		if strings.HasPrefix(name, "room-codes") {
			continue // a supervisor's page, in the application's frame
		}
		doc := renderIn(t, i18n.For("en"), c)
		if n := doc.Find("script").Length(); n != 0 {
			t.Errorf("%s has %d scripts", name, n)
		}
		doc.Find("*").Each(func(_ int, el *goquery.Selection) {
			for _, a := range el.Nodes[0].Attr {
				if strings.HasPrefix(a.Key, "on") {
					t.Errorf("%s has an event handler: %s", name, a.Key)
				}
			}
		})
		links := doc.Find("link[rel=stylesheet]")
		if links.Length() != 1 || !strings.Contains(links.AttrOr("href", ""), "/static/css/visitor.css") {
			t.Errorf("%s's stylesheets: %d, %q; want visitor.css alone", name, links.Length(), links.AttrOr("href", ""))
		}
	}
}
