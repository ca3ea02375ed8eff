package rounds

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
)

// building500 is one building of 500 locations as the simulator lays
// them out: 10 floors of 15 rooms (washrooms of 3 or 4 locations, a
// cleaner's cupboard), and needs as a morning shift finds them: every
// dispenser's forecast (a fifth run out within the next two hours), 20
// open alerts about supplies, 8 faults and 5 visitors' reports.
func building500() Input {
	r := rand.New(rand.NewPCG(500, 1))
	in := Input{NextRound: now.Add(2 * time.Hour), Ahead: 90 * time.Minute,
		Limits: Limits{Minutes: 120, PerRoom: DefaultLimits.PerRoom, PerFloorChange: DefaultLimits.PerFloorChange}}
	locations := 0
	var rooms []Room
	for f := range 10 {
		for k := range 15 {
			room := Room{ID: "room-" + strconv.Itoa(f) + "-" + strconv.Itoa(k), FloorID: "floor-" + strconv.Itoa(f), BuildingID: "b", Order: len(rooms)}
			rooms = append(rooms, room)
			n := 3 + r.IntN(2)
			if k == 0 {
				n = 1 // the cupboard's gateway
				locations++
				continue
			}
			for range n {
				if locations == 500 {
					break
				}
				loc := "loc-" + strconv.Itoa(locations)
				locations++
				runsOut := now.Add(time.Duration(r.Float64() * float64(60*time.Hour)))
				if r.IntN(5) == 0 {
					runsOut = now.Add(time.Duration(r.Float64() * float64(2*time.Hour)))
				}
				in.Needs = append(in.Needs, Need{Kind: NeedRunsOut, RoomID: room.ID, LocationID: loc, RunsOut: runsOut, Refills: 1})
			}
		}
	}
	in.Rooms = rooms
	for i, kind := range []NeedKind{NeedOut, NeedFault, NeedVisitor} {
		for range []int{20, 8, 5}[i] {
			room := rooms[1+r.IntN(len(rooms)-1)]
			in.Needs = append(in.Needs, Need{Kind: kind, RoomID: room.ID, AlertID: "alert-" + strconv.Itoa(r.IntN(1e6))})
		}
	}
	return in
}

// BenchmarkMake plans a round of one building of 500 locations within
// two hours (building500): the planner's share of making a round from
// forecasts and open alerts, whose whole should take under 50 ms.
//
//	go test ./internal/rounds -run '^$' -bench Make
func BenchmarkMake(b *testing.B) {
	in := building500()
	var p Plan
	for b.Loop() {
		p = Make(in)
	}
	if len(p.Stops) == 0 || len(p.Left) == 0 {
		b.Fatalf("%d stops, %d left: the building should fill its two hours and leave some", len(p.Stops), len(p.Left))
	}
	b.ReportMetric(float64(len(in.Needs)), "needs")
	b.ReportMetric(float64(len(p.Stops)), "stops")
}
