// Package levels is service levels as the store keeps them: a kept
// service level read into the policy it measures with (internal/
// servicelevel), the one in force for a building, and Measure, the
// store's Measurer of the alerts the sync sees close. The store keeps
// the text; this package gives it its meaning, so that the store knows
// only the domain.
package levels

import (
	"washboard/internal/domain"
	"washboard/internal/servicelevel"
	"washboard/internal/store"
)

// Policy reads a kept service level into the policy it measures with.
func Policy(sl store.ServiceLevel) (servicelevel.Policy, error) {
	hours, err := servicelevel.ParseHours(sl.Week, sl.Holidays, sl.Zone)
	if err != nil {
		return servicelevel.Policy{}, err
	}
	by := make(map[domain.AlertType]servicelevel.Target, len(sl.Targets))
	for _, t := range sl.Targets {
		by[t.Type] = servicelevel.Target{Claim: t.Claim, Resolve: t.Resolve}
	}
	targets, err := servicelevel.NewTargets(by)
	if err != nil {
		return servicelevel.Policy{}, err
	}
	return servicelevel.Policy{Hours: hours, Targets: targets}, nil
}

// Policies reads an account's service levels into policies, by building
// ("" for the account's). One kept that no longer reads (a time zone the
// server's database lost) is left out: it measures nothing.
func Policies(levels map[string]store.ServiceLevel) map[string]servicelevel.Policy {
	out := make(map[string]servicelevel.Policy, len(levels))
	for b, sl := range levels {
		if p, err := Policy(sl); err == nil {
			out[b] = p
		}
	}
	return out
}

// For is the policy in force for the alerts of a building: the
// building's, or else the account's; false when neither is set.
func For(policies map[string]servicelevel.Policy, building string) (servicelevel.Policy, bool) {
	if p, ok := policies[building]; ok && building != "" {
		return p, true
	}
	p, ok := policies[""]
	return p, ok
}

// Words is a policy in words, as a measure keeps it: "Mon-Fri
// 06:00-22:00 (Europe/Berlin); Product out: claim 15 min, resolve 1 h".
func Words(p servicelevel.Policy) string { return p.Hours.String() + "; " + p.Targets.String() }

// Measure is the store's Measurer (store.MeasureWith): the alert that
// closed measured against the policy in force for its building, with the
// policy in words and where the clock stopped (empty when it never did);
// false when the policy has no target for the alert's type.
func Measure(kept map[string]store.ServiceLevel, in store.AlertMeasure) (store.AlertMeasure, bool) {
	sl, ok := kept[in.BuildingID]
	if !ok || in.BuildingID == "" {
		if sl, ok = kept[""]; !ok {
			return in, false
		}
	}
	p, err := Policy(sl)
	if err != nil {
		return in, false
	}
	if _, measured := p.Targets.For(in.Type); !measured {
		return in, false
	}
	a := servicelevel.Alert{Type: in.Type, Opened: in.Created, Claimed: in.Claimed, Closed: in.Closed}
	m := p.Evaluate(a, in.Closed)
	in.Claim, in.Resolve = Kept(m.Claim), Kept(m.Resolve)
	in.Policy = Words(p)
	in.Explanation = ""
	if e := p.Explain(a, in.Closed); e.Stopped > 0 {
		in.Explanation = e.String()
	}
	return in, true
}

// Kept is an outcome as a measure keeps it.
func Kept(o servicelevel.Outcome) store.MeasureOutcome {
	if o.State == servicelevel.NotApplicable {
		return store.MeasureOutcome{State: o.State.String()}
	}
	return store.MeasureOutcome{State: o.State.String(), Target: o.Target, Used: o.Used}
}

// Outcome is a kept outcome read back: met, missed, or not applicable.
func Outcome(o store.MeasureOutcome) servicelevel.Outcome {
	out := servicelevel.Outcome{Target: o.Target, Used: o.Used}
	switch o.State {
	case servicelevel.Met.String():
		out.State = servicelevel.Met
	case servicelevel.Missed.String():
		out.State = servicelevel.Missed
	}
	return out
}
