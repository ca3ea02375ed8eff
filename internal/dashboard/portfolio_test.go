package dashboard

import (
	"context"
	"sync"
	"testing"
	"time"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/syncer"
	"washboard/internal/upstream"
)

// countedDevices is a store that counts its reads of each account's
// devices: one to each account's state for the portfolio.
type countedDevices struct {
	Store
	mu    sync.Mutex
	reads map[string]int
}

func (c *countedDevices) FindDevices(ctx context.Context, f store.DeviceFilter) ([]domain.Device, error) {
	c.mu.Lock()
	c.reads[f.Account]++
	c.mu.Unlock()
	return c.Store.FindDevices(ctx, f)
}

func (c *countedDevices) readsOf(account string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reads[account]
}

// TestPortfolioReadsOnlyTheAccountsThatChanged: the portfolio shows an
// alert that opens in one account at once, without reading again the
// accounts where nothing changed; a person who sees some buildings of an
// account is never shown the counts of the whole account kept for
// another; and targets saved for an account show in its row at once.
func TestPortfolioReadsOnlyTheAccountsThatChanged(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Date(2026, 11, 18, 10, 0, 0, 0, time.UTC)
	_, st := twoBuildings(t, now) // acme: an open alert, claimed, in each of b1 and b2
	if _, err := st.ReplaceLayout(ctx, domain.Layout{
		Account:   domain.Account{ID: "other", Name: "Other"},
		Buildings: []domain.Building{{ID: "o1", Name: "Depot"}},
		Floors:    []domain.Floor{{ID: "of", BuildingID: "o1", Name: "Ground"}},
		Rooms:     []domain.Room{{ID: "or", FloorID: "of", Name: "Washroom"}},
		Locations: []domain.Location{{ID: "ol", RoomID: "or", Name: "Basins", Type: domain.Soap}},
	}); err != nil {
		t.Fatal(err)
	}
	counted := &countedDevices{Store: st, reads: map[string]int{}}
	clk := clock.NewFake(now)
	runCtx, cancel := context.WithCancel(ctx)
	engine := syncer.New(runCtx, nil, st, clk, syncer.Config{}, nil)
	t.Cleanup(func() { cancel(); engine.Wait() })
	s := New(Deps{Store: counted, Sync: engine, Clock: clk})
	state := func(account string, sc domain.BuildingScope) ClientState {
		t.Helper()
		cs, err := s.ClientState(ctx, account, sc, time.UTC, clk.Now())
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}

	for range 3 {
		state("acme", domain.EveryBuilding())
		state("other", domain.EveryBuilding())
		clk.Advance(time.Minute)
	}
	if a, o := counted.readsOf("acme"), counted.readsOf("other"); a != 1 || o != 1 {
		t.Errorf("three portfolios with nothing changed read acme's devices %d times and other's %d; want once each", a, o)
	}

	// An alert opens in acme, unclaimed.
	if _, err := engine.ApplyAlerts(ctx, "acme", []upstream.Alert{{ID: "a3", LocationID: "l1", MacIDs: []string{"0000000000A1"},
		Status: upstream.StatusOpen, Type: string(domain.AlertJam), Created: clk.Now()}}); err != nil {
		t.Fatal(err)
	}
	acme := state("acme", domain.EveryBuilding())
	if acme.Rollup.OpenAlerts != 3 || acme.Unclaimed != 1 {
		t.Errorf("acme after an alert opened: %d open, %d unclaimed; want 3 and 1", acme.Rollup.OpenAlerts, acme.Unclaimed)
	}
	state("other", domain.EveryBuilding())
	if a, o := counted.readsOf("acme"), counted.readsOf("other"); a != 2 || o != 1 {
		t.Errorf("after a change to acme alone, acme's devices were read %d times and other's %d; want 2 and 1", a, o)
	}

	// Someone who sees the Annex (b2) alone: its own counts, not acme's.
	annex := state("acme", domain.OnlyBuildings("b2"))
	if annex.Rollup.OpenAlerts != 1 || annex.Unclaimed != 0 {
		t.Errorf("acme as the Annex's staff see it: %d open, %d unclaimed; want 1 and 0 (the new alert is in North)", annex.Rollup.OpenAlerts, annex.Unclaimed)
	}

	// Targets saved for other show in its row at once.
	if state("other", domain.EveryBuilding()).Level.Set {
		t.Fatal("other has a service level before any was saved")
	}
	form := ServiceLevelForm{Week: "always", Zone: "UTC", Claim: map[domain.AlertType]string{domain.AlertJam: "15"}, Resolve: map[domain.AlertType]string{}}
	if _, err := s.SaveServiceLevel(ctx, "other", domain.EveryBuilding(), form); err != nil {
		t.Fatal(err)
	}
	if !state("other", domain.EveryBuilding()).Level.Set {
		t.Error("other's row does not show the targets just saved")
	}
}
