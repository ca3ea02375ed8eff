package views

import "time"

// Ratings are what visitors rated a room, or the rooms of a trends page:
// by week, and the rooms rated lowest (docs/visitors.md).
type Ratings struct {
	// Count and Average are of the whole span; Count 0 when none.
	Count   int
	Average float64
	Weeks   []RatingWeek
	// Buildings are each building's, in the client report (Room is the
	// building's name).
	Buildings []RatedRoom
	Lowest    []RatedRoom // on the trends page and the client report
	Zone      *time.Location
}

// RatingWeek is a week's ratings, from Monday.
type RatingWeek struct {
	Week    time.Time
	Count   int
	Average float64
}

// RatedRoom is a room's ratings, with where it is and its page.
type RatedRoom struct {
	Room, Where, Href string
	Count             int
	Average           float64
}
