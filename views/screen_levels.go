package views

import (
	"strings"
	"time"
)

// screenLevelWords says on a wall screen where an item's alert stands
// against its targets: "Past its target to claim", "Past its targets to
// claim and resolve", "At risk: claim due 14:05", "At risk: resolve due
// Thu 08:15" (a deadline on another day than now's names the day); ""
// when it is neither at risk nor past one.
func screenLevelWords(l *Level, now time.Time, zone *time.Location) string {
	if l == nil {
		return ""
	}
	switch l.State {
	case "missed":
		claim, resolve := l.Claim.State == "missed", l.Resolve.State == "missed"
		switch {
		case claim && resolve:
			return "Past its targets to claim and resolve"
		case claim:
			return "Past its target to claim"
		}
		return "Past its target to resolve"
	case "at-risk":
		var parts, targets []string
		for _, t := range []struct {
			what string
			o    LevelOutcome
		}{{"claim", l.Claim}, {"resolve", l.Resolve}} {
			if t.o.State != "at-risk" {
				continue
			}
			targets = append(targets, t.what)
			if !t.o.Deadline.IsZero() {
				parts = append(parts, t.what+" due "+screenDeadline(t.o.Deadline, now, zone))
			}
		}
		if len(parts) == len(targets) && len(parts) > 0 {
			return "At risk: " + strings.Join(parts, ", ")
		}
		return "At risk of missing its target to " + strings.Join(targets, " and ")
	}
	return ""
}

// screenDeadline is when a target runs out: "14:05" on now's day, "Thu
// 08:15" on another.
func screenDeadline(t, now time.Time, zone *time.Location) string {
	t = in(t, zone)
	if now.IsZero() || t.Format("2006-01-02") != in(now, zone).Format("2006-01-02") {
		return t.Format("Mon 15:04")
	}
	return t.Format("15:04")
}

// screenLevelWarning reports whether an open alert is at risk of missing
// a target or past one, for the counts line.
func screenLevelWarning(c *LevelCounts) bool {
	return c != nil && c.AtRisk+c.Missed > 0
}
