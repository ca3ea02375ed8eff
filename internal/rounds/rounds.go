// Package rounds plans rounds from need (docs/rounds.md): which rooms of a
// part of an account to visit now, what to do and bring in each, in the
// order one walks, within a limit of rooms or minutes.
//
// A plan is made from needs: open alerts (the service's, and visitors'
// reports), and dispensers the forecasts say run out before the next
// round. Make is a pure function of its Input, so that the pages, the
// schedule at each shift's start and the backtest plan alike.
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
	RunsOut time.Time
	// Refills and Batteries are what to bring for it.
	Refills, Batteries int
}

// Room is a room a round may visit. Order is its place in the walking
// order of the part of the account (building, floor, room in the
// layout's order), lowest first.
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
	// after it can wait for that round.
	NextRound time.Time
	Limits    Limits
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
	rooms := make(map[string]Room, len(in.Rooms))
	for _, r := range in.Rooms {
		rooms[r.ID] = r
	}
	byRoom := map[string]*Stop{}
	var stops []*Stop
	for _, n := range in.Needs {
		r, ok := rooms[n.RoomID]
		if !ok || (n.Kind == NeedRunsOut && !in.NextRound.IsZero() && n.RunsOut.After(in.NextRound)) {
			continue
		}
		st := byRoom[r.ID]
		if st == nil {
			st = &Stop{Room: r}
			byRoom[r.ID] = st
			stops = append(stops, st)
		}
		st.Needs = append(st.Needs, n)
	}
	for _, st := range stops {
		slices.SortStableFunc(st.Needs, compareNeeds)
	}
	// Most urgent room first: by its most urgent need, then walking order.
	slices.SortStableFunc(stops, func(a, b *Stop) int {
		return cmp.Or(compareNeeds(a.Needs[0], b.Needs[0]), cmp.Compare(a.Room.Order, b.Room.Order))
	})
	var p Plan
	var chosen []Stop
	for _, st := range stops {
		next := append(slices.Clone(chosen), *st)
		sortWalk(next)
		d := in.Limits.duration(next)
		if (in.Limits.Rooms > 0 && len(next) > in.Limits.Rooms) ||
			(in.Limits.Minutes > 0 && d > time.Duration(in.Limits.Minutes)*time.Minute) {
			p.Left = append(p.Left, *st)
			continue
		}
		chosen = next
	}
	p.Stops = chosen
	p.Duration = in.Limits.duration(chosen)
	sortWalk(p.Left)
	return p
}

// compareNeeds orders needs by urgency: kind, then the sooner run-out.
func compareNeeds(a, b Need) int {
	return cmp.Or(cmp.Compare(a.Kind.rank(), b.Kind.rank()), a.RunsOut.Compare(b.RunsOut))
}

// sortWalk puts stops in walking order.
func sortWalk(stops []Stop) {
	slices.SortStableFunc(stops, func(a, b Stop) int { return cmp.Compare(a.Room.Order, b.Room.Order) })
}

// duration is the time stops in walking order take.
func (l Limits) duration(stops []Stop) time.Duration {
	var d time.Duration
	for i, st := range stops {
		d += l.PerRoom
		if i > 0 && st.Room.FloorID != stops[i-1].Room.FloorID {
			d += l.PerFloorChange
		}
	}
	return d
}
