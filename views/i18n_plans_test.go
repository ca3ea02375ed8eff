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
	floor := Place{Page: page, Kind: "floor", ID: "f3", Name: "Level 3", Where: "North Tower", Self: "/floors/f3", Plan: samplePlacePlan(),
		PlanHref: "/floors/f3/plan", CSVHref: "/devices.csv?floor=f3"}
	noPlan := floor
	noPlan.Plan = nil
	return map[string]templ.Component{
		"floor-plan-none": FloorPlanView(none),
		"floor-plan":      FloorPlanView(withPlan),
		"floor-with-plan": Frame(page, PlaceContent(floor)),
		"floor-add-plan":  Frame(page, PlaceContent(noPlan)),
	}
}

// samplePlacePlan is a plan with a room and three markers: one fine, one
// with an overdue alert that is claimed, one with an open alert and a
// runs-out estimate (in words from the catalogs).
func samplePlacePlan() *PlacePlan {
	return &PlacePlan{FloorID: "f3", Width: 800, Height: 600, ImageHref: "/floors/f3/plan/image?v=1", EditHref: "/floors/f3/plan",
		Rooms: []PlanRoom{{Name: "Men's Restroom 3.12", Shape: []domain.PlanPoint{{X: 0, Y: 0}, {X: 300, Y: 0}, {X: 300, Y: 200}}}},
		Markers: []PlanMarker{
			{LocationID: "l1", Name: "Sink Left", Href: "/locations/l1", At: domain.PlanPoint{X: 100, Y: 50}, Health: domain.HealthOK},
			{LocationID: "l2", Name: "Stall 2", Href: "/locations/l2", At: domain.PlanPoint{X: 200, Y: 50}, Health: domain.HealthAction,
				Open: 2, Overdue: 1, Claimed: 1},
			{LocationID: "l3", Name: "Stall 3", Href: "/locations/l3", At: domain.PlanPoint{X: 300, Y: 50}, Health: domain.HealthAttention,
				Open: 1, RunsOut: "⟦Runs out in about 3 h⟧"}, // words of the catalogs, marked
		}}
}

// The plan on a floor's page: a link per location, its health said by
// its class and icon as well as in words, its alerts in a badge (square
// when overdue), all in its label; the image kept across live updates.
func TestPlaceShowsItsPlan(t *testing.T) {
	t.Parallel()
	floor := samplePlace()
	floor.Sections[0].Cards = nil
	floor.Plan = samplePlacePlan()
	doc := renderIn(t, i18n.For("en"), PlaceContent(floor))
	if img := doc.Find(`#live .plan-map image#plan-image-f3`); img.AttrOr("href", "") != "/floors/f3/plan/image?v=1" || doc.Find("svg#plan-map-f3").AttrOr("hx-preserve", "") != "true" {
		t.Errorf("the plan's image: %q, its map preserved %q", img.AttrOr("href", ""), doc.Find("svg#plan-map-f3").AttrOr("hx-preserve", ""))
	}
	stall := doc.Find("a#plan-marker-l2")
	if stall.AttrOr("href", "") != "/locations/l2" || !stall.HasClass("health-action") || stall.Find(`use`).AttrOr("href", "") != iconsURL+"#action" {
		t.Errorf("Stall 2's marker: href %q, classes %q, icon %q", stall.AttrOr("href", ""), stall.AttrOr("class", ""), stall.Find("use").AttrOr("href", ""))
	}
	if got := stall.AttrOr("aria-label", ""); got != "Stall 2 · Needs action · 2 open alerts · 1 overdue · 1 claimed" {
		t.Errorf("Stall 2's label = %q", got)
	}
	if stall.Find(".plan-badge.is-overdue rect").Length() != 1 || strings.TrimSpace(stall.Find(".plan-badge text").Text()) != "2" {
		t.Error("Stall 2's badge is not a square of its 2 alerts")
	}
	if got := doc.Find("a#plan-marker-l3").AttrOr("aria-label", ""); !strings.HasSuffix(got, "1 open alert · ⟦Runs out in about 3 h⟧") {
		t.Errorf("Stall 3's label = %q", got)
	}
	if doc.Find("a#plan-marker-l1 .plan-badge").Length() != 0 {
		t.Error("a location without alerts has a badge")
	}
	if doc.Find(`.plan-map desc`).Text() == "" || doc.Find(`.plan-map polygon.plan-room title`).Text() != "Men's Restroom 3.12" {
		t.Error("the plan has no text alternative, or its room no name")
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
		{"de", "floor-with-plan", "#plan-marker-l2", "aria-label", "Stall 2 · Handeln nötig · 2 offene Meldungen · 1 überfällig · 1 übernommen"},
		{"fr", "floor-with-plan", ".place-plan-head a", "", "Modifier le plan"},
		{"de", "floor-add-plan", `.toolbar a[href="/floors/f3/plan"]`, "", "Etagenplan hinzufügen"},
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
				"Save places", "Edit the plan", "Add a floor plan", "Zoom in", "overdue", "claimed", "Replace plan", "Remove plan", "Upload plan", "were scaled"} {
				if strings.Contains(text, en) {
					t.Errorf("%s in %s shows %q", name, l.Code, en)
				}
			}
		}
	}
}
