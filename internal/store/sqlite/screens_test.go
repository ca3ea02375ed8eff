package sqlite

import (
	"context"
	"errors"
	"testing"
	"time"

	"washboard/internal/domain"
)

func TestScreens(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	for _, acc := range []string{"a", "b"} {
		if _, err := s.ReplaceLayout(ctx, testLayout(acc, false)); err != nil {
			t.Fatal(err)
		}
	}
	t0 := time.Date(2026, 11, 18, 9, 0, 0, 0, time.UTC)
	sc := domain.Screen{ID: "scr1", Account: "a", Name: "Staff room", Scope: domain.ScreenScope{Kind: "floor", ID: "a-f1"},
		Healths: []domain.Health{domain.HealthAction, domain.HealthOffline}, PageSeconds: 15, DimFrom: 22 * 60, DimTo: 6 * 60,
		Contact: "Facilities desk", Created: t0}
	if err := s.CreateScreen(ctx, sc, []byte("hash-1"), []byte("sealed")); err != nil {
		t.Fatal(err)
	}
	got, sealed, err := s.ScreenByToken(ctx, []byte("hash-1"))
	if err != nil || got.Name != "Staff room" || got.Scope != sc.Scope || len(got.Healths) != 2 || string(sealed) != "sealed" || got.Account != "a" {
		t.Fatalf("by token: %+v %q %v", got, sealed, err)
	}
	if _, _, err := s.ScreenByToken(ctx, []byte("hash-2")); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("unknown token: %v", err)
	}
	if list, _ := s.Screens(ctx, "b"); len(list) != 0 {
		t.Errorf("account b sees %d screens of account a", len(list))
	}
	if _, err := s.Screen(ctx, "b", "scr1"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("account b reading a's screen: %v", err)
	}
	if err := s.RevokeScreen(ctx, "b", "scr1", t0); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("account b revoking a's screen: %v", err)
	}

	sc.Name, sc.Scope = "Lobby", domain.ScreenScope{Kind: "account"}
	if err := s.UpdateScreen(ctx, sc); err != nil {
		t.Fatal(err)
	}
	if err := s.TouchScreen(ctx, "scr1", t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	got, _ = s.Screen(ctx, "a", "scr1")
	if got.Name != "Lobby" || got.Scope.Kind != "account" || !got.LastSeen.Equal(t0.Add(time.Minute)) {
		t.Errorf("after update and check-in: %+v", got)
	}
	if err := s.RevokeScreen(ctx, "a", "scr1", t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	got, _, _ = s.ScreenByToken(ctx, []byte("hash-1"))
	if got.Revoked.IsZero() {
		t.Error("revoked screen not marked")
	}
	if err := s.RelinkScreen(ctx, "a", "scr1", []byte("hash-3"), []byte("sealed-2")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.ScreenByToken(ctx, []byte("hash-1")); !errors.Is(err, domain.ErrNotFound) {
		t.Error("the old token still finds the screen after a new link")
	}
	got, sealed, _ = s.ScreenByToken(ctx, []byte("hash-3"))
	if !got.Revoked.IsZero() || string(sealed) != "sealed-2" {
		t.Errorf("after a new link: revoked %v, sealed %q", got.Revoked, sealed)
	}
}

func TestScreenDimming(t *testing.T) {
	night := domain.Screen{DimFrom: 22 * 60, DimTo: 6 * 60}
	for m, want := range map[int]bool{23 * 60: true, 2 * 60: true, 6 * 60: false, 12 * 60: false, 22 * 60: true} {
		if night.Dimmed(m) != want {
			t.Errorf("22:00–06:00 at minute %d: dimmed %v", m, !want)
		}
	}
	if (domain.Screen{DimFrom: -1, DimTo: -1}).Dimmed(0) {
		t.Error("a screen without dimming dims")
	}
}
