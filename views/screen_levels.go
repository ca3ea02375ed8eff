package views

import (
	"context"
	"strings"
	"time"
)

// screenLevelWords says on a wall screen where an item's alert stands
// against its targets: "Past its target to claim", "Past its targets to
// claim and resolve", "At risk: claim due 14:05", "At risk: resolve due
// Thursday 08:15" (a deadline on another day than now's names the day);
// "" when it is neither at risk nor past one.
func screenLevelWords(ctx context.Context, l *Level, now time.Time, zone *time.Location) string {
	if l == nil {
		return ""
	}
	switch l.State {
	case "missed":
		claim, resolve := l.Claim.State == "missed", l.Resolve.State == "missed"
		switch {
		case claim && resolve:
			return tr(ctx, "screen.level_missed_both")
		case claim:
			return tr(ctx, "screen.level_missed_claim")
		}
		return tr(ctx, "screen.level_missed_resolve")
	case "at-risk":
		claim, resolve := l.Claim.State == "at-risk", l.Resolve.State == "at-risk"
		var parts []string
		if claim && !l.Claim.Deadline.IsZero() {
			parts = append(parts, tr(ctx, "screen.level_claim_due", "time", screenDeadline(ctx, l.Claim.Deadline, now, zone)))
		}
		if resolve && !l.Resolve.Deadline.IsZero() {
			parts = append(parts, tr(ctx, "screen.level_resolve_due", "time", screenDeadline(ctx, l.Resolve.Deadline, now, zone)))
		}
		targets := 0
		if claim {
			targets++
		}
		if resolve {
			targets++
		}
		if len(parts) == targets && len(parts) > 0 {
			return tr(ctx, "screen.level_at_risk", "due", strings.Join(parts, ", "))
		}
		switch {
		case claim && resolve:
			return tr(ctx, "screen.level_risk_both")
		case claim:
			return tr(ctx, "screen.level_risk_claim")
		}
		return tr(ctx, "screen.level_risk_resolve")
	}
	return ""
}

// screenDeadline is when a target runs out: "14:05" on now's day,
// "Thursday 08:15" on another.
func screenDeadline(ctx context.Context, t, now time.Time, zone *time.Location) string {
	t = in(t, zone)
	if now.IsZero() || t.Format("2006-01-02") != in(now, zone).Format("2006-01-02") {
		return tr(ctx, "screen.deadline_day", "day", weekdayIn(ctx, t.Weekday()), "time", timeIn(ctx, t, zone))
	}
	return timeIn(ctx, t, zone)
}

// screenLevelWarning reports whether an open alert is at risk of missing
// a target or past one, for the counts line.
func screenLevelWarning(c *LevelCounts) bool {
	return c != nil && c.AtRisk+c.Missed > 0
}
