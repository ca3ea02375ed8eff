package storetest

import (
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// testPortfolioScreens: an organisation's wall screens keep their
// accounts, settings and maker; one is found by its link's hash; another
// organisation's id is not found, whatever is asked of it; a screen in
// use is not removed; the bound holds when screens are made at once.
func testPortfolioScreens(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	org := domain.ScreenScope{Kind: domain.ScreenOrganisation, ID: "o1"}
	sc := domain.Screen{ID: "ps1", Organisation: "o1", Maker: "p-ana", Name: "Staff room", Scope: org, Accounts: []string{"a", "b"},
		PageSeconds: 20, DimFrom: 22 * 60, DimTo: 6 * 60, Contact: "Facilities desk", Created: t0}
	if err := s.CreatePortfolioScreen(ctx, sc, []byte("p-hash-1"), 0); err != nil {
		t.Fatal(err)
	}
	got, err := s.PortfolioScreenByToken(ctx, []byte("p-hash-1"))
	if err != nil || !reflect.DeepEqual(got, sc) || !got.Portfolio() {
		t.Fatalf("by token: %+v, %v; want %+v", got, err, sc)
	}
	every := domain.Screen{ID: "ps2", Organisation: "o1", Maker: "p-ben", Name: "Office", Scope: org, PageSeconds: 15, DimFrom: -1, DimTo: -1,
		Created: t0.Add(time.Hour)}
	rival := domain.Screen{ID: "ps3", Organisation: "o2", Maker: "p-cy", Name: "Rival", Scope: domain.ScreenScope{Kind: domain.ScreenOrganisation, ID: "o2"},
		PageSeconds: 15, DimFrom: -1, DimTo: -1, Created: t0}
	for i, x := range []domain.Screen{every, rival} {
		if err := s.CreatePortfolioScreen(ctx, x, []byte{'q', byte(i)}, 0); err != nil {
			t.Fatal(err)
		}
	}
	if list, err := s.PortfolioScreens(ctx, "o1"); err != nil || !reflect.DeepEqual(list, []domain.Screen{every, sc}) {
		t.Errorf("o1's screens = %+v, %v; want the newest first, with every account as none", list, err)
	}
	if _, err := s.PortfolioScreenByToken(ctx, []byte("p-hash-1x")); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("an unknown token: %v; want ErrNotFound", err)
	}

	// Organisation o2 learns nothing of o1's screens and changes none.
	for what, err := range map[string]error{
		"reading":   func() error { _, err := s.PortfolioScreen(ctx, "o2", "ps1"); return err }(),
		"updating":  s.UpdatePortfolioScreen(ctx, domain.Screen{ID: "ps1", Organisation: "o2", Name: "Mine"}),
		"relinking": s.RelinkPortfolioScreen(ctx, "o2", "ps1", "p-cy", []byte("p-hash-9")),
		"revoking":  s.RevokePortfolioScreen(ctx, "o2", "ps1", t0),
		"removing":  s.RemovePortfolioScreen(ctx, "o2", "ps1"),
	} {
		if !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("%s o1's screen as o2: %v; want ErrNotFound", what, err)
		}
	}
	if got, _ := s.PortfolioScreen(ctx, "o1", "ps1"); !reflect.DeepEqual(got, sc) {
		t.Errorf("o1's screen after o2's tries: %+v", got)
	}

	sc.Name, sc.Accounts, sc.PageSeconds, sc.DimFrom, sc.DimTo, sc.Contact, sc.Maker = "Lobby", nil, 30, -1, -1, "", "p-ben"
	if err := s.UpdatePortfolioScreen(ctx, sc); err != nil {
		t.Fatal(err)
	}
	if err := s.TouchPortfolioScreen(ctx, "ps1", t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	sc.LastSeen = t0.Add(time.Minute)
	if got, err := s.PortfolioScreen(ctx, "o1", "ps1"); err != nil || !reflect.DeepEqual(got, sc) {
		t.Errorf("after an update and a check-in: %+v, %v; want %+v", got, err, sc)
	}
	if err := s.RemovePortfolioScreen(ctx, "o1", "ps1"); !errors.Is(err, domain.ErrScreenLinked) {
		t.Errorf("removing a linked screen: %v; want ErrScreenLinked", err)
	}
	if err := s.RevokePortfolioScreen(ctx, "o1", "ps1", t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.RevokePortfolioScreen(ctx, "o1", "ps1", t0.Add(2*time.Hour)); err != nil {
		t.Errorf("revoking again: %v", err)
	}
	if got, _ := s.PortfolioScreenByToken(ctx, []byte("p-hash-1")); !got.Revoked.Equal(t0.Add(time.Hour)) {
		t.Errorf("revoked at %v; want the first revocation's time", got.Revoked)
	}
	if err := s.RelinkPortfolioScreen(ctx, "o1", "ps1", "p-ana", []byte("p-hash-2")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PortfolioScreenByToken(ctx, []byte("p-hash-1")); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("the old token after a new link: %v; want ErrNotFound", err)
	}
	if got, _ := s.PortfolioScreenByToken(ctx, []byte("p-hash-2")); !got.Revoked.IsZero() || !got.LastSeen.IsZero() || got.Maker != "p-ana" {
		t.Errorf("after a new link: %+v; want active, never opened, made by Ana", got)
	}
	if err := s.RevokePortfolioScreen(ctx, "o1", "ps2", t0); err != nil {
		t.Fatal(err)
	}
	if err := s.RemovePortfolioScreen(ctx, "o1", "ps2"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PortfolioScreen(ctx, "o1", "ps2"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("a removed screen: %v; want ErrNotFound", err)
	}

	// o3 keeps at most 3, when ten are made at once.
	var wg sync.WaitGroup
	errs := make(chan error, 10)
	for i := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := domain.Screen{ID: "o3-" + string(rune('a'+i)), Organisation: "o3", Maker: "p", Name: "S", Scope: org, Created: t0}
			errs <- s.CreatePortfolioScreen(ctx, x, []byte{'o', '3', byte(i)}, 3)
		}()
	}
	wg.Wait()
	close(errs)
	refused := 0
	for err := range errs {
		switch {
		case errors.Is(err, domain.ErrLimit):
			refused++
		case err != nil:
			t.Error(err)
		}
	}
	if list, _ := s.PortfolioScreens(ctx, "o3"); len(list) != 3 || refused != 7 {
		t.Errorf("o3 keeps %d screens, %d refused; want 3 kept, 7 refused", len(list), refused)
	}
}
