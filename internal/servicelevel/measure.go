package servicelevel

import (
	"time"

	"washboard/internal/domain"
)

// Policy is the service level agreed with a client, for an account or a
// building: the hours the clock runs and the targets by alert type. The
// zero Policy is always open and measures nothing.
type Policy struct {
	Hours   Hours
	Targets Targets
}

// State is where an alert stands against one target.
type State int

// The states, from "nothing to measure" to "missed".
const (
	// NotApplicable: the alert's type has no target of this kind.
	NotApplicable State = iota
	// Pending: not done yet, and more than a fifth of the target left.
	Pending
	// AtRisk: not done yet, and at most a fifth of the target left.
	AtRisk
	// Met: done within the target.
	Met
	// Missed: done after the target, or not done and the target passed.
	Missed
)

// String is the state's name, as a CSV column or a CSS class writes it.
func (s State) String() string {
	switch s {
	case Pending:
		return "pending"
	case AtRisk:
		return "at-risk"
	case Met:
		return "met"
	case Missed:
		return "missed"
	}
	return "not-applicable"
}

// Label is the state in words for a page: "At risk".
func (s State) Label() string {
	switch s {
	case Pending:
		return "Within target"
	case AtRisk:
		return "At risk"
	case Met:
		return "Met"
	case Missed:
		return "Missed"
	}
	return "No target"
}

// Outcome reports whether the outcome is final or decided: met or missed.
func (s State) Outcome() bool { return s == Met || s == Missed }

// AtRiskFrom is how much of a target is used when it becomes at risk:
// four fifths, leaving less than a fifth (12 minutes of an hour, 3 of 15).
func AtRiskFrom(target time.Duration) time.Duration { return target - target/5 }

// Alert is what the measure of an alert needs: its type and the times it
// opened, was first claimed (zero when never) and closed (zero while
// open).
type Alert struct {
	Type    domain.AlertType
	Opened  time.Time
	Claimed time.Time
	Closed  time.Time
}

// Outcome is an alert measured against one target.
type Outcome struct {
	State State
	// Target is the service time allowed; zero when NotApplicable.
	Target time.Duration
	// Used is the service time from the alert's opening until it was done,
	// or until now while it is not.
	Used time.Duration
	// Done is when it was done (claimed, or closed); zero while not.
	Done time.Time
	// Deadline is when the target runs out, and AtRisk when it becomes at
	// risk; both zero when NotApplicable, or further than the Horizon.
	Deadline, AtRisk time.Time
}

// Left is the service time left before the target runs out; negative once
// it has.
func (o Outcome) Left() time.Duration { return o.Target - o.Used }

// Measure is an alert measured against its type's targets.
type Measure struct {
	Claim, Resolve Outcome
}

// Evaluate measures an alert at now. The claim is done at the first claim,
// or when the alert closed if that came first: an alert resolved before
// anyone claimed it was answered. Service time counts from the opening, in
// the policy's hours.
func (p Policy) Evaluate(a Alert, now time.Time) Measure {
	target, _ := p.Targets.For(a.Type)
	claimed := a.Claimed
	if claimed.IsZero() || !a.Closed.IsZero() && a.Closed.Before(claimed) {
		claimed = a.Closed
	}
	var m Measure
	var ds [4]time.Duration
	n := 0
	if target.Claim > 0 {
		ds[n], ds[n+1] = AtRiskFrom(target.Claim), target.Claim
		n += 2
	}
	if target.Resolve > 0 {
		ds[n], ds[n+1] = AtRiskFrom(target.Resolve), target.Resolve
		n += 2
	}
	var at [4]time.Time
	p.Hours.deadlines(a.Opened, ds[:n], at[:n])
	i := 0
	if target.Claim > 0 {
		m.Claim = p.outcome(a.Opened, claimed, now, target.Claim, at[i], at[i+1])
		i += 2
	}
	if target.Resolve > 0 {
		m.Resolve = p.outcome(a.Opened, a.Closed, now, target.Resolve, at[i], at[i+1])
	}
	return m
}

func (p Policy) outcome(opened, done, now time.Time, target time.Duration, risk, deadline time.Time) Outcome {
	o := Outcome{Target: target, Done: done, AtRisk: risk, Deadline: deadline}
	end := done
	if end.IsZero() {
		end = now
	}
	o.Used = p.Hours.Elapsed(opened, end)
	switch {
	case !done.IsZero() && o.Used <= target:
		o.State = Met
	case o.Used > target:
		o.State = Missed
	case o.Used >= AtRiskFrom(target):
		o.State = AtRisk
	default:
		o.State = Pending
	}
	return o
}

// Explain says where the clock stopped between the alert's opening and
// its closing, or now while it is open; and, while it is open and the
// clock stands still, when the clock runs again.
func (p Policy) Explain(a Alert, now time.Time) Explanation {
	if !a.Closed.IsZero() {
		return p.Hours.Explain(a.Opened, a.Closed)
	}
	e := p.Hours.Explain(a.Opened, now)
	if resumes, ok := p.Hours.Resumes(now); ok && resumes.After(now) {
		e.Resumes = resumes
	}
	return e
}

// maxDeadlines is the most times deadlines finds in one walk: the claim's
// and the resolve's, each with its time at risk.
const maxDeadlines = 4

// deadlines sets at[i] to Deadline(from, ds[i]), for up to maxDeadlines
// durations in any order, in one walk; a zero time for each beyond the
// Horizon.
func (h Hours) deadlines(from time.Time, ds []time.Duration, at []time.Time) {
	from = from.Round(0)
	var order [maxDeadlines]int // indexes of ds, shortest first
	n := copy(order[:], []int{0, 1, 2, 3}[:len(ds)])
	for i := 1; i < n; i++ {
		for j := i; j > 0 && ds[order[j]] < ds[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	next := order[:n]
	for len(next) > 0 && ds[next[0]] <= 0 {
		at[next[0]] = from
		next = next[1:]
	}
	if h.continuous() {
		for _, i := range next {
			at[i] = from.Add(ds[i])
		}
		return
	}
	var used time.Duration
	limit := from.Add(Horizon)
	for cur := from; len(next) > 0 && cur.Before(limit); {
		seg := h.segmentAt(cur, limit)
		if end, ok := h.wholeWeek(seg, limit); ok && ds[next[0]]-used > h.weekly {
			used += h.weekly
			cur = end
			continue
		}
		for _, sp := range seg.open {
			a, b, ok := seg.piece(sp)
			if !ok {
				continue
			}
			n := b.Sub(a)
			for len(next) > 0 && ds[next[0]]-used <= n {
				at[next[0]] = a.Add(ds[next[0]] - used)
				next = next[1:]
			}
			used += n
		}
		cur = seg.to
	}
}
