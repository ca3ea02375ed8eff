package views

import (
	"cmp"
	"context"
	"strings"
	"time"

	"washboard/internal/domain"
	"washboard/internal/report"
)

// pathText joins the names of a place's parts that are known:
// "Summit Court › Ground Floor › Men's Restroom G.03 › Stall 1".
func pathText(names ...string) string {
	var parts []string
	for _, s := range names {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, " › ")
}

// pickBuildings groups the pick list's rows by building, in order.
func pickBuildings(rows []report.PickRow) [][]report.PickRow {
	var out [][]report.PickRow
	for _, r := range rows {
		if n := len(out); n > 0 && out[n-1][0].BuildingID == r.BuildingID {
			out[n-1] = append(out[n-1], r)
			continue
		}
		out = append(out, []report.PickRow{r})
	}
	return out
}

// The shift report's words in the page's language (see i18n.go). The
// layouts of its dates and times are messages of the catalogs: each
// language writes a day and a time its own way, English with the
// weekday ("Sat 21 Nov 2026, 14:02 CET"), German with numbers
// ("21.11.2026, 14:02 CET").

// reportDateTime is a date and time with its zone, for the report's
// facts: "Sat 21 Nov 2026, 14:02 CET".
func reportDateTime(ctx context.Context, t time.Time, zone *time.Location) string {
	return in(t, zone).Format(tr(ctx, "report.layout_date_time"))
}

// reportShortTime is a date and time without the year and zone, for
// tables whose period and zone the page states: "Sat 21 Nov 14:02".
func reportShortTime(ctx context.Context, t time.Time, zone *time.Location) string {
	return in(t, zone).Format(tr(ctx, "report.layout_short"))
}

// reportPlace is where a location is: "North Tower › Level 2 › Restroom
// 2.04 › Stall 1".
func reportPlace(ctx context.Context, p report.Place) string {
	return cmp.Or(pathText(p.Building, p.Floor, p.Room, p.Location), tr(ctx, "report.location_id", "id", p.LocationID))
}

// reportBuilding is a building's name, or words for a location whose
// building is not known.
func reportBuilding(ctx context.Context, name string) string {
	if name == "" {
		return tr(ctx, "report.building_unknown")
	}
	return name
}

// reportTypes names alert types: "Product out, Jammed".
func reportTypes(ctx context.Context, types []domain.AlertType) string {
	names := make([]string, len(types))
	for i, t := range types {
		names[i] = reportAlertType(ctx, t)
	}
	return strings.Join(names, ", ")
}

// reportAlertType is an alert type's name; a type Washboard does not
// know keeps the service's words.
func reportAlertType(ctx context.Context, t domain.AlertType) string {
	switch t {
	case domain.AlertConsumableOut:
		return tr(ctx, "report.type_consumable_out")
	case domain.AlertBatteryOut:
		return tr(ctx, "report.type_battery_out")
	case domain.AlertJam:
		return tr(ctx, "report.type_jam")
	case domain.AlertSensor:
		return tr(ctx, "report.type_sensor")
	case domain.AlertSystem:
		return tr(ctx, "report.type_system")
	case domain.AlertIncorrectlyLoaded:
		return tr(ctx, "report.type_incorrectly_loaded")
	case domain.AlertDeviceOff:
		return tr(ctx, "report.type_device_off")
	}
	return t.Label()
}

// reportResolution is how an alert closed.
func reportResolution(ctx context.Context, r domain.Resolution) string {
	switch r {
	case domain.ResolvedByDevice:
		return tr(ctx, "report.resolution_device")
	case domain.ResolvedByOffline:
		return tr(ctx, "report.resolution_offline")
	case domain.ResolvedByUser:
		return tr(ctx, "report.resolution_user")
	}
	return r.Label()
}

// reportRefills is a list of refills: "3 tissue rolls, 1 soap refill",
// or "no refills".
func reportRefills(ctx context.Context, rs []report.Refill) string {
	var parts []string
	for _, r := range rs {
		if r.Count > 0 {
			parts = append(parts, reportRefill(ctx, r.Type, r.Count))
		}
	}
	if len(parts) == 0 {
		return tr(ctx, "report.no_refills")
	}
	return strings.Join(parts, ", ")
}

// reportRefill is n refills of a type of dispenser: "3 tissue rolls".
func reportRefill(ctx context.Context, t domain.DeviceType, n int) string {
	switch t {
	case domain.Tissue:
		return trn(ctx, "report.refill_tissue", n)
	case domain.Towel:
		return trn(ctx, "report.refill_towel", n)
	case domain.Soap:
		return trn(ctx, "report.refill_soap", n)
	case domain.Sanitizer:
		return trn(ctx, "report.refill_sanitizer", n)
	}
	return trn(ctx, "report.refill_other", n)
}

// reportDuration is a length of time in words, to the minute: "45 min",
// "1 h 20 min", "2 days 3 h".
func reportDuration(ctx context.Context, d time.Duration) string {
	if d < time.Minute {
		return tr(ctx, "report.duration_under_minute")
	}
	days, hours, minutes := int(d/(24*time.Hour)), int(d/time.Hour)%24, int(d/time.Minute)%60
	var parts []string
	if days > 0 {
		parts = append(parts, trn(ctx, "report.duration_days", days))
		if hours > 0 {
			parts = append(parts, tr(ctx, "report.duration_hours", "count", numberIn(ctx, hours)))
		}
		return strings.Join(parts, " ")
	}
	if hours > 0 {
		parts = append(parts, tr(ctx, "report.duration_hours", "count", numberIn(ctx, hours)))
	}
	if minutes > 0 {
		parts = append(parts, tr(ctx, "report.duration_minutes", "count", numberIn(ctx, minutes)))
	}
	return strings.Join(parts, " ")
}

// reportClaimOutcome is how a claim ended: "Alert closed at Sat 21 Nov
// 14:05", "Handed over at …", "Released at …", or "Still on it".
func reportClaimOutcome(ctx context.Context, c domain.Claim, zone *time.Location) string {
	at := reportShortTime(ctx, c.Ended, zone)
	switch c.EndedBy {
	case domain.ClaimClosed:
		return tr(ctx, "report.claim_closed", "at", at)
	case domain.ClaimHanded:
		return tr(ctx, "report.claim_handed", "at", at)
	case domain.ClaimReleased:
		return tr(ctx, "report.claim_released", "at", at)
	}
	return tr(ctx, "report.claim_still_on")
}

// hourLabels are the labels of the hourly chart's hours: "15:04", with
// the day before it when the period is longer than a day ("2 Jan
// 15:04"), and the hour that clocks repeat when they go back said as
// the second.
func hourLabels(ctx context.Context, buckets []report.Bucket, zone *time.Location) []string {
	out := make([]string, len(buckets))
	for i, b := range buckets {
		base, second := strings.CutSuffix(b.Label, " (2nd)")
		s := timeIn(ctx, b.Start, zone)
		if len(base) > len("15:04") {
			s = in(b.Start, zone).Format(tr(ctx, "report.layout_day")) + " " + s
		}
		if second {
			s = tr(ctx, "report.hour_second", "hour", s)
		}
		out[i] = s
	}
	return out
}

// hourlyDescription is the hourly chart in words, for those who cannot see
// it: the busiest hour and the totals.
func hourlyDescription(ctx context.Context, buckets []report.Bucket, zone *time.Location) string {
	opened, resolved, busiest := 0, 0, -1
	for i, b := range buckets {
		opened += b.Opened
		resolved += b.Resolved
		if b.Opened > 0 && (busiest < 0 || b.Opened > buckets[busiest].Opened) {
			busiest = i
		}
	}
	s := tr(ctx, "report.chart_description", "alerts", trn(ctx, "report.alerts_count", opened), "resolved", numberIn(ctx, resolved),
		"hours", trn(ctx, "report.hours_count", len(buckets)))
	if busiest >= 0 {
		s += " " + tr(ctx, "report.chart_busiest", "hour", hourLabels(ctx, buckets, zone)[busiest], "alerts", trn(ctx, "report.alerts_count", buckets[busiest].Opened))
	}
	return s
}
