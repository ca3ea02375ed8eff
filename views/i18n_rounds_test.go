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
	convertedParts["rounds"] = roundsPages
	pageDataParts = append(pageDataParts, `North Tower|Level 2|Restroom 2\.04|Ana Lima|Day crew|the door was locked`)
}

// roundsPages are /rounds (with the form, with a refusal, and as a viewer
// sees it, empty) and a round (running with every state of a stop, and
// ended with what it left). The words the web layer makes come marked, as
// they would from the catalogs.
func roundsPages() map[string]templ.Component {
	page := Page{Title: "T", Nav: "rounds", SignedIn: true, AccountName: "Acme Facilities", CSRFToken: "csrf-123",
		Version: "v1.2.3", Zone: time.UTC, PersonName: "Ana Lima", Role: domain.Supervisor}
	at := time.Date(2026, 11, 27, 9, 5, 0, 0, time.UTC)
	line := RoundLine{Href: "/rounds/rnd_1", Who: "Ana Lima", Part: "North Tower, North Tower › Level 2", MadeAt: at, Done: 4, Skipped: 1, All: 11}
	ended := line
	ended.Who, ended.Ended = "⟦Team Day crew⟧", at.Add(time.Hour)
	form := RoundForm{Buildings: []Choice{{Value: "b1", Label: "North Tower", Checked: true}}, Floors: []Choice{{Value: "f2", Label: "North Tower › Level 2"}},
		People: []Option{{Value: "p1", Label: "Ana Lima", Selected: true}}, Team: "Day crew", Rooms: "10", PerRoom: "4", PerFloor: "2",
		DefaultPerRoom: 4, DefaultPerFloor: 2}
	refused := form
	refused.Problem = "⟦Choose a person, or name a team.⟧"
	stop := func(id, status, words string) RoundStopLine {
		return RoundStopLine{ID: id, Action: "/rounds/rnd_1/stops/0", Room: "Restroom 2.04", Building: "North Tower", Floor: "Level 2",
			Needs: []string{"⟦Sink: empty⟧"}, Bring: []string{"⟦1 towel refill⟧"}, Status: status, StatusWords: words, MayTick: true}
	}
	refusedStop := stop("stop-2", "todo", "⟦To do⟧")
	refusedStop.Reason, refusedStop.Problem = "x", "⟦Say why⟧"
	left := stop("stop-0", "todo", "⟦To do⟧")
	left.Since = true
	running := RoundPage{Page: page, ID: "rnd_1", Who: "Ana Lima", Part: "North Tower", MadeAt: at, Minutes: 14, Done: 1, Skipped: 1, All: 3,
		Bring: []string{"⟦2 towel refills⟧"}, MayTick: true, MayEnd: true, Problem: "⟦Say why⟧",
		Floors: []RoundFloor{{Building: "North Tower", Floor: "Level 2", Stops: []RoundStopLine{
			stop("stop-0", "done", "⟦Done by Ana Lima at 09:10⟧"), stop("stop-1", "skipped", "⟦Skipped: the door was locked⟧"), refusedStop}}}}
	endedPage := RoundPage{Page: page, ID: "rnd_1", Who: "⟦Team Day crew⟧", Part: "North Tower", MadeAt: at, Ended: at.Add(time.Hour), All: 0,
		Left: []RoundStopLine{left, stop("stop-1", "todo", "⟦To do⟧")}}
	emptyEnded := endedPage
	emptyEnded.Left = nil
	viewer := page
	viewer.Role = domain.Viewer
	screen := kindedScreen()
	screen.Rounds = []ScreenRound{{Person: "Ana Lima", Done: 4, Skipped: 1, All: 11}, {Team: "Day crew", All: 1}}
	return map[string]templ.Component{
		"screen-rounds": ScreenPage(screen),
		"rounds": RoundsPage(Rounds{Page: page, Running: []RoundLine{line}, Recent: []RoundLine{ended}, MayMake: true, Form: form,
			Schedules: []RoundScheduleLine{{Who: "Ana Lima", Part: "North Tower", Rooms: 10, Minutes: 30, RemoveAction: "/rounds/schedules/rsc_1/remove"},
				{Who: "⟦Team Day crew⟧", Part: "North Tower", Rooms: 1}, {Who: "Ana Lima", Part: "North Tower", Minutes: 30}, {Who: "Ana Lima", Part: "North Tower"}}}),
		"rounds-refused": RoundsPage(Rounds{Page: page, MayMake: true, Form: refused}),
		"rounds-viewer":  RoundsPage(Rounds{Page: viewer}),
		"round":          RoundPagePage(running),
		"round-ended":    RoundPagePage(endedPage),
		"round-nothing":  RoundPagePage(emptyEnded),
		"my-work-round": MyWorkPage(MyWork{Page: page, ShiftEnd: at, Drawn: at,
			Round: &MyRound{Href: "/rounds/rnd_1", Done: 4, Skipped: 1, All: 11, Next: []string{"Level 2 › Restroom 2.04"}}}),
	}
}

// The rounds' pages speak the page's language.
func TestRoundsSpeakTheirLanguage(t *testing.T) {
	t.Parallel()
	pages := convertedPages()
	for _, tc := range []struct {
		lang, page, selector, want string
	}{
		{"de", "rounds", "h1", "Runden"},
		{"de", "rounds", ".round-list .round-progress", "4 von 11 Räumen erledigt (1 ausgelassen)"},
		{"es", "rounds", "#round-form-heading", "Crear una ronda"},
		{"fr", "rounds", "#round-per-room-hint", "Par défaut : 4"},
		{"fr", "round", ".round-tick button[value=skip]", "Sauter"},
		{"de", "round", ".round-meta", "etwa 14 Minuten"},
		{"es", "round-ended", "#round-left-heading", "Pendiente para la próxima ronda"},
		{"fr", "round-ended", ".round-since", "Nouveau depuis la création de la tournée"},
		{"de", "my-work-round", "#my-round-heading", "Ihre Runde"},
		{"es", "my-work-round", ".my-round .round-progress-line", "4 de 11 salas hechas"},
		{"de", "screen-rounds", ".screen-rounds li", "Ana Lima: noch 6 Räume"},
		{"es", "rounds", "#round-schedules-heading + ul li .round-when", "Máximo 10 salas, 30 minutos"},
		{"fr", "rounds", ".form-buttons button[formaction]", "En créer une à chaque début d'équipe"},
		{"fr", "screen-rounds", "#screen-rounds-title", "Tournées en cours"},
	} {
		doc := renderIn(t, i18n.For(tc.lang), pages[tc.page])
		got := strings.Join(strings.Fields(doc.Find(tc.selector).First().Text()), " ")
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s in %s: %s says %q; want %q", tc.page, tc.lang, tc.selector, got, tc.want)
		}
	}
}

// In every language but English, the rounds' pages show none of their
// English words.
func TestRoundsTranslationsDifferFromEnglish(t *testing.T) {
	t.Parallel()
	pages := roundsPages()
	for _, l := range i18n.Languages[1:] {
		for name, c := range pages {
			doc := renderIn(t, i18n.For(l.Code), c)
			text := doc.Find("body").Text()
			for _, en := range []string{"Rounds", "Make a round", "What to bring", "Left for the next round", "End the round",
				"Minutes per room", "rooms done", "Your round", "Reason to skip", "Running", "rooms left", "shift start", "At most"} {
				if strings.Contains(text, en) {
					t.Errorf("%s in %s shows %q", name, l.Code, en)
				}
			}
		}
	}
}
