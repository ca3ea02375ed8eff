package domain

import (
	"fmt"
	"slices"
	"time"
)

// Floor plans (docs/floor-plans.md): an image of a floor, in pixels, with
// the floor's locations placed on it as points and its rooms as shapes.

// The bounds of a floor plan.
const (
	// MaxPlanBytes is the largest plan kept: 10 MB.
	MaxPlanBytes = 10 << 20
	// MaxPlanSide is the widest and tallest plan, in pixels.
	MaxPlanSide = 8000
	// MaxRoomPoints is the most corners a room's shape has.
	MaxRoomPoints = 32
)

// FloorPlan is a floor's plan, without its image: its size, who put it
// there and when, and the placements on it.
type FloorPlan struct {
	FloorID       string
	ContentType   string
	Width, Height int
	Updated       time.Time
	UpdatedBy     string // the person's id
	// Review says that the plan was replaced by one of another size: the
	// placements were scaled to the new size, as a suggestion a person
	// should look at and save.
	Review     bool
	Placements Placements
}

// PlanPoint is a point of a plan, in its pixels from the top left.
type PlanPoint struct{ X, Y int }

// Placements are where a floor's locations (a point each) and rooms (a
// polygon each: a rectangle is four corners) are on its plan, by id.
type Placements struct {
	Locations map[string]PlanPoint
	Rooms     map[string][]PlanPoint
}

// Scaled returns the placements of a plan of size from on a plan of size
// to, each coordinate in proportion.
func (p Placements) Scaled(fromW, fromH, toW, toH int) Placements {
	scale := func(v, from, to int) int {
		if from <= 0 {
			return 0
		}
		return min((v*to+from/2)/from, to)
	}
	pt := func(q PlanPoint) PlanPoint {
		return PlanPoint{X: scale(q.X, fromW, toW), Y: scale(q.Y, fromH, toH)}
	}
	out := Placements{Locations: make(map[string]PlanPoint, len(p.Locations)), Rooms: make(map[string][]PlanPoint, len(p.Rooms))}
	for id, q := range p.Locations {
		out.Locations[id] = pt(q)
	}
	for id, shape := range p.Rooms {
		s := make([]PlanPoint, len(shape))
		for i, q := range shape {
			s[i] = pt(q)
		}
		out.Rooms[id] = s
	}
	return out
}

// PlacementProblem is what is wrong with a placement.
type PlacementProblem int

const (
	UnknownLocation PlacementProblem = iota + 1 // not a location of the floor
	UnknownRoom                                 // not a room of the floor
	OutsidePlan                                 // a point beyond the plan's edges
	TooFewPoints                                // a room's shape of fewer than three corners
	TooManyPoints                               // a room's shape of more than MaxRoomPoints corners
)

// PlacementError says which placement is wrong, and how.
type PlacementError struct {
	Problem PlacementProblem
	ID      string // the location's or the room's id
}

func (e *PlacementError) Error() string {
	switch e.Problem {
	case UnknownLocation:
		return fmt.Sprintf("location %q is not on this floor", e.ID)
	case UnknownRoom:
		return fmt.Sprintf("room %q is not on this floor", e.ID)
	case OutsidePlan:
		return fmt.Sprintf("%q is placed outside the plan", e.ID)
	case TooFewPoints:
		return fmt.Sprintf("room %q has fewer than 3 corners", e.ID)
	default:
		return fmt.Sprintf("room %q has more than %d corners", e.ID, MaxRoomPoints)
	}
}

// Check returns the first fault of the placements, by id, on a plan of
// width × height of a floor of these locations and rooms (their ids), as
// a *PlacementError; nil when there is none.
func (p Placements) Check(width, height int, locations, rooms []string) error {
	inside := func(q PlanPoint) bool { return q.X >= 0 && q.Y >= 0 && q.X <= width && q.Y <= height }
	for _, id := range sortedKeys(p.Locations) {
		switch {
		case !slices.Contains(locations, id):
			return &PlacementError{Problem: UnknownLocation, ID: id}
		case !inside(p.Locations[id]):
			return &PlacementError{Problem: OutsidePlan, ID: id}
		}
	}
	for _, id := range sortedKeys(p.Rooms) {
		shape := p.Rooms[id]
		switch {
		case !slices.Contains(rooms, id):
			return &PlacementError{Problem: UnknownRoom, ID: id}
		case len(shape) < 3:
			return &PlacementError{Problem: TooFewPoints, ID: id}
		case len(shape) > MaxRoomPoints:
			return &PlacementError{Problem: TooManyPoints, ID: id}
		case slices.ContainsFunc(shape, func(q PlanPoint) bool { return !inside(q) }):
			return &PlacementError{Problem: OutsidePlan, ID: id}
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
