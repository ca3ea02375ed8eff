package views

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"washboard/internal/domain"
)

// in returns t in zone, UTC when zone is nil.
func in(t time.Time, zone *time.Location) time.Time {
	if zone == nil {
		zone = time.UTC
	}
	return t.In(zone)
}

// clock is the time of day: "14:02".
func clock(t time.Time, zone *time.Location) string {
	return in(t, zone).Format("15:04")
}

// zoneName names a time zone as a person reads it: its IANA name,
// "Europe/Berlin"; UTC when nil. The server's own zone, when the machine
// does not say which it is (Go names it "Local"), is its offset from UTC
// at t: "UTC+01:00", or "UTC".
func zoneName(zone *time.Location, t time.Time) string {
	if zone == nil {
		return "UTC"
	}
	if name := zone.String(); name != "Local" && name != "" {
		return name
	}
	_, offset := t.In(zone).Zone()
	if offset == 0 {
		return "UTC"
	}
	sign := "+"
	if offset < 0 {
		sign, offset = "-", -offset
	}
	return fmt.Sprintf("UTC%s%02d:%02d", sign, offset/3600, offset%3600/60)
}

// machineTime is the datetime attribute of a <time> element.
func machineTime(t time.Time) string {
	return t.UTC().Format(time.RFC3339)
}

// Ago is how long before now t was, in the page's language: "just now",
// "5 min ago", "3 h ago", "2 days ago". A t after now (clocks a little
// apart) is "just now". static/js/app.js says the same from the same
// messages (relativeWords).
func Ago(ctx context.Context, t, now time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return tr(ctx, "format.just_now")
	case d < time.Hour:
		return trn(ctx, "format.minutes_ago", int(d/time.Minute))
	case d < 24*time.Hour:
		return trn(ctx, "format.hours_ago", int(d/time.Hour))
	}
	return trn(ctx, "format.days_ago", int(d/(24*time.Hour)))
}

// Duration is a length of time in words, to the minute, in the page's
// language: "45 min", "1 h 20 min", "2 days 3 h".
func Duration(ctx context.Context, d time.Duration) string {
	if d < time.Minute {
		return tr(ctx, "format.under_a_minute")
	}
	days, hours, minutes := int(d/(24*time.Hour)), int(d/time.Hour)%24, int(d/time.Minute)%60
	var parts []string
	if days > 0 {
		parts = append(parts, trn(ctx, "format.days", days))
		if hours > 0 {
			parts = append(parts, trn(ctx, "format.hours", hours))
		}
		return strings.Join(parts, " ")
	}
	if hours > 0 {
		parts = append(parts, trn(ctx, "format.hours", hours))
	}
	if minutes > 0 {
		parts = append(parts, trn(ctx, "format.minutes", minutes))
	}
	return strings.Join(parts, " ")
}

// number writes n with thousands separators: "12,345".
func number(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// worst is the worst health class present in counts, for the accent of a
// place card; ok when there is nothing.
func worst(c domain.Counts) domain.Health {
	for _, h := range []domain.Health{domain.HealthAction, domain.HealthOffline, domain.HealthAttention} {
		if c.Of(h) > 0 {
			return h
		}
	}
	return domain.HealthOK
}

// healthIcon is the sprite symbol of a health class. Each class has its own
// shape: a circle with a check, a triangle, an octagon with a cross, an
// unplugged plug.
func healthIcon(h domain.Health) string {
	return h.String()
}

// compartmentName names compartment i (from 0) of n: "Product" when there
// is only one, "Roll 2" in a tissue dispenser, "Compartment 2" otherwise.
func compartmentName(ctx context.Context, t domain.DeviceType, i, n int) string {
	switch {
	case n == 1:
		return tr(ctx, "format.product")
	case t == domain.Tissue:
		return tr(ctx, "format.roll", "n", i+1)
	}
	return tr(ctx, "format.compartment", "n", i+1)
}

// compartmentState is the level of a compartment in words: "10 % — low".
func compartmentState(ctx context.Context, c domain.Compartment) string {
	switch {
	case c.Out:
		return tr(ctx, "format.level_out", "level", c.Level)
	case c.Low:
		return tr(ctx, "format.level_low", "level", c.Level)
	}
	return tr(ctx, "format.level", "level", c.Level)
}

// batteryText is the battery in words: "Battery 15 % — low", "Battery not
// reported".
func batteryText(ctx context.Context, level *int, state domain.BatteryState) string {
	if level == nil {
		switch state {
		case domain.BatteryNormal:
			return tr(ctx, "format.battery_normal")
		case domain.BatteryLow:
			return tr(ctx, "format.battery_low")
		case domain.BatteryShutdown:
			return tr(ctx, "format.battery_shutdown")
		case domain.BatteryUnknown:
			return tr(ctx, "format.battery_unreported")
		}
		return tr(ctx, "format.battery_state", "state", strings.ToLower(string(state)))
	}
	switch state {
	case domain.BatteryNormal, domain.BatteryUnknown:
		return tr(ctx, "format.battery_level", "level", *level)
	case domain.BatteryLow:
		return tr(ctx, "format.battery_level_low", "level", *level)
	case domain.BatteryShutdown:
		return tr(ctx, "format.battery_level_shutdown", "level", *level)
	}
	return tr(ctx, "format.battery_level_state", "level", *level, "state", strings.ToLower(string(state)))
}

// batteryIcon is the sprite symbol for a battery state.
func batteryIcon(state domain.BatteryState) string {
	switch state {
	case domain.BatteryLow:
		return "battery-low"
	case domain.BatteryShutdown:
		return "battery-empty"
	}
	return "battery"
}

// faultText is a fault in words: "Jammed (tear bar)".
func faultText(ctx context.Context, f domain.Fault) string {
	if d := faultDetail(ctx, f); d != "" {
		return tr(ctx, "format.fault_with_detail", "fault", faultName(ctx, f), "detail", d)
	}
	return faultName(ctx, f)
}

// positionName is a device's position in words: "Left", "Right", "Main";
// a position Washboard does not know as the service names it.
func positionName(ctx context.Context, p string) string {
	switch p {
	case "":
		return tr(ctx, "format.position_none")
	case "left":
		return tr(ctx, "format.position_left")
	case "right":
		return tr(ctx, "format.position_right")
	case "main":
		return tr(ctx, "format.position_main")
	}
	return strings.ToUpper(p[:1]) + p[1:]
}

// refillText says what an open alert asks to bring: "Bring 2 tissue rolls",
// or "" when it asks for nothing countable.
func refillText(ctx context.Context, a AlertRow, t domain.DeviceType) string {
	if a.RefillCount <= 0 {
		return ""
	}
	if a.Type == domain.AlertBatteryOut {
		return tr(ctx, "format.bring", "what", BatterySets(ctx, a.RefillCount))
	}
	return tr(ctx, "format.bring", "what", RefillCount(ctx, t, a.RefillCount))
}

// statusText is an alert's status in words: "Open", "Resolved",
// "Closed: device went offline — may not be fixed". Overdue is said apart.
func statusText(ctx context.Context, a AlertRow) string {
	if a.Open {
		return tr(ctx, "format.status_open")
	}
	s := ResolutionName(ctx, a.Resolution)
	if s == "" {
		s = tr(ctx, "format.status_closed")
	}
	if a.Resolution.MayBeUnfixed() {
		return tr(ctx, "format.may_not_be_fixed", "status", s)
	}
	return s
}

// statusIcon is the sprite symbol beside an alert's status.
func statusIcon(a AlertRow) string {
	switch {
	case a.Open:
		return "alert"
	case a.Resolution.MayBeUnfixed():
		return "attention"
	}
	return "ok"
}

// refillLineIn is a floor's refill total in the page's language, each
// item's words (Words) given by the handler.
func refillLineIn(items []RefillItem) string {
	parts := make([]string, 0, len(items))
	for _, it := range items {
		if it.Words == "" {
			parts = append(parts, number(it.Count)+" "+it.Noun)
			continue
		}
		parts = append(parts, it.Words)
	}
	return strings.Join(parts, ", ")
}

// phaseText is a first sync's phase in words.
func phaseText(ctx context.Context, phase string) string {
	switch phase {
	case "metadata":
		return tr(ctx, "progress.phase_metadata")
	case "devices":
		return tr(ctx, "progress.phase_devices")
	case "alerts":
		return tr(ctx, "progress.phase_alerts")
	case "":
		return tr(ctx, "progress.phase_starting")
	}
	return tr(ctx, "progress.phase_other", "phase", phase)
}

// signInFailure names the kind of a failed sign-in.
func signInFailure(ctx context.Context, kind string) string {
	switch kind {
	case "rejected":
		return tr(ctx, "signin.failed_rejected")
	case "revoked":
		return tr(ctx, "signin.failed_revoked")
	case "expired":
		return tr(ctx, "signin.failed_expired")
	case "unreachable":
		return tr(ctx, "signin.failed_unreachable")
	case "invalid":
		return tr(ctx, "signin.failed_invalid")
	case "limited":
		return tr(ctx, "signin.failed_limited")
	case "single-sign-on":
		return tr(ctx, "signin.failed_sso")
	case "no-account":
		return tr(ctx, "signin.failed_no_account")
	}
	return tr(ctx, "signin.failed")
}

// withAll puts an "all" choice (value "") before opts, unless opts has one
// already; it is selected when nothing else is.
func withAll(label string, opts []Option) []Option {
	selected := false
	for _, o := range opts {
		if o.Value == "" {
			return opts
		}
		selected = selected || o.Selected
	}
	return append([]Option{{Value: "", Label: label, Selected: !selected}}, opts...)
}

// alertStatuses are the status choices of the alerts filter, the given
// ones or, when the model has none, open (selected), closed and all.
func alertStatuses(ctx context.Context, opts []Option) []Option {
	if len(opts) > 0 {
		return opts
	}
	return []Option{{Value: "open", Label: tr(ctx, "format.status_open"), Selected: true},
		{Value: "closed", Label: tr(ctx, "format.status_closed")}, {Value: "all", Label: tr(ctx, "alerts.status_all")}}
}

// pageTitle is the document title.
func pageTitle(title string) string {
	if title == "" {
		return "Washboard"
	}
	return title + " · Washboard"
}

// kindName is a place kind in words, capitalised.
func kindName(ctx context.Context, kind string) string {
	switch kind {
	case "building":
		return tr(ctx, "place.building")
	case "floor":
		return tr(ctx, "place.floor")
	case "room":
		return tr(ctx, "place.room")
	}
	return positionName(ctx, kind)
}

// because is ": reason", or "" without a reason.
func because(reason string) string {
	if reason == "" {
		return ""
	}
	return ": " + reason
}

// alertTypeIcon is the sprite symbol of an alert type.
func alertTypeIcon(t domain.AlertType) string {
	switch t {
	case domain.AlertConsumableOut:
		return "refill"
	case domain.AlertBatteryOut:
		return "battery-empty"
	case domain.AlertJam, domain.AlertSensor, domain.AlertSystem, domain.AlertIncorrectlyLoaded:
		return "fault"
	case domain.AlertDeviceOff:
		return "offline"
	case domain.AlertVisitor:
		return "person"
	}
	return "alert"
}

// meterID is the id of a meter of a card: compartment j of device i, or its
// battery when j is -1.
func meterID(c DeviceCard, i, j int) string {
	if j < 0 {
		return "card-" + c.LocationID + "-d" + strconv.Itoa(i) + "-battery"
	}
	return "card-" + c.LocationID + "-d" + strconv.Itoa(i) + "-c" + strconv.Itoa(j)
}

// deviceName names a device of a card for assistive technology: "Left
// dispenser" when the location holds two, the type's name otherwise.
func deviceName(ctx context.Context, c DeviceCard, d DeviceView) string {
	return deviceLabel(ctx, c.Type, len(c.Devices), d.Position)
}

// deviceLabel names one of the devices of a location of type t: by its
// position when there are several, by the type otherwise.
func deviceLabel(ctx context.Context, t domain.DeviceType, devices int, position string) string {
	switch {
	case devices > 1:
		return tr(ctx, "device.dispenser_at", "position", positionName(ctx, position))
	case t == domain.Collector:
		return DeviceTypeName(ctx, t)
	}
	return dispenserName(ctx, t)
}

// dispenserName is a dispenser of type t in words: "Towel dispenser".
func dispenserName(ctx context.Context, t domain.DeviceType) string {
	switch t {
	case domain.Tissue:
		return tr(ctx, "device.dispenser_tissue")
	case domain.Towel:
		return tr(ctx, "device.dispenser_towel")
	case domain.Soap:
		return tr(ctx, "device.dispenser_soap")
	case domain.Sanitizer:
		return tr(ctx, "device.dispenser_sanitizer")
	}
	return tr(ctx, "device.dispenser_of", "type", DeviceTypeName(ctx, t))
}

// ff writes an SVG coordinate, to a tenth of a unit.
func ff(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// partsHeading is the heading over the parts of a place: "Floors" of a
// building, "Rooms" of a floor.
func partsHeading(ctx context.Context, kind string) string {
	if kind == "building" {
		return tr(ctx, "place.floors")
	}
	return tr(ctx, "place.rooms")
}

// partKind is the kind of the parts of a place.
func partKind(kind string) string {
	if kind == "building" {
		return "floor"
	}
	return "room"
}

// cardCount is the number of device cards in sections.
func cardCount(sections []RoomSection) int {
	n := 0
	for _, s := range sections {
		n += len(s.Cards)
	}
	return n
}

// ErrorHeading is the heading of an error page, and its title: m.Heading
// when the page has its own, else the words for its status (any error
// of ours, 5xx, is "Something went wrong").
func ErrorHeading(ctx context.Context, m ErrorPage) string {
	switch {
	case m.Heading != "":
		return m.Heading
	case m.Status == 400:
		return tr(ctx, "error.heading_400")
	case m.Status == 403:
		return tr(ctx, "error.heading_403")
	case m.Status == 404:
		return tr(ctx, "error.heading_404")
	case m.Status == 405:
		return tr(ctx, "error.heading_405")
	case m.Status == 410:
		return tr(ctx, "error.heading_410")
	case m.Status == 413:
		return tr(ctx, "error.heading_413")
	case m.Status == 429:
		return tr(ctx, "error.heading_429")
	}
	return tr(ctx, "error.heading_other")
}

// overviewHeading is the front page's heading: the account's name.
func overviewHeading(ctx context.Context, account string) string {
	if account == "" {
		return tr(ctx, "nav.overview")
	}
	return account
}

// cardZone is the zone a card's times are shown in on a page: the card's
// own, or the page's when the card has none.
func cardZone(c DeviceCard, page *time.Location) *time.Location {
	if c.Zone != nil {
		return c.Zone
	}
	return page
}

// sentence makes a reason in words a sentence of its own: a capital first
// letter and a full stop.
func sentence(reason string) string {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return ""
	}
	r, n := utf8.DecodeRuneInString(reason)
	reason = string(unicode.ToUpper(r)) + reason[n:]
	if !strings.HasSuffix(reason, ".") {
		reason += "."
	}
	return reason
}

// chosen names what is chosen in select elements (options with a value),
// as a filter panel's summary: "Towel · Needs action".
func chosen(groups ...[]Option) string {
	var labels []string
	for _, g := range groups {
		for _, o := range g {
			if o.Selected && o.Value != "" {
				labels = append(labels, o.Label)
			}
		}
	}
	return strings.Join(labels, " · ")
}

// runsOutChosen labels the choices of when dispensers run out as the
// summary of a filter says them: "Runs out within 4 h".
func runsOutChosen(ctx context.Context, opts []Option) []Option {
	out := make([]Option, len(opts))
	for i, o := range opts {
		out[i] = o
		if o.Value != "" {
			r, n := utf8.DecodeRuneInString(o.Label)
			out[i].Label = tr(ctx, "format.runs_out_chosen", "within", string(unicode.ToLower(r))+o.Label[n:])
		}
	}
	return out
}

// alertFilterSummary says what the alerts page's filters hold.
func alertFilterSummary(ctx context.Context, f AlertFilter) string {
	s := chosen(f.Buildings, f.Floors, f.Rooms, f.Types, alertStatuses(ctx, f.Statuses), f.Resolutions, runsOutChosen(ctx, f.RunsOut), f.Sorts)
	switch {
	case f.From != "" && f.To != "":
		s += " · " + tr(ctx, "alerts.from_to", "from", f.From, "to", f.To)
	case f.From != "":
		s += " · " + tr(ctx, "alerts.from", "from", f.From)
	case f.To != "":
		s += " · " + tr(ctx, "alerts.to", "to", f.To)
	}
	return s
}

// rejectionWords says why the service rejected a session's credentials.
func rejectionWords(ctx context.Context, rejection string) string {
	switch rejection {
	case "revoked":
		return tr(ctx, "fresh.rejected_revoked")
	case "expired":
		return tr(ctx, "fresh.rejected_expired")
	}
	return tr(ctx, "fresh.rejected")
}

// claimAgeIn is how long someone has been on an alert: "4 min", "1 h 20
// min"; "just now" within the first minute.
func claimAgeIn(ctx context.Context, since, now time.Time) string {
	if now.Sub(since) < time.Minute {
		return tr(ctx, "format.just_now")
	}
	return Duration(ctx, now.Sub(since))
}
