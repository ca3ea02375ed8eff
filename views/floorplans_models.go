package views

import (
	"encoding/json"
	"strconv"
	"strings"

	"washboard/internal/domain"
)

// FloorPlanPage is a floor's plan page: the forms to upload, replace and
// remove the plan, and the placing of the floor's locations and rooms on
// it. A one-time message (kept, removed, refused and why) is the Page's
// Flash.
type FloorPlanPage struct {
	Page
	FloorID, Floor, Building string
	Plan                     domain.FloorPlan
	HasPlan                  bool
	Rooms                    []domain.Room
	Locations                []domain.Location
}

// Unplaced are the floor's locations not on the plan yet, in the
// floor's order.
func (m FloorPlanPage) Unplaced() []domain.Location {
	var out []domain.Location
	for _, l := range m.Locations {
		if _, ok := m.Plan.Placements.Locations[l.ID]; !ok {
			out = append(out, l)
		}
	}
	return out
}

// Placed are the floor's locations on the plan, in the floor's order.
func (m FloorPlanPage) Placed() []domain.Location {
	var out []domain.Location
	for _, l := range m.Locations {
		if _, ok := m.Plan.Placements.Locations[l.ID]; ok {
			out = append(out, l)
		}
	}
	return out
}

// ImageHref is where the page's plan is served.
func (m FloorPlanPage) ImageHref() string { return "/floors/" + m.FloorID + "/plan/image" }

// PlacementsJSON is the placements as the page's form sends them:
// {"locations": {id: [x, y]}, "rooms": {id: [[x, y], …]}}.
func (m FloorPlanPage) PlacementsJSON() string {
	out := struct {
		Locations map[string][2]int   `json:"locations"`
		Rooms     map[string][][2]int `json:"rooms"`
	}{map[string][2]int{}, map[string][][2]int{}}
	for id, p := range m.Plan.Placements.Locations {
		out.Locations[id] = [2]int{p.X, p.Y}
	}
	for id, shape := range m.Plan.Placements.Rooms {
		pts := make([][2]int, len(shape))
		for i, p := range shape {
			pts[i] = [2]int{p.X, p.Y}
		}
		out.Rooms[id] = pts
	}
	b, _ := json.Marshal(out) // maps of strings and numbers always marshal
	return string(b)
}

// planViewBox is the viewBox of a plan of its size.
func planViewBox(p domain.FloorPlan) string {
	return "0 0 " + strconv.Itoa(p.Width) + " " + strconv.Itoa(p.Height)
}

// markerSize is the radius of a marker on a plan, in its pixels: large
// enough to see and touch on a plan shown at a phone's width.
func markerSize(p domain.FloorPlan) int { return max(6, max(p.Width, p.Height)/80) }

// pointsAttr is a room's shape as an SVG polygon's points.
func pointsAttr(shape []domain.PlanPoint) string {
	var b strings.Builder
	for i, p := range shape {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(p.X) + "," + strconv.Itoa(p.Y))
	}
	return b.String()
}

// translate is an SVG transform to a point.
func translate(p domain.PlanPoint) string {
	return "translate(" + strconv.Itoa(p.X) + " " + strconv.Itoa(p.Y) + ")"
}
