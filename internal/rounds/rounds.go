// Package rounds plans rounds from need (docs/rounds.md): which rooms of a
// part of an account to visit now, what to do and bring in each, in the
// order one walks, within a limit of rooms or minutes; and measures what
// they save against fixed rounds (ChecksSaved).
//
// A plan is made from needs: open alerts (the service's, and visitors'
// reports), and dispensers the forecasts say run out before the next
// round. Make is a pure function of its Input, so that the pages, the
// schedule at each shift's start and the backtest plan alike.
//
// # Choosing
//
// A room is due when it has a need: an open alert, a visitor's report,
// or a dispenser that runs out before the next round is due (NextRound),
// or up to Ahead after it: the next round's own visits come after its
// start, and a forecast errs. Rooms are taken most urgent first (by their
// most urgent need: what is out, then faults, then visitors' reports, then
// what runs out soonest; then the room with more needs; then the walking
// order) as long as the round stays within its limits; a room that does
// not fit is left for the next round, and a later, cheaper room (one on a
// floor already walked) may still fit.
//
// # Walking
//
// A round is walked in the order of Room.Order, lowest first. The caller
// fills it: the layout's order (building, floor, room), and within a
// floor with a plan the plan's (WalkPlan: the nearest room next); Make
// only follows it. A round's
// time is PerRoom for each room and PerFloorChange for each step to a
// room on another floor (or building) in that order.
//
// Make costs O(n log n) in the needs and rooms it is given: the time a
// room adds to a round is found from its neighbours in walking order among
// the rooms already chosen, not by walking the round again. BenchmarkMake
// plans one building of 500 locations in a fraction of a millisecond.
//
// # How good
//
// BenchmarkBacktest plays a simulated account's week twice, with rounds
// from need and with fixed rounds every two hours, with the same staff,
// and compares them as ChecksSaved does; its figures and the planner's
// tuning are in docs/rounds.md ("The backtest"):
//
//	go test ./internal/rounds -run '^$' -bench Backtest -benchtime 1x
package rounds

import (
	"cmp"
	"slices"
	"time"

	"washboard/internal/domain"
)

// NeedKind says why a location is on a round.
type NeedKind string

// The kinds of need, most urgent first.
const (
	NeedOut     NeedKind = "out"      // an open alert about supplies: product or batteries out
	NeedFault   NeedKind = "fault"    // another open alert of the service: a jam, a fault, offline
	NeedVisitor NeedKind = "visitor"  // a visitor's report
	NeedRunsOut NeedKind = "runs_out" // a dispenser the forecast says runs out before the next round
)

// rank orders kinds by urgency.
func (k NeedKind) rank() int {
	switch k {
	case NeedOut:
		return 0
	case NeedFault:
		return 1
	case NeedVisitor:
		return 2
	}
	return 3
}

// Need is one thing to do at a location.
type Need struct {
	Kind       NeedKind
	LocationID string
	RoomID     string
	DeviceType domain.DeviceType
	// AlertID is the alert (or visitor's report) the need comes from;
	// empty for a dispenser that runs out.
	AlertID string
	// RunsOut is when a dispenser is estimated to run out (NeedRunsOut).
	// The caller chooses which estimate: the most likely time, or the
	// earliest of its range to be safe.
	RunsOut time.Time
	// Refills and Batteries are what to bring for it.
	Refills, Batteries int
}

// Room is a room a round may visit. Order is its place in the walking
// order of the part of the account, lowest first: the caller fills it
// from the layout's order (building, floor, room), or from a floor plan's
// where there is one. Rooms of equal Order are walked in the order given.
type Room struct {
	ID, FloorID, BuildingID string
	Order                   int
}

// Limits bound a round: at most Rooms rooms (0: no limit) and at most
// Minutes minutes (0: no limit), a room costing PerRoom and each change of
// floor PerFloorChange.
type Limits struct {
	Rooms          int
	Minutes        int
	PerRoom        time.Duration
	PerFloorChange time.Duration
}

// DefaultLimits are the times a round assumes unless the account set its
// own.
var DefaultLimits = Limits{PerRoom: 4 * time.Minute, PerFloorChange: 2 * time.Minute}

// Input is what a round is planned from.
type Input struct {
	// Rooms are the rooms of the part of the account the round covers.
	// Needs of other rooms are ignored.
	Rooms []Room
	Needs []Need
	// NextRound is when the next round is due: a dispenser running out
	// more than Ahead after it can wait for that round. A zero NextRound
	// takes every dispenser that runs out.
	NextRound time.Time
	// Ahead is how long after NextRound a dispenser that runs out is
	// still taken now: the next round reaches a room some time after it
	// starts, and forecasts err. Zero cuts at NextRound.
	Ahead  time.Duration
	Limits Limits
}

// Stop is one room to visit and what to do there.
type Stop struct {
	Room  Room
	Needs []Need
}

// Plan is a round: the rooms to visit, in walking order, and those that
// need a visit but did not fit in the limits, left for the next round.
type Plan struct {
	Stops []Stop
	Left  []Stop
	// Duration is the time the stops take by the limits' times.
	Duration time.Duration
}

// Make plans a round. Rooms are chosen by their most urgent need (what is
// out, then faults, then visitors' reports, then what runs out soonest)
// until a limit is reached, then visited in walking order.
func Make(in Input) Plan {
	stops, given := due(in)
	if len(stops) == 0 {
		return Plan{}
	}
	// Each room's place in walking order among the rooms due.
	walk := make([]int, len(stops))
	for i := range walk {
		walk[i] = i
	}
	slices.SortFunc(walk, func(a, b int) int {
		return cmp.Or(cmp.Compare(stops[a].Room.Order, stops[b].Room.Order), cmp.Compare(given[a], given[b]))
	})
	place := make([]int, len(stops))
	for p, i := range walk {
		place[i] = p
	}
	urgent := slices.Clone(walk)
	slices.SortStableFunc(urgent, func(a, b int) int { return compareStops(stops[a], stops[b]) })

	l := in.Limits
	most := time.Duration(l.Minutes) * time.Minute
	chosen := newWalkSet(len(stops))
	var d time.Duration
	taken := make([]bool, len(stops))
	for _, i := range urgent {
		if l.Rooms > 0 && chosen.n >= l.Rooms {
			break // nothing more fits; the rest are left
		}
		p := place[i]
		before, after := chosen.around(p)
		add := l.PerRoom
		floor := stops[i].Room.FloorID
		if before >= 0 {
			add += l.change(stops[walk[before]].Room.FloorID, floor)
		}
		if after >= 0 {
			add += l.change(floor, stops[walk[after]].Room.FloorID)
		}
		if before >= 0 && after >= 0 {
			add -= l.change(stops[walk[before]].Room.FloorID, stops[walk[after]].Room.FloorID)
		}
		if l.Minutes > 0 && d+add > most {
			continue
		}
		chosen.add(p)
		d += add
		taken[i] = true
	}
	p := Plan{Duration: d}
	for _, i := range walk {
		if taken[i] {
			p.Stops = append(p.Stops, stops[i])
		} else {
			p.Left = append(p.Left, stops[i])
		}
	}
	return p
}

// due gathers the needs of the input's rooms that are due now, by room,
// each room's most urgent first, with each room's place in in.Rooms.
func due(in Input) (stops []Stop, given []int) {
	rooms := make(map[string]int, len(in.Rooms))
	for i, r := range in.Rooms {
		if _, dup := rooms[r.ID]; !dup {
			rooms[r.ID] = i
		}
	}
	cut := in.NextRound.Add(in.Ahead)
	byRoom := map[string]int{}
	for _, n := range in.Needs {
		r, ok := rooms[n.RoomID]
		if !ok || (n.Kind == NeedRunsOut && !in.NextRound.IsZero() && n.RunsOut.After(cut)) {
			continue
		}
		s, ok := byRoom[n.RoomID]
		if !ok {
			s = len(stops)
			byRoom[n.RoomID] = s
			stops = append(stops, Stop{Room: in.Rooms[r]})
			given = append(given, r)
		}
		stops[s].Needs = append(stops[s].Needs, n)
	}
	for _, st := range stops {
		slices.SortStableFunc(st.Needs, compareNeeds)
	}
	return stops, given
}

// compareStops orders rooms by urgency: their most urgent need, then the
// room with more needs, then walking order.
func compareStops(a, b Stop) int {
	return cmp.Or(compareNeeds(a.Needs[0], b.Needs[0]), cmp.Compare(len(b.Needs), len(a.Needs)), cmp.Compare(a.Room.Order, b.Room.Order))
}

// compareNeeds orders needs by urgency: kind, then the sooner run-out.
func compareNeeds(a, b Need) int {
	return cmp.Or(cmp.Compare(a.Kind.rank(), b.Kind.rank()), a.RunsOut.Compare(b.RunsOut))
}

// change is the time of a step from a room on one floor to a room on
// another.
func (l Limits) change(from, to string) time.Duration {
	if from == to {
		return 0
	}
	return l.PerFloorChange
}

// walkSet is the rooms chosen, by their place in walking order: a
// Fenwick tree of counts, so that a room's neighbours among them are
// found in O(log n).
type walkSet struct {
	tree []int // 1-based
	n    int
	top  int // the highest power of two within len(tree)-1
}

func newWalkSet(size int) *walkSet {
	top := 1
	for top*2 <= size {
		top *= 2
	}
	return &walkSet{tree: make([]int, size+1), top: top}
}

func (s *walkSet) add(p int) {
	s.n++
	for i := p + 1; i < len(s.tree); i += i & -i {
		s.tree[i]++
	}
}

// below counts the places chosen before p.
func (s *walkSet) below(p int) int {
	c := 0
	for i := p; i > 0; i -= i & -i {
		c += s.tree[i]
	}
	return c
}

// kth is the place of the k-th place chosen (1-based) in walking order.
func (s *walkSet) kth(k int) int {
	pos := 0
	for step := s.top; step > 0; step /= 2 {
		if next := pos + step; next < len(s.tree) && s.tree[next] < k {
			pos = next
			k -= s.tree[next]
		}
	}
	return pos // 0-based: the place after the pos places counted
}

// around is the places chosen just before and just after p, which is not
// chosen; -1 where there is none.
func (s *walkSet) around(p int) (before, after int) {
	c := s.below(p)
	before, after = -1, -1
	if c > 0 {
		before = s.kth(c)
	}
	if c < s.n {
		after = s.kth(c + 1)
	}
	return before, after
}
