package web

import (
	"context"
	"strings"
	"testing"
	"time"

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
