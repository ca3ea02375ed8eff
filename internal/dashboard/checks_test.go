package dashboard

import (
	"context"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/i18n"
)

// Checks saved count the rooms ticked done on rounds in the period
// against fixed rounds visiting every room every N hours, of the rooms a
// person sees alone, with the out-hours under both; a period without
// rounds from need says so rather than "100% fewer".
func TestChecksSavedCountRoomsTickedAgainstFixedRounds(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 24, 9, 30, 0, 0, time.UTC)
	s, st := twoBuildings(t, now)
	writeLevel(t, st, now.Add(-5*time.Hour), 50)
	writeLevel(t, st, now.Add(-270*time.Minute), 0) // North's sinks out since before the period
	round := domain.Round{ID: "round-1", InBuildings: []string{"b1", "b2"}, PersonID: "p-dee", Name: "Dee", MadeBy: "p-sup", MadeAt: now.Add(-3 * time.Hour),
		Stops: []domain.RoundStop{{RoomID: "r1", Status: domain.StopToDo}, {RoomID: "r2", Status: domain.StopToDo}, {RoomID: "r1", Status: domain.StopToDo}}}
	if err := st.SaveRound(ctx, "acme", round, time.Time{}, 0); err != nil {
		t.Fatal(err)
	}
	for i, st2 := range []domain.RoundStop{
		{Status: domain.StopDone, PersonID: "p-dee", Name: "Dee", At: now.Add(-150 * time.Minute)},
		{Status: domain.StopDone, PersonID: "p-dee", Name: "Dee", At: now.Add(-140 * time.Minute)},
		{Status: domain.StopSkipped, Reason: "locked", PersonID: "p-dee", Name: "Dee", At: now.Add(-130 * time.Minute)},
	} {
		if err := st.TickRoundStop(ctx, "acme", "round-1", i, st2); err != nil {
			t.Fatal(err)
		}
	}
	from := now.Add(-4 * time.Hour)
	en := i18n.For("en")

	// Fixed rounds every 2 hours from 05:30: at 05:30 and 07:30, each
	// visiting both rooms.
	all, err := s.ChecksSaved(ctx, "acme", domain.EveryBuilding(), "", from, now, 2*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if all.Total.NeedVisits != 2 || all.Total.FixedVisits != 4 || all.SavedWords(en) != "50.0% fewer room visits than fixed rounds every 2 h." {
		t.Errorf("the whole account: %d visits against %d, %q; want 2 (the rooms ticked done, not the one skipped) against 4, 50.0%% fewer",
			all.Total.NeedVisits, all.Total.FixedVisits, all.SavedWords(en))
	}
	every3, err := s.ChecksSaved(ctx, "acme", domain.EveryBuilding(), "", from, now, 3*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if every3.Total.FixedVisits != 4 || every3.EveryHours() != 3 {
		t.Errorf("every 3 h: %d fixed visits, every %d h; want 4 (05:30 and 08:30), every 3", every3.Total.FixedVisits, every3.EveryHours())
	}

	// North alone: its sinks were out all the period; fixed rounds
	// would have refilled them at the first round, at the period's start.
	north1, err := s.ChecksSaved(ctx, "acme", domain.EveryBuilding(), "b1", from, now, 2*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if north1.Total.NeedVisits != 1 || north1.Total.FixedVisits != 2 || north1.Total.NeedOut.Out != 4*time.Hour || north1.Total.FixedOut.Out != 0 {
		t.Errorf("North: %d visits against %d, out %v against %v; want 1 against 2, out 4h against 0s",
			north1.Total.NeedVisits, north1.Total.FixedVisits, north1.Total.NeedOut.Out, north1.Total.FixedOut.Out)
	}

	// A person limited to North counts North's room alone.
	north, err := s.ChecksSaved(ctx, "acme", domain.OnlyBuildings("b1"), "", from, now, 2*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if north.Total.NeedVisits != 1 || north.Total.FixedVisits != 2 || len(north.ByBuilding) != 1 || north.ByBuilding[0].Building != "b1" {
		t.Errorf("North alone: %d visits against %d, buildings %+v; want 1 against 2, North alone", north.Total.NeedVisits, north.Total.FixedVisits, north.ByBuilding)
	}

	none, err := s.ChecksSaved(ctx, "acme", domain.EveryBuilding(), "", from, now.Add(-160*time.Minute), 2*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if !none.None() || none.SavedWords(en) != "No rounds from need in this period." {
		t.Errorf("a period before the round: %q; want it said there were none", none.SavedWords(en))
	}
}
