package store

import (
	"context"
	"time"

	"washboard/internal/domain"
)

// RoundsKept is how many rounds an account keeps at most: the oldest go
// first. Rounds made before the end of the alerts' history go too (see
// SaveRound).
const RoundsKept = 2000

// RoundStopsKept bounds a round's stops, and what it left for the next
// round, each.
const RoundStopsKept = 500

// RoundFilter chooses rounds.
type RoundFilter struct {
	Account string
	// Buildings, when not nil, keeps the rounds all of whose buildings
	// are among them.
	Buildings []string
	// PersonID, when set, keeps that person's rounds; Running, the rounds
	// not ended.
	PersonID string
	Running  bool
	// Limit bounds how many, newest first; <= 0 is 50.
	Limit int
}

// Rounds keeps the accounts' rounds from need (domain.Round).
type Rounds interface {
	// SaveRound keeps a new round of the account, its stops (at most
	// RoundStopsKept) and the buildings it covers, and lets go of the
	// account's rounds made before pruneBefore (unless zero) and of the
	// oldest beyond keep (RoundsKept when keep <= 0), r included.
	// domain.ErrLimit when r has too many stops.
	SaveRound(ctx context.Context, account string, r domain.Round, pruneBefore time.Time, keep int) error
	// Round reads a round with its stops; domain.ErrNotFound when the
	// account has none of the id.
	Round(ctx context.Context, account, id string) (domain.Round, error)
	// FindRounds lists rounds, newest first, with their stops.
	FindRounds(ctx context.Context, f RoundFilter) ([]domain.Round, error)
	// TickRoundStop sets the status, reason and who of the stop at
	// position of a running round; domain.ErrNotFound when the account
	// has no running round of the id with such a stop.
	TickRoundStop(ctx context.Context, account, id string, position int, st domain.RoundStop) error
	// EndRound ends a running round at at, keeping what it left for the
	// next round (at most RoundStopsKept); domain.ErrNotFound when the
	// account has no running round of the id.
	EndRound(ctx context.Context, account, id string, at time.Time, left []domain.RoundStop) error
	// RoundTicksIn returns the rooms ticked done on rounds in the
	// filter's span that it selects (rooms skipped are not), newest
	// first, at most its Limit; a room the layout no longer has is left
	// out.
	RoundTicksIn(ctx context.Context, f ServiceFilter) ([]RoundTick, error)
	// OpenVisitorComplaints returns the open visitors' reports of the
	// rooms of the buildings (every building's for nil) that say
	// something is wrong (a rating alone and flood markers are not),
	// oldest first, at most limit (which must be above 0): the needs a
	// round is planned from.
	OpenVisitorComplaints(ctx context.Context, account string, buildings []string, limit int) ([]domain.VisitorReport, error)

	// AddRoundSchedule keeps a schedule of the account, unless it has max
	// already: domain.ErrLimit.
	AddRoundSchedule(ctx context.Context, account string, rs domain.RoundSchedule, max int) error
	// RoundSchedules lists the account's schedules, oldest first.
	RoundSchedules(ctx context.Context, account string) ([]domain.RoundSchedule, error)
	// EveryRoundSchedule lists the schedules of every account, by
	// account, at most limit of them.
	EveryRoundSchedule(ctx context.Context, limit int) ([]AccountRoundSchedule, error)
	// RemoveRoundSchedule removes a schedule of the account;
	// domain.ErrNotFound when it has none of the id.
	RemoveRoundSchedule(ctx context.Context, account, id string) error
	// TakeRoundShift takes the start of a shift for a schedule: true for
	// the first taker of every process, false for the others. Starts
	// taken before pruneBefore are let go.
	TakeRoundShift(ctx context.Context, account, scheduleID string, start, pruneBefore time.Time) (bool, error)
}

// AccountRoundSchedule is a schedule and its account.
type AccountRoundSchedule struct {
	Account string
	domain.RoundSchedule
}

// RoundTick is a room ticked done on a round: who ticked it, and when.
type RoundTick struct {
	RoundID, RoomID string
	PersonID, Name  string
	At              time.Time
}
