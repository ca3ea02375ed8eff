package dashboard

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/forecast"
	"washboard/internal/keyring"
	"washboard/internal/rounds"
	"washboard/internal/store"
	"washboard/internal/store/sqlite/sqlitetest"
	"washboard/internal/syncer"
)

// fixedForecasts are estimates given by a test.
type fixedForecasts map[string]forecast.Estimate

func (f fixedForecasts) Estimates(string) map[string]forecast.Estimate { return f }

// roundsNow is the tests' time: 09:00, the morning shift, the next one
// at 14:00, so that the next round is due at 11:00.
var roundsNow = time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)

// roundsAccount is an account of two buildings: North (b1) with Level 1
// (rooms r1, r2, r3 in the layout's order) and Level 2 (r4, r5), and the
// Annex (b2, room r9); a towel dispenser in each room. In need: r4's is
// out, r2's jammed, the Annex's out; r1's runs out at 10:00 (before the
// next round), r3's at 19:00 (after it).
func roundsAccount(t testing.TB) (*Service, store.Store, *clock.Fake) {
	t.Helper()
	ctx := context.Background()
	st, _ := sqlitetest.Open(t)
	l := domain.Layout{
		Account:   domain.Account{ID: "acme", Name: "Acme"},
		Buildings: []domain.Building{{ID: "b1", Name: "North"}, {ID: "b2", Name: "Annex"}},
		Floors:    []domain.Floor{{ID: "f1", BuildingID: "b1", Name: "Level 1"}, {ID: "f2", BuildingID: "b1", Name: "Level 2"}, {ID: "f9", BuildingID: "b2", Name: "Annex Ground"}},
	}
	var devices []domain.Device
	for _, r := range []struct{ id, floor string }{{"r1", "f1"}, {"r2", "f1"}, {"r3", "f1"}, {"r4", "f2"}, {"r5", "f2"}, {"r9", "f9"}} {
		l.Rooms = append(l.Rooms, domain.Room{ID: r.id, FloorID: r.floor, Name: "Room " + r.id})
		l.Locations = append(l.Locations, domain.Location{ID: "l" + r.id[1:], RoomID: r.id, Name: "Sinks " + r.id, Type: domain.Towel})
		devices = append(devices, domain.Device{MAC: "MAC" + r.id, LocationID: "l" + r.id[1:], Position: "left",
			Compartments: []domain.Compartment{{Level: 40}}, LastSeen: roundsNow})
	}
	if _, err := st.ReplaceLayout(ctx, l); err != nil {
		t.Fatal(err)
	}
	devices[3].Compartments[0] = domain.Compartment{Level: 0, Out: true}
	if _, err := st.ReplaceDevices(ctx, "acme", devices); err != nil {
		t.Fatal(err)
	}
	alerts := []domain.Alert{
		{ID: "out4", LocationID: "l4", MACs: []string{"MACr4"}, Status: domain.AlertOpen, Type: domain.AlertConsumableOut, Created: roundsNow.Add(-time.Hour), RefillCount: 1},
		{ID: "jam2", LocationID: "l2", MACs: []string{"MACr2"}, Status: domain.AlertOpen, Type: domain.AlertJam, Created: roundsNow.Add(-time.Hour)},
		{ID: "out9", LocationID: "l9", MACs: []string{"MACr9"}, Status: domain.AlertOpen, Type: domain.AlertConsumableOut, Created: roundsNow.Add(-time.Hour), RefillCount: 1},
	}
	if _, err := st.ApplyAlerts(ctx, "acme", store.AlertWrite{Upserts: alerts, SeenAt: roundsNow}); err != nil {
		t.Fatal(err)
	}
	clk := clock.NewFake(roundsNow)
	keys, err := keyring.New(bytes.Repeat([]byte{7}, keyring.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	engine := syncer.New(runCtx, nil, st, clk, syncer.Config{}, nil)
	t.Cleanup(func() { cancel(); engine.Wait() })
	f := fixedForecasts{
		"MACr1": {At: roundsNow.Add(time.Hour), Basis: forecast.FromLevels},
		"MACr3": {At: roundsNow.Add(10 * time.Hour), Basis: forecast.FromLevels},
	}
	return New(Deps{Store: st, Sync: engine, Clock: clk, Keys: keys, Forecasts: f}), st, clk
}

// stopRooms are the rooms of stops, in their order.
func stopRooms(stops []domain.RoundStop) string {
	var ids []string
	for _, st := range stops {
		ids = append(ids, st.RoomID)
	}
	return strings.Join(ids, " ")
}

var defaultTimes = rounds.Limits{PerRoom: 4 * time.Minute, PerFloorChange: 2 * time.Minute}

// A round of a building visits the rooms in need, in the layout's
// order, with what to do and bring; within a limit of rooms, the most
// urgent (what is out, then faults, then what runs out before the next
// round) and the others left for the next.
func TestARoundVisitsTheRoomsInNeedInWalkingOrder(t *testing.T) {
	s, _, _ := roundsAccount(t)
	ctx := context.Background()
	in := NewRound{Part: RoundPart{Buildings: []string{"b1"}}, PersonID: "p-ana", Name: "Ana", MadeBy: "p-sup", Limits: defaultTimes}
	r, err := s.MakeRound(ctx, "acme", domain.EveryBuilding(), in, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if got := stopRooms(r.Stops); got != "r1 r2 r4" {
		t.Errorf("stops without a limit: %q; want r1 (runs out at 10:00) r2 (jammed) r4 (out), not r3 (runs out after the next round) nor the Annex's", got)
	}
	v, err := s.Round(ctx, "acme", domain.EveryBuilding(), r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := stopRooms(v.Round.Stops); got != "r1 r2 r4" || v.Round.Name != "Ana" || v.Round.MadeBy != "p-sup" {
		t.Errorf("the round kept: stops %q, for %q by %q", got, v.Round.Name, v.Round.MadeBy)
	}
	if n := v.Round.Stops[2].Needs; len(n) != 1 || n[0].Kind != string(rounds.NeedOut) || n[0].AlertID != "out4" || n[0].Refills != 1 {
		t.Errorf("r4's needs = %+v; want its alert out4, one refill", n)
	}
	if len(v.Bring) != 1 || v.Bring[0] != (RefillItem{Kind: string(domain.Towel), Count: 2}) {
		t.Errorf("pick list = %+v; want 2 towel refills (r1's and r4's)", v.Bring)
	}

	in.Limits.Rooms = 2
	p, err := s.PlanRound(ctx, "acme", domain.EveryBuilding(), in, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if got, left := stopRooms(p.Stops), stopRooms(p.Left); got != "r2 r4" || left != "r1" {
		t.Errorf("with 2 rooms: stops %q, left %q; want r2 r4 and r1 left", got, left)
	}
	floor, err := s.PlanRound(ctx, "acme", domain.EveryBuilding(), NewRound{Part: RoundPart{Floors: []string{"f1"}}, Team: "Day team", Limits: defaultTimes}, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if got := stopRooms(floor.Stops); got != "r1 r2" || floor.Team != "Day team" {
		t.Errorf("a round of Level 1 for a team: stops %q, team %q; want r1 r2, Day team", got, floor.Team)
	}
}

// What a round is asked for is checked, and said.
func TestARoundAskedWrongSaysWhy(t *testing.T) {
	s, _, _ := roundsAccount(t)
	ctx := context.Background()
	for _, c := range []struct {
		name string
		in   NewRound
		want RoundError
	}{
		{"no part", NewRound{PersonID: "p", Limits: defaultTimes}, RoundError{Field: RoundFieldPart, Problem: RoundPartNeeded}},
		{"nobody", NewRound{Part: RoundPart{Buildings: []string{"b1"}}, Team: "  ", Limits: defaultTimes}, RoundError{Field: RoundFieldTeam, Problem: RoundWhoNeeded}},
		{"a team's name too long", NewRound{Part: RoundPart{Buildings: []string{"b1"}}, Team: strings.Repeat("t", MaxRoundTeam+1), Limits: defaultTimes},
			RoundError{Field: RoundFieldTeam, Problem: RoundTooLong, Max: MaxRoundTeam}},
		{"too many rooms", NewRound{Part: RoundPart{Buildings: []string{"b1"}}, PersonID: "p", Limits: rounds.Limits{Rooms: MaxRoundRooms + 1, PerRoom: time.Minute}},
			RoundError{Field: RoundFieldRooms, Problem: RoundOutOfRange, Max: MaxRoundRooms}},
		{"no time per room", NewRound{Part: RoundPart{Buildings: []string{"b1"}}, PersonID: "p"},
			RoundError{Field: RoundFieldPerRoom, Problem: RoundOutOfRange, Min: 1, Max: MaxPerRoomMinutes}},
	} {
		_, err := s.MakeRound(ctx, "acme", domain.EveryBuilding(), c.in, time.UTC)
		var re RoundError
		if !errors.As(err, &re) || re != c.want {
			t.Errorf("%s: %v; want %+v", c.name, err, c.want)
		}
	}
	if _, err := s.MakeRound(ctx, "acme", domain.OnlyBuildings("b1"), NewRound{Part: RoundPart{Buildings: []string{"b2"}}, PersonID: "p", Limits: defaultTimes}, time.UTC); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("a round of a building outside the maker's: %v; want not found", err)
	}
}

// Staff tick the rooms of their own round only; a supervisor any
// round's; a room is skipped with a reason only.
func TestOnlyTheRoundsPersonTicksItAndASkipNeedsAReason(t *testing.T) {
	s, _, _ := roundsAccount(t)
	ctx := context.Background()
	r, err := s.MakeRound(ctx, "acme", domain.EveryBuilding(), NewRound{Part: RoundPart{Buildings: []string{"b1"}}, PersonID: "p-ana", Name: "Ana", MadeBy: "p-sup", Limits: defaultTimes}, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	all := domain.EveryBuilding()
	ben := Ticker{PersonID: "p-ben", Name: "Ben", Role: domain.Staff}
	if err := s.TickStop(ctx, "acme", all, r.ID, 0, ben, true, ""); !errors.Is(err, ErrNotYourRound) {
		t.Errorf("staff ticking another's round: %v; want ErrNotYourRound", err)
	}
	viewer := Ticker{PersonID: "p-ana", Name: "Ana", Role: domain.Viewer}
	if err := s.TickStop(ctx, "acme", all, r.ID, 0, viewer, true, ""); !errors.Is(err, ErrNotYourRound) {
		t.Errorf("a viewer ticking: %v; want ErrNotYourRound", err)
	}
	ana := Ticker{PersonID: "p-ana", Name: "Ana", Role: domain.Staff}
	for _, reason := range []string{"", "   "} {
		err := s.TickStop(ctx, "acme", all, r.ID, 1, ana, false, reason)
		var re RoundError
		if !errors.As(err, &re) || re.Problem != RoundReasonNeeded {
			t.Errorf("skipping with reason %q: %v; want a reason needed", reason, err)
		}
	}
	if err := s.TickStop(ctx, "acme", all, r.ID, 1, ana, false, strings.Repeat("x", MaxSkipReason+1)); !errors.As(err, new(RoundError)) {
		t.Errorf("a reason too long: %v; want it refused", err)
	}
	if err := s.TickStop(ctx, "acme", all, r.ID, 0, ana, true, ""); err != nil {
		t.Errorf("Ana ticking her round: %v", err)
	}
	if err := s.TickStop(ctx, "acme", all, r.ID, 1, ana, false, " locked "); err != nil {
		t.Errorf("Ana skipping with a reason: %v", err)
	}
	sup := Ticker{PersonID: "p-sup", Name: "Sam", Role: domain.Supervisor}
	if err := s.TickStop(ctx, "acme", all, r.ID, 2, sup, true, ""); err != nil {
		t.Errorf("a supervisor ticking Ana's round: %v", err)
	}
	if err := s.TickStop(ctx, "acme", all, r.ID, 3, sup, true, ""); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("a stop beyond the round: %v; want not found", err)
	}
	v, _ := s.Round(ctx, "acme", all, r.ID)
	if done, skipped, n := v.Round.Progress(); done != 2 || skipped != 1 || n != 3 || v.Round.Stops[1].Reason != "locked" || v.Round.Stops[2].Name != "Sam" {
		t.Errorf("progress %d done, %d skipped of %d; skip reason %q, third by %q", done, skipped, n, v.Round.Stops[1].Reason, v.Round.Stops[2].Name)
	}
}

// A round's end says what was done and skipped, and leaves for the next
// round what did not fit, what was skipped and what appeared since; a
// round that ended is not ticked.
func TestARoundsEndLeavesWhatIsStillToDo(t *testing.T) {
	s, st, clk := roundsAccount(t)
	ctx := context.Background()
	all := domain.EveryBuilding()
	r, err := s.MakeRound(ctx, "acme", all, NewRound{Part: RoundPart{Buildings: []string{"b1"}}, PersonID: "p-ana", Name: "Ana", MadeBy: "p-sup",
		Limits: rounds.Limits{Rooms: 2, PerRoom: 4 * time.Minute, PerFloorChange: 2 * time.Minute}}, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if got := stopRooms(r.Stops); got != "r2 r4" {
		t.Fatalf("stops = %q; want r2 r4", got)
	}
	ana := Ticker{PersonID: "p-ana", Name: "Ana", Role: domain.Staff}
	clk.Advance(10 * time.Minute)
	if err := s.TickStop(ctx, "acme", all, r.ID, 0, ana, true, ""); err != nil {
		t.Fatal(err)
	}
	if err := s.TickStop(ctx, "acme", all, r.ID, 1, ana, false, "the door was locked"); err != nil {
		t.Fatal(err)
	}
	// Since: r5's dispenser is out.
	clk.Advance(5 * time.Minute)
	late := domain.Alert{ID: "out5", LocationID: "l5", MACs: []string{"MACr5"}, Status: domain.AlertOpen, Type: domain.AlertConsumableOut, Created: clk.Now(), RefillCount: 1}
	if _, err := st.ApplyAlerts(ctx, "acme", store.AlertWrite{Upserts: []domain.Alert{late}, SeenAt: clk.Now()}); err != nil {
		t.Fatal(err)
	}
	ended, err := s.EndRound(ctx, "acme", all, r.ID, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if got := stopRooms(ended.Left); got != "r1 r4 r5" {
		t.Errorf("left for the next round: %q; want r1 (did not fit), r4 (skipped), r5 (since), not r2 (done)", got)
	}
	v, _ := s.Round(ctx, "acme", all, r.ID)
	if v.Round.Running() || stopRooms(v.Round.Left) != "r1 r4 r5" {
		t.Errorf("the round read back: running %v, left %q", v.Round.Running(), stopRooms(v.Round.Left))
	}
	for _, st := range v.Round.Left {
		since := st.RoomID == "r5"
		if len(st.Needs) == 0 || st.Needs[0].Since != since {
			t.Errorf("left %s: needs %+v; want appeared since = %v", st.RoomID, st.Needs, since)
		}
	}
	if err := s.TickStop(ctx, "acme", all, r.ID, 1, ana, true, ""); !errors.Is(err, ErrRoundEnded) {
		t.Errorf("ticking a round that ended: %v; want ErrRoundEnded", err)
	}
	if _, err := s.EndRound(ctx, "acme", all, r.ID, time.UTC); !errors.Is(err, ErrRoundEnded) {
		t.Errorf("ending it again: %v; want ErrRoundEnded", err)
	}
}

// A person limited to some buildings sees only the rounds of theirs.
func TestAPersonLimitedToABuildingSeesOnlyItsRounds(t *testing.T) {
	s, _, _ := roundsAccount(t)
	ctx := context.Background()
	all := domain.EveryBuilding()
	north, err := s.MakeRound(ctx, "acme", all, NewRound{Part: RoundPart{Buildings: []string{"b1"}}, PersonID: "p-ana", Name: "Ana", Limits: defaultTimes}, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	annex, err := s.MakeRound(ctx, "acme", all, NewRound{Part: RoundPart{Floors: []string{"f9"}}, PersonID: "p-ana", Name: "Ana", Limits: defaultTimes}, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	running, _, err := s.Rounds(ctx, "acme", domain.OnlyBuildings("b1"))
	if err != nil {
		t.Fatal(err)
	}
	if len(running) != 1 || running[0].ID != north.ID {
		t.Errorf("rounds a person of North sees: %d; want North's alone", len(running))
	}
	if _, err := s.Round(ctx, "acme", domain.OnlyBuildings("b1"), annex.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("the Annex's round to a person of North: %v; want not found", err)
	}
	sup := Ticker{PersonID: "p-sup", Role: domain.Supervisor}
	if err := s.TickStop(ctx, "acme", domain.OnlyBuildings("b1"), annex.ID, 0, sup, true, ""); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("a supervisor of North ticking the Annex's round: %v; want not found", err)
	}
	if v, ok, err := s.MyRound(ctx, "acme", domain.OnlyBuildings("b1"), "p-ana"); err != nil || !ok || v.Round.ID != north.ID {
		t.Errorf("Ana's round, of North: %v, %v", ok, err)
	}
}

// A wall screen made to show rounds shows those running in its place:
// the account's, its building's, those with a room on its floor; a
// screen not made to, none.
func TestAWallScreenShowsTheRoundsRunningInItsPlace(t *testing.T) {
	s, _, clk := roundsAccount(t)
	ctx := context.Background()
	all := domain.EveryBuilding()
	north, err := s.MakeRound(ctx, "acme", all, NewRound{Part: RoundPart{Floors: []string{"f2"}}, PersonID: "p-ana", Name: "Ana", Limits: defaultTimes}, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Minute)
	annex, err := s.MakeRound(ctx, "acme", all, NewRound{Part: RoundPart{Buildings: []string{"b2"}}, Team: "Annex team", Limits: defaultTimes}, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	ended, err := s.MakeRound(ctx, "acme", all, NewRound{Part: RoundPart{Buildings: []string{"b1"}}, Team: "Old", Limits: defaultTimes}, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.EndRound(ctx, "acme", all, ended.ID, time.UTC); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		scope domain.ScreenScope
		shows bool
		want  []string
	}{
		{"the account's", domain.ScreenScope{Kind: "account"}, true, []string{annex.ID, north.ID}},
		{"the Annex's", domain.ScreenScope{Kind: "building", ID: "b2"}, true, []string{annex.ID}},
		{"Level 2's", domain.ScreenScope{Kind: "floor", ID: "f2"}, true, []string{north.ID}},
		{"Level 1's", domain.ScreenScope{Kind: "floor", ID: "f1"}, true, nil},
		{"the account's, not made to", domain.ScreenScope{Kind: "account"}, false, nil},
	} {
		v, err := s.ScreenView(ctx, domain.Screen{Account: "acme", Scope: c.scope, Rounds: c.shows, Healths: []domain.Health{domain.HealthAction}})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range v.Rounds {
			got = append(got, r.ID)
		}
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%s screen shows rounds %v; want %v", c.name, got, c.want)
		}
	}
}

// A schedule makes its round at each shift start, once however many
// replicas look at it, and none for a shift started over an hour ago;
// a person of other buildings neither sees nor removes it.
func TestAScheduleMakesARoundOnceAtEachShiftStart(t *testing.T) {
	s, st, clk := roundsAccount(t)
	ctx := context.Background()
	replica := New(Deps{Store: st, Clock: clk, Forecasts: fixedForecasts{}})
	rs, err := s.AddRoundSchedule(ctx, "acme", domain.EveryBuilding(), NewRound{Part: RoundPart{Buildings: []string{"b1"}}, Team: "Day team",
		MadeBy: "p-sup", Limits: rounds.Limits{Rooms: 2, PerRoom: 4 * time.Minute, PerFloorChange: 2 * time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	made := func() int {
		t.Helper()
		for _, x := range []*Service{s, replica} {
			if err := x.RoundSchedulesPass(ctx, time.UTC); err != nil {
				t.Fatal(err)
			}
		}
		running, recent, err := s.Rounds(ctx, "acme", domain.EveryBuilding())
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range running {
			if r.MadeBy != domain.RoundBySchedule || r.Team != "Day team" || len(r.Stops) != 2 {
				t.Errorf("a round of the schedule: by %q for %q with %d rooms", r.MadeBy, r.Team, len(r.Stops))
			}
		}
		return len(running) + len(recent)
	}
	if n := made(); n != 0 {
		t.Errorf("at 09:00, three hours into the early shift: %d rounds; want none", n)
	}
	clk.Set(time.Date(2026, 11, 27, 14, 5, 0, 0, time.UTC))
	if n := made(); n != 1 {
		t.Errorf("at 14:05, after the late shift started, with two replicas: %d rounds; want 1", n)
	}
	clk.Set(time.Date(2026, 11, 27, 14, 30, 0, 0, time.UTC))
	if n := made(); n != 1 {
		t.Errorf("later in the late shift: %d rounds; want still 1", n)
	}
	clk.Set(time.Date(2026, 11, 27, 22, 1, 0, 0, time.UTC))
	if n := made(); n != 2 {
		t.Errorf("after the night shift started: %d rounds; want 2", n)
	}

	if list, _ := s.RoundSchedules(ctx, "acme", domain.OnlyBuildings("b2")); len(list) != 0 {
		t.Errorf("a person of the Annex sees %d schedules of North", len(list))
	}
	if err := s.RemoveRoundSchedule(ctx, "acme", domain.OnlyBuildings("b2"), rs.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("a person of the Annex removing North's schedule: %v; want not found", err)
	}
	if err := s.RemoveRoundSchedule(ctx, "acme", domain.EveryBuilding(), rs.ID); err != nil {
		t.Fatal(err)
	}
	clk.Set(time.Date(2026, 11, 28, 6, 1, 0, 0, time.UTC))
	if n := made(); n != 2 {
		t.Errorf("after the schedule was removed, at the next start: %d rounds; want still 2", n)
	}
}

// A visitor's report of "out of soap" puts its room on the round, to be
// told what the visitor said and to bring a soap refill; a room with a
// rating alone (nothing said wrong) is not put on it, nor a room of
// another building, nor one whose report is over a day old (expired,
// though nothing has closed it yet).
func TestAVisitorsReportPutsItsRoomOnTheRound(t *testing.T) {
	s, st, _ := roundsAccount(t)
	ctx := context.Background()
	for _, r := range []domain.VisitorReport{
		{RoomID: "r5", Kind: domain.VisitorNoSoap, Created: roundsNow.Add(-10 * time.Minute)},
		{RoomID: "r5", Kind: domain.VisitorNoSoap, Rating: 1, Created: roundsNow.Add(-5 * time.Minute)},
		{RoomID: "r3", Kind: domain.VisitorRatingOnly, Rating: 2, Created: roundsNow.Add(-5 * time.Minute)},
		{RoomID: "r3", Kind: domain.VisitorNoTowels, Created: roundsNow.Add(-domain.VisitorReportsOpenFor - time.Hour)},
	} {
		if _, err := st.AddVisitorReport(ctx, "acme", r, 100); err != nil {
			t.Fatal(err)
		}
	}
	in := NewRound{Part: RoundPart{Buildings: []string{"b1"}}, PersonID: "p-ana", Name: "Ana", MadeBy: "p-sup", Limits: defaultTimes}
	r, err := s.PlanRound(ctx, "acme", domain.EveryBuilding(), in, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if got := stopRooms(r.Stops); got != "r1 r2 r4 r5" {
		t.Fatalf("stops = %q; want r5 (a visitor's report of no soap) after r1 r2 r4, and not r3 (a rating alone, and a report over a day old)", got)
	}
	n := r.Stops[3].Needs
	if len(n) != 1 || n[0].Kind != string(rounds.NeedVisitor) || n[0].Visitor != domain.VisitorNoSoap || n[0].DeviceType != domain.Soap || n[0].Refills != 1 {
		t.Errorf("r5's needs = %+v; want one, the visitor's report of no soap, with a soap refill to bring", n)
	}
	var v RoundView
	if got := v.StopBring(r.Stops[3]); len(got) != 1 || got[0] != (RefillItem{Kind: string(domain.Soap), Count: 1}) {
		t.Errorf("what to bring to r5 = %+v; want one soap refill", got)
	}
}

// On a floor with a plan, a round walks from the room nearest the plan's
// top left corner to the nearest next; a floor without one keeps the
// layout's order. Level 1's plan has r2 drawn at the top left and r1's
// dispenser far to the right, so r2 comes before r1, though the layout
// lists r1 first; Level 2 has no plan.
func TestARoundWalksAFloorWithAPlanInThePlansOrder(t *testing.T) {
	s, st, _ := roundsAccount(t)
	ctx := context.Background()
	plan := domain.FloorPlan{FloorID: "f1", ContentType: "image/svg+xml", Width: 1000, Height: 500, Updated: roundsNow}
	if _, err := st.PutFloorPlan(ctx, "acme", plan, []byte("<svg/>")); err != nil {
		t.Fatal(err)
	}
	placed := domain.Placements{
		Locations: map[string]domain.PlanPoint{"l1": {X: 900, Y: 250}},
		Rooms:     map[string][]domain.PlanPoint{"r2": {{X: 0, Y: 0}, {X: 200, Y: 0}, {X: 200, Y: 100}, {X: 0, Y: 100}}},
	}
	if err := st.SavePlacements(ctx, "acme", "f1", placed, "p-sup", roundsNow); err != nil {
		t.Fatal(err)
	}
	in := NewRound{Part: RoundPart{Buildings: []string{"b1"}}, PersonID: "p-ana", Name: "Ana", MadeBy: "p-sup", Limits: defaultTimes}
	r, err := s.PlanRound(ctx, "acme", domain.EveryBuilding(), in, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if got := stopRooms(r.Stops); got != "r2 r1 r4" {
		t.Errorf("stops = %q; want r2 (top left on the plan) r1 (to its right), then Level 2's r4", got)
	}
}
