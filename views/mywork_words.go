package views

import (
	"context"
)

// Offline is the page shown without signal for a page the phone did not
// keep.
type Offline struct {
	Page
}

// myRunsOutHeading is the heading of what runs out: "Runs out before
// Morning ends (14:00)".
func myRunsOutHeading(ctx context.Context, m MyWork) string {
	end := timeIn(ctx, m.ShiftEnd, m.Zone)
	if m.Shift == "" {
		return tr(ctx, "my.runs_out_heading", "time", end)
	}
	return tr(ctx, "my.runs_out_heading_shift", "shift", m.Shift, "time", end)
}

// myWords are the words static/js/mywork.js shows, in the page's
// language.
func myWords(ctx context.Context) map[string]string {
	return map[string]string{
		"waiting":        tr(ctx, "my.js_waiting", "count", "{count}"),
		"claim":          tr(ctx, "my.js_claim", "what", "{what}"),
		"done":           tr(ctx, "my.js_done", "outcome", "{outcome}", "what", "{what}"),
		"refusedHeading": tr(ctx, "my.js_refused_heading"),
		"notSent":        tr(ctx, "my.js_not_sent", "reason", "{reason}"),
		"expired":        tr(ctx, "my.js_expired"),
		"dismiss":        tr(ctx, "my.js_dismiss"),
	}
}
