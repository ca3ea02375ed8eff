package views

import (
	"strings"
	"time"
)

// levelIcon is the symbol of a state against a target.
func levelIcon(state string) string {
	switch state {
	case "met":
		return "ok"
	case "missed":
		return "action"
	case "at-risk":
		return "attention"
	}
	return "overdue"
}

// levelOutcomeText says one target's outcome: "Time to claim: missed,
// 20 min of 15 min." or "Time to resolve: within target, 10 min of 1 h
// used, due at 14:10."
func levelOutcomeText(what string, o LevelOutcome, zone *time.Location) string {
	s := what + ": " + strings.ToLower(o.Label) + ", " + duration(o.Used) + " of " + duration(o.Target)
	if o.State == "pending" || o.State == "at-risk" {
		s += " used"
		if !o.Deadline.IsZero() {
			if zone == nil {
				zone = time.UTC
			}
			s += ", due at " + o.Deadline.In(zone).Format("15:04 on Mon 2 Jan")
		}
	}
	return s + "."
}

// levelDetail says both targets' outcomes in one line, for a title.
func levelDetail(l *Level) string {
	var parts []string
	if l.Claim.State != "" {
		parts = append(parts, "Time to claim: "+strings.ToLower(l.Claim.Label)+" ("+duration(l.Claim.Used)+" of "+duration(l.Claim.Target)+")")
	}
	if l.Resolve.State != "" {
		parts = append(parts, "Time to resolve: "+strings.ToLower(l.Resolve.Label)+" ("+duration(l.Resolve.Used)+" of "+duration(l.Resolve.Target)+")")
	}
	return strings.Join(parts, "; ")
}
