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

// levelName is where an alert stands against its targets: "Target
// missed".
func levelName(ctx context.Context, state string) string {
	switch state {
	case "met":
		return tr(ctx, "alerts.level_met")
	case "missed":
		return tr(ctx, "alerts.level_missed")
	case "at-risk":
		return tr(ctx, "alerts.level_at_risk")
	}
	return tr(ctx, "alerts.level_within")
}

// levelStateName is one target's state, within a sentence: "at risk".
func levelStateName(ctx context.Context, state string) string {
	switch state {
	case "pending":
		return tr(ctx, "alerts.level_state_pending")
	case "at-risk":
		return tr(ctx, "alerts.level_state_at_risk")
	case "met":
		return tr(ctx, "alerts.level_state_met")
	case "missed":
		return tr(ctx, "alerts.level_state_missed")
	}
	return tr(ctx, "alerts.level_state_none")
}

// levelOutcomeText says one target's outcome: "Time to claim: missed,
// 20 min of 15 min." or "Time to resolve: within target, 10 min of 1 h
// used, due at 14:10 on Sat 21 Nov."
func levelOutcomeText(ctx context.Context, what string, o LevelOutcome, zone *time.Location) string {
	args := []any{"what", what, "state", levelStateName(ctx, o.State), "used", durationIn(ctx, o.Used), "target", durationIn(ctx, o.Target)}
	switch {
	case o.State != "pending" && o.State != "at-risk":
		return tr(ctx, "alerts.level_outcome", args...)
	case o.Deadline.IsZero():
		return tr(ctx, "alerts.level_outcome_used", args...)
	}
	due := in(o.Deadline, zone)
	return tr(ctx, "alerts.level_outcome_due", append(args, "time", due.Format("15:04"), "weekday", weekdayShort(ctx, due.Weekday()),
		"day", due.Day(), "month", monthShort(ctx, due.Month()))...)
}

// levelDetail says both targets' outcomes in one line, for a title.
func levelDetail(ctx context.Context, l *Level) string {
	var parts []string
	if l.Claim.State != "" {
		parts = append(parts, tr(ctx, "alerts.level_detail", "what", tr(ctx, "alerts.level_claim"), "state", levelStateName(ctx, l.Claim.State),
			"used", durationIn(ctx, l.Claim.Used), "target", durationIn(ctx, l.Claim.Target)))
	}
	if l.Resolve.State != "" {
		parts = append(parts, tr(ctx, "alerts.level_detail", "what", tr(ctx, "alerts.level_resolve"), "state", levelStateName(ctx, l.Resolve.State),
			"used", durationIn(ctx, l.Resolve.Used), "target", durationIn(ctx, l.Resolve.Target)))
	}
	return strings.Join(parts, "; ")
}
