package dashboard

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/keyring"
	"washboard/internal/report"
	"washboard/internal/store"
	"washboard/internal/store/sqlite/sqlitetest"
	"washboard/internal/syncer"
)

// twoBuildings is an account of two buildings, North (b1) and Annex
// Tower (b2), each with a floor, a room, a location, two dispensers, an
// open alert and a claim on it; every name of b2 says "Annex".
func twoBuildings(t *testing.T, now time.Time) (*Service, store.Store) {
	t.Helper()
	ctx := context.Background()
	st, _ := sqlitetest.Open(t)
	if _, err := st.ReplaceLayout(ctx, domain.Layout{
		Account:   domain.Account{ID: "acme", Name: "Acme"},
		Buildings: []domain.Building{{ID: "b1", Name: "North"}, {ID: "b2", Name: "Annex Tower"}},
		Floors:    []domain.Floor{{ID: "f1", BuildingID: "b1", Name: "Ground"}, {ID: "f2", BuildingID: "b2", Name: "Annex Level"}},
		Rooms:     []domain.Room{{ID: "r1", FloorID: "f1", Name: "Restroom"}, {ID: "r2", FloorID: "f2", Name: "Annex Restroom"}},
		Locations: []domain.Location{{ID: "l1", RoomID: "r1", Name: "Sinks", Type: domain.Towel}, {ID: "l2", RoomID: "r2", Name: "Annex Sinks", Type: domain.Towel}},
	}); err != nil {
		t.Fatal(err)
	}
	devices := []domain.Device{
		{MAC: "0000000000A1", LocationID: "l1", Position: "left", Compartments: []domain.Compartment{{Level: 0, Out: true}}, LastSeen: now},
		{MAC: "0000000000B1", LocationID: "l2", Position: "left", Compartments: []domain.Compartment{{Level: 0, Out: true}}, LastSeen: now},
	}
	if _, err := st.ReplaceDevices(ctx, "acme", devices); err != nil {
		t.Fatal(err)
	}
	alerts := []domain.Alert{
		{ID: "a1", LocationID: "l1", MACs: []string{"0000000000A1"}, Status: domain.AlertOpen, Type: domain.AlertConsumableOut, Created: now.Add(-time.Hour), RefillCount: 1},
		{ID: "a2", LocationID: "l2", MACs: []string{"0000000000B1"}, Status: domain.AlertOpen, Type: domain.AlertConsumableOut, Created: now.Add(-time.Hour), RefillCount: 1},
	}
	if _, err := st.ApplyAlerts(ctx, "acme", store.AlertWrite{Upserts: alerts, SeenAt: now}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []domain.Claim{{AlertID: "a1", Name: "Maria", At: now.Add(-time.Minute)}, {AlertID: "a2", Name: "Annex Anna", Note: "Annex note", At: now.Add(-time.Minute)}} {
		if err := st.ClaimAlert(ctx, "acme", c); err != nil {
			t.Fatal(err)
		}
	}
	clk := clock.NewFake(now)
	keys, err := keyring.New(bytes.Repeat([]byte{7}, keyring.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	engine := syncer.New(runCtx, nil, st, clk, syncer.Config{}, nil)
	t.Cleanup(func() { cancel(); engine.Wait() })
	return New(Deps{Store: st, Sync: engine, Clock: clk, Keys: keys}), st
}

// annexIDs finds an id of the Annex's places and alert, as %+v writes it.
var annexIDs = regexp.MustCompile(`ID:(b2|f2|r2|l2|a2)\b`)

// noAnnex fails the test when what a read answered names anything of
// the building outside the scope.
func noAnnex(t *testing.T, what string, v any) {
	t.Helper()
	if s := fmt.Sprintf("%+v", v); strings.Contains(s, "Annex") || annexIDs.MatchString(s) {
		t.Errorf("%s tells of the other building: %s", what, s)
	}
}

// A person limited to one building sees that building alone on every
// page: the overview counts its alerts, search, the alerts page, its
// export and the devices export list its places, the shift report and
// the trends count it alone.
func TestAScopeOfOneBuildingReadsThatBuildingAlone(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 24, 9, 30, 0, 0, time.UTC)
	s, _ := twoBuildings(t, now)
	north := domain.OnlyBuildings("b1")

	o, err := s.Overview(ctx, "acme", north, 10)
	if err != nil || len(o.Buildings) != 1 || o.Rollup.OpenAlerts != 1 || len(o.Alerts.Alerts) != 1 {
		t.Errorf("overview: %d buildings, %d open alerts, %d listed, %v; want North's alone", len(o.Buildings), o.Rollup.OpenAlerts, len(o.Alerts.Alerts), err)
	}
	noAnnex(t, "the overview", o)
	if all, err := s.Overview(ctx, "acme", domain.EveryBuilding(), 10); err != nil || all.Rollup.OpenAlerts != 2 || len(all.Buildings) != 2 {
		t.Errorf("the overview of every building: %+v, %v; want both", all.Rollup, err)
	}

	cards, places, _, err := s.Search(ctx, "acme", north, "sinks", 10)
	if err != nil || len(cards) != 1 {
		t.Errorf("search: %d cards, %v; want North's sinks alone", len(cards), err)
	}
	noAnnex(t, "search", []any{cards, places})

	pg, err := s.Alerts(ctx, north, AlertsQuery{AlertFilter: AlertFilter{Account: "acme", Status: domain.AlertOpen}}, 50)
	if err != nil || pg.Total != 1 || len(pg.Buildings) != 1 || len(pg.Claims) != 1 {
		t.Errorf("alerts page: %d alerts, %d buildings, %d claims, %v; want North's alone", pg.Total, len(pg.Buildings), len(pg.Claims), err)
	}
	noAnnex(t, "the alerts page", pg)
	all, err := s.AllAlerts(ctx, north, AlertsQuery{AlertFilter: AlertFilter{Account: "acme"}})
	if err != nil || len(all.Alerts) != 1 {
		t.Errorf("alerts export: %d alerts, %v; want North's alone", len(all.Alerts), err)
	}
	noAnnex(t, "the alerts export", all)
	dc, dp, err := s.Devices(ctx, "acme", north, Scope{}, DeviceFilter{})
	if err != nil || len(dc) != 1 {
		t.Errorf("devices export: %d cards, %v; want North's alone", len(dc), err)
	}
	noAnnex(t, "the devices export", []any{dc, dp})

	zone := time.UTC
	p, err := report.Custom(now.Add(-8*time.Hour), now)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Report(ctx, "acme", north, domain.Credentials{}, "", p, now)
	if err != nil {
		t.Fatal(err)
	}
	noAnnex(t, "the shift report", r)
	if !strings.Contains(fmt.Sprintf("%+v", r), "Maria") {
		t.Errorf("the shift report misses North's claim: %+v", r.Report)
	}
	tr, err := s.Trends(ctx, "acme", north, "", 30, zone)
	if err != nil || len(tr.Buildings) > 1 {
		t.Errorf("trends: %d buildings, %v; want North alone", len(tr.Buildings), err)
	}
	noAnnex(t, "the trends", tr)
	bs, err := s.Buildings(ctx, "acme", north)
	if err != nil || len(bs) != 1 || bs[0].ID != "b1" {
		t.Errorf("buildings = %+v, %v; want North alone", bs, err)
	}
}

// Every id of the other building's places, alerts and screens answers as
// an unknown id does: domain.ErrNotFound, or ErrNoOpenAlert for an
// alert; a filter or a screen cannot reach them.
func TestIdsOutsideTheScopeAnswerAsUnknownOnes(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 24, 9, 30, 0, 0, time.UTC)
	s, _ := twoBuildings(t, now)
	north := domain.OnlyBuildings("b1")
	cred := domain.Credentials{APIKey: "key-0123456789", Authorization: "Bearer auth-0123456789"}
	annexScreen, _, err := s.CreateScreen(ctx, domain.EveryBuilding(), domain.Screen{Account: "acme", Name: "Lobby", Scope: domain.ScreenScope{Kind: "building", ID: "b2"}}, cred)
	if err != nil {
		t.Fatal(err)
	}
	wholeScreen, _, err := s.CreateScreen(ctx, domain.EveryBuilding(), domain.Screen{Account: "acme", Name: "Hall", Scope: domain.ScreenScope{Kind: "account"}}, cred)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := report.Custom(now.Add(-8*time.Hour), now)
	for _, id := range []string{"b2", "f2", "r2", "l2", "a2", annexScreen.ID, wholeScreen.ID} {
		for name, call := range map[string]func(id string) error{
			"building": func(id string) error { _, err := s.Building(ctx, "acme", north, id); return err },
			"floor":    func(id string) error { _, err := s.Floor(ctx, "acme", north, id, DeviceFilter{}); return err },
			"room":     func(id string) error { _, err := s.Room(ctx, "acme", north, id, DeviceFilter{}); return err },
			"location": func(id string) error { _, _, err := s.Location(ctx, "acme", north, id); return err },
			"history":  func(id string) error { _, err := s.LocationHistory(ctx, "acme", north, id, nil, now); return err },
			"report": func(id string) error {
				_, err := s.Report(ctx, "acme", north, domain.Credentials{}, id, p, now)
				return err
			},
			"trends": func(id string) error { _, err := s.Trends(ctx, "acme", north, id, 30, time.UTC); return err },
			"screen": func(id string) error { _, err := s.Screen(ctx, "acme", north, id); return err },
			"revoke": func(id string) error { return s.RevokeScreen(ctx, "acme", north, id) },
			"remove": func(id string) error { return s.RemoveScreen(ctx, "acme", north, id) },
			"relink": func(id string) error { _, _, err := s.RelinkScreen(ctx, "acme", north, id, cred); return err },
		} {
			if err := call(id); !errors.Is(err, domain.ErrNotFound) {
				t.Errorf("%s %s: %v; want not found", name, id, err)
			}
		}
		for name, call := range map[string]func(id string) error{
			"claim page": func(id string) error { _, err := s.ClaimOf(ctx, "acme", north, id); return err },
			"claim":      func(id string) error { _, err := s.Claim(ctx, "acme", north, id, NewClaim{Name: "Maria"}); return err },
			"release":    func(id string) error { return s.Release(ctx, "acme", north, id) },
		} {
			if err := call(id); !errors.Is(err, ErrNoOpenAlert) {
				t.Errorf("%s %s: %v; want no open alert", name, id, err)
			}
		}
	}
	for _, sc := range []Scope{{Building: "b2"}, {Floor: "f2"}, {Room: "r2"}} {
		if kind, err := s.CheckScope(ctx, "acme", north, sc); kind == "" || err != nil {
			t.Errorf("filter %+v: %q, %v; want it named as unknown", sc, kind, err)
		}
	}
	for _, scope := range []domain.ScreenScope{{Kind: "building", ID: "b2"}, {Kind: "floor", ID: "f2"}, {Kind: "account"}} {
		if _, _, err := s.CreateScreen(ctx, north, domain.Screen{Account: "acme", Name: "Mine", Scope: scope}, cred); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("a screen of %+v made by a person limited to North: %v; want not found", scope, err)
		}
	}
	mine, _, err := s.CreateScreen(ctx, north, domain.Screen{Account: "acme", Name: "Mine", Scope: domain.ScreenScope{Kind: "floor", ID: "f1"}}, cred)
	if err != nil {
		t.Fatalf("a screen of North's floor: %v", err)
	}
	mine.Scope = domain.ScreenScope{Kind: "building", ID: "b2"}
	if err := s.UpdateScreen(ctx, north, mine); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("moving one's screen to the Annex: %v; want not found", err)
	}
	screens, err := s.Screens(ctx, "acme", north)
	if err != nil || len(screens) != 1 || screens[0].Screen.ID != mine.ID {
		t.Errorf("screens: %+v, %v; want the one of North's floor alone", screens, err)
	}
	scopes, err := s.ScreenScopes(ctx, "acme", north)
	if err != nil || len(scopes) != 1 {
		t.Errorf("screen choices: %+v, %v; want North's alone", scopes, err)
	}
	noAnnex(t, "the screens", []any{screens, scopes})
	if _, err := s.Claim(ctx, "acme", north, "a1", NewClaim{Name: "Maria"}); err != nil {
		t.Errorf("claiming North's alert: %v", err)
	}
}
