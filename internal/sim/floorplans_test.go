package sim

import (
	"encoding/xml"
	"strconv"
	"strings"
	"testing"
)

// The drawn plans are well-formed SVG naming every room, with every room
// and location of the floor placed inside the plan, each location inside
// its room.
func TestFloorPlansPlaceEveryRoomAndLocation(t *testing.T) {
	w := New(Config{Seed: 3, Locations: 120, Accounts: 1})
	defer w.Close()
	a := w.Accounts()[0]
	plans := a.FloorPlans()
	floors := 0
	for _, b := range a.Buildings {
		floors += len(b.Floors)
	}
	if len(plans) != floors || floors == 0 {
		t.Fatalf("%d plans of %d floors", len(plans), floors)
	}
	for _, p := range plans {
		if err := xml.Unmarshal(p.SVG, new(struct{})); err != nil {
			t.Errorf("floor %s: the SVG does not parse: %v", p.FloorID, err)
		}
		for _, r := range a.Rooms {
			if r.Floor.ID != p.FloorID {
				continue
			}
			box, ok := p.Rooms[r.ID]
			if !ok || box[0]+box[2] > p.Width || box[1]+box[3] > p.Height {
				t.Errorf("room %s: %v on a plan of %d × %d", r.Name, box, p.Width, p.Height)
			}
			if !strings.Contains(string(p.SVG), ">"+xmlText(r.Name)+"<") {
				t.Errorf("the plan does not name room %s", r.Name)
			}
			for _, l := range r.Locations {
				at, ok := p.Locations[strconv.FormatInt(l.ID, 10)]
				if !ok || at[0] < box[0] || at[0] > box[0]+box[2] || at[1] < box[1] || at[1] > box[1]+box[3] {
					t.Errorf("location %d at %v, outside its room %v", l.ID, at, box)
				}
			}
		}
	}
}

func xmlText(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}
