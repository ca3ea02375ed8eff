package web

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/rounds"
)

// TestARoundsPlanSpeaksTheReadersLanguage: the round's page carries, for
// print, the plan of its floor that has one, named and explained in the
// reader's language, its rooms to visit numbered 1, 2, … as the list of
// rooms below it; the floors without a plan carry none.
func TestARoundsPlanSpeaksTheReadersLanguage(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	boss := a.browser()
	boss.signIn(credA)
	acc := a.world.Accounts()[0]
	in := dashboard.NewRound{Part: dashboard.RoundPart{Buildings: []string{acc.Buildings[0].ID}}, Team: "Day team", Limits: rounds.DefaultLimits}
	planned, err := a.deps.Dashboard.PlanRound(context.Background(), acc.ID, domain.EveryBuilding(), in, time.UTC)
	if err != nil || len(planned.Stops) == 0 {
		t.Fatalf("planning the round: %d stops, %v", len(planned.Stops), err)
	}
	room, err := a.store.Room(context.Background(), acc.ID, planned.Stops[0].RoomID)
	if err != nil {
		t.Fatal(err)
	}
	floor, err := a.store.Floor(context.Background(), acc.ID, room.FloorID)
	if err != nil {
		t.Fatal(err)
	}
	putTestPlan(t, a, acc.ID, room.FloorID)
	r, err := a.deps.Dashboard.MakeRound(context.Background(), acc.ID, domain.EveryBuilding(), in, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	where := acc.Buildings[0].Name + " › " + floor.Name
	for _, tc := range []struct{ lang, heading, key string }{
		{"en", "Plan of " + where, "The numbers on the plan are the rooms to visit, in walking order."},
		{"de", "Plan von " + where, "Die Zahlen auf dem Plan sind die zu besuchenden Räume, in Gehreihenfolge."},
		{"es", "Plano de " + where, "Los números del plano son las salas que visitar, en el orden del recorrido."},
		{"fr", "Plan de " + where, "Les numéros du plan sont les pièces à visiter, dans l’ordre du parcours."},
	} {
		res := boss.get("/rounds/"+r.ID+"?lang="+tc.lang, "Accept-Language", tc.lang)
		doc := res.doc(t)
		figs := doc.Find(".round-floor figure.print-plan")
		if figs.Length() != 1 {
			t.Fatalf("%s: %d plans on the round's page; want the one floor's", tc.lang, figs.Length())
		}
		if got := strings.TrimSpace(figs.Find(".print-plan-heading").Text()); got != tc.heading {
			t.Errorf("%s: the plan's heading %q; want %q", tc.lang, got, tc.heading)
		}
		if got := strings.TrimSpace(figs.Find(".print-plan-key").Text()); got != tc.key {
			t.Errorf("%s: the plan's key %q; want %q", tc.lang, got, tc.key)
		}
		first := doc.Find(".round-floor").First()
		stops, marks := first.Find(".round-stop").Length(), first.Find(".print-plan-mark").Length()
		if marks == 0 || marks != stops {
			t.Errorf("%s: %d marks on the plan for %d rooms to visit", tc.lang, marks, stops)
		}
	}
}

// A wall screen made to show the floors with something to do shows the
// plans of those of its place's floors that have one, instead of the
// list, one at a time: a mark per placed location, those not fine
// labelled with what is wrong; it serves the images of those plans and
// no other; a screen made to show one floor shows that floor's plan; a
// floor outside the screen's place is refused in words.
func TestAWallScreenShowsFloorPlans(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	boss := a.browser()
	boss.signIn(credA)
	acc := a.world.Accounts()[0]
	b := acc.Buildings[0]
	for _, f := range b.Floors {
		putTestPlan(t, a, acc.ID, f.ID)
	}
	if len(b.Floors) < 2 {
		t.Fatalf("the building has %d floors; the test needs two", len(b.Floors))
	}
	first, second := b.Floors[0], b.Floors[1]

	busy := screenForm("Staff room", "building:"+b.ID)
	busy.Set("plans", "busy")
	tv := a.browser()
	tv.get("/s/" + boss.createScreen(busy))
	doc := tv.get("/screen").doc(t)
	plans := doc.Find(".screen-plans figure.screen-plan")
	if plans.Length() == 0 || doc.Find(".screen-groups").Length() != 0 {
		t.Fatalf("the screen shows %d plans and %d lists; want plans instead of the list", plans.Length(), doc.Find(".screen-groups").Length())
	}
	if plans.Not(".screen-off").Length() != 1 {
		t.Errorf("%d plans shown at first; want one, the others paged", plans.Not(".screen-off").Length())
	}
	labelled := 0
	plans.Find(".screen-plan-mark").Each(func(_ int, m *goquery.Selection) {
		if !m.HasClass("health-ok") {
			if m.Find("text.screen-plan-label").Length() != 1 || m.Find("use").Length() != 1 {
				t.Errorf("a mark not fine (%s) without its icon and label", m.AttrOr("class", ""))
			}
			labelled++
		}
	})
	if labelled == 0 {
		t.Error("no mark on the plans says what is wrong")
	}
	img := plans.First().Find("image").AttrOr("href", "")
	if r := tv.get(img); r.StatusCode != http.StatusOK || r.Header.Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(r.body, "<svg") {
		t.Errorf("the screen's plan image %s: %d %q", img, r.StatusCode, r.Header.Get("Content-Type"))
	}

	one := screenForm("Lobby", "floor:"+second.ID)
	one.Set("plans", second.ID)
	tv2 := a.browser()
	tv2.get("/s/" + boss.createScreen(one))
	doc = tv2.get("/screen").doc(t)
	if got := doc.Find(".screen-plan figcaption").Text(); got != "Plan of "+b.Name+" › "+second.Name {
		t.Errorf("a screen of one floor's plan shows %q", got)
	}
	if r := tv2.get("/screen/plans/" + first.ID); r.StatusCode != http.StatusNotFound {
		t.Errorf("the plan of a floor beyond the screen's place, to the screen: %d; want 404", r.StatusCode)
	}

	wrong := screenForm("Hall", "floor:"+second.ID)
	wrong.Set("plans", first.ID)
	wrong.Set("csrf_token", csrfInput.FindStringSubmatch(boss.get("/screens").body)[1])
	if r := boss.post("/screens", wrong); r.StatusCode != http.StatusBadRequest || !strings.Contains(r.body, "Choose a floor of the screen&#39;s place for its plan.") {
		t.Errorf("a plan of a floor outside the screen's place: %d", r.StatusCode)
	}
}
