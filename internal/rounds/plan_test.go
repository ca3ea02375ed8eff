package rounds

import (
	"strings"
	"testing"

	"washboard/internal/domain"
)

// TestWalkPlanGoesToTheNearestRoomNext: on a plan, the walk starts at the
// room nearest the top left corner and goes on to the nearest room each
// time, not in the layout's order; rooms not placed come last, in the
// layout's order.
func TestWalkPlanGoesToTheNearestRoomNext(t *testing.T) {
	// The layout lists them far, near, middle; on the plan they stand in a
	// row from the left: near (100), middle (400), far (900); "unplaced"
	// has no spot.
	rooms := []string{"far", "unplaced", "near", "middle", "also-unplaced"}
	at := map[string]domain.PlanPoint{
		"far":    {X: 900, Y: 100},
		"near":   {X: 100, Y: 120},
		"middle": {X: 400, Y: 110},
	}
	if got := strings.Join(WalkPlan(rooms, at), " "); got != "near middle far unplaced also-unplaced" {
		t.Errorf("walk = %q, want near middle far unplaced also-unplaced", got)
	}
}

// TestWalkPlanTakesTheNearestNotTheNextInARow: from a corridor's end, a
// room across the corridor comes before the next one along it.
func TestWalkPlanTakesTheNearestNotTheNextInARow(t *testing.T) {
	rooms := []string{"a1", "a2", "a3", "b1", "b2", "b3"}
	at := map[string]domain.PlanPoint{
		"a1": {X: 10, Y: 10}, "a2": {X: 300, Y: 10}, "a3": {X: 600, Y: 10},
		"b1": {X: 10, Y: 100}, "b2": {X: 300, Y: 100}, "b3": {X: 600, Y: 100},
	}
	if got := strings.Join(WalkPlan(rooms, at), " "); got != "a1 b1 b2 a2 a3 b3" {
		t.Errorf("walk = %q, want a1 b1 b2 a2 a3 b3 (zig-zag across the corridor)", got)
	}
}

func TestRoomSpotIsTheShapesCentreElseItsMarkers(t *testing.T) {
	shape := []domain.PlanPoint{{X: 0, Y: 0}, {X: 100, Y: 0}, {X: 100, Y: 50}, {X: 0, Y: 50}}
	markers := []domain.PlanPoint{{X: 500, Y: 500}}
	if p, ok := RoomSpot(shape, markers); !ok || p != (domain.PlanPoint{X: 50, Y: 25}) {
		t.Errorf("spot of a drawn room = %v %v, want its centre {50 25}", p, ok)
	}
	if p, ok := RoomSpot(nil, []domain.PlanPoint{{X: 10, Y: 10}, {X: 30, Y: 50}}); !ok || p != (domain.PlanPoint{X: 20, Y: 30}) {
		t.Errorf("spot of markers = %v %v, want {20 30}", p, ok)
	}
	if _, ok := RoomSpot(nil, nil); ok {
		t.Error("a room with nothing placed has a spot")
	}
}
