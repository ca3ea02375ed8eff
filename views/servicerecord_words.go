package views

import (
	"context"
	"time"

	"washboard/internal/domain"
)

// visitTime is when a visit was: "24 Nov 2026 09:25", or "24 Nov 2026
// 09:25–09:50" when it lasted.
func visitTime(ctx context.Context, v ServiceVisit, zone *time.Location) string {
	start := dateTimeIn(ctx, v.Start, zone)
	if timeIn(ctx, v.End, zone) == timeIn(ctx, v.Start, zone) {
		return start
	}
	return tr(ctx, "servicerecord.span", "start", start, "end", timeIn(ctx, v.End, zone))
}

// serviceEntryText is what an entry says was done: "Refilled: Product
// out, Sinks".
func serviceEntryText(ctx context.Context, e ServiceEntry) string {
	what := AlertTypeName(ctx, e.AlertType)
	if e.Location != "" {
		what = tr(ctx, "servicerecord.alert_at", "alert", what, "location", e.Location)
	} else if e.AlertType != "" {
		what = tr(ctx, "servicerecord.alert_at", "alert", what, "location", tr(ctx, "servicerecord.location_gone"))
	}
	switch e.Kind {
	case "done":
		s := tr(ctx, "servicerecord.done", "outcome", outcomeWords(ctx, e.Outcome), "what", what)
		if e.Reason != "" {
			s += " " + tr(ctx, "servicerecord.because", "reason", e.Reason)
		}
		return s
	case "claimed":
		if e.TookOver != "" {
			return tr(ctx, "servicerecord.took_over", "name", e.TookOver, "what", what)
		}
		return tr(ctx, "servicerecord.claimed", "what", what)
	case "room_ticked":
		return tr(ctx, "servicerecord.room_ticked")
	case "door_scan":
		return tr(ctx, "servicerecord.door_scan")
	}
	return e.Kind
}

// outcomeWords is a "done" report's outcome in words.
func outcomeWords(ctx context.Context, o domain.Outcome) string {
	switch o {
	case domain.Refilled:
		return tr(ctx, "servicerecord.refilled")
	case domain.BatteriesChanged:
		return tr(ctx, "servicerecord.batteries_changed")
	case domain.FaultCleared:
		return tr(ctx, "servicerecord.fault_cleared")
	case domain.CouldNotFix:
		return tr(ctx, "servicerecord.could_not_fix")
	}
	return string(o)
}

// serviceDispenserName names a dispenser of a visit: its location, and
// its position when the location has several.
func serviceDispenserName(ctx context.Context, d ServiceDispenser) string {
	if d.Several {
		return tr(ctx, "servicerecord.dispenser_at", "location", d.Location, "position", positionName(ctx, d.Position))
	}
	return d.Location
}

// serviceStateText is a dispenser's state in words: "Out (0 %)",
// "Full (100 %)", "Offline".
func serviceStateText(ctx context.Context, s ServiceState) string {
	switch s.Level {
	case "out":
		return tr(ctx, "servicerecord.state_out", "level", numberIn(ctx, s.Lowest))
	case "low":
		return tr(ctx, "servicerecord.state_low", "level", numberIn(ctx, s.Lowest))
	case "some":
		return tr(ctx, "servicerecord.state_some", "level", numberIn(ctx, s.Lowest))
	case "full":
		return tr(ctx, "servicerecord.state_full", "level", numberIn(ctx, s.Lowest))
	case "offline":
		return tr(ctx, "servicerecord.state_offline")
	}
	return tr(ctx, "servicerecord.state_unknown")
}

// serviceStateIcon is the icon of a dispenser's state; its words say it
// too.
func serviceStateIcon(level string) string {
	switch level {
	case "out":
		return "action"
	case "low":
		return "attention"
	case "full", "some":
		return "ok"
	case "offline":
		return "offline"
	}
	return "info"
}
