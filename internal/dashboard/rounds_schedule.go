package dashboard

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"washboard/internal/domain"
	"washboard/internal/report"
	"washboard/internal/rounds"
)

// Schedules of rounds: a supervisor asks for a round of a part, for a
// person or team, at each start of a shift of the account (the shifts of
// the shift report's settings). Every replica looks at the schedules
// every minute; the first to take a shift's start
// (store.Rounds.TakeRoundShift) makes its round, the others do nothing.

// The bounds of the schedules.
const (
	// MaxRoundSchedules is how many schedules an account keeps.
	MaxRoundSchedules = 20
	// roundShiftGrace is how long after a shift starts its round is still
	// made: a server down at the start makes it when it comes back within
	// it, not hours into the shift.
	roundShiftGrace = time.Hour
	// roundSchedulesPoll is how often the schedules are looked at.
	roundSchedulesPoll = time.Minute
	// maxEveryRoundSchedule bounds the schedules read in one pass.
	maxEveryRoundSchedule = 10000
)

// AddRoundSchedule keeps a schedule of a round at each shift start of the
// account, of a part the scope sees: the errors of PlanRound, and
// domain.ErrLimit when the account has MaxRoundSchedules.
func (s *Service) AddRoundSchedule(ctx context.Context, account string, sc domain.BuildingScope, in NewRound) (domain.RoundSchedule, error) {
	if err := checkNewRound(&in); err != nil {
		return domain.RoundSchedule{}, err
	}
	if _, err := s.readRoundLayout(ctx, account, sc, in.Part); err != nil {
		return domain.RoundSchedule{}, err
	}
	rs := domain.RoundSchedule{ID: "rsc_" + strings.ToLower(rand.Text()[:16]), Buildings: in.Part.Buildings, Floors: in.Part.Floors,
		PersonID: in.PersonID, Name: in.Name, Team: in.Team, MadeBy: in.MadeBy, Created: s.clock.Now(),
		Limits: domain.RoundLimits{Rooms: in.Limits.Rooms, Minutes: in.Limits.Minutes, PerRoom: in.Limits.PerRoom, PerFloorChange: in.Limits.PerFloorChange}}
	return rs, s.store.AddRoundSchedule(ctx, account, rs, MaxRoundSchedules)
}

// RoundSchedules lists the account's schedules whose part the scope sees
// whole.
func (s *Service) RoundSchedules(ctx context.Context, account string, sc domain.BuildingScope) ([]domain.RoundSchedule, error) {
	all, err := s.store.RoundSchedules(ctx, account)
	if err != nil || !sc.Limited() {
		return all, err
	}
	floors, err := s.store.Floors(ctx, account, "")
	if err != nil {
		return nil, err
	}
	buildingOf := map[string]string{}
	for _, f := range floors {
		buildingOf[f.ID] = f.BuildingID
	}
	return slices.DeleteFunc(all, func(rs domain.RoundSchedule) bool {
		return slices.ContainsFunc(rs.Buildings, func(b string) bool { return !sc.Sees(b) }) ||
			slices.ContainsFunc(rs.Floors, func(f string) bool { return !sc.Sees(buildingOf[f]) })
	}), nil
}

// RemoveRoundSchedule removes a schedule the scope sees;
// domain.ErrNotFound otherwise.
func (s *Service) RemoveRoundSchedule(ctx context.Context, account string, sc domain.BuildingScope, id string) error {
	seen, err := s.RoundSchedules(ctx, account, sc)
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(seen, func(rs domain.RoundSchedule) bool { return rs.ID == id }) {
		return fmt.Errorf("round schedule %q: %w", id, domain.ErrNotFound)
	}
	return s.store.RemoveRoundSchedule(ctx, account, id)
}

// RunRoundSchedules makes the rounds of the schedules at each shift start
// until ctx ends; zone is the shifts' time zone unless an account saved
// its own. What fails is logged.
func (s *Service) RunRoundSchedules(ctx context.Context, zone *time.Location, log *slog.Logger) {
	for {
		if err := s.RoundSchedulesPass(ctx, zone); err != nil && ctx.Err() == nil && log != nil {
			log.Warn("making the rounds of the schedules", "error", err.Error())
		}
		select {
		case <-ctx.Done():
			return
		case <-s.clock.After(roundSchedulesPoll):
		}
	}
}

// RoundSchedulesPass makes the round of every schedule whose account's
// shift started within roundShiftGrace, once per start across every
// process: a start another process took is left to it.
func (s *Service) RoundSchedulesPass(ctx context.Context, zone *time.Location) error {
	all, err := s.store.EveryRoundSchedule(ctx, maxEveryRoundSchedule)
	if err != nil {
		return err
	}
	now := s.clock.Now()
	type shiftsOf struct {
		shifts report.Shifts
		zone   *time.Location
		err    error
	}
	accounts := map[string]shiftsOf{}
	var errs []error
	for _, rs := range all {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		a, ok := accounts[rs.Account]
		if !ok {
			a.shifts, a.zone, a.err = s.ReportSettings(ctx, rs.Account, zone)
			accounts[rs.Account] = a
		}
		if a.err != nil {
			errs = append(errs, a.err)
			continue
		}
		p, in := a.shifts.At(now, a.zone)
		if !in || now.Sub(p.Start) > roundShiftGrace {
			continue
		}
		taken, err := s.store.TakeRoundShift(ctx, rs.Account, rs.ID, p.Start, now.Add(-2*roundShiftGrace))
		if err != nil || !taken {
			errs = append(errs, err)
			continue
		}
		in2 := NewRound{Part: RoundPart{Buildings: rs.Buildings, Floors: rs.Floors}, PersonID: rs.PersonID, Name: rs.Name, Team: rs.Team,
			MadeBy: domain.RoundBySchedule, Limits: rounds.Limits{Rooms: rs.Limits.Rooms, Minutes: rs.Limits.Minutes, PerRoom: rs.Limits.PerRoom,
				PerFloorChange: rs.Limits.PerFloorChange}}
		if _, err := s.MakeRound(ctx, rs.Account, domain.EveryBuilding(), in2, zone); err != nil {
			errs = append(errs, fmt.Errorf("the round of schedule %s of account %s: %w", rs.ID, rs.Account, err))
		}
	}
	return errors.Join(errs...)
}
