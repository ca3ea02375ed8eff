package store

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"washboard/internal/domain"
	"washboard/internal/servicelevel"
)

// Policy reads a service level as kept into the policy it measures with.
func (sl ServiceLevel) Policy() (servicelevel.Policy, error) {
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

// EncodeTargets writes targets as a column keeps them: a line per alert
// type, "type claim_minutes resolve_minutes".
func EncodeTargets(ts []ServiceTarget) string {
	var b strings.Builder
	for _, t := range ts {
		fmt.Fprintf(&b, "%s %d %d\n", t.Type, t.Claim/time.Minute, t.Resolve/time.Minute)
	}
	return b.String()
}

// DecodeTargets reads what EncodeTargets wrote.
func DecodeTargets(text string) ([]ServiceTarget, error) {
	var out []ServiceTarget
	for line := range strings.Lines(text) {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 3 {
			return nil, fmt.Errorf("a kept target %q is not a type and two times", strings.TrimSpace(line))
		}
		claim, err1 := strconv.ParseInt(f[1], 10, 32)
		resolve, err2 := strconv.ParseInt(f[2], 10, 32)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("a kept target %q has a time that is not a number of minutes", strings.TrimSpace(line))
		}
		out = append(out, ServiceTarget{Type: domain.AlertType(f[0]), Claim: time.Duration(claim) * time.Minute, Resolve: time.Duration(resolve) * time.Minute})
	}
	return out, nil
}

// Policies reads an account's service levels into the policies they
// measure with, by building ("" for the account's). A service level kept
// that no longer reads (a time zone the server's database lost) is left
// out: it measures nothing.
func Policies(levels map[string]ServiceLevel) map[string]servicelevel.Policy {
	out := make(map[string]servicelevel.Policy, len(levels))
	for b, sl := range levels {
		if p, err := sl.Policy(); err == nil {
			out[b] = p
		}
	}
	return out
}

// PolicyFor is the policy in force for the alerts of a building: the
// building's, or else the account's; false when neither is set.
func PolicyFor(policies map[string]servicelevel.Policy, building string) (servicelevel.Policy, bool) {
	if p, ok := policies[building]; ok && building != "" {
		return p, true
	}
	p, ok := policies[""]
	return p, ok
}
