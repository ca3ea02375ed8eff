package clientreport

import (
	"cmp"
	"slices"

	"washboard/internal/domain"
	"washboard/internal/visitors"
)

// MaxLowestRooms is how many of the rooms rated lowest a report lists.
const MaxLowestRooms = 5

// Ratings are what the washrooms' visitors rated in the period
// (docs/visitors.md): by building, and the rooms rated lowest.
type Ratings struct {
	// Count and Average are of every room of the report's buildings.
	Count   int
	Average float64
	// ByBuilding is each building's, by building id, in the order of the
	// buildings' names; Lowest the rooms rated lowest, at most
	// MaxLowestRooms.
	ByBuilding []BuildingRating
	Lowest     []RatedRoom
}

// BuildingRating is what visitors rated a building's rooms.
type BuildingRating struct {
	Building string // its id
	Count    int
	Average  float64
}

// RatedRoom is a room rated low, with its names.
type RatedRoom struct {
	Building, Floor, Room string
	Count                 int
	Average               float64
}

// RoomPlace is where a room is: its building's id, and the names of its
// building, floor and itself.
type RoomPlace struct {
	BuildingID, Building, Floor, Room string
}

// AddRatings adds what visitors rated in the period: rs are the ratings
// of the rooms the report covers, places where each room is (a room not
// in it counts for no building).
func (r *Report) AddRatings(rs []domain.Rating, places map[string]RoomPlace) {
	var out Ratings
	sums := map[string]*BuildingRating{}
	total := 0
	for _, x := range rs {
		b := places[x.RoomID].BuildingID
		s := sums[b]
		if s == nil {
			s = &BuildingRating{Building: b}
			sums[b] = s
		}
		s.Count++
		s.Average += float64(x.Rating)
		total += x.Rating
	}
	if len(rs) == 0 {
		r.Ratings = out
		return
	}
	out.Count, out.Average = len(rs), float64(total)/float64(len(rs))
	for _, s := range sums {
		s.Average /= float64(s.Count)
		out.ByBuilding = append(out.ByBuilding, *s)
	}
	slices.SortFunc(out.ByBuilding, func(a, b BuildingRating) int {
		return cmp.Or(cmp.Compare(r.BuildingName(a.Building), r.BuildingName(b.Building)), cmp.Compare(a.Building, b.Building))
	})
	for _, room := range visitors.ByRoom(rs) {
		if len(out.Lowest) == MaxLowestRooms {
			break
		}
		p := places[room.RoomID]
		if p.Room == "" {
			p.Room = room.RoomID
		}
		out.Lowest = append(out.Lowest, RatedRoom{Building: p.Building, Floor: p.Floor, Room: p.Room, Count: room.Count, Average: room.Average})
	}
	r.Ratings = out
}
