package views

import (
	"context"
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

// levelLabel is where an alert stands against its targets, in a badge's
// words: "Target missed".
func levelLabel(ctx context.Context, state string) string {
	switch state {
	case "met":
		return tr(ctx, "levels.badge_met")
	case "missed":
		return tr(ctx, "levels.badge_missed")
	case "at-risk":
		return tr(ctx, "levels.badge_at_risk")
	}
	return tr(ctx, "levels.badge_pending")
}

// levelState is one target's state in a sentence's words: "missed",
// "within target".
func levelState(ctx context.Context, state string) string {
	switch state {
	case "met":
		return tr(ctx, "levels.state_met")
	case "missed":
		return tr(ctx, "levels.state_missed")
	case "at-risk":
		return tr(ctx, "levels.state_at_risk")
	}
	return tr(ctx, "levels.state_pending")
}

// levelOutcomeText says one target's outcome: "Time to claim: missed,
// 20 min of 15 min." or "Time to resolve: within target, 10 min of 1 h
// used, due at 14:10 on Tuesday 24 Nov 2026."
func levelOutcomeText(ctx context.Context, what string, o LevelOutcome, zone *time.Location) string {
	state, used, target := levelState(ctx, o.State), Duration(ctx, o.Used), Duration(ctx, o.Target)
	if o.State != "pending" && o.State != "at-risk" {
		return tr(ctx, "levels.outcome", "what", what, "state", state, "used", used, "target", target)
	}
	if o.Deadline.IsZero() {
		return tr(ctx, "levels.outcome_used", "what", what, "state", state, "used", used, "target", target)
	}
	day := weekdayIn(ctx, in(o.Deadline, zone).Weekday()) + " " + dateIn(ctx, o.Deadline, zone)
	return tr(ctx, "levels.outcome_due", "what", what, "state", state, "used", used, "target", target,
		"time", timeIn(ctx, o.Deadline, zone), "day", day)
}

// levelDetail says both targets' outcomes in one line, for a title.
func levelDetail(ctx context.Context, l *Level) string {
	var parts []string
	if l.Claim.State != "" {
		parts = append(parts, tr(ctx, "levels.detail", "what", tr(ctx, "levels.claim"), "state", levelState(ctx, l.Claim.State),
			"used", Duration(ctx, l.Claim.Used), "target", Duration(ctx, l.Claim.Target)))
	}
	if l.Resolve.State != "" {
		parts = append(parts, tr(ctx, "levels.detail", "what", tr(ctx, "levels.resolve"), "state", levelState(ctx, l.Resolve.State),
			"used", Duration(ctx, l.Resolve.Used), "target", Duration(ctx, l.Resolve.Target)))
	}
	return strings.Join(parts, "; ")
}
