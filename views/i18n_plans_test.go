package views

import (
	"strings"
	"testing"
	"time"

	"github.com/a-h/templ"

	"washboard/internal/domain"
	"washboard/internal/i18n"
)

func init() {
	convertedParts["plans"] = floorPlanPages
	pageDataParts = append(pageDataParts, `Level 3|North Tower|Men's Restroom 3\.12|Sink Left|Stall 2`)
}

// floorPlanPages are a floor's plan page without a plan, and with one
// whose places wait for review, a location placed and one not, a room
// drawn and one not. The one-time message comes marked, as it would from
// the catalogs.
func floorPlanPages() map[string]templ.Component {
	page := Page{Title: "T", SignedIn: true, AccountName: "Acme Facilities", CSRFToken: "csrf-123", Version: "v1.2.3", Zone: time.UTC,
		PersonName: "Ana Lima", Role: domain.Supervisor}
	rooms := []domain.Room{{ID: "r1", FloorID: "f3", Name: "Men's Restroom 3.12"}, {ID: "r2", FloorID: "f3", Name: "Stall 2"}}
	locs := []domain.Location{{ID: "l1", RoomID: "r1", Name: "Sink Left", Type: domain.Soap}, {ID: "l2", RoomID: "r1", Name: "Stall 2", Type: domain.Tissue}}
	none := FloorPlanPage{Page: page, FloorID: "f3", Floor: "Level 3", Building: "North Tower", Rooms: rooms, Locations: locs,
		Plan: domain.FloorPlan{FloorID: "f3"}}
	withPlan := none
	withPlan.Page.Flash = "⟦The plan was kept.⟧"
	withPlan.HasPlan = true
	withPlan.Plan = domain.FloorPlan{FloorID: "f3", ContentType: "image/png", Width: 800, Height: 600, Review: true,
		Placements: domain.Placements{Locations: map[string]domain.PlanPoint{"l1": {X: 100, Y: 50}},
			Rooms: map[string][]domain.PlanPoint{"r1": {{X: 0, Y: 0}, {X: 200, Y: 0}, {X: 200, Y: 100}}}}}
	return map[string]templ.Component{
		"floor-plan-none": FloorPlanView(none),
		"floor-plan":      FloorPlanView(withPlan),
	}
}

// The plan's page speaks the page's language, down to the words its
// script says.
func TestFloorPlanSpeaksItsLanguage(t *testing.T) {
	t.Parallel()
	pages := convertedPages()
	for _, tc := range []struct {
		lang, page, selector, attr, want string
	}{
		{"de", "floor-plan", "h1", "", "Plan von Level 3, North Tower"},
		{"es", "floor-plan", "#plan-unplaced-heading", "", "Aún sin situar"},
		{"fr", "floor-plan", "#plan-editor", "data-say-placed", "{name} placé en {x}, {y}."},
		{"de", "floor-plan", "#plan-undo", "", "Rückgängig"},
		{"fr", "floor-plan-none", "#plan-file-hint", "", "10 Mo et 8 000 pixels"},
		{"es", "floor-plan-none", ".plan-upload button", "", "Subir plano"},
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

// In every language but English, the plan's page shows none of its
// English words.
func TestFloorPlanTranslationsDifferFromEnglish(t *testing.T) {
	t.Parallel()
	for _, l := range i18n.Languages[1:] {
		for name, c := range floorPlanPages() {
			text := renderIn(t, i18n.For(l.Code), c).Find("body").Text()
			for _, en := range []string{"Plan of", "no plan yet", "Not yet placed", "On the plan", "Rooms", "Draw a room as", "Undo",
				"Save places", "Replace plan", "Remove plan", "Upload plan", "were scaled"} {
				if strings.Contains(text, en) {
					t.Errorf("%s in %s shows %q", name, l.Code, en)
				}
			}
		}
	}
}
