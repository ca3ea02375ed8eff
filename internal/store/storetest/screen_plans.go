package storetest

import (
	"testing"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// testScreenPlans: a wall screen keeps which floor plans it shows (none,
// the busy floors in turn, or one floor), as made and as edited.
func testScreenPlans(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	busy := domain.Screen{ID: "scr1", Account: "a", Name: "Staff room", Scope: domain.ScreenScope{Kind: "account"},
		Healths: []domain.Health{domain.HealthAction}, PageSeconds: 15, DimFrom: -1, DimTo: -1, Plans: domain.ScreenPlansBusy, Created: t0}
	plain := busy
	plain.ID, plain.Name, plain.Plans = "scr2", "Lobby", ""
	for i, x := range []domain.Screen{busy, plain} {
		if err := s.CreateScreen(ctx, x, []byte{'p', byte(i)}, []byte("sealed"), 0); err != nil {
			t.Fatal(err)
		}
	}
	if got, _, err := s.ScreenByToken(ctx, []byte{'p', 0}); err != nil || got.Plans != domain.ScreenPlansBusy {
		t.Errorf("a screen made to show the busy floors, by its link: plans %q, %v", got.Plans, err)
	}
	if got, err := s.Screen(ctx, "a", "scr2"); err != nil || got.Plans != "" {
		t.Errorf("a screen made without plans: %q, %v; want none", got.Plans, err)
	}
	plain.Plans = "a-f1"
	if err := s.UpdateScreen(ctx, plain); err != nil {
		t.Fatal(err)
	}
	if list, err := s.Screens(ctx, "a"); err != nil || len(list) != 2 || list[0].Plans+"|"+list[1].Plans != "busy|a-f1" && list[1].Plans+"|"+list[0].Plans != "busy|a-f1" {
		t.Errorf("the screens after an edit: %+v, %v; want one showing the busy floors, one floor a-f1", list, err)
	}
}
