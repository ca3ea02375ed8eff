package dashboard

import (
	"context"
	"fmt"
	"testing"
	"time"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/forecast"
	"washboard/internal/rounds"
	"washboard/internal/store"
	"washboard/internal/store/sqlite/sqlitetest"
)

// BenchmarkPlanRound plans a round of 20 rooms for a building of 500
// locations (10 floors of 10 rooms of 5 locations, a dispenser at each)
// in a SQLite cache, from 100 open alerts and the forecasts of the 500
// dispensers. The goal is under 50 ms a round (docs/rounds.md).
func BenchmarkPlanRound(b *testing.B) {
	ctx := context.Background()
	st, _ := sqlitetest.Open(b)
	now := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	l := domain.Layout{Account: domain.Account{ID: "bench", Name: "Bench"}, Buildings: []domain.Building{{ID: "b", Name: "Tower"}}}
	var devices []domain.Device
	var alerts []domain.Alert
	estimates := fixedForecasts{}
	types := []domain.DeviceType{domain.Tissue, domain.Towel, domain.Soap, domain.Sanitizer, domain.Tissue}
	for f := range 10 {
		fid := fmt.Sprintf("f%d", f)
		l.Floors = append(l.Floors, domain.Floor{ID: fid, BuildingID: "b", Name: fmt.Sprintf("Level %d", f)})
		for r := range 10 {
			rid := fmt.Sprintf("%s-r%d", fid, r)
			l.Rooms = append(l.Rooms, domain.Room{ID: rid, FloorID: fid, Name: fmt.Sprintf("Restroom %d.%02d", f, r)})
			for i := range 5 {
				lid, mac := fmt.Sprintf("%s-l%d", rid, i), fmt.Sprintf("%02d%02d%02d000000", f, r, i)
				l.Locations = append(l.Locations, domain.Location{ID: lid, RoomID: rid, Name: fmt.Sprintf("Place %d", i), Type: types[i]})
				devices = append(devices, domain.Device{MAC: mac, LocationID: lid, Position: "main", Compartments: []domain.Compartment{{Level: 30}}, LastSeen: now})
				estimates[mac] = forecast.Estimate{At: now.Add(time.Duration(len(devices)) * 3 * time.Minute), Basis: forecast.FromLevels}
				if len(devices)%5 == 0 {
					alerts = append(alerts, domain.Alert{ID: "a" + mac, LocationID: lid, MACs: []string{mac}, Status: domain.AlertOpen,
						Type: domain.AlertConsumableOut, Created: now.Add(-time.Hour), RefillCount: 1})
				}
			}
		}
	}
	if _, err := st.ReplaceLayout(ctx, l); err != nil {
		b.Fatal(err)
	}
	if _, err := st.ReplaceDevices(ctx, "bench", devices); err != nil {
		b.Fatal(err)
	}
	if _, err := st.ApplyAlerts(ctx, "bench", store.AlertWrite{Upserts: alerts, SeenAt: now}); err != nil {
		b.Fatal(err)
	}
	s := New(Deps{Store: st, Clock: clock.NewFake(now), Forecasts: estimates})
	in := NewRound{Part: RoundPart{Buildings: []string{"b"}}, PersonID: "p", Name: "Ana",
		Limits: rounds.Limits{Rooms: 20, PerRoom: 4 * time.Minute, PerFloorChange: 2 * time.Minute}}
	b.ResetTimer()
	for b.Loop() {
		p, err := s.PlanRound(ctx, "bench", domain.EveryBuilding(), in, time.UTC)
		if err != nil || len(p.Stops) != 20 {
			b.Fatalf("%d stops, %v", len(p.Stops), err)
		}
	}
}
