package views

import (
	"context"
	"strconv"
	"strings"

	"washboard/internal/domain"
)

// PrintPlan is a floor's plan on paper (the round's and the shift
// report's print): the plan, its rooms' shapes, and a numbered mark for
// each place to go, with a key that says the numbers in words.
type PrintPlan struct {
	FloorID       string
	Width, Height int
	ImageHref     string
	// Heading names the plan: "Plan of North › Level 1".
	Heading string
	Rooms   []PlanRoom
	Marks   []PrintMark
	// Key says what the numbers are; with ListMarks, the marks' Words
	// follow it (the round's own list of rooms says them already).
	Key       string
	ListMarks bool
}

// PrintMark is a numbered mark on a printed plan: Number at At; Words say
// what it marks ("Room 1", "Sinks Left: 2 open alerts").
type PrintMark struct {
	Number int
	At     domain.PlanPoint
	Words  string
}

// markR is the radius of a printed mark, in the plan's pixels: about a
// thirtieth of its longer side, so that its number reads on A4.
func (p PrintPlan) markR() int { return max(8, max(p.Width, p.Height)/36) }

func (p PrintPlan) viewBox() string {
	return planViewBox(domain.FloorPlan{Width: p.Width, Height: p.Height})
}

// PlanImageHref is the address of a floor's plan image, its time in it:
// a new plan is a new image.
func PlanImageHref(floorID string, updated int64) string {
	return "/floors/" + floorID + "/plan/image?v=" + strconv.FormatInt(updated, 36)
}

// ScreenPlan is a floor's plan on a wall screen: the plan, and a mark
// per placed location, those not fine labelled with what is wrong.
type ScreenPlan struct {
	FloorID       string
	Width, Height int
	ImageHref     string
	// Where names the floor: "North › Level 1".
	Where string
	Marks []ScreenMark
}

// ScreenMark is a location on a screen's plan.
type ScreenMark struct {
	Name          string
	At            domain.PlanPoint
	Health        domain.Health
	Open, Overdue int
}

// markR is the radius of a mark on a screen's plan, in the plan's
// pixels: a fortieth of its longer side, seen from across a room.
func (p ScreenPlan) markR() int { return max(10, max(p.Width, p.Height)/40) }

func (p ScreenPlan) viewBox() string {
	return planViewBox(domain.FloorPlan{Width: p.Width, Height: p.Height})
}

// label is a mark's label: where its location is, in what state, with
// its open and overdue alerts.
func (m ScreenMark) label(ctx context.Context) string {
	parts := []string{m.Name, screenHealth(ctx, m.Health)}
	if m.Open > 0 {
		parts = append(parts, trn(ctx, "format.open_alerts", m.Open))
	}
	if m.Overdue > 0 {
		parts = append(parts, trn(ctx, "plan.overdue", m.Overdue))
	}
	return strings.Join(parts, " · ")
}
