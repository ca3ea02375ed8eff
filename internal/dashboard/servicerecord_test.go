package dashboard

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/servicerecord"
	"washboard/internal/store"
)

// writeLevel writes the account's dispensers as the service listed them
// at seen, North's at level percent.
func writeLevel(t *testing.T, st store.Store, seen time.Time, level int) {
	t.Helper()
	ctx := context.Background()
	r, err := st.BeginDevices(ctx, "acme")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Rollback()
	r.SeenAt(seen)
	devices := []domain.Device{
		{MAC: "0000000000A1", LocationID: "l1", Position: "left", Compartments: []domain.Compartment{{Level: level, Low: level <= 15, Out: level == 0}}, LastSeen: seen},
		{MAC: "0000000000B1", LocationID: "l2", Position: "left", Compartments: []domain.Compartment{{Level: 0, Out: true}}, LastSeen: seen},
	}
	if err := r.Write(ctx, devices); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Commit(ctx); err != nil {
		t.Fatal(err)
	}
}

// A "done" report of a refill shows in the room's record with who, when
// and what, and the room's dispenser as the service reported it before
// the visit (out) and after (full); the claim of someone else is a visit
// of its own.
func TestTheServiceRecordShowsTheDispensersBeforeAndAfterAVisit(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 24, 9, 30, 0, 0, time.UTC)
	s, st := twoBuildings(t, now)
	writeLevel(t, st, now.Add(-3*time.Hour), 40)
	writeLevel(t, st, now.Add(-2*time.Hour), 0)
	writeLevel(t, st, now.Add(-10*time.Minute), 100)
	done := domain.DoneReport{AlertID: "a1", PersonID: "p-ana", Name: "Ana", Outcome: domain.Refilled, At: now.Add(-5 * time.Minute)}
	if _, err := st.AddDoneReport(ctx, "acme", done, "key-1", time.Time{}); err != nil {
		t.Fatal(err)
	}

	rec, err := s.RoomServiceRecord(ctx, "acme", domain.EveryBuilding(), "r1", now.Add(-RecentService), now, RecentVisits)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Visits) != 2 {
		t.Fatalf("visits = %+v; want Maria's claim and Ana's refill", rec.Visits)
	}
	ana := rec.Visits[1] // the newest first: Maria's claim came after
	if rec.Visits[0].Name != "Maria" {
		t.Errorf("the newest visit is %+v; want Maria's claim", rec.Visits[0])
	}
	if ana.Name != "Ana" || !ana.Start.Equal(done.At) || len(ana.Entries) != 1 || ana.Entries[0].Outcome != domain.Refilled || rec.Where(ana.Entries[0].LocationID) != "Sinks" {
		t.Errorf("Ana's visit = %+v; want her refill of the sinks at %v", ana, done.At)
	}
	if len(ana.Dispensers) != 1 {
		t.Fatalf("Ana's visit has dispensers %+v; want the room's one", ana.Dispensers)
	}
	d := ana.Dispensers[0]
	if d.Before.Level() != servicerecord.Out || d.After.Level() != servicerecord.Full || d.Location != "Sinks" {
		t.Errorf("the sinks' dispenser before and after Ana's visit: %s (%+v) → %s (%+v); want out → full", d.Before.Level(), d.Before, d.After.Level(), d.After)
	}
	if rec.Places.Where("r1") != "North › Ground › Restroom" {
		t.Errorf("the record's room is %q", rec.Places.Where("r1"))
	}

	if _, err := s.RoomServiceRecord(ctx, "acme", domain.EveryBuilding(), "r1", now.Add(-40*24*time.Hour), now, RecentVisits); err == nil || !strings.Contains(err.Error(), "31 days") {
		t.Errorf("a record of 40 days: %v; want it refused, naming the 31 days", err)
	}
}

// A person limited to North learns nothing of the Annex from the record:
// the account's record holds North's visits alone, and the Annex's room
// answers as an unknown one.
func TestTheServiceRecordOfAScopeTellsNothingOfOtherBuildings(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 24, 9, 30, 0, 0, time.UTC)
	s, st := twoBuildings(t, now)
	for i, alertID := range []string{"a1", "a2"} {
		done := domain.DoneReport{AlertID: alertID, PersonID: "p-ben", Name: "Ben", Outcome: domain.Refilled, At: now.Add(-30 * time.Minute)}
		if _, err := st.AddDoneReport(ctx, "acme", done, "key-"+alertID, time.Time{}); err != nil {
			t.Fatal(i, err)
		}
	}
	north := domain.OnlyBuildings("b1")

	all, err := s.AccountServiceRecord(ctx, "acme", domain.EveryBuilding(), now.Add(-24*time.Hour), now, true)
	if err != nil || len(all.Visits) != 4 {
		t.Fatalf("the record of every building: %d visits, %v; want Ben's and the claims in both buildings", len(all.Visits), err)
	}
	rec, err := s.AccountServiceRecord(ctx, "acme", north, now.Add(-24*time.Hour), now, true)
	if err != nil || len(rec.Visits) != 2 {
		t.Fatalf("North's record: %+v, %v; want Ben's refill and Maria's claim", rec.Visits, err)
	}
	for _, v := range rec.Visits {
		noAnnex(t, "North's record", v)
		if v.RoomID != "r1" {
			t.Errorf("North's record has a visit of room %q", v.RoomID)
		}
	}
	if _, err := s.RoomServiceRecord(ctx, "acme", north, "r2", now.Add(-24*time.Hour), now, RecentVisits); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("the Annex's room for a person limited to North: %v; want not found", err)
	}
}

// A scan of a room's code at its door is a visit of the record: who was
// there and when, with the room's dispensers before and after.
func TestADoorScanIsAVisitOfTheRoomsRecord(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 24, 9, 30, 0, 0, time.UTC)
	s, st := twoBuildings(t, now)
	writeLevel(t, st, now.Add(-3*time.Hour), 5)
	writeLevel(t, st, now.Add(-10*time.Minute), 100)
	scan := domain.PresenceScan{RoomID: "r1", PersonID: "p-cy", Name: "Cy", At: now.Add(-2 * time.Hour)}
	if added, err := st.AddPresenceScan(ctx, "acme", scan, 100); !added || err != nil {
		t.Fatalf("the scan: %v, %v", added, err)
	}
	rec, err := s.RoomServiceRecord(ctx, "acme", domain.EveryBuilding(), "r1", now.Add(-RecentService), now, RecentVisits)
	if err != nil {
		t.Fatal(err)
	}
	var cy *servicerecord.Visit
	for i, v := range rec.Visits {
		if v.Name == "Cy" {
			cy = &rec.Visits[i]
		}
	}
	if cy == nil || len(cy.Entries) != 1 || cy.Entries[0].Kind != servicerecord.DoorScan || !cy.Start.Equal(scan.At) {
		t.Fatalf("visits = %+v; want Cy's scan at the door at %v", rec.Visits, scan.At)
	}
	if len(cy.Dispensers) != 1 || cy.Dispensers[0].Before.Level() != servicerecord.Low {
		t.Errorf("the dispensers of Cy's visit = %+v; want the sinks' low before it", cy.Dispensers)
	}
}

// A room ticked done on a round is a visit of the room's record, with who
// ticked it and when; a room skipped on the round is none.
func TestARoomTickedOnARoundIsAVisitOfTheRoomsRecord(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 24, 9, 30, 0, 0, time.UTC)
	s, st := twoBuildings(t, now)
	round := domain.Round{ID: "round-1", InBuildings: []string{"b1", "b2"}, PersonID: "p-dee", Name: "Dee", MadeBy: "p-sup", MadeAt: now.Add(-3 * time.Hour),
		Stops: []domain.RoundStop{{RoomID: "r1", Status: domain.StopToDo}, {RoomID: "r2", Status: domain.StopToDo}}}
	if err := st.SaveRound(ctx, "acme", round, time.Time{}, 0); err != nil {
		t.Fatal(err)
	}
	ticked := now.Add(-2 * time.Hour)
	if err := st.TickRoundStop(ctx, "acme", "round-1", 0, domain.RoundStop{Status: domain.StopDone, PersonID: "p-dee", Name: "Dee", At: ticked}); err != nil {
		t.Fatal(err)
	}
	if err := st.TickRoundStop(ctx, "acme", "round-1", 1, domain.RoundStop{Status: domain.StopSkipped, Reason: "locked", PersonID: "p-dee", Name: "Dee", At: ticked.Add(5 * time.Minute)}); err != nil {
		t.Fatal(err)
	}
	dee := func(roomID string) []servicerecord.Visit {
		rec, err := s.RoomServiceRecord(ctx, "acme", domain.EveryBuilding(), roomID, now.Add(-RecentService), now, RecentVisits)
		if err != nil {
			t.Fatal(err)
		}
		var out []servicerecord.Visit
		for _, v := range rec.Visits {
			if v.Name == "Dee" {
				out = append(out, v)
			}
		}
		return out
	}
	if v := dee("r1"); len(v) != 1 || v[0].PersonID != "p-dee" || len(v[0].Entries) != 1 || v[0].Entries[0].Kind != servicerecord.RoomTicked || !v[0].Start.Equal(ticked) {
		t.Errorf("Dee's visits of the room ticked = %+v; want one, the room ticked off at %v", v, ticked)
	}
	if v := dee("r2"); len(v) != 0 {
		t.Errorf("Dee's visits of the room skipped = %+v; want none", v)
	}
}
