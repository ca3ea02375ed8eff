package visitors

import (
	"testing"
	"time"

	"washboard/internal/domain"
)

// Ratings add up by week from Monday in the zone, and by room, the lowest
// first.
func TestRatingsAddUpByWeekAndRoom(t *testing.T) {
	zone := time.FixedZone("CET", 3600)
	sun := time.Date(2026, 11, 22, 23, 30, 0, 0, time.UTC) // Monday 00:30 in CET
	rs := []domain.Rating{
		{RoomID: "r1", At: sun.Add(-2 * time.Hour), Rating: 5}, // Sunday in CET: the week before
		{RoomID: "r1", At: sun, Rating: 1},
		{RoomID: "r2", At: sun.Add(time.Hour), Rating: 2},
		{RoomID: "r3", At: sun.Add(2 * time.Hour), Rating: 4},
		{RoomID: "r2", At: sun.Add(3 * time.Hour), Rating: 2},
	}
	weeks := ByWeek(Daily(rs, zone), zone)
	if len(weeks) != 2 || !weeks[1].Week.Equal(time.Date(2026, 11, 23, 0, 0, 0, 0, zone)) || weeks[0].Count != 1 || weeks[0].Average != 5 ||
		weeks[1].Count != 4 || weeks[1].Average != 2.25 {
		t.Errorf("by week = %+v", weeks)
	}
	rooms := ByRoom(rs)
	if len(rooms) != 3 || rooms[0].RoomID != "r2" || rooms[0].Average != 2 || rooms[0].Count != 2 || rooms[1].RoomID != "r1" || rooms[2].RoomID != "r3" {
		t.Errorf("by room = %+v; want r2 (2), r1 (3), r3 (4)", rooms)
	}
}
