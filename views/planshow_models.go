package views

import (
	"strconv"

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
