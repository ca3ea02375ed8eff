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
	convertedParts["mywork"] = myWorkPages
	pageDataParts = append(pageDataParts, `Men's Restroom 3\.12|Stall 2|North Tower|Floor 3|Early`)
}

// myWorkPages are "My work" in each of its states, and the offline page.
// The words the web layer makes (what is wrong, what to bring, who is on
// it, the outcomes, a refusal) come marked, as they would from the
// catalogs.
func myWorkPages() map[string]templ.Component {
	page := Page{Title: "T", Nav: "my", SignedIn: true, AccountName: "Acme Facilities", CSRFToken: "csrf-123",
		Version: "v1.2.3", Zone: time.UTC, PersonName: "Ana Lima", Role: domain.Staff}
	at := time.Date(2026, 11, 7, 14, 5, 0, 0, time.UTC)
	outcomes := []Option{{Value: string(domain.Refilled), Label: "⟦Refilled⟧"}, {Value: string(domain.CouldNotFix), Label: "⟦Could not fix⟧"}}
	item := func(id string, mine bool) WorkItem {
		return WorkItem{ID: id, Where: "Men's Restroom 3.12 › Stall 2", Building: "North Tower", Floor: "Floor 3", What: "⟦Product out⟧",
			Bring: []string{"⟦2 tissue rolls⟧"}, Mine: mine, Seen: "0", ClaimAction: "/my/alerts/a1/claim", DoneAction: "/my/alerts/a1/done",
			ClaimKey: "k1", DoneKey: "k2", Outcomes: outcomes}
	}
	other := item("alert-a2", false)
	other.Claim, other.Done, other.Problem, other.Reason = "⟦Ali is on it⟧", "⟦Marked done by Ali⟧", "⟦The reason is needed⟧", "lid"
	full := MyWork{Page: page, Shift: "Early", ShiftEnd: at, Bring: []string{"⟦7 tissue rolls⟧"}, MayAct: true, Cut: true, Drawn: at,
		Mine: []WorkItem{item("alert-a1", true)}, Open: []WorkItem{other},
		RunsOut: []WorkItem{{ID: "device-1", Where: "Stall 2", Building: "North Tower", Floor: "Floor 3", What: "⟦Runs out at 15:40⟧"}},
		Problem: "⟦The reason is needed⟧"}
	empty := MyWork{Page: page, ShiftEnd: at, Drawn: at}
	return map[string]templ.Component{
		"my-work":       MyWorkPage(full),
		"my-work-empty": MyWorkPage(empty),
		"offline":       OfflinePage(Offline{Page: Page{Title: "T", Version: "v1.2.3", Still: true}}),
	}
}

// "My work" and the offline page speak the page's language, down to the
// words its script shows and the offline notice with its time.
func TestMyWorkSpeaksItsLanguage(t *testing.T) {
	t.Parallel()
	pages := convertedPages()
	for _, tc := range []struct {
		lang, page, selector, attr, want string
	}{
		{"de", "my-work", "h1", "", "Meine Arbeit"},
		{"de", "my-work", "#my-mine-heading", "", "Sie sind dran"},
		{"es", "my-work", "#alert-a2 form:not(.work-done-form) button", "", "Me encargo"},
		{"fr", "my-work", "#alert-a2 legend", "", "Fait : qu'avez-vous fait ?"},
		{"de", "my-work", "#my-runs-out-heading", "", "Leer vor Ende von Early (14:05)"},
		{"es", "my-work-empty", "#my-runs-out-heading", "", "Se agota antes del fin de su turno (14:05)"},
		{"fr", "my-work-empty", "#my-bring-heading + p", "", "Rien à prendre pour cette tournée."},
		{"de", "my-work", "#my-offline", "data-words", "Offline: Diese Liste hat den Stand von 14:05."},
		{"en", "my-work", "#my-offline", "data-words", "Offline: this list is from 14:05."},
		{"fr", "my-work", "#my-words", "", `"waiting":"En attente d'envoi ({count})"`},
		{"es", "offline", "h1", "", "Sin señal"},
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

// In every language but English, "My work" shows none of its English
// words.
func TestMyWorkTranslationsDifferFromEnglish(t *testing.T) {
	t.Parallel()
	pages := myWorkPages()
	for _, l := range i18n.Languages[1:] {
		for name, c := range pages {
			doc := renderIn(t, i18n.For(l.Code), c)
			text := doc.Find("body").Text()
			for _, en := range []string{"My work", "Take from the store room", "You are on it", "Open in your buildings",
				"Runs out before", "I'm on it", "what did you do", "Waiting to send", "Not sent", "No signal", "this list is from"} {
				if strings.Contains(text, en) {
					t.Errorf("%s in %s shows %q", name, l.Code, en)
				}
			}
		}
	}
}
