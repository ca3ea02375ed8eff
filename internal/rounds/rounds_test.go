package rounds

import (
	"testing"
	"time"
)

func TestMakeVisitsTheMostUrgentRoomsInWalkingOrderWithinTheLimit(t *testing.T) {
	now := time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC)
	rooms := []Room{
		{ID: "r1", FloorID: "f1", Order: 0},
		{ID: "r2", FloorID: "f1", Order: 1},
		{ID: "r3", FloorID: "f2", Order: 2},
		{ID: "r4", FloorID: "f2", Order: 3},
	}
	in := Input{
		Rooms: rooms,
		Needs: []Need{
			{Kind: NeedRunsOut, RoomID: "r1", LocationID: "l1", RunsOut: now.Add(time.Hour)},
			{Kind: NeedOut, RoomID: "r4", LocationID: "l4", Refills: 1},
			{Kind: NeedRunsOut, RoomID: "r2", LocationID: "l2", RunsOut: now.Add(5 * time.Hour)}, // after the next round
			{Kind: NeedFault, RoomID: "r3", LocationID: "l3"},
			{Kind: NeedOut, RoomID: "elsewhere", LocationID: "l9"},
		},
		NextRound: now.Add(2 * time.Hour),
		Limits:    Limits{Rooms: 2, PerRoom: 4 * time.Minute, PerFloorChange: 2 * time.Minute},
	}
	p := Make(in)
	if got := roomIDs(p.Stops); got != "r3 r4" {
		t.Errorf("stops = %q, want the out and the fault, in walking order: r3 r4", got)
	}
	if got := roomIDs(p.Left); got != "r1" {
		t.Errorf("left = %q, want r1 (runs out before the next round, beyond the limit)", got)
	}
	if p.Duration != 8*time.Minute {
		t.Errorf("duration = %v, want two rooms on one floor: 8m", p.Duration)
	}

	in.Limits = Limits{Minutes: 12, PerRoom: 4 * time.Minute, PerFloorChange: 2 * time.Minute}
	p = Make(in)
	if got := roomIDs(p.Stops); got != "r3 r4" {
		t.Errorf("with 12 minutes, stops = %q, want r3 r4 (a third room and a floor change take 14)", got)
	}
}

func roomIDs(stops []Stop) string {
	s := ""
	for i, st := range stops {
		if i > 0 {
			s += " "
		}
		s += st.Room.ID
	}
	return s
}
