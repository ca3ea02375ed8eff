package rounds

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"time"

	"washboard/internal/servicelevel"
)

// Checks saved (docs/rounds.md#checks-saved): for a period, the room
// visits rounds from need made against the visits fixed rounds would
// have made, every room every Every hours; and the dispensers' out-hours
// under both.
//
// Fixed rounds. A fixed round visits every room of the part at once, at
// its start. Without service hours, rounds start at the period's start
// and every Every after it, around the clock. With service hours, a round
// starts whenever the hours open (or at the period's start, when they are
// open then) and every Every after, as long as they are open at that
// time: the first round after a closing is at the next opening. Rounds from need are counted as they were made, in or out of
// hours.
//
// Out-hours. Under rounds from need, they are the spans the dispensers
// were out (clientreport.OutSpans, from the history). Under fixed rounds,
// a dispenser that ran out at t would have stayed out until the first
// fixed round at or after t (one already out at the period's start, until
// the first round of the period), or the period's end: the same run-outs,
// each ended by the round that would have come. It is not a simulation of
// what fixed rounds would have prevented; the backtest plays both
// (BenchmarkBacktest). Each is counted in all and, with service hours,
// within them (InService; without hours, the same as Out).

// DefaultEvery is how often fixed rounds visit every room unless told
// otherwise.
const DefaultEvery = 2 * time.Hour

// The bounds of a comparison: fixed rounds no more often than every
// quarter of an hour, a period of at most 400 days.
const (
	MinEvery  = 15 * time.Minute
	MaxPeriod = 400 * 24 * time.Hour
)

// ErrChecks is wrapped by every error that says a comparison's input
// cannot be measured.
var ErrChecks = errors.New("checks saved")

// Visit is a room a round from need visited, and when.
type Visit struct {
	RoomID string
	At     time.Time
}

// Out is a stretch in which a dispenser of a room was out of product.
// Dispenser, when given, joins a dispenser's stretches whose fixed-round
// counterparts overlap, so that they count once.
type Out struct {
	RoomID, Dispenser string
	From, To          time.Time
}

// ChecksInput is what ChecksSaved compares.
type ChecksInput struct {
	// From and To are the period, [From, To).
	From, To time.Time
	// Rooms are the rooms of the part of the account: fixed rounds visit
	// each. Visits and outs of other rooms are not counted.
	Rooms []string
	// Visits are the room visits rounds from need made.
	Visits []Visit
	// Outs are the stretches the part's dispensers were out.
	Outs []Out
	// Every is how often fixed rounds would have visited every room;
	// zero is DefaultEvery.
	Every time.Duration
	// Hours, when set, are the service hours: fixed rounds are made
	// within them only, and out-hours are counted within them too.
	Hours *servicelevel.Hours
}

// OutTime is the out-hours of dispensers summed: two dispensers out for an
// hour each are 2 hours. InService is the part within service hours.
type OutTime struct {
	Out, InService time.Duration
}

// Checks is what rounds from need saved over a period.
type Checks struct {
	// FixedRounds is how many fixed rounds the period held; FixedVisits
	// their room visits, every room each round.
	FixedRounds, FixedVisits int
	// NeedVisits is the room visits rounds from need made.
	NeedVisits int
	// NeedOut is the out-hours as they were; FixedOut as fixed rounds
	// would have ended the same run-outs.
	NeedOut, FixedOut OutTime
}

// Saved is the visits rounds from need saved; negative when they made
// more than fixed rounds would have.
func (c Checks) Saved() int { return c.FixedVisits - c.NeedVisits }

// SavedPercent is Saved as a percentage of the fixed rounds' visits; 0
// when there were none.
func (c Checks) SavedPercent() float64 {
	if c.FixedVisits == 0 {
		return 0
	}
	return 100 * float64(c.Saved()) / float64(c.FixedVisits)
}

// ChecksSaved compares, for a period, rounds from need with fixed rounds
// every Every hours (see the package's "Checks saved" above). Its work
// grows with the visits and outs given and the rounds the period holds.
func ChecksSaved(in ChecksInput) (Checks, error) {
	every := in.Every
	if every == 0 {
		every = DefaultEvery
	}
	switch {
	case !in.To.After(in.From):
		return Checks{}, fmt.Errorf("%w: the period ends (%s) before it starts (%s)", ErrChecks, in.To.Format(time.RFC3339), in.From.Format(time.RFC3339))
	case in.To.Sub(in.From) > MaxPeriod:
		return Checks{}, fmt.Errorf("%w: a period of %d days is too long: give at most %d", ErrChecks, int(in.To.Sub(in.From).Hours()/24), int(MaxPeriod.Hours()/24))
	case every < MinEvery:
		return Checks{}, fmt.Errorf("%w: fixed rounds every %s are too often: give at least %s", ErrChecks, every, MinEvery)
	}
	rooms := make(map[string]bool, len(in.Rooms))
	for _, r := range in.Rooms {
		rooms[r] = true
	}
	fixed := fixedRounds(in.From, in.To, every, in.Hours)
	c := Checks{FixedRounds: len(fixed), FixedVisits: len(fixed) * len(rooms)}
	for _, v := range in.Visits {
		if rooms[v.RoomID] && !v.At.Before(in.From) && v.At.Before(in.To) {
			c.NeedVisits++
		}
	}
	var ended []Out
	for _, o := range in.Outs {
		from, to := maxTime(o.From, in.From), minTime(o.To, in.To)
		if !rooms[o.RoomID] || !to.After(from) {
			continue
		}
		c.NeedOut.add(from, to, in.Hours)
		// The first fixed round at or after the run-out ends it.
		end := in.To
		if i, _ := slices.BinarySearchFunc(fixed, from, time.Time.Compare); i < len(fixed) {
			end = fixed[i]
		}
		if end.After(from) {
			ended = append(ended, Out{Dispenser: o.Dispenser, From: from, To: end})
		}
	}
	for _, o := range joined(ended) {
		c.FixedOut.add(o.From, o.To, in.Hours)
	}
	return c, nil
}

// fixedRounds is the start of each fixed round in [from, to), in order.
func fixedRounds(from, to time.Time, every time.Duration, hours *servicelevel.Hours) []time.Time {
	open := func(t time.Time) (time.Time, bool) {
		if hours == nil {
			return t, true
		}
		return hours.Resumes(t)
	}
	var at []time.Time
	for t, ok := open(from); ok && t.Before(to); t, ok = open(t.Add(every)) {
		at = append(at, t)
	}
	return at
}

// joined is the stretches with those of one dispenser that overlap made
// one.
func joined(outs []Out) []Out {
	slices.SortFunc(outs, func(a, b Out) int { return cmp.Or(cmp.Compare(a.Dispenser, b.Dispenser), a.From.Compare(b.From)) })
	var j []Out
	for _, o := range outs {
		if n := len(j); n > 0 && o.Dispenser != "" && j[n-1].Dispenser == o.Dispenser && !o.From.After(j[n-1].To) {
			j[n-1].To = maxTime(j[n-1].To, o.To)
			continue
		}
		j = append(j, o)
	}
	return j
}

func (o *OutTime) add(from, to time.Time, hours *servicelevel.Hours) {
	o.Out += to.Sub(from)
	if hours == nil {
		o.InService += to.Sub(from)
		return
	}
	o.InService += hours.Elapsed(from, to)
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
