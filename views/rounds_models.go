package views

import "time"

// Rounds is /rounds: the rounds running and the recent ones, and for a
// supervisor the form to make one.
type Rounds struct {
	Page
	Running, Recent []RoundLine
	// MayMake shows the form: supervisors and above.
	MayMake bool
	Form    RoundForm
	// Schedules make a round at each shift start.
	Schedules []RoundScheduleLine
}

// RoundScheduleLine is a schedule of rounds in the list.
type RoundScheduleLine struct {
	Who, Part      string
	Rooms, Minutes int
	// RemoveAction is where the form that removes it posts; "" for a
	// person who may not.
	RemoveAction string
}

// RoundLine is a round in the list.
type RoundLine struct {
	Href string
	// Who walks it: a person's name, or a team's.
	Who string
	// Part is the buildings and floors it covers, in words.
	Part   string
	MadeAt time.Time
	Ended  time.Time
	// Done, Skipped and All count its rooms.
	Done, Skipped, All int
}

// RoundForm is the form that makes a round, as it was sent (or empty).
type RoundForm struct {
	Buildings, Floors []Choice
	// People are the people who may walk it; Person the one chosen.
	People []Option
	Team   string
	// Rooms, Minutes, PerRoom and PerFloor are the limits as typed.
	Rooms, Minutes, PerRoom, PerFloor string
	// DefaultPerRoom and DefaultPerFloor are the times assumed, in
	// minutes.
	DefaultPerRoom, DefaultPerFloor int
	// Problem is why the form was refused, in words.
	Problem string
}

// Choice is a box to tick.
type Choice struct {
	Value, Label string
	Checked      bool
}

// RoundPage is a round: its rooms in walking order, grouped by floor, what
// to bring, and once it ended what it left for the next round.
type RoundPage struct {
	Page
	ID, Who, Part string
	MadeAt, Ended time.Time
	// Minutes is the time its rooms take by its limits.
	Minutes            int
	Done, Skipped, All int
	Floors             []RoundFloor
	Bring              []string
	// Left is what it left for the next round, once it ended.
	Left []RoundStopLine
	// MayTick shows the forms to tick rooms; MayEnd the form to end it.
	MayTick, MayEnd bool
	Problem         string
}

// RoundFloor is the stops of a round on one floor: a printed page each.
type RoundFloor struct {
	Building, Floor string
	Stops           []RoundStopLine
	// Plan is the floor's plan with its rooms to visit numbered in
	// walking order, printed above them; nil without a plan.
	Plan *PrintPlan
}

// RoundStopLine is a room of a round.
type RoundStopLine struct {
	// ID is its element id, the target htmx swaps; Action where its form
	// posts.
	ID, Action string
	Room       string
	// Building and Floor say where it is, for a stop left for the next
	// round (the round's own are grouped by floor).
	Building, Floor string
	Needs           []string
	Bring           []string
	// Status is "todo", "done" or "skipped"; StatusWords says it with who
	// and when: "Done by Ana at 09:12".
	Status, StatusWords string
	// Since marks a stop left for the next round whose need appeared
	// after the round was made.
	Since bool
	// Reason is the reason typed, shown again with Problem when a skip was
	// refused.
	Reason, Problem string
	MayTick         bool
}

// MyRound is the person's running round, at the top of "My work": its
// progress, its next rooms and a link to it.
type MyRound struct {
	Href               string
	Done, Skipped, All int
	// Next are the next rooms to do, in walking order: "Level 2 › Room 2.04".
	Next []string
}

// ScreenRound is a round running, as a wall screen shows it: who walks
// it (a person's name, or a team's), and its rooms.
type ScreenRound struct {
	Person, Team       string
	Done, Skipped, All int
}
