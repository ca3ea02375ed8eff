package domain

import "time"

// Round is a round from need (docs/rounds.md): the rooms of a part of an
// account one person or team visits, in walking order, with what to do
// and bring in each, ticked off as they go.
type Round struct {
	ID string
	// Buildings and Floors are the part of the account the round covers:
	// whole buildings, and floors of others. InBuildings are the buildings
	// of both, for a person limited to some buildings.
	Buildings, Floors, InBuildings []string
	// PersonID is who walks it; Team, when PersonID is empty, the team.
	// Name is the person's name as it was when the round was made.
	PersonID, Team, Name string
	// MadeBy is the person who made it, or RoundBySchedule.
	MadeBy string
	MadeAt time.Time
	Limits RoundLimits
	// Stops are the rooms to visit, in walking order; Left, once the
	// round ended, what it left for the next round.
	Stops []RoundStop
	Left  []RoundStop
	// Ended is when the round ended; zero while it runs.
	Ended time.Time
}

// RoundBySchedule is the MadeBy of a round a schedule made.
const RoundBySchedule = "schedule"

// RoundLimits bound a round: at most Rooms rooms and at most Minutes
// minutes (0: no limit), a room taking PerRoom and a change of floor
// PerFloorChange.
type RoundLimits struct {
	Rooms, Minutes          int
	PerRoom, PerFloorChange time.Duration
}

// RoundStop is a room of a round and what to do there.
type RoundStop struct {
	RoomID string
	Needs  []RoundNeed
	Status StopStatus
	// Reason is why the room was skipped.
	Reason string
	// PersonID and Name are who ticked it, At when.
	PersonID, Name string
	At             time.Time
}

// RoundNeed is one thing to do in a room of a round.
type RoundNeed struct {
	// Kind is why: "out", "fault", "visitor", "runs_out" (rounds.NeedKind).
	Kind       string     `json:"kind"`
	LocationID string     `json:"location"`
	DeviceType DeviceType `json:"type,omitempty"`
	AlertID    string     `json:"alert,omitempty"`
	RunsOut    time.Time  `json:"runs_out,omitzero"`
	Refills    int        `json:"refills,omitempty"`
	Batteries  int        `json:"batteries,omitempty"`
	// Since says that the need appeared after the round was made (a need
	// the round left for the next).
	Since bool `json:"since,omitempty"`
	// Visitor is what a visitor's report said was wrong (a "visitor"
	// need), and VisitorText what they wrote with VisitorOther.
	Visitor     VisitorKind `json:"visitor,omitempty"`
	VisitorText string      `json:"visitor_text,omitempty"`
}

// StopStatus is where a stop of a round stands.
type StopStatus string

// The states of a stop.
const (
	StopToDo    StopStatus = "todo"
	StopDone    StopStatus = "done"
	StopSkipped StopStatus = "skipped"
)

// Progress counts a round's stops: done, skipped, and all.
func (r Round) Progress() (done, skipped, all int) {
	for _, st := range r.Stops {
		switch st.Status {
		case StopDone:
			done++
		case StopSkipped:
			skipped++
		}
	}
	return done, skipped, len(r.Stops)
}

// Running says whether the round has not ended.
func (r Round) Running() bool { return r.Ended.IsZero() }

// RoundSchedule makes a round at each start of a shift of the account:
// of the part, for the person or team, within the limits.
type RoundSchedule struct {
	ID                   string
	Buildings, Floors    []string
	PersonID, Team, Name string
	Limits               RoundLimits
	MadeBy               string
	Created              time.Time
}
