package storetest

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// testRounds: a round is kept with its part, its limits and its stops in
// walking order with their needs; its stops are ticked while it runs and
// not after it ended; its end keeps what it left for the next round; the
// lists choose by person, by running and by buildings, newest first;
// accounts keep theirs apart; old rounds and those beyond the bound go.
func testRounds(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	mustReplaceLayout(t, s, testLayout("b", false))

	runsOut := t0.Add(3 * time.Hour)
	r1 := domain.Round{
		ID: "round-1", Buildings: []string{"a-b1"}, InBuildings: []string{"a-b1"},
		PersonID: "p-ana", Name: "Ana", MadeBy: "p-sup", MadeAt: t0,
		Limits: domain.RoundLimits{Rooms: 5, PerRoom: 4 * time.Minute, PerFloorChange: 2 * time.Minute},
		Stops: []domain.RoundStop{
			{RoomID: "a-r1", Status: domain.StopToDo, Needs: []domain.RoundNeed{{Kind: "out", LocationID: "a-1", DeviceType: domain.Soap, AlertID: "x1", Refills: 1}}},
			{RoomID: "a-r2", Status: domain.StopToDo, Needs: []domain.RoundNeed{{Kind: "runs_out", LocationID: "a-3", DeviceType: domain.Towel, RunsOut: runsOut, Refills: 1}}},
		},
	}
	r2 := domain.Round{ID: "round-2", Floors: []string{"a-f2"}, InBuildings: []string{"a-b1"}, Team: "Night team", MadeBy: domain.RoundBySchedule,
		MadeAt: t0.Add(time.Hour), Limits: domain.RoundLimits{Minutes: 30, PerRoom: time.Minute, PerFloorChange: time.Minute},
		Stops: []domain.RoundStop{{RoomID: "a-r2", Status: domain.StopToDo, Needs: []domain.RoundNeed{{Kind: "fault", LocationID: "a-4", AlertID: "x4"}}}}}
	other := domain.Round{ID: "round-1", Buildings: []string{"b-b1"}, InBuildings: []string{"b-b1"}, PersonID: "p-ana", MadeBy: "p-sup", MadeAt: t0,
		Stops: []domain.RoundStop{{RoomID: "b-r1", Status: domain.StopToDo}}}
	for _, c := range []struct {
		account string
		r       domain.Round
	}{{"a", r1}, {"a", r2}, {"b", other}} {
		if err := s.SaveRound(ctx, c.account, c.r, time.Time{}, 0); err != nil {
			t.Fatalf("saving %s of %s: %v", c.r.ID, c.account, err)
		}
	}

	got, err := s.Round(ctx, "a", "round-1")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, r1) {
		t.Errorf("round read back = %+v\nwant %+v", got, r1)
	}
	if _, err := s.Round(ctx, "b", "round-2"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("account b reading account a's round: %v; want ErrNotFound", err)
	}

	// Ticking: a stop done, a stop skipped with its reason.
	done := domain.RoundStop{Status: domain.StopDone, PersonID: "p-ana", Name: "Ana", At: t0.Add(10 * time.Minute)}
	if err := s.TickRoundStop(ctx, "a", "round-1", 0, done); err != nil {
		t.Fatal(err)
	}
	skipped := domain.RoundStop{Status: domain.StopSkipped, Reason: "locked for a meeting", PersonID: "p-ana", Name: "Ana", At: t0.Add(15 * time.Minute)}
	if err := s.TickRoundStop(ctx, "a", "round-1", 1, skipped); err != nil {
		t.Fatal(err)
	}
	if err := s.TickRoundStop(ctx, "a", "round-1", 2, done); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("ticking a stop the round does not have: %v; want ErrNotFound", err)
	}
	if err := s.TickRoundStop(ctx, "b", "round-2", 0, done); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("account b ticking account a's round: %v; want ErrNotFound", err)
	}
	got, _ = s.Round(ctx, "a", "round-1")
	if st := got.Stops[0]; st.Status != domain.StopDone || st.Name != "Ana" || !st.At.Equal(done.At) {
		t.Errorf("stop done read back = %+v", st)
	}
	if st := got.Stops[1]; st.Status != domain.StopSkipped || st.Reason != "locked for a meeting" || len(st.Needs) != 1 {
		t.Errorf("stop skipped read back = %+v", st)
	}

	// The end keeps what is left for the next round; an ended round is
	// neither ticked nor ended again.
	left := []domain.RoundStop{{RoomID: "a-r2", Status: domain.StopToDo, Needs: []domain.RoundNeed{{Kind: "out", LocationID: "a-4", AlertID: "x9", Since: true}}}}
	end := t0.Add(40 * time.Minute)
	if err := s.EndRound(ctx, "a", "round-1", end, left); err != nil {
		t.Fatal(err)
	}
	if err := s.EndRound(ctx, "a", "round-1", end, left); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("ending a round twice: %v; want ErrNotFound", err)
	}
	if err := s.TickRoundStop(ctx, "a", "round-1", 0, skipped); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("ticking a round that ended: %v; want ErrNotFound", err)
	}
	got, _ = s.Round(ctx, "a", "round-1")
	if !got.Ended.Equal(end) || len(got.Stops) != 2 || !reflect.DeepEqual(got.Left, left) {
		t.Errorf("ended round = ended %v, %d stops, left %+v; want ended %v, 2 stops, left %+v", got.Ended, len(got.Stops), got.Left, end, left)
	}

	// Lists.
	for _, c := range []struct {
		name string
		f    store.RoundFilter
		want []string
	}{
		{"every round, newest first", store.RoundFilter{Account: "a"}, []string{"round-2", "round-1"}},
		{"running", store.RoundFilter{Account: "a", Running: true}, []string{"round-2"}},
		{"Ana's", store.RoundFilter{Account: "a", PersonID: "p-ana"}, []string{"round-1"}},
		{"of the account's building", store.RoundFilter{Account: "a", Buildings: []string{"a-b1"}}, []string{"round-2", "round-1"}},
		{"of another building", store.RoundFilter{Account: "a", Buildings: []string{"a-b9"}}, nil},
		{"of no building", store.RoundFilter{Account: "a", Buildings: []string{}}, nil},
		{"one", store.RoundFilter{Account: "a", Limit: 1}, []string{"round-2"}},
		{"of account b", store.RoundFilter{Account: "b"}, []string{"round-1"}},
	} {
		list, err := s.FindRounds(ctx, c.f)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var ids []string
		for _, r := range list {
			ids = append(ids, r.ID)
		}
		if !reflect.DeepEqual(ids, c.want) {
			t.Errorf("%s: %v; want %v", c.name, ids, c.want)
		}
	}
	if list, _ := s.FindRounds(ctx, store.RoundFilter{Account: "a", Running: true}); len(list) == 1 && !reflect.DeepEqual(list[0], r2) {
		t.Errorf("running round listed = %+v\nwant %+v", list[0], r2)
	}

	// Bounds: too many stops are refused; rounds made before the history's
	// end go, and the oldest beyond the bound.
	big := domain.Round{ID: "big", MadeAt: t0, Stops: make([]domain.RoundStop, store.RoundStopsKept+1)}
	if err := s.SaveRound(ctx, "a", big, time.Time{}, 0); !errors.Is(err, domain.ErrLimit) {
		t.Errorf("a round of %d stops: %v; want ErrLimit", len(big.Stops), err)
	}
	r3 := domain.Round{ID: "round-3", PersonID: "p-ben", MadeBy: "p-sup", MadeAt: t0.Add(2 * time.Hour)}
	if err := s.SaveRound(ctx, "a", r3, t0.Add(time.Minute), 0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Round(ctx, "a", "round-1"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("a round made before the history's end: %v; want it gone", err)
	}
	r4 := domain.Round{ID: "round-4", PersonID: "p-ben", MadeBy: "p-sup", MadeAt: t0.Add(3 * time.Hour)}
	if err := s.SaveRound(ctx, "a", r4, time.Time{}, 2); err != nil {
		t.Fatal(err)
	}
	list, _ := s.FindRounds(ctx, store.RoundFilter{Account: "a"})
	if len(list) != 2 || list[0].ID != "round-4" || list[1].ID != "round-3" {
		t.Errorf("after a round beyond a bound of 2: %d rounds; want round-4 and round-3", len(list))
	}
	if got, err := s.Round(ctx, "b", "round-1"); err != nil || got.ID != "round-1" {
		t.Errorf("account b's round after account a's went: %v", err)
	}
}

// testScreenShowsRounds: a wall screen keeps whether it shows the rounds
// running, as made and as an edit changes it; a screen made without says
// no.
func testScreenShowsRounds(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	sc := domain.Screen{ID: "scr1", Account: "a", Name: "Staff room", Scope: domain.ScreenScope{Kind: "account"},
		Healths: []domain.Health{domain.HealthAction}, PageSeconds: 15, DimFrom: -1, DimTo: -1, Rounds: true, Created: t0}
	plain := sc
	plain.ID, plain.Rounds = "scr2", false
	for i, x := range []domain.Screen{sc, plain} {
		if err := s.CreateScreen(ctx, x, []byte{'r', byte(i)}, []byte("sealed"), 0); err != nil {
			t.Fatal(err)
		}
	}
	if got, _, err := s.ScreenByToken(ctx, []byte{'r', 0}); err != nil || !got.Rounds {
		t.Errorf("a screen made to show rounds, by its link: %v, %v", got.Rounds, err)
	}
	if got, err := s.Screen(ctx, "a", "scr2"); err != nil || got.Rounds {
		t.Errorf("a screen made without rounds: %v, %v; want none", got.Rounds, err)
	}
	sc.Rounds, plain.Rounds = false, true
	for _, x := range []domain.Screen{sc, plain} {
		if err := s.UpdateScreen(ctx, x); err != nil {
			t.Fatal(err)
		}
	}
	if list, err := s.Screens(ctx, "a"); err != nil || len(list) != 2 || list[0].Rounds == list[1].Rounds {
		t.Fatalf("after the edits, the screens = %+v, %v", list, err)
	}
	if got, _ := s.Screen(ctx, "a", "scr2"); !got.Rounds {
		t.Error("the screen edited to show rounds does not")
	}
}

// testRoundSchedules: a schedule is kept with its part, who and limits,
// listed by account and for every account; an account keeps at most max;
// a shift start is taken once per schedule, by one of several takers at
// once; a schedule removed goes, with the starts it took.
func testRoundSchedules(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	mustReplaceLayout(t, s, testLayout("b", false))
	day := domain.RoundSchedule{ID: "sch-1", Buildings: []string{"a-b1"}, PersonID: "p-ana", Name: "Ana", MadeBy: "p-sup", Created: t0,
		Limits: domain.RoundLimits{Rooms: 10, PerRoom: 4 * time.Minute, PerFloorChange: 2 * time.Minute}}
	night := domain.RoundSchedule{ID: "sch-2", Floors: []string{"a-f2"}, Team: "Night team", MadeBy: "p-sup", Created: t0.Add(time.Minute),
		Limits: domain.RoundLimits{Minutes: 30, PerRoom: time.Minute}}
	for _, rs := range []domain.RoundSchedule{day, night} {
		if err := s.AddRoundSchedule(ctx, "a", rs, 2); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddRoundSchedule(ctx, "a", domain.RoundSchedule{ID: "sch-3", Created: t0}, 2); !errors.Is(err, domain.ErrLimit) {
		t.Errorf("a third schedule with a bound of 2: %v; want ErrLimit", err)
	}
	if err := s.AddRoundSchedule(ctx, "b", domain.RoundSchedule{ID: "sch-1", Team: "B", Created: t0}, 2); err != nil {
		t.Fatal(err)
	}
	got, err := s.RoundSchedules(ctx, "a")
	if err != nil || !reflect.DeepEqual(got, []domain.RoundSchedule{day, night}) {
		t.Errorf("account a's schedules = %+v, %v\nwant %+v", got, err, []domain.RoundSchedule{day, night})
	}
	every, err := s.EveryRoundSchedule(ctx, 10)
	if err != nil || len(every) != 3 || every[0].Account != "a" || every[2].Account != "b" || every[2].Team != "B" {
		t.Errorf("every schedule = %+v, %v", every, err)
	}

	start := t0.Add(6 * time.Hour)
	taken := make(chan bool, 4)
	for range 4 {
		go func() {
			ok, err := s.TakeRoundShift(ctx, "a", "sch-1", start, t0)
			if err != nil {
				t.Error(err)
			}
			taken <- ok
		}()
	}
	n := 0
	for range 4 {
		if <-taken {
			n++
		}
	}
	if n != 1 {
		t.Errorf("a shift start taken by %d of 4 takers at once; want 1", n)
	}
	if ok, _ := s.TakeRoundShift(ctx, "a", "sch-2", start, t0); !ok {
		t.Error("another schedule could not take the same start")
	}
	if ok, _ := s.TakeRoundShift(ctx, "b", "sch-1", start, t0); !ok {
		t.Error("account b's schedule of the same id could not take the same start")
	}
	if ok, _ := s.TakeRoundShift(ctx, "a", "sch-1", start.Add(8*time.Hour), t0); !ok {
		t.Error("the next shift's start could not be taken")
	}

	if err := s.RemoveRoundSchedule(ctx, "a", "sch-1"); err != nil {
		t.Fatal(err)
	}
	if err := s.RemoveRoundSchedule(ctx, "a", "sch-1"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("removing it again: %v; want ErrNotFound", err)
	}
	if got, _ := s.RoundSchedules(ctx, "a"); len(got) != 1 || got[0].ID != "sch-2" {
		t.Errorf("after removing sch-1: %+v", got)
	}
}

// testRoundTicks: the rooms ticked done on rounds are read newest first,
// of the span, the room or the buildings and the account alone, bounded;
// a room skipped, one still to do and what a round left for the next are
// not.
func testRoundTicks(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	l := testLayout("a", false)
	l.Buildings = append(l.Buildings, domain.Building{ID: "a-b2", Name: "Annex"})
	l.Floors = append(l.Floors, domain.Floor{ID: "a-f3", BuildingID: "a-b2", Name: "Ground"})
	l.Rooms = append(l.Rooms, domain.Room{ID: "a-r3", FloorID: "a-f3", Name: "Annex Restroom"})
	mustReplaceLayout(t, s, l)
	mustReplaceLayout(t, s, testLayout("b", false))
	stops := func(rooms ...string) []domain.RoundStop {
		out := make([]domain.RoundStop, len(rooms))
		for i, r := range rooms {
			out[i] = domain.RoundStop{RoomID: r, Status: domain.StopToDo}
		}
		return out
	}
	for _, c := range []struct {
		account string
		r       domain.Round
	}{
		{"a", domain.Round{ID: "round-1", InBuildings: []string{"a-b1", "a-b2"}, PersonID: "p-ana", Name: "Ana", MadeBy: "p-sup", MadeAt: t0, Stops: stops("a-r1", "a-r2", "a-r3", "a-r1")}},
		{"b", domain.Round{ID: "round-1", InBuildings: []string{"b-b1"}, PersonID: "p-ben", Name: "Ben", MadeBy: "p-sup", MadeAt: t0, Stops: stops("b-r1")}},
	} {
		if err := s.SaveRound(ctx, c.account, c.r, time.Time{}, 0); err != nil {
			t.Fatalf("saving the round of %s: %v", c.account, err)
		}
	}
	tick := func(account string, position int, status domain.StopStatus, name string, minutes int) store.RoundTick {
		st := domain.RoundStop{Status: status, PersonID: "p-" + name, Name: name, At: t0.Add(time.Duration(minutes) * time.Minute)}
		if status == domain.StopSkipped {
			st.Reason = "locked"
		}
		if err := s.TickRoundStop(ctx, account, "round-1", position, st); err != nil {
			t.Fatalf("ticking stop %d of %s: %v", position, account, err)
		}
		return store.RoundTick{RoundID: "round-1", PersonID: st.PersonID, Name: name, At: st.At}
	}
	r1 := tick("a", 0, domain.StopDone, "Ana", 10)
	r1.RoomID = "a-r1"
	tick("a", 1, domain.StopSkipped, "Ana", 15)
	r3 := tick("a", 2, domain.StopDone, "Ana", 20)
	r3.RoomID = "a-r3"
	tick("b", 0, domain.StopDone, "Ben", 12)
	// The round ends, leaving a room it did not reach for the next.
	if err := s.EndRound(ctx, "a", "round-1", t0.Add(30*time.Minute), []domain.RoundStop{{RoomID: "a-r2", Status: domain.StopDone, At: t0.Add(25 * time.Minute)}}); err != nil {
		t.Fatal(err)
	}
	hour := func(f store.ServiceFilter) store.ServiceFilter {
		f.Account, f.From, f.To = "a", t0, t0.Add(time.Hour)
		if f.Limit == 0 {
			f.Limit = 10
		}
		return f
	}
	for _, c := range []struct {
		name string
		f    store.ServiceFilter
		want []store.RoundTick
	}{
		{"every room", hour(store.ServiceFilter{}), []store.RoundTick{r3, r1}},
		{"one room", hour(store.ServiceFilter{RoomID: "a-r1"}), []store.RoundTick{r1}},
		{"the Annex", hour(store.ServiceFilter{Buildings: []string{"a-b2"}}), []store.RoundTick{r3}},
		{"a room outside the buildings", hour(store.ServiceFilter{Buildings: []string{"a-b1"}, RoomID: "a-r3"}), nil},
		{"no building", hour(store.ServiceFilter{Buildings: []string{}}), nil},
		{"the newest alone", hour(store.ServiceFilter{Limit: 1}), []store.RoundTick{r3}},
		{"a span that ends at the Annex's", store.ServiceFilter{Account: "a", From: t0, To: r3.At, Limit: 10}, []store.RoundTick{r1}},
		{"account b", store.ServiceFilter{Account: "b", From: t0, To: t0.Add(time.Hour), Limit: 10}, []store.RoundTick{{RoundID: "round-1", RoomID: "b-r1", PersonID: "p-Ben", Name: "Ben", At: t0.Add(12 * time.Minute)}}},
	} {
		got, err := s.RoundTicksIn(ctx, c.f)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ticks of %s = %+v, %v;\nwant %+v", c.name, got, err, c.want)
		}
	}
	if _, err := s.RoundTicksIn(ctx, store.ServiceFilter{Account: "a", From: t0, To: t0.Add(time.Hour)}); err == nil {
		t.Error("a read of ticks without a limit was not refused")
	}
}

// testOpenVisitorComplaints: the open visitors' reports that say
// something is wrong are read oldest first, of the buildings and the
// account alone, bounded; a rating alone, a flood marker and a closed
// report are not.
func testOpenVisitorComplaints(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	l := testLayout("a", false)
	l.Buildings = append(l.Buildings, domain.Building{ID: "a-b2", Name: "Annex"})
	l.Floors = append(l.Floors, domain.Floor{ID: "a-f3", BuildingID: "a-b2", Name: "Ground"})
	l.Rooms = append(l.Rooms, domain.Room{ID: "a-r3", FloorID: "a-f3", Name: "Annex Restroom"})
	mustReplaceLayout(t, s, l)
	mustReplaceLayout(t, s, testLayout("b", false))
	soap := domain.VisitorReport{RoomID: "a-r1", Kind: domain.VisitorNoSoap, Created: t0.Add(time.Minute)}
	rated := domain.VisitorReport{RoomID: "a-r1", Kind: domain.VisitorRatingOnly, Rating: 5, Created: t0.Add(2 * time.Minute)}
	closed := domain.VisitorReport{RoomID: "a-r2", Kind: domain.VisitorDirty, Created: t0.Add(3 * time.Minute), Closed: t0.Add(time.Hour), ClosedBy: domain.ClosedPerson}
	annex := domain.VisitorReport{RoomID: "a-r3", Kind: domain.VisitorOther, Text: "The door does not lock", Rating: 2, Created: t0.Add(4 * time.Minute)}
	for i, r := range []*domain.VisitorReport{&soap, &rated, &closed, &annex} {
		id, err := s.AddVisitorReport(ctx, "a", *r, 100)
		if err != nil {
			t.Fatalf("report %d: %v", i+1, err)
		}
		r.ID = id
	}
	if marked, err := s.AddVisitorFlood(ctx, "a", "a-r1", t0.Add(5*time.Minute), t0, 100); !marked || err != nil {
		t.Fatalf("the flood marker: %v, %v", marked, err)
	}
	if _, err := s.AddVisitorReport(ctx, "b", domain.VisitorReport{RoomID: "b-r1", Kind: domain.VisitorNoPaper, Created: t0}, 100); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		buildings []string
		limit     int
		want      []domain.VisitorReport
	}{
		{"every building", nil, 10, []domain.VisitorReport{soap, annex}},
		{"North Tower", []string{"a-b1"}, 10, []domain.VisitorReport{soap}},
		{"the Annex", []string{"a-b2"}, 10, []domain.VisitorReport{annex}},
		{"no building", []string{}, 10, nil},
		{"the oldest alone", nil, 1, []domain.VisitorReport{soap}},
	} {
		got, err := s.OpenVisitorComplaints(ctx, "a", c.buildings, c.limit)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("complaints of %s = %+v, %v;\nwant %+v", c.name, got, err, c.want)
		}
	}
	if _, err := s.OpenVisitorComplaints(ctx, "a", nil, 0); err == nil {
		t.Error("a read of complaints without a limit was not refused")
	}
}
