package storetest

import (
	"testing"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// testScreenLanguage: a wall screen keeps the language it was made with,
// and the one an edit gives it, an account's screen as an organisation's;
// a screen made without one has none (it speaks English).
func testScreenLanguage(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	sc := domain.Screen{ID: "scr1", Account: "a", Name: "Staff room", Scope: domain.ScreenScope{Kind: "account"},
		Healths: []domain.Health{domain.HealthAction}, PageSeconds: 15, DimFrom: -1, DimTo: -1, Language: "de", Created: t0}
	plain := domain.Screen{ID: "scr2", Account: "a", Name: "Lobby", Scope: domain.ScreenScope{Kind: "account"},
		Healths: []domain.Health{domain.HealthAction}, PageSeconds: 15, DimFrom: -1, DimTo: -1, Created: t0}
	for i, x := range []domain.Screen{sc, plain} {
		if err := s.CreateScreen(ctx, x, []byte{'l', byte(i)}, []byte("sealed"), 0); err != nil {
			t.Fatal(err)
		}
	}
	if got, _, err := s.ScreenByToken(ctx, []byte{'l', 0}); err != nil || got.Language != "de" {
		t.Errorf("a screen made in German, by its link: language %q, %v", got.Language, err)
	}
	if got, err := s.Screen(ctx, "a", "scr2"); err != nil || got.Language != "" {
		t.Errorf("a screen made without a language: %q, %v; want none", got.Language, err)
	}
	sc.Language = "fr"
	if err := s.UpdateScreen(ctx, sc); err != nil {
		t.Fatal(err)
	}
	if list, err := s.Screens(ctx, "a"); err != nil || len(list) != 2 || list[0].Language+list[1].Language != "fr" {
		t.Errorf("after changing it to French, the screens = %+v, %v", list, err)
	}

	org := domain.ScreenScope{Kind: domain.ScreenOrganisation, ID: "o1"}
	ps := domain.Screen{ID: "ps1", Organisation: "o1", Maker: "p-ana", Name: "Staff room", Scope: org, PageSeconds: 15, DimFrom: -1, DimTo: -1,
		Language: "es", Created: t0}
	if err := s.CreatePortfolioScreen(ctx, ps, []byte("p-l"), 0); err != nil {
		t.Fatal(err)
	}
	if got, err := s.PortfolioScreenByToken(ctx, []byte("p-l")); err != nil || got.Language != "es" {
		t.Errorf("a portfolio screen made in Spanish, by its link: language %q, %v", got.Language, err)
	}
	ps.Language = "de"
	if err := s.UpdatePortfolioScreen(ctx, ps); err != nil {
		t.Fatal(err)
	}
	if list, err := s.PortfolioScreens(ctx, "o1"); err != nil || len(list) != 1 || list[0].Language != "de" {
		t.Errorf("after changing it to German, the portfolio screens = %+v, %v", list, err)
	}
}
