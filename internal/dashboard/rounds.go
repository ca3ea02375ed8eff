package dashboard

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"washboard/internal/domain"
	"washboard/internal/report"
	"washboard/internal/rounds"
	"washboard/internal/store"
)

// Rounds from need (docs/rounds.md): a supervisor makes a round for a part
// of the account (buildings, floors) and a person or a team; the planner
// (internal/rounds) picks the rooms that need a visit now from the open
// alerts and the forecasts, within a limit of rooms or minutes, in the
// order one walks. The person ticks rooms done or skips them with a
// reason; the round's end says what was done, skipped and left.

// roundStore keeps the rounds.
type roundStore interface {
	SaveRound(ctx context.Context, account string, r domain.Round, pruneBefore time.Time, keep int) error
	Round(ctx context.Context, account, id string) (domain.Round, error)
	FindRounds(ctx context.Context, f store.RoundFilter) ([]domain.Round, error)
	TickRoundStop(ctx context.Context, account, id string, position int, st domain.RoundStop) error
	EndRound(ctx context.Context, account, id string, at time.Time, left []domain.RoundStop) error
	AddRoundSchedule(ctx context.Context, account string, rs domain.RoundSchedule, max int) error
	RoundSchedules(ctx context.Context, account string) ([]domain.RoundSchedule, error)
	EveryRoundSchedule(ctx context.Context, limit int) ([]store.AccountRoundSchedule, error)
	RemoveRoundSchedule(ctx context.Context, account, id string) error
	TakeRoundShift(ctx context.Context, account, scheduleID string, start, pruneBefore time.Time) (bool, error)
	OpenVisitorComplaints(ctx context.Context, account string, buildings []string, limit int) ([]domain.VisitorReport, error)
}

// The bounds of what a round is made of.
const (
	// MaxRoundRooms bounds a limit of rooms; a round without one stops
	// at store.RoundStopsKept rooms.
	MaxRoundRooms = 200
	// MaxRoundMinutes bounds a limit of minutes: a shift.
	MaxRoundMinutes = 12 * 60
	// MaxPerRoomMinutes and MaxPerFloorMinutes bound the times a room and
	// a change of floor take.
	MaxPerRoomMinutes  = 60
	MaxPerFloorMinutes = 30
	// MaxRoundTeam bounds a team's name, MaxSkipReason why a room was
	// skipped, in characters.
	MaxRoundTeam  = 80
	MaxSkipReason = 200
	// maxRoundParts bounds the buildings and floors a round is asked for.
	maxRoundParts = 200
	// maxRoundAlerts bounds the open alerts a round is planned from.
	maxRoundAlerts = 5000
	// RoundInterval is when the next round is due, unless a shift starts
	// sooner: a dispenser running out after it waits for that round.
	RoundInterval = 2 * time.Hour
	// roundsListed bounds the rounds /rounds lists.
	roundsListed = 30
)

// RoundError says why a round cannot be made, or a room not skipped: the
// field and the problem, which a page says in its reader's language.
type RoundError struct {
	Field   string
	Problem RoundProblem
	// Min and Max are the range of a number out of it; Max the length of
	// a text too long.
	Min, Max int
}

// RoundProblem is what is wrong with a field of a round.
type RoundProblem int

// The problems of a round's fields.
const (
	RoundPartNeeded   RoundProblem = iota + 1 // no building or floor chosen
	RoundWhoNeeded                            // no person and no team
	RoundOutOfRange                           // a number out of [Min, Max]
	RoundTooLong                              // a text longer than Max
	RoundNotText                              // a text with control characters, or not UTF-8
	RoundReasonNeeded                         // a room skipped without a reason
)

// The fields of a round's form.
const (
	RoundFieldPart     = "part"
	RoundFieldTeam     = "team"
	RoundFieldRooms    = "rooms"
	RoundFieldMinutes  = "minutes"
	RoundFieldPerRoom  = "per_room"
	RoundFieldPerFloor = "per_floor"
	RoundFieldReason   = "reason"
)

func (e RoundError) Error() string {
	switch e.Problem {
	case RoundPartNeeded:
		return "choose at least one building or floor"
	case RoundWhoNeeded:
		return "choose a person or name a team"
	case RoundOutOfRange:
		return fmt.Sprintf("%s must be a whole number from %d to %d", e.Field, e.Min, e.Max)
	case RoundTooLong:
		return fmt.Sprintf("%s is longer than %d characters", e.Field, e.Max)
	case RoundNotText:
		return e.Field + " holds control characters or is not valid text"
	case RoundReasonNeeded:
		return "say why the room was skipped, in a few words"
	}
	return e.Field + " is not valid"
}

// ErrNotYourRound: staff tick the rooms of their own rounds (or of a
// team's) only.
var ErrNotYourRound = &domain.ForbiddenError{Why: "Only the round's person or a supervisor ticks its rooms."}

// ErrRoundEnded: a round that ended is not ticked, nor ended again.
var ErrRoundEnded = errors.New("the round has ended")

// RoundPart is the part of an account a round covers: whole buildings,
// and floors.
type RoundPart struct {
	Buildings, Floors []string
}

// NewRound is what a round is made for: the part, the person (and their
// name) or the team, the limits and who makes it.
type NewRound struct {
	Part           RoundPart
	PersonID, Name string
	Team           string
	MadeBy         string
	Limits         rounds.Limits
}

// checkNewRound checks what a round is made for, and cleans the team's
// name.
func checkNewRound(in *NewRound) error {
	if len(in.Part.Buildings)+len(in.Part.Floors) == 0 {
		return RoundError{Field: RoundFieldPart, Problem: RoundPartNeeded}
	}
	if len(in.Part.Buildings)+len(in.Part.Floors) > maxRoundParts {
		return RoundError{Field: RoundFieldPart, Problem: RoundOutOfRange, Min: 1, Max: maxRoundParts}
	}
	team, err := cleanRoundText(RoundFieldTeam, in.Team, MaxRoundTeam)
	if err != nil {
		return err
	}
	in.Team = team
	if in.PersonID == "" && in.Team == "" {
		return RoundError{Field: RoundFieldTeam, Problem: RoundWhoNeeded}
	}
	if in.PersonID != "" {
		in.Team = ""
	}
	l := in.Limits
	for _, c := range []struct {
		field    string
		v        int
		min, max int
	}{
		{RoundFieldRooms, l.Rooms, 0, MaxRoundRooms},
		{RoundFieldMinutes, l.Minutes, 0, MaxRoundMinutes},
		{RoundFieldPerRoom, int(l.PerRoom / time.Minute), 1, MaxPerRoomMinutes},
		{RoundFieldPerFloor, int(l.PerFloorChange / time.Minute), 0, MaxPerFloorMinutes},
	} {
		if c.v < c.min || c.v > c.max {
			return RoundError{Field: c.field, Problem: RoundOutOfRange, Min: c.min, Max: c.max}
		}
	}
	return nil
}

// cleanRoundText trims a text and checks it is text of at most max
// characters.
func cleanRoundText(field, s string, max int) (string, error) {
	s = strings.TrimSpace(s)
	switch {
	case !utf8.ValidString(s) || strings.IndexFunc(s, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\r' && r != '\t' }) >= 0:
		return "", RoundError{Field: field, Problem: RoundNotText}
	case utf8.RuneCountInString(s) > max:
		return "", RoundError{Field: field, Problem: RoundTooLong, Max: max}
	}
	return s, nil
}

// roundLayout is what a round is planned over: the account's places, the
// part's rooms in walking order and their locations.
type roundLayout struct {
	places    Places
	rooms     []rounds.Room
	locations map[string]domain.Location
	// buildings are those the part covers (its floors' included).
	buildings []string
}

// readRoundLayout reads the part's rooms in the layout's order, of the
// buildings the scope sees: an id the account does not have, or of a
// building the scope does not see, is domain.ErrNotFound.
func (s *Service) readRoundLayout(ctx context.Context, account string, sc domain.BuildingScope, part RoundPart) (roundLayout, error) {
	l := roundLayout{locations: map[string]domain.Location{}}
	var err error
	if l.places, err = s.allPlaces(ctx, account); err != nil {
		return l, err
	}
	order, err := s.layoutOrder(ctx, account)
	if err != nil {
		return l, err
	}
	wholeBuilding, wholeFloor := map[string]bool{}, map[string]bool{}
	for _, id := range part.Buildings {
		if _, ok := l.places.Buildings[id]; !ok || !sc.Sees(id) {
			return l, fmt.Errorf("building %q: %w", id, domain.ErrNotFound)
		}
		wholeBuilding[id] = true
	}
	for _, id := range part.Floors {
		f, ok := l.places.Floors[id]
		if !ok || !sc.Sees(f.BuildingID) {
			return l, fmt.Errorf("floor %q: %w", id, domain.ErrNotFound)
		}
		wholeFloor[id] = true
	}
	type keyed struct {
		r       rounds.Room
		b, f, o int
	}
	var rooms []keyed
	covered := map[string]bool{}
	for _, r := range l.places.Rooms {
		f := l.places.Floors[r.FloorID]
		if !wholeBuilding[f.BuildingID] && !wholeFloor[f.ID] {
			continue
		}
		covered[f.BuildingID] = true
		rooms = append(rooms, keyed{rounds.Room{ID: r.ID, FloorID: f.ID, BuildingID: f.BuildingID},
			order[placeID{'b', f.BuildingID}], order[placeID{'f', f.ID}], order[placeID{'r', r.ID}]})
	}
	slices.SortFunc(rooms, func(a, b keyed) int {
		return cmp.Or(cmp.Compare(a.b, b.b), cmp.Compare(a.f, b.f), cmp.Compare(a.o, b.o), strings.Compare(a.r.ID, b.r.ID))
	})
	for i, k := range rooms {
		k.r.Order = i
		l.rooms = append(l.rooms, k.r)
	}
	for id := range wholeBuilding {
		covered[id] = true
	}
	for _, id := range part.Floors {
		covered[l.places.Floors[id].BuildingID] = true
	}
	for id := range covered {
		l.buildings = append(l.buildings, id)
	}
	slices.Sort(l.buildings)
	for _, b := range l.buildings {
		locs, err := s.store.LocationsIn(ctx, account, b, "", "")
		if err != nil {
			return l, err
		}
		for _, loc := range locs {
			l.locations[loc.ID] = loc
		}
	}
	return l, s.walkPlans(ctx, account, &l)
}

// walkPlans orders the rooms of each floor of the layout that has a plan
// by the plan (rounds.WalkPlan: the nearest room next), and numbers the
// rooms' walking order anew; floors without a plan keep the layout's.
func (s *Service) walkPlans(ctx context.Context, account string, l *roundLayout) error {
	markers := map[string][]domain.PlanPoint{} // by room
	for start := 0; start < len(l.rooms); {
		end := start + 1
		for end < len(l.rooms) && l.rooms[end].FloorID == l.rooms[start].FloorID {
			end++
		}
		floor := l.rooms[start:end]
		start = end
		plan, err := s.store.FloorPlan(ctx, account, floor[0].FloorID)
		if errors.Is(err, domain.ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		clear(markers)
		for id, pt := range plan.Placements.Locations {
			if loc, ok := l.locations[id]; ok {
				markers[loc.RoomID] = append(markers[loc.RoomID], pt)
			}
		}
		ids := make([]string, len(floor))
		at := map[string]domain.PlanPoint{}
		byID := make(map[string]rounds.Room, len(floor))
		for i, r := range floor {
			ids[i] = r.ID
			byID[r.ID] = r
			if pt, ok := rounds.RoomSpot(plan.Placements.Rooms[r.ID], markers[r.ID]); ok {
				at[r.ID] = pt
			}
		}
		for i, id := range rounds.WalkPlan(ids, at) {
			floor[i] = byID[id]
		}
	}
	for i := range l.rooms {
		l.rooms[i].Order = i
	}
	return nil
}

// roundNeeds reads what the part needs now: its open alerts, and its
// dispensers the forecasts say run out by next (those of a location with
// an open alert about supplies aside), and its rooms' open visitors'
// reports. created holds the alerts' and reports' times, visitors the
// reports by their needs' ids.
func (s *Service) roundNeeds(ctx context.Context, account string, l roundLayout, next time.Time) (needs []rounds.Need, created map[string]time.Time, visitors map[string]domain.VisitorReport, err error) {
	roomOf := func(locationID string) (string, domain.Location, bool) {
		loc, ok := l.locations[locationID]
		return loc.RoomID, loc, ok
	}
	alerts, err := s.store.FindAlerts(ctx, store.AlertFilter{Account: account, Buildings: l.buildings, Status: domain.AlertOpen, Limit: maxRoundAlerts})
	if err != nil {
		return nil, nil, nil, err
	}
	created = map[string]time.Time{}
	supplied := map[string]bool{}
	for _, a := range alerts {
		room, loc, ok := roomOf(a.LocationID)
		if !ok {
			continue
		}
		n := rounds.Need{Kind: rounds.NeedFault, LocationID: a.LocationID, RoomID: room, DeviceType: loc.Type, AlertID: a.ID}
		if a.Type.Supplies() {
			n.Kind = rounds.NeedOut
			n.Refills, n.Batteries = report.AlertNeeds(a, loc.Type)
			supplied[a.LocationID] = true
		}
		created[a.ID] = a.Created
		needs = append(needs, n)
	}
	devices, err := s.store.FindDevices(ctx, store.DeviceFilter{Account: account, Buildings: l.buildings})
	if err != nil {
		return nil, nil, nil, err
	}
	estimates := s.estimates(account)
	for _, d := range devices {
		room, loc, ok := roomOf(d.LocationID)
		if !ok || supplied[d.LocationID] {
			continue
		}
		if at, ok := runsOutBy(d, estimates, next); ok {
			needs = append(needs, rounds.Need{Kind: rounds.NeedRunsOut, LocationID: d.LocationID, RoomID: room, DeviceType: loc.Type, RunsOut: at, Refills: 1})
		}
	}
	// Reports over a day old are closed as expired, not planned for.
	complaints, err := s.store.OpenVisitorComplaints(ctx, account, l.buildings, maxRoundAlerts)
	if err == nil && len(complaints) > 0 {
		complaints, err = s.expireVisitorReports(ctx, account, complaints)
	}
	if err != nil {
		return nil, nil, nil, err
	}
	visitors = map[string]domain.VisitorReport{}
	needs = append(needs, visitorNeeds(complaints, l, needs, created, visitors)...)
	return needs, created, visitors, nil
}

// visitorNeeds are the needs of the open visitors' reports of the part's
// rooms: one a room and kind, the oldest report's, with a refill of the
// dispenser the kind names to bring, unless the room's other needs bring
// one already. created and visitors get the reports, by their needs' ids.
func visitorNeeds(reports []domain.VisitorReport, l roundLayout, others []rounds.Need, created map[string]time.Time, visitors map[string]domain.VisitorReport) []rounds.Need {
	inPart := make(map[string]bool, len(l.rooms))
	for _, r := range l.rooms {
		inPart[r.ID] = true
	}
	type roomType struct {
		room string
		typ  domain.DeviceType
	}
	brought := map[roomType]bool{}
	for _, n := range others {
		if n.Refills > 0 {
			brought[roomType{n.RoomID, n.DeviceType}] = true
		}
	}
	type roomKind struct {
		room string
		kind domain.VisitorKind
	}
	seen := map[roomKind]bool{}
	var out []rounds.Need
	for _, r := range reports {
		if !inPart[r.RoomID] || !r.Kind.Chosen() || seen[roomKind{r.RoomID, r.Kind}] {
			continue
		}
		seen[roomKind{r.RoomID, r.Kind}] = true
		n := rounds.Need{Kind: rounds.NeedVisitor, RoomID: r.RoomID, AlertID: visitorNeedID(r)}
		if types := r.Kind.Dispensers(); len(types) > 0 {
			n.DeviceType = types[0]
			if !brought[roomType{r.RoomID, n.DeviceType}] {
				n.Refills = 1
				brought[roomType{r.RoomID, n.DeviceType}] = true
			}
		}
		created[n.AlertID], visitors[n.AlertID] = r.Created, r
		out = append(out, n)
	}
	return out
}

// visitorNeedID is the id a need of a visitor's report carries in place
// of an alert's.
func visitorNeedID(r domain.VisitorReport) string { return "visitor-" + strconv.FormatInt(r.ID, 10) }

// nextRound is when the next round is due: the start of the next shift,
// or RoundInterval from now, whichever comes first.
func (s *Service) nextRound(ctx context.Context, account string, zone *time.Location, now time.Time) (time.Time, error) {
	next := now.Add(RoundInterval)
	shifts, shiftZone, err := s.ReportSettings(ctx, account, zone)
	if err != nil {
		return next, err
	}
	p, in := shifts.At(now, shiftZone)
	if !in {
		p = shifts.LastEnded(now, shiftZone)
	}
	if q, ok := shifts.Next(p); ok && q.Start.After(now) && q.Start.Before(next) {
		next = q.Start
	}
	return next, nil
}

// PlanRound plans a round of the part of the account the scope sees,
// for a person or team, within the limits, without keeping it: the
// rooms to visit now in walking order with their needs, and in Left
// those that did not fit. A RoundError says what is wrong with what was
// asked; domain.ErrNotFound, a building or floor the scope does not see.
func (s *Service) PlanRound(ctx context.Context, account string, sc domain.BuildingScope, in NewRound, zone *time.Location) (domain.Round, error) {
	if err := checkNewRound(&in); err != nil {
		return domain.Round{}, err
	}
	now := s.clock.Now()
	l, err := s.readRoundLayout(ctx, account, sc, in.Part)
	if err != nil {
		return domain.Round{}, err
	}
	next, err := s.nextRound(ctx, account, zone, now)
	if err != nil {
		return domain.Round{}, err
	}
	needs, _, visitors, err := s.roundNeeds(ctx, account, l, next)
	if err != nil {
		return domain.Round{}, err
	}
	limits := in.Limits
	if limits.Rooms == 0 {
		limits.Rooms = store.RoundStopsKept
	}
	p := rounds.Make(rounds.Input{Rooms: l.rooms, Needs: needs, NextRound: next, Limits: limits})
	r := domain.Round{
		Buildings: slices.Clone(in.Part.Buildings), Floors: slices.Clone(in.Part.Floors), InBuildings: l.buildings,
		PersonID: in.PersonID, Name: in.Name, Team: in.Team, MadeBy: in.MadeBy, MadeAt: now,
		Limits: domain.RoundLimits{Rooms: in.Limits.Rooms, Minutes: in.Limits.Minutes, PerRoom: in.Limits.PerRoom, PerFloorChange: in.Limits.PerFloorChange},
	}
	r.Stops = roundStops(p.Stops, nil, visitors, time.Time{})
	r.Left = roundStops(p.Left, nil, visitors, time.Time{})
	return r, nil
}

// roundStops are a plan's stops as a round keeps them, at most
// store.RoundStopsKept; a need of an alert created after since (unless
// zero) is marked as appeared since; a need of a visitor's report says
// what the visitor said.
func roundStops(stops []rounds.Stop, created map[string]time.Time, visitors map[string]domain.VisitorReport, since time.Time) []domain.RoundStop {
	out := make([]domain.RoundStop, 0, min(len(stops), store.RoundStopsKept))
	for _, st := range stops[:min(len(stops), store.RoundStopsKept)] {
		rs := domain.RoundStop{RoomID: st.Room.ID, Status: domain.StopToDo}
		for _, n := range st.Needs {
			rs.Needs = append(rs.Needs, domain.RoundNeed{Kind: string(n.Kind), LocationID: n.LocationID, DeviceType: n.DeviceType,
				AlertID: n.AlertID, RunsOut: n.RunsOut, Refills: n.Refills, Batteries: n.Batteries,
				Since: n.AlertID != "" && !since.IsZero() && created[n.AlertID].After(since)})
			if v, ok := visitors[n.AlertID]; ok && n.Kind == rounds.NeedVisitor {
				rs.Needs[len(rs.Needs)-1].Visitor, rs.Needs[len(rs.Needs)-1].VisitorText = v.Kind, v.Text
			}
		}
		out = append(out, rs)
	}
	return out
}

// MakeRound plans a round (PlanRound) and keeps it; it returns the round,
// with its id. Rounds made longer ago than the alerts' history are let
// go.
func (s *Service) MakeRound(ctx context.Context, account string, sc domain.BuildingScope, in NewRound, zone *time.Location) (domain.Round, error) {
	r, err := s.PlanRound(ctx, account, sc, in, zone)
	if err != nil {
		return r, err
	}
	r.ID = "rnd_" + strings.ToLower(rand.Text()[:16])
	r.Left = nil
	if err := s.store.SaveRound(ctx, account, r, r.MadeAt.Add(-s.historyKept()), 0); err != nil {
		return r, err
	}
	s.announce(account, domain.ResourceAlerts)
	return r, nil
}

// historyKept is how long rounds and "done" reports are kept: as long as
// the alerts' history (the syncer's History, -history), so that the
// service record of any span the alerts cover has them; 90 days without
// an engine.
func (s *Service) historyKept() time.Duration {
	if s.sync == nil {
		return 90 * 24 * time.Hour
	}
	return s.sync.Config().History
}

// readRound reads a round the scope sees: one of a building it does not
// see answers as one that does not exist.
func (s *Service) readRound(ctx context.Context, account string, sc domain.BuildingScope, id string) (domain.Round, error) {
	r, err := s.store.Round(ctx, account, id)
	if err != nil {
		return r, err
	}
	for _, b := range r.InBuildings {
		if !sc.Sees(b) {
			return domain.Round{}, fmt.Errorf("round %q: %w", id, domain.ErrNotFound)
		}
	}
	return r, nil
}

// Ticker is who ticks a room of a round, and their role.
type Ticker struct {
	PersonID, Name string
	Role           domain.Role
}

// MayTick says whether the person may tick the round's rooms: a
// supervisor (or above) any round, staff their own or a team's.
func MayTick(r domain.Round, t Ticker) bool {
	return t.Role >= domain.Supervisor || (t.Role >= domain.Staff && (r.PersonID == "" || r.PersonID == t.PersonID))
}

// TickStop ticks the room at position of a running round the scope sees:
// done, or skipped with a reason (required, at most MaxSkipReason
// characters). ErrNotYourRound when staff tick another's round;
// ErrRoundEnded when it ended; domain.ErrNotFound for no such round or
// stop.
func (s *Service) TickStop(ctx context.Context, account string, sc domain.BuildingScope, id string, position int, t Ticker, done bool, reason string) error {
	r, err := s.readRound(ctx, account, sc, id)
	if err != nil {
		return err
	}
	if !MayTick(r, t) {
		return ErrNotYourRound
	}
	if !r.Running() {
		return ErrRoundEnded
	}
	if position < 0 || position >= len(r.Stops) {
		return fmt.Errorf("stop %d of round %q: %w", position, id, domain.ErrNotFound)
	}
	st := domain.RoundStop{Status: domain.StopDone, PersonID: t.PersonID, Name: t.Name, At: s.clock.Now()}
	if !done {
		if st.Reason, err = cleanRoundText(RoundFieldReason, reason, MaxSkipReason); err != nil {
			return err
		}
		if st.Reason == "" {
			return RoundError{Field: RoundFieldReason, Problem: RoundReasonNeeded}
		}
		st.Status = domain.StopSkipped
	}
	if err := s.store.TickRoundStop(ctx, account, id, position, st); err != nil {
		return err
	}
	s.announce(account, domain.ResourceAlerts)
	return nil
}

// EndRound ends a running round the scope sees, keeping what it leaves
// for the next round: what its part needs now (with no limit) but in the
// rooms it did, those needs that appeared after the room was done. A
// need of an alert created after the round was made is marked as
// appeared since.
func (s *Service) EndRound(ctx context.Context, account string, sc domain.BuildingScope, id string, zone *time.Location) (domain.Round, error) {
	r, err := s.readRound(ctx, account, sc, id)
	if err != nil {
		return r, err
	}
	if !r.Running() {
		return r, ErrRoundEnded
	}
	now := s.clock.Now()
	l, err := s.readRoundLayout(ctx, account, domain.EveryBuilding(), RoundPart{Buildings: r.Buildings, Floors: r.Floors})
	if err != nil && !errors.Is(err, domain.ErrNotFound) {
		return r, err
	}
	next, err := s.nextRound(ctx, account, zone, now)
	if err != nil {
		return r, err
	}
	needs, created, visitors, err := s.roundNeeds(ctx, account, l, next)
	if err != nil {
		return r, err
	}
	doneAt := map[string]time.Time{}
	for _, st := range r.Stops {
		if st.Status == domain.StopDone {
			doneAt[st.RoomID] = st.At
		}
	}
	kept := needs[:0]
	for _, n := range needs {
		if at, ok := doneAt[n.RoomID]; ok && (n.AlertID == "" || !created[n.AlertID].After(at)) {
			continue // done on this round; the service has not said so yet
		}
		kept = append(kept, n)
	}
	p := rounds.Make(rounds.Input{Rooms: l.rooms, Needs: kept, NextRound: next, Limits: rounds.Limits{Rooms: store.RoundStopsKept}})
	left := roundStops(append(p.Stops, p.Left...), created, visitors, r.MadeAt)
	if err := s.store.EndRound(ctx, account, id, now, left); err != nil {
		return r, err
	}
	s.announce(account, domain.ResourceAlerts)
	r.Ended, r.Left = now, left
	return r, nil
}

// Rounds lists the account's rounds the scope sees: the running ones,
// then the recent ones, newest first, at most roundsListed of each.
func (s *Service) Rounds(ctx context.Context, account string, sc domain.BuildingScope) (running, recent []domain.Round, err error) {
	all, err := s.store.FindRounds(ctx, store.RoundFilter{Account: account, Buildings: sc.IDs(), Limit: 2 * roundsListed})
	if err != nil {
		return nil, nil, err
	}
	for _, r := range all {
		if r.Running() && len(running) < roundsListed {
			running = append(running, r)
		} else if !r.Running() && len(recent) < roundsListed {
			recent = append(recent, r)
		}
	}
	return running, recent, nil
}

// RoundView is a round as its page shows it: the round, the names of its
// places and locations, and its pick list.
type RoundView struct {
	Round     domain.Round
	Places    Places
	Locations map[string]domain.Location
	// Bring is the pick list of the stops still to do.
	Bring []RefillItem
	// Plans are the plans of the floors of its stops that have one, by
	// floor.
	Plans map[string]PrintedPlan
}

// StopBring is what to carry to a stop: its needs' refills and
// batteries, as the pick list counts them.
func (v RoundView) StopBring(st domain.RoundStop) []RefillItem {
	var out []RefillItem
	for _, n := range st.Needs {
		out = addBring(out, bring(n.DeviceType, n.Refills, n.Batteries))
	}
	return out
}

// Round reads a round the scope sees, with what its page shows.
func (s *Service) Round(ctx context.Context, account string, sc domain.BuildingScope, id string) (RoundView, error) {
	r, err := s.readRound(ctx, account, sc, id)
	if err != nil {
		return RoundView{}, err
	}
	return s.roundView(ctx, account, r)
}

func (s *Service) roundView(ctx context.Context, account string, r domain.Round) (RoundView, error) {
	v := RoundView{Round: r}
	var ids []string
	for _, list := range [][]domain.RoundStop{r.Stops, r.Left} {
		for _, st := range list {
			for _, n := range st.Needs {
				ids = append(ids, n.LocationID)
			}
		}
	}
	_, locations, err := s.placesOf(ctx, account, ids)
	if err != nil {
		return v, err
	}
	// Every room is named, those whose locations went too.
	if v.Places, err = s.allPlaces(ctx, account); err != nil {
		return v, err
	}
	v.Locations = locations
	var floors []string
	for _, st := range r.Stops {
		if st.Status == domain.StopToDo {
			v.Bring = addBring(v.Bring, v.StopBring(st))
		}
		if room, ok := v.Places.Rooms[st.RoomID]; ok {
			floors = append(floors, room.FloorID)
		}
	}
	v.Plans, err = s.printedPlans(ctx, account, floors)
	return v, err
}

// MyRound is the person's running round, newest first, of the buildings
// the scope sees; false when they have none.
func (s *Service) MyRound(ctx context.Context, account string, sc domain.BuildingScope, personID string) (RoundView, bool, error) {
	if personID == "" {
		return RoundView{}, false, nil
	}
	list, err := s.store.FindRounds(ctx, store.RoundFilter{Account: account, Buildings: sc.IDs(), PersonID: personID, Running: true, Limit: 1})
	if err != nil || len(list) == 0 {
		return RoundView{}, false, err
	}
	v, err := s.roundView(ctx, account, list[0])
	return v, err == nil, err
}

// maxRoundFloorsOffered bounds the floors the form of a round offers.
const maxRoundFloorsOffered = 1000

// RoundChoices are the parts of the account a round may cover, as the
// scope sees them, in the layout's order: its buildings, and their floors.
type RoundChoices struct {
	Buildings []domain.Building
	Floors    []domain.Floor
}

// RoundChoices reads the buildings and floors the scope sees, for the
// form of a round.
func (s *Service) RoundChoices(ctx context.Context, account string, sc domain.BuildingScope) (RoundChoices, error) {
	var c RoundChoices
	bs, err := s.store.Buildings(ctx, account)
	if err != nil {
		return c, err
	}
	c.Buildings = seen(sc, bs)
	fs, err := s.store.Floors(ctx, account, "")
	if err != nil {
		return c, err
	}
	order := map[string]int{}
	for i, b := range c.Buildings {
		order[b.ID] = i
	}
	for _, f := range fs {
		if _, ok := order[f.BuildingID]; ok && len(c.Floors) < maxRoundFloorsOffered {
			c.Floors = append(c.Floors, f)
		}
	}
	slices.SortStableFunc(c.Floors, func(a, b domain.Floor) int { return cmp.Compare(order[a.BuildingID], order[b.BuildingID]) })
	return c, nil
}

// Duration is the time the round's rooms take by its limits' times: a
// time per room, and per change of floor in walking order.
func (v RoundView) Duration() time.Duration {
	var d time.Duration
	prev := ""
	for i, st := range v.Round.Stops {
		floor := v.Places.Rooms[st.RoomID].FloorID
		d += v.Round.Limits.PerRoom
		if i > 0 && floor != prev {
			d += v.Round.Limits.PerFloorChange
		}
		prev = floor
	}
	return d
}

// screenRoundsShown bounds the rounds a wall screen shows.
const screenRoundsShown = 10

// screenRounds are the rounds running in a screen's place: of the account;
// of its building alone; of its floor's building with a room on the floor.
func (s *Service) screenRounds(ctx context.Context, sc domain.Screen) ([]domain.Round, error) {
	f := store.RoundFilter{Account: sc.Account, Running: true, Limit: screenRoundsShown}
	var floorRooms map[string]bool
	switch sc.Scope.Kind {
	case "building":
		f.Buildings = []string{sc.Scope.ID}
	case "floor":
		fl, err := s.store.Floor(ctx, sc.Account, sc.Scope.ID)
		if err != nil {
			return nil, err
		}
		rooms, err := s.store.Rooms(ctx, sc.Account, fl.ID)
		if err != nil {
			return nil, err
		}
		floorRooms = map[string]bool{}
		for _, r := range rooms {
			floorRooms[r.ID] = true
		}
		f.Buildings = []string{fl.BuildingID}
	}
	list, err := s.store.FindRounds(ctx, f)
	if err != nil || floorRooms == nil {
		return list, err
	}
	return slices.DeleteFunc(list, func(r domain.Round) bool {
		return !slices.ContainsFunc(r.Stops, func(st domain.RoundStop) bool { return floorRooms[st.RoomID] })
	}), nil
}
