package views

import (
	"context"
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

// PlacePlan is a floor's plan on its page: the plan, its rooms' shapes
// and a marker for each placed location the page shows.
type PlacePlan struct {
	FloorID       string
	Width, Height int
	ImageHref     string
	EditHref      string
	Rooms         []PlanRoom
	Markers       []PlanMarker
}

// PlanRoom is a room's shape on a plan.
type PlanRoom struct {
	Name  string
	Shape []domain.PlanPoint
}

// PlanMarker is a location on a plan: its health, its open and overdue
// alerts and claims, and what runs out soonest, in words.
type PlanMarker struct {
	LocationID, Name, Href string
	At                     domain.PlanPoint
	Health                 domain.Health
	Open, Overdue, Claimed int
	RunsOut                string
}

// markerLabel says all a marker shows, in words: its name, health,
// alerts and claims, and what runs out soonest.
func markerLabel(ctx context.Context, m PlanMarker) string {
	parts := []string{m.Name, HealthName(ctx, m.Health)}
	if m.Open > 0 {
		parts = append(parts, trn(ctx, "format.open_alerts", m.Open))
	}
	if m.Overdue > 0 {
		parts = append(parts, trn(ctx, "plan.overdue", m.Overdue))
	}
	if m.Claimed > 0 {
		parts = append(parts, trn(ctx, "plan.claimed", m.Claimed))
	}
	if m.RunsOut != "" {
		parts = append(parts, m.RunsOut)
	}
	return strings.Join(parts, " · ")
}

// markerR is the radius of a marker on a plan of this size.
func (p PlacePlan) markerR() int {
	return markerSize(domain.FloorPlan{Width: p.Width, Height: p.Height}) * 3 / 2
}

// viewBox is the plan's viewBox.
func (p PlacePlan) viewBox() string {
	return planViewBox(domain.FloorPlan{Width: p.Width, Height: p.Height})
}

// badgeAt is where a marker's badge sits: at its top right.
func (p PlacePlan) badgeAt() string {
	r := p.markerR()
	return "translate(" + strconv.Itoa(r) + " " + strconv.Itoa(-r) + ")"
}
