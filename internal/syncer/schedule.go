package syncer

import (
	"context"
	"slices"
	"time"
)

// How the accounts' rounds share the interval and the engine's workers.
//
// Each account's loop has a phase, its point in every interval: its rounds
// are due then. The first loop takes the point of its first poll; each
// loop after takes the middle of the widest gap between the phases of the
// loops running (as its first poll starts), so that 200 accounts refreshed
// every minute ask the service for at most 5 accounts in any second rather
// than for all of them at once. A loop's first round runs at once; its next waits for its phase,
// at least an interval later. A round starts at least an interval after
// the account's last one, as the spec asks: a round that started late
// pushes the next one back by as much, and a round after a pause (one
// after the service asked to slow down) waits for the account's phase
// again. A loop that takes an account's sync over from another replica
// carries on the schedule the cache records, and keeps its phase.
//
// A round runs on one of the engine's workers (Config.Workers): an account
// whose service answers slowly holds one of them, and the others go on. A
// loop waiting for a worker waits in the order it asked.

// DefaultWorkers is how many accounts' rounds run at once by default.
const DefaultWorkers = 16

// claimPhase gives the loop its phase: at's point in the interval when no
// other loop has one, else the middle of the widest gap between theirs.
func (e *Engine) claimPhase(l *loop, at time.Time) time.Duration {
	e.mu.Lock()
	defer e.mu.Unlock()
	i := e.cfg.Interval
	taken := make([]time.Duration, 0, len(e.phases))
	for _, p := range e.phases {
		taken = append(taken, p.at)
	}
	p := intoInterval(at, i)
	if len(taken) > 0 {
		slices.Sort(taken)
		best, width := taken[0], time.Duration(0)
		for k, from := range taken {
			to := i + taken[0] // the gap that wraps round
			if k+1 < len(taken) {
				to = taken[k+1]
			}
			if to-from > width {
				best, width = from, to-from
			}
		}
		p = (best + width/2) % i
	}
	e.phases[l.account] = phase{l, p}
	return p
}

// keepPhase gives the loop the phase of a schedule it carries on.
func (e *Engine) keepPhase(l *loop, at time.Time) time.Duration {
	e.mu.Lock()
	defer e.mu.Unlock()
	p := intoInterval(at, e.cfg.Interval)
	e.phases[l.account] = phase{l, p}
	return p
}

// dropPhase frees the loop's phase when it ends.
func (e *Engine) dropPhase(l *loop) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.phases[l.account].loop == l {
		delete(e.phases, l.account)
	}
}

// phase is a loop's point in each interval.
type phase struct {
	loop *loop
	at   time.Duration
}

func intoInterval(t time.Time, i time.Duration) time.Duration {
	into := time.Duration(t.UnixNano() % int64(i))
	if into < 0 {
		into += i
	}
	return into
}

// onPhase is the first time at or after t at the phase p.
func (e *Engine) onPhase(p time.Duration, t time.Time) time.Time {
	i := e.cfg.Interval
	return t.Add((p - intoInterval(t, i) + i) % i)
}

// nextDue is when the account's next round is due after the round due at
// due (zero for a round not on the schedule) that started at started,
// which asks to wait at least wait.
func (e *Engine) nextDue(p time.Duration, due, started time.Time, wait time.Duration) time.Time {
	earliest := started.Add(wait)
	if due.IsZero() || wait != e.cfg.Interval {
		return e.onPhase(p, earliest)
	}
	next := due.Add(wait)
	if next.Before(earliest) {
		return earliest
	}
	return next
}

// worker waits for one of the engine's workers, and returns the function
// that gives it back; false when ctx ended first.
func (e *Engine) worker(ctx context.Context) (func(), bool) {
	select {
	case e.workers <- struct{}{}:
		return func() { <-e.workers }, true
	case <-ctx.Done():
		return nil, false
	}
}
