package rounds

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"
)

var now = time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC)

func TestMakeVisitsTheMostUrgentRoomsInWalkingOrderWithinTheLimit(t *testing.T) {
	rooms := []Room{
		{ID: "r1", FloorID: "f1", Order: 0},
		{ID: "r2", FloorID: "f1", Order: 1},
		{ID: "r3", FloorID: "f2", Order: 2},
		{ID: "r4", FloorID: "f2", Order: 3},
	}
	in := Input{
		Rooms: rooms,
		Needs: []Need{
			{Kind: NeedRunsOut, RoomID: "r1", LocationID: "l1", RunsOut: now.Add(time.Hour)},
			{Kind: NeedOut, RoomID: "r4", LocationID: "l4", Refills: 1},
			{Kind: NeedRunsOut, RoomID: "r2", LocationID: "l2", RunsOut: now.Add(5 * time.Hour)}, // after the next round
			{Kind: NeedFault, RoomID: "r3", LocationID: "l3"},
			{Kind: NeedOut, RoomID: "elsewhere", LocationID: "l9"},
		},
		NextRound: now.Add(2 * time.Hour),
		Limits:    Limits{Rooms: 2, PerRoom: 4 * time.Minute, PerFloorChange: 2 * time.Minute},
	}
	p := Make(in)
	if got := roomIDs(p.Stops); got != "r3 r4" {
		t.Errorf("stops = %q, want the out and the fault, in walking order: r3 r4", got)
	}
	if got := roomIDs(p.Left); got != "r1" {
		t.Errorf("left = %q, want r1 (runs out before the next round, beyond the limit)", got)
	}
	if p.Duration != 8*time.Minute {
		t.Errorf("duration = %v, want two rooms on one floor: 8m", p.Duration)
	}

	in.Limits = Limits{Minutes: 12, PerRoom: 4 * time.Minute, PerFloorChange: 2 * time.Minute}
	p = Make(in)
	if got := roomIDs(p.Stops); got != "r3 r4" {
		t.Errorf("with 12 minutes, stops = %q, want r3 r4 (a third room and a floor change take 14)", got)
	}
}

// TestMakeTakesRoomsByUrgency: with room for three of five rooms, what is
// out comes first, then a fault, then a visitor's report, then the
// dispenser that runs out sooner; the room with more needs wins a tie.
func TestMakeTakesRoomsByUrgency(t *testing.T) {
	rooms := []Room{{ID: "a", FloorID: "f", Order: 0}, {ID: "b", FloorID: "f", Order: 1}, {ID: "c", FloorID: "f", Order: 2},
		{ID: "d", FloorID: "f", Order: 3}, {ID: "e", FloorID: "f", Order: 4}}
	needs := []Need{
		{Kind: NeedRunsOut, RoomID: "a", RunsOut: now.Add(30 * time.Minute)},
		{Kind: NeedRunsOut, RoomID: "b", RunsOut: now.Add(20 * time.Minute)},
		{Kind: NeedVisitor, RoomID: "c", AlertID: "v1"},
		{Kind: NeedFault, RoomID: "d", AlertID: "a1"},
		{Kind: NeedOut, RoomID: "e", AlertID: "a2"},
	}
	for _, c := range []struct {
		rooms int
		want  string
	}{{1, "e"}, {2, "d e"}, {3, "c d e"}, {4, "b c d e"}, {5, "a b c d e"}} {
		p := Make(Input{Rooms: rooms, Needs: needs, Limits: Limits{Rooms: c.rooms, PerRoom: time.Minute}})
		if got := roomIDs(p.Stops); got != c.want {
			t.Errorf("with %d rooms, stops = %q, want %q", c.rooms, got, c.want)
		}
		if len(p.Stops)+len(p.Left) != 5 {
			t.Errorf("with %d rooms, %d stops and %d left, want the 5 rooms due", c.rooms, len(p.Stops), len(p.Left))
		}
	}

	// Two rooms with the same most urgent need: the one with more to do.
	p := Make(Input{Rooms: rooms, Needs: []Need{
		{Kind: NeedOut, RoomID: "a", AlertID: "x"},
		{Kind: NeedOut, RoomID: "b", AlertID: "y"}, {Kind: NeedRunsOut, RoomID: "b", RunsOut: now},
	}, Limits: Limits{Rooms: 1}})
	if got := roomIDs(p.Stops); got != "b" {
		t.Errorf("stops = %q, want b, which has two needs to a's one", got)
	}
	if len(p.Stops) == 1 && (len(p.Stops[0].Needs) != 2 || p.Stops[0].Needs[0].Kind != NeedOut) {
		t.Errorf("b's needs = %+v, want both, the out first", p.Stops[0].Needs)
	}
}

// TestMakeCountsFloorChangesInMinutes: a round's minutes are its rooms
// and its changes of floor in walking order; a room on a floor already
// walked still fits when one on another floor does not.
func TestMakeCountsFloorChangesInMinutes(t *testing.T) {
	rooms := []Room{
		{ID: "g1", FloorID: "G", Order: 0}, {ID: "g2", FloorID: "G", Order: 1},
		{ID: "u1", FloorID: "1", Order: 2},
		{ID: "t1", FloorID: "2", Order: 3}, {ID: "t2", FloorID: "2", Order: 4},
	}
	needs := []Need{
		{Kind: NeedOut, RoomID: "g1"},
		{Kind: NeedOut, RoomID: "t1"},
		{Kind: NeedFault, RoomID: "u1"}, // between G and 2: a room, and a change of floor more
		{Kind: NeedRunsOut, RoomID: "g2", RunsOut: now},
		{Kind: NeedRunsOut, RoomID: "t2", RunsOut: now.Add(time.Minute)},
	}
	// In walking order: g1 g2 | u1 | t1 t2. Four minutes a room, three a
	// change of floor. Most urgent first: g1, t1 (out), u1 (a fault), g2,
	// t2 (run out).
	for _, c := range []struct {
		minutes     int
		stops, left string
		d           time.Duration
	}{
		{10, "g1 g2", "u1 t1 t2", 8 * time.Minute},   // t1 and u1 would add a room and a change
		{11, "g1 t1", "g2 u1 t2", 11 * time.Minute},  // G, a change, 2
		{17, "g1 g2 t1", "u1 t2", 15 * time.Minute},  // u1 adds a room and a change (18); g2 only a room
		{19, "g1 u1 t1", "g2 t2", 18 * time.Minute},  // G→1→2 is a change more than G→2
		{26, "g1 g2 u1 t1 t2", "", 26 * time.Minute}, // five rooms, two changes
		{0, "g1 g2 u1 t1 t2", "", 26 * time.Minute},  // no limit
	} {
		p := Make(Input{Rooms: rooms, Needs: needs, Limits: Limits{Minutes: c.minutes, PerRoom: 4 * time.Minute, PerFloorChange: 3 * time.Minute}})
		if got, left := roomIDs(p.Stops), roomIDs(p.Left); got != c.stops || left != c.left || p.Duration != c.d {
			t.Errorf("within %d minutes: stops %q, left %q, %v; want %q, %q, %v", c.minutes, got, left, p.Duration, c.stops, c.left, c.d)
		}
	}
}

// TestMakeTakesWhatRunsOutBeforeTheNextRound: a dispenser that runs out
// after the next round (and Ahead after it) waits for it; open alerts and
// visitors' reports never wait; without a next round every run-out is due.
func TestMakeTakesWhatRunsOutBeforeTheNextRound(t *testing.T) {
	rooms := []Room{{ID: "a", FloorID: "f", Order: 0}, {ID: "b", FloorID: "f", Order: 1}, {ID: "c", FloorID: "f", Order: 2},
		{ID: "d", FloorID: "f", Order: 3}, {ID: "e", FloorID: "f", Order: 4}}
	needs := []Need{
		{Kind: NeedRunsOut, RoomID: "a", RunsOut: now.Add(2 * time.Hour)},               // at the next round: due
		{Kind: NeedRunsOut, RoomID: "b", RunsOut: now.Add(2*time.Hour + time.Minute)},   // just after
		{Kind: NeedRunsOut, RoomID: "c", RunsOut: now.Add(3 * time.Hour)},               // an hour after
		{Kind: NeedVisitor, RoomID: "d", AlertID: "v", RunsOut: now.Add(9 * time.Hour)}, // a report waits for nothing
		{Kind: NeedOut, RoomID: "e", AlertID: "x", RunsOut: now.Add(-9 * time.Hour)},    // nor an alert
		{Kind: NeedRunsOut, RoomID: "e", RunsOut: now.Add(48 * time.Hour)},              // this waits: e is due for its alert
	}
	for _, c := range []struct {
		next  time.Time
		ahead time.Duration
		want  string
	}{
		{now.Add(2 * time.Hour), 0, "a d e"},
		{now.Add(2 * time.Hour), time.Hour, "a b c d e"},
		{now.Add(2 * time.Hour), 30 * time.Minute, "a b d e"},
		{now.Add(time.Hour), 0, "d e"},
		{time.Time{}, 0, "a b c d e"},
	} {
		p := Make(Input{Rooms: rooms, Needs: needs, NextRound: c.next, Ahead: c.ahead, Limits: DefaultLimits})
		if got := roomIDs(p.Stops); got != c.want || len(p.Left) != 0 {
			t.Errorf("next round %s, %v ahead: stops %q, left %q; want %q, none left", c.next.Format(time.Kitchen), c.ahead, got, roomIDs(p.Left), c.want)
		}
		for _, st := range p.Stops {
			if st.Room.ID == "e" && (len(st.Needs) != 1) == !c.next.IsZero() {
				t.Errorf("next round %s: e's needs = %+v; the run-out two days on waits for a later round", c.next.Format(time.Kitchen), st.Needs)
			}
		}
	}
}

// TestMakeVisitsRoomsOnlyForTheirReports: a room with nothing but a
// visitor's report is on the round, with the report as what to do.
func TestMakeVisitsRoomsOnlyForTheirReports(t *testing.T) {
	p := Make(Input{
		Rooms:  []Room{{ID: "a", FloorID: "f"}, {ID: "b", FloorID: "f", Order: 1}},
		Needs:  []Need{{Kind: NeedVisitor, RoomID: "b", AlertID: "report-1", LocationID: "l2"}},
		Limits: DefaultLimits,
	})
	if len(p.Stops) != 1 || p.Stops[0].Room.ID != "b" || len(p.Stops[0].Needs) != 1 || p.Stops[0].Needs[0].AlertID != "report-1" {
		t.Errorf("stops = %+v, want b for its report", p.Stops)
	}
	if p.Duration != DefaultLimits.PerRoom {
		t.Errorf("duration = %v, want one room: %v", p.Duration, DefaultLimits.PerRoom)
	}
}

// TestMakeIgnoresRoomsOutsideItsPart: needs of rooms not given (another
// building, another floor) are not on the round, even with the room to
// spare; a room given twice is visited once.
func TestMakeIgnoresRoomsOutsideItsPart(t *testing.T) {
	p := Make(Input{
		Rooms: []Room{{ID: "a", FloorID: "f1"}, {ID: "a", FloorID: "f1"}},
		Needs: []Need{{Kind: NeedOut, RoomID: "other-building"}, {Kind: NeedOut, RoomID: "a"}, {Kind: NeedOut, RoomID: ""},
			{Kind: NeedFault, RoomID: "a"}},
		Limits: DefaultLimits,
	})
	if got := roomIDs(p.Stops); got != "a" || len(p.Stops[0].Needs) != 2 || len(p.Left) != 0 {
		t.Errorf("stops = %+v, left = %+v; want a once with its two needs", p.Stops, p.Left)
	}
}

// TestMakeWithNothingToDo: no rooms, no needs, or needs elsewhere: an
// empty round of no time.
func TestMakeWithNothingToDo(t *testing.T) {
	for name, in := range map[string]Input{
		"empty":        {},
		"no needs":     {Rooms: []Room{{ID: "a"}}, Limits: DefaultLimits},
		"no rooms":     {Needs: []Need{{Kind: NeedOut, RoomID: "a"}}, Limits: DefaultLimits},
		"all can wait": {Rooms: []Room{{ID: "a"}}, Needs: []Need{{Kind: NeedRunsOut, RoomID: "a", RunsOut: now.Add(time.Hour)}}, NextRound: now},
	} {
		p := Make(in)
		if len(p.Stops) != 0 || len(p.Left) != 0 || p.Duration != 0 {
			t.Errorf("%s: plan = %+v, want nothing", name, p)
		}
	}
}

func roomIDs(stops []Stop) string {
	s := ""
	for i, st := range stops {
		if i > 0 {
			s += " "
		}
		s += st.Room.ID
	}
	return s
}

// reference is the plain way to plan: each candidate, most urgent first,
// tried by walking the whole round again with it.
func reference(in Input) Plan {
	stops, _ := due(in)
	given := map[string]int{}
	for i := len(in.Rooms) - 1; i >= 0; i-- {
		given[in.Rooms[i].ID] = i
	}
	walk := func(a, b Stop) int {
		return cmp.Or(cmp.Compare(a.Room.Order, b.Room.Order), cmp.Compare(given[a.Room.ID], given[b.Room.ID]))
	}
	slices.SortFunc(stops, walk)
	order := slices.Clone(stops)
	slices.SortStableFunc(order, compareStops)
	var chosen []Stop
	var p Plan
	for _, st := range order {
		next := append(slices.Clone(chosen), st)
		slices.SortFunc(next, walk)
		d := walkTime(in.Limits, next)
		if (in.Limits.Rooms > 0 && len(next) > in.Limits.Rooms) || (in.Limits.Minutes > 0 && d > time.Duration(in.Limits.Minutes)*time.Minute) {
			p.Left = append(p.Left, st)
			continue
		}
		chosen = next
	}
	p.Stops, p.Duration = chosen, walkTime(in.Limits, chosen)
	slices.SortFunc(p.Left, walk)
	return p
}

func walkTime(l Limits, stops []Stop) time.Duration {
	var d time.Duration
	for i, st := range stops {
		d += l.PerRoom
		if i > 0 && st.Room.FloorID != stops[i-1].Room.FloorID {
			d += l.PerFloorChange
		}
	}
	return d
}

// TestMakeAgreesWithWalkingEveryRound: on random buildings, the rooms
// chosen, those left and the minutes are those of planning the plain way,
// walking the round again for each room tried.
func TestMakeAgreesWithWalkingEveryRound(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	kinds := []NeedKind{NeedOut, NeedFault, NeedVisitor, NeedRunsOut, NeedRunsOut, NeedRunsOut}
	for trial := range 300 {
		var in Input
		for i := range r.IntN(40) {
			// Orders repeat now and then, and floors interleave: the walk
			// is what Order says, whatever the floors.
			in.Rooms = append(in.Rooms, Room{ID: strconv.Itoa(i), FloorID: strconv.Itoa(r.IntN(5)), Order: r.IntN(30)})
		}
		for range r.IntN(80) {
			in.Needs = append(in.Needs, Need{Kind: kinds[r.IntN(len(kinds))], RoomID: strconv.Itoa(r.IntN(45)),
				RunsOut: now.Add(time.Duration(r.IntN(600)) * time.Minute)})
		}
		in.NextRound = now.Add(4 * time.Hour)
		in.Limits = Limits{Rooms: r.IntN(10), Minutes: r.IntN(60), PerRoom: time.Duration(1+r.IntN(5)) * time.Minute,
			PerFloorChange: time.Duration(r.IntN(4)) * time.Minute}
		got, want := Make(in), reference(in)
		if roomIDs(got.Stops) != roomIDs(want.Stops) || roomIDs(got.Left) != roomIDs(want.Left) || got.Duration != want.Duration {
			t.Fatalf("trial %d, limits %+v: stops %q, left %q, %v; walking every round gives %q, %q, %v",
				trial, in.Limits, roomIDs(got.Stops), roomIDs(got.Left), got.Duration, roomIDs(want.Stops), roomIDs(want.Left), want.Duration)
		}
	}
}
