package views

import (
	"context"
	"strconv"
	"strings"
	"time"

	"washboard/internal/domain"
	"washboard/internal/i18n"
)

// The words of a wall screen, in the screen's language: the web layer
// renders a screen with the localizer of the language chosen with it,
// whatever its browser's (a TV's browser is often English).

// screenTitle is a screen's document title.
func screenTitle(ctx context.Context, name string) string {
	if name == "" {
		return tr(ctx, "screen.title")
	}
	return tr(ctx, "screen.title_named", "name", name)
}

// screenPageSeconds is how long a page of items shows: the screen's
// setting, 15 s when it has none.
func screenPageSeconds(s int) int {
	if s <= 0 {
		return 15
	}
	return s
}

// screenAsOfAttr is the data's age for screen.js: RFC 3339, or "" before
// the first sync.
func screenAsOfAttr(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return machineTime(t)
}

// screenHealth is a health class in words: "Needs action".
func screenHealth(ctx context.Context, h domain.Health) string {
	switch h {
	case domain.HealthAttention:
		return tr(ctx, "screen.health_attention")
	case domain.HealthAction:
		return tr(ctx, "screen.health_action")
	case domain.HealthOffline:
		return tr(ctx, "screen.health_offline")
	}
	return tr(ctx, "screen.health_ok")
}

// screenContact is who to ask to re-link a screen.
func screenContact(ctx context.Context, c string) string {
	if strings.TrimSpace(c) == "" {
		return tr(ctx, "screen.contact_default")
	}
	return c
}

// screenRejected says why the service rejected a screen's credentials,
// and whom to ask.
func screenRejected(ctx context.Context, rejection, contact string) string {
	who := screenContact(ctx, contact)
	switch rejection {
	case "revoked":
		return tr(ctx, "screen.rejected_revoked", "who", who)
	case "expired":
		return tr(ctx, "screen.rejected_expired", "who", who)
	}
	return tr(ctx, "screen.rejected", "who", who)
}

// screenNoData says that no data came yet, and why when known.
func screenNoData(ctx context.Context, reason string) string {
	if reason == "" {
		return tr(ctx, "screen.no_data")
	}
	return tr(ctx, "screen.no_data_because", "reason", reason)
}

// screenStale says that the data of the time may be out of date, and why
// when known.
func screenStale(ctx context.Context, at, reason string) string {
	if reason == "" {
		return tr(ctx, "screen.stale", "time", at)
	}
	return tr(ctx, "screen.stale_because", "time", at, "reason", reason)
}

// screenAgo is how long before now t was: "5 min ago", or with since
// "since 5 min ago" (as the language says it: "seit 5 Min."). A t after
// now (clocks a little apart) is just now. screen.js says the same with
// the same messages (screenScriptWords).
func screenAgo(ctx context.Context, t, now time.Time, since bool) string {
	d := now.Sub(t)
	pick := func(ago, sinceID string, args ...any) string {
		if since {
			return tr(ctx, sinceID, args...)
		}
		return tr(ctx, ago, args...)
	}
	switch {
	case d < time.Minute:
		return pick("screen.ago_now", "screen.since_now")
	case d < time.Hour:
		return pick("screen.ago_minutes", "screen.since_minutes", "minutes", strconv.Itoa(int(d/time.Minute)))
	case d < 24*time.Hour:
		return pick("screen.ago_hours", "screen.since_hours", "hours", strconv.Itoa(int(d/time.Hour)))
	case d < 48*time.Hour:
		return pick("screen.ago_day", "screen.since_day")
	}
	return pick("screen.ago_days", "screen.since_days", "days", strconv.Itoa(int(d/(24*time.Hour))))
}

// screenScriptWords are the words screen.js shows, with their
// placeholders for it to fill: the lost connection, the times since, and
// why a screen stopped.
func screenScriptWords(ctx context.Context) map[string]string {
	return map[string]string{
		"lostAsOf":      tr(ctx, "screen.lost_as_of"),
		"lostNoData":    tr(ctx, "screen.lost_no_data"),
		"agoNow":        tr(ctx, "screen.ago_now"),
		"agoMinutes":    tr(ctx, "screen.ago_minutes"),
		"agoHours":      tr(ctx, "screen.ago_hours"),
		"agoDay":        tr(ctx, "screen.ago_day"),
		"agoDays":       tr(ctx, "screen.ago_days"),
		"sinceNow":      tr(ctx, "screen.since_now"),
		"sinceMinutes":  tr(ctx, "screen.since_minutes"),
		"sinceHours":    tr(ctx, "screen.since_hours"),
		"sinceDay":      tr(ctx, "screen.since_day"),
		"sinceDays":     tr(ctx, "screen.since_days"),
		"unlinkedTitle": ScreenStopTitle(ctx, StopUnlinked),
		"unlinkedText":  ScreenStopMessage(ctx, StopUnlinked),
	}
}

// screenDuration is a length of time in words, to the minute: "45 min",
// "1 h 20 min", "2 days 3 h".
func screenDuration(ctx context.Context, d time.Duration) string {
	days, hours, minutes := int(d/(24*time.Hour)), int(d/time.Hour)%24, int(d/time.Minute)%60
	switch {
	case days > 0 && hours > 0:
		return trn(ctx, "screen.duration_days_hours", days, "hours", strconv.Itoa(hours))
	case days > 0:
		return trn(ctx, "screen.duration_days", days)
	case hours > 0 && minutes > 0:
		return tr(ctx, "screen.duration_hours_minutes", "hours", strconv.Itoa(hours), "minutes", strconv.Itoa(minutes))
	case hours > 0:
		return tr(ctx, "screen.duration_hours", "hours", strconv.Itoa(hours))
	}
	return tr(ctx, "screen.duration_minutes", "minutes", strconv.Itoa(minutes))
}

// screenClaimAge is who is on an item and for how long: "Ana — 4 min",
// "Ana — just now" within the first minute.
func screenClaimAge(ctx context.Context, name string, since, now time.Time) string {
	if now.Sub(since) < time.Minute {
		return tr(ctx, "screen.claimed_just_now", "name", name)
	}
	return tr(ctx, "screen.claimed_for", "name", name, "duration", screenDuration(ctx, now.Sub(since)))
}

// screenProblem is an item's problem in words, saying "Overdue" when it
// is and the words do not already. An item of a model built without its
// kind says its Problem as it is.
func screenProblem(ctx context.Context, it ScreenItem) string {
	if it.What.Kind == "" {
		if it.Overdue && !strings.HasPrefix(strings.ToLower(it.Problem), "overdue") {
			return tr(ctx, "screen.problem_overdue", "problem", it.Problem)
		}
		return it.Problem
	}
	words := screenProblemWords(ctx, it.What)
	if it.Overdue && it.What.Kind != domain.ProblemOverdue {
		return tr(ctx, "screen.problem_overdue", "problem", words)
	}
	return words
}

// screenProblemWords says a problem of a screen's item.
func screenProblemWords(ctx context.Context, p domain.ScreenProblem) string {
	switch p.Kind {
	case domain.ProblemOverdue:
		return tr(ctx, "screen.problem_overdue", "problem", screenAlertType(ctx, p.Alert))
	case domain.ProblemAlert:
		return screenAlertType(ctx, p.Alert)
	case domain.ProblemOffline:
		return tr(ctx, "screen.problem_offline")
	case domain.ProblemOut:
		return tr(ctx, "screen.problem_product_out")
	case domain.ProblemLow:
		return tr(ctx, "screen.problem_product_low")
	case domain.ProblemBatteryOut:
		return tr(ctx, "screen.problem_battery_out")
	case domain.ProblemBatteryLow:
		return tr(ctx, "screen.problem_battery_low")
	case domain.ProblemNoDevice:
		return tr(ctx, "screen.problem_no_device")
	case domain.ProblemFault:
		return screenFault(ctx, p.Fault)
	case domain.ProblemVisitor:
		if p.Text != "" {
			return tr(ctx, "vreport.said_text", "what", visitorKindName(ctx, p.Visitor), "text", p.Text)
		}
		return tr(ctx, "vreport.said", "what", visitorKindName(ctx, p.Visitor))
	}
	return string(p.Kind)
}

// screenAlertType is an alert type in words; one Washboard does not know
// as the service names it.
func screenAlertType(ctx context.Context, t domain.AlertType) string {
	switch t {
	case domain.AlertConsumableOut:
		return tr(ctx, "screen.problem_product_out")
	case domain.AlertBatteryOut:
		return tr(ctx, "screen.problem_battery_out")
	case domain.AlertJam:
		return tr(ctx, "screen.problem_jammed")
	case domain.AlertSensor:
		return tr(ctx, "screen.problem_sensor")
	case domain.AlertSystem:
		return tr(ctx, "screen.problem_system")
	case domain.AlertIncorrectlyLoaded:
		return tr(ctx, "screen.problem_loaded_wrongly")
	case domain.AlertDeviceOff:
		return tr(ctx, "screen.problem_offline")
	}
	return t.Label()
}

// screenFault is a device's fault in words; one Washboard does not know
// as the service names it.
func screenFault(ctx context.Context, f domain.Fault) string {
	switch f.Kind {
	case domain.FaultJam:
		return tr(ctx, "screen.problem_jammed")
	case domain.FaultSensor:
		return tr(ctx, "screen.problem_sensor")
	case domain.FaultSystem:
		return tr(ctx, "screen.problem_system")
	}
	switch f.Key {
	case "leak":
		return tr(ctx, "screen.problem_leak")
	case "maintenance_required":
		return tr(ctx, "screen.problem_maintenance")
	case "no_i2c_communication":
		return tr(ctx, "screen.problem_internal_communication")
	case "safety_check":
		return tr(ctx, "screen.problem_safety_check")
	}
	return f.Label()
}

// attentionCounts says how many of each problem a room's items hold, for
// a line in place of the items: "2 product low, 1 battery low".
func attentionCounts(ctx context.Context, items []ScreenItem) string {
	var order []string
	counts := map[string]int{}
	kinds := map[string]domain.ProblemKind{}
	for _, it := range items {
		w := screenProblem(ctx, it)
		if counts[w] == 0 {
			order = append(order, w)
		}
		counts[w]++
		kinds[w] = it.What.Kind
	}
	parts := make([]string, len(order))
	for i, w := range order {
		n := counts[w]
		switch kinds[w] {
		case domain.ProblemLow:
			parts[i] = trn(ctx, "screen.count_product_low", n)
		case domain.ProblemBatteryLow:
			parts[i] = trn(ctx, "screen.count_battery_low", n)
		case "":
			parts[i] = strconv.Itoa(n) + " " + strings.ToLower(w)
		default:
			parts[i] = tr(ctx, "screen.count_other", "count", numberIn(ctx, n), "problem", w)
		}
	}
	return strings.Join(parts, ", ")
}

// allClearCounts says what an all-clear screen watches: "All 1,000
// locations OK · no open alerts", or the counts when some are not OK but
// the screen does not list them.
func allClearCounts(ctx context.Context, m ScreenView) string {
	total := m.Counts.Total()
	var s string
	switch {
	case total == 0:
		s = tr(ctx, "screen.no_locations")
	case m.Counts.OK == total:
		s = trn(ctx, "screen.all_ok", total)
	default:
		s = trn(ctx, "screen.some_ok", total, "ok", numberIn(ctx, m.Counts.OK))
	}
	if m.OpenAlerts == 0 {
		return s + " · " + tr(ctx, "screen.no_open_alerts")
	}
	return s + " · " + trn(ctx, "screen.open_alert_count", m.OpenAlerts)
}

// ScreenStopTitle is the heading of a stopped screen: why it shows no
// more data.
func ScreenStopTitle(ctx context.Context, s ScreenStop) string {
	if s == StopUnlinked {
		return tr(ctx, "screen.unlinked_title")
	}
	return tr(ctx, "screen.needs_link_title")
}

// ScreenStopMessage says what a stopped screen's people can do.
func ScreenStopMessage(ctx context.Context, s ScreenStop) string {
	switch s {
	case StopUnlinked:
		return tr(ctx, "screen.unlinked_text")
	case StopMakerLeft:
		return tr(ctx, "screen.maker_left_text")
	}
	return tr(ctx, "screen.needs_link_text")
}

// screenSettings says how a screen of a list shows what it shows:
// "Needs action, Offline · pages every 15 s · dims 22:00–06:00".
func screenSettings(ctx context.Context, s ScreenSettings) string {
	var parts []string
	if len(s.Healths) > 0 {
		hs := make([]string, len(s.Healths))
		for i, h := range s.Healths {
			hs[i] = screenHealth(ctx, h)
		}
		parts = append(parts, strings.Join(hs, ", "))
	}
	parts = append(parts, tr(ctx, "screens.pages_every", "seconds", strconv.Itoa(s.PageSeconds)))
	if s.DimFrom != "" {
		parts = append(parts, tr(ctx, "screens.dims", "from", s.DimFrom, "to", s.DimTo))
	}
	return strings.Join(parts, " · ")
}

// languageName is the name of a screen's language in itself: "Deutsch";
// English for a screen made before screens had one.
func languageName(code string) string {
	for _, l := range i18n.Languages {
		if l.Code == code {
			return l.Name
		}
	}
	return i18n.Languages[0].Name
}

// screenRejectionShort says that a screen needs new credentials, and in
// a few words why the service refused them.
func screenRejectionShort(ctx context.Context, rejection string) string {
	switch rejection {
	case "revoked":
		return tr(ctx, "screens.status_revoked_client")
	case "expired":
		return tr(ctx, "screens.status_expired")
	}
	return tr(ctx, "screens.status_refused")
}

// languageCode is a screen's language code: English's for a screen made
// before screens had one.
func languageCode(code string) string {
	if code == "" {
		return i18n.Default
	}
	return code
}
