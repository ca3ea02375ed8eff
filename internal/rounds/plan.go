package rounds

import "washboard/internal/domain"

// WalkPlan orders the rooms of one floor by its plan: rooms lists the
// floor's rooms in the layout's order, at holds where the placed ones are
// on the plan (the centre of the room's shape, or of its locations'
// markers). The walk starts at the placed room nearest the plan's top
// left corner, a fixed point any plan has (a plan does not say where its
// stairs are), and goes on to the nearest room not yet visited, the
// earlier in the layout's order on a tie. Rooms not placed follow in the
// layout's order. It costs O(n²) in the floor's rooms.
func WalkPlan(rooms []string, at map[string]domain.PlanPoint) []string {
	out := make([]string, 0, len(rooms))
	var placed []string
	for _, id := range rooms {
		if _, ok := at[id]; ok {
			placed = append(placed, id)
		}
	}
	done := make([]bool, len(placed))
	here := domain.PlanPoint{}
	for range placed {
		best, bestD := -1, int64(0)
		for i, id := range placed {
			if done[i] {
				continue
			}
			p := at[id]
			dx, dy := int64(p.X-here.X), int64(p.Y-here.Y)
			if d := dx*dx + dy*dy; best < 0 || d < bestD {
				best, bestD = i, d
			}
		}
		done[best] = true
		out = append(out, placed[best])
		here = at[placed[best]]
	}
	for _, id := range rooms {
		if _, ok := at[id]; !ok {
			out = append(out, id)
		}
	}
	return out
}

// RoomSpot is where a room is on its floor's plan: the centre of its
// shape when it is drawn, else the centre of its locations' markers
// (points); ok is false when neither is placed.
func RoomSpot(shape []domain.PlanPoint, points []domain.PlanPoint) (domain.PlanPoint, bool) {
	pts := shape
	if len(pts) == 0 {
		pts = points
	}
	if len(pts) == 0 {
		return domain.PlanPoint{}, false
	}
	var sx, sy int
	for _, p := range pts {
		sx += p.X
		sy += p.Y
	}
	return domain.PlanPoint{X: sx / len(pts), Y: sy / len(pts)}, true
}
