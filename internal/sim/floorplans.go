package sim

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"
	"strconv"
)

// FloorPlan is a plan the simulator draws of a floor, for the demo: its
// rooms as rectangles in a grid, each with its name, as an SVG of
// Width × Height pixels, and where each room and device location is on
// it, by the ids the service gives them.
type FloorPlan struct {
	FloorID       string
	SVG           []byte
	Width, Height int
	Rooms         map[string][4]int // x, y, width, height
	Locations     map[string][2]int // x, y
}

// The size of a room on a drawn plan, and the space around it.
const (
	planRoomW, planRoomH, planGap = 300, 200, 40
)

// FloorPlans draws the plans of an account's floors.
func (a *Account) FloorPlans() []FloorPlan {
	var out []FloorPlan
	for _, b := range a.Buildings {
		for _, f := range b.Floors {
			out = append(out, drawFloor(f))
		}
	}
	return out
}

// drawFloor draws a floor's rooms in a grid about as wide as it is tall,
// a corridor between the rows, and places each room's locations in its
// lower half, in one row or two.
func drawFloor(f *Floor) FloorPlan {
	cols := max(1, int(math.Ceil(math.Sqrt(float64(len(f.Rooms))))))
	rows := max(1, (len(f.Rooms)+cols-1)/cols)
	p := FloorPlan{FloorID: f.ID, Width: cols*(planRoomW+planGap) + planGap, Height: rows*(planRoomH+planGap) + planGap,
		Rooms: map[string][4]int{}, Locations: map[string][2]int{}}
	var svg bytes.Buffer
	fmt.Fprintf(&svg, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`, p.Width, p.Height, p.Width, p.Height)
	fmt.Fprintf(&svg, `<rect width="%d" height="%d" fill="#f7f7f4"/>`, p.Width, p.Height)
	for i, r := range f.Rooms {
		x, y := planGap+(i%cols)*(planRoomW+planGap), planGap+(i/cols)*(planRoomH+planGap)
		p.Rooms[r.ID] = [4]int{x, y, planRoomW, planRoomH}
		fmt.Fprintf(&svg, `<rect x="%d" y="%d" width="%d" height="%d" fill="#ffffff" stroke="#5a6472" stroke-width="4"/>`, x, y, planRoomW, planRoomH)
		fmt.Fprintf(&svg, `<text x="%d" y="%d" font-family="sans-serif" font-size="20" fill="#1a1f26">`, x+14, y+32)
		xml.EscapeText(&svg, []byte(r.Name))
		svg.WriteString(`</text>`)
		// One row of up to four locations, two rows of more.
		perRow := len(r.Locations)
		if perRow > 4 {
			perRow = (perRow + 1) / 2
		}
		for j, l := range r.Locations {
			row, col := j/max(perRow, 1), j%max(perRow, 1)
			ly := y + planRoomH*2/3
			if len(r.Locations) > perRow {
				ly = y + planRoomH*(9+5*row)/20
			}
			p.Locations[strconv.FormatInt(l.ID, 10)] = [2]int{x + planRoomW*(col+1)/(perRow+1), ly}
		}
	}
	svg.WriteString(`</svg>`)
	p.SVG = svg.Bytes()
	return p
}
