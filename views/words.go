package views

import (
	"context"
	"encoding/json"
	"time"

	"washboard/internal/domain"
	"washboard/internal/i18n"
)

// The words of the domain's values (health classes, alert types, faults,
// device types) and of days and times, in the page's language. The domain
// keeps its English labels for logs, CSV files and e-mails not yet
// converted; a page says them through these. A value the service adds
// later, which Washboard does not know, keeps the domain's words.

// HealthName is a health class in words: "Needs action".
func HealthName(ctx context.Context, h domain.Health) string {
	switch h {
	case domain.HealthAttention:
		return tr(ctx, "format.health_attention")
	case domain.HealthOffline:
		return tr(ctx, "format.health_offline")
	case domain.HealthAction:
		return tr(ctx, "format.health_action")
	}
	return tr(ctx, "format.health_ok")
}

// AlertTypeName is an alert type in words: "Product out".
func AlertTypeName(ctx context.Context, t domain.AlertType) string {
	switch t {
	case domain.AlertConsumableOut:
		return tr(ctx, "format.alert_consumable_out")
	case domain.AlertBatteryOut:
		return tr(ctx, "format.alert_battery_out")
	case domain.AlertJam:
		return tr(ctx, "format.alert_jam")
	case domain.AlertSensor:
		return tr(ctx, "format.alert_sensor")
	case domain.AlertSystem:
		return tr(ctx, "format.alert_system")
	case domain.AlertIncorrectlyLoaded:
		return tr(ctx, "format.alert_incorrectly_loaded")
	case domain.AlertDeviceOff:
		return tr(ctx, "format.alert_device_off")
	case domain.AlertVisitor:
		return tr(ctx, "vreport.alert_type")
	}
	return t.Label()
}

// alertAction is what to do about an alert of type t.
func alertAction(ctx context.Context, t domain.AlertType) string {
	switch t {
	case domain.AlertConsumableOut:
		return tr(ctx, "format.action_consumable_out")
	case domain.AlertBatteryOut:
		return tr(ctx, "format.action_battery_out")
	case domain.AlertJam:
		return tr(ctx, "format.action_jam")
	case domain.AlertSensor:
		return tr(ctx, "format.action_sensor")
	case domain.AlertSystem:
		return tr(ctx, "format.action_system")
	case domain.AlertIncorrectlyLoaded:
		return tr(ctx, "format.action_incorrectly_loaded")
	case domain.AlertDeviceOff:
		return tr(ctx, "format.action_device_off")
	case domain.AlertVisitor:
		return tr(ctx, "vreport.action")
	}
	return tr(ctx, "format.action_unknown")
}

// ResolutionName is how a closed alert was resolved, in words.
func ResolutionName(ctx context.Context, r domain.Resolution) string {
	switch r {
	case domain.ResolvedByDevice:
		return tr(ctx, "format.resolved_by_device")
	case domain.ResolvedByOffline:
		return tr(ctx, "format.resolved_by_offline")
	case domain.ResolvedByUser:
		return tr(ctx, "format.resolved_by_user")
	}
	return r.Label()
}

// DeviceTypeName is a device type in words: "Towel".
func DeviceTypeName(ctx context.Context, t domain.DeviceType) string {
	switch t {
	case domain.Tissue:
		return tr(ctx, "format.type_tissue")
	case domain.Towel:
		return tr(ctx, "format.type_towel")
	case domain.Soap:
		return tr(ctx, "format.type_soap")
	case domain.Sanitizer:
		return tr(ctx, "format.type_sanitizer")
	case domain.Collector:
		return tr(ctx, "format.type_gateway")
	case "":
		return tr(ctx, "format.type_unknown")
	}
	return t.Label()
}

// RefillCount is n of what staff carry to refill a compartment of type t:
// "2 tissue rolls".
func RefillCount(ctx context.Context, t domain.DeviceType, n int) string {
	switch t {
	case domain.Tissue:
		return trn(ctx, "format.refill_tissue", n)
	case domain.Towel:
		return trn(ctx, "format.refill_towel", n)
	case domain.Soap:
		return trn(ctx, "format.refill_soap", n)
	case domain.Sanitizer:
		return trn(ctx, "format.refill_sanitizer", n)
	}
	return trn(ctx, "format.refill_other", n)
}

// BatterySets is n battery sets in words: "1 battery set".
func BatterySets(ctx context.Context, n int) string { return trn(ctx, "format.battery_sets", n) }

// faultName is a fault in words: "Jammed".
func faultName(ctx context.Context, f domain.Fault) string {
	switch f.Kind {
	case domain.FaultJam:
		return tr(ctx, "format.fault_jam")
	case domain.FaultSensor:
		return tr(ctx, "format.fault_sensor")
	case domain.FaultSystem:
		return tr(ctx, "format.fault_system")
	}
	switch f.Key {
	case "leak":
		return tr(ctx, "format.fault_leak")
	case "maintenance_required":
		return tr(ctx, "format.fault_maintenance")
	case "no_i2c_communication":
		return tr(ctx, "format.fault_internal")
	case "safety_check":
		return tr(ctx, "format.fault_safety")
	}
	return f.Label()
}

// faultDetail is what exactly the device detected, "" when the kind says
// it all.
func faultDetail(ctx context.Context, f domain.Fault) string {
	switch f.Key {
	case "tear_bar_fault":
		return tr(ctx, "format.fault_tear_bar")
	case "calibration_fault":
		return tr(ctx, "format.fault_calibration")
	case "communication_fault":
		return tr(ctx, "format.fault_communication")
	case "incorrectly_loaded":
		return tr(ctx, "format.fault_loaded")
	case "user_sensor_occluded":
		return tr(ctx, "format.fault_occluded")
	}
	return ""
}

// faultAction is what to do about a fault.
func faultAction(ctx context.Context, f domain.Fault) string {
	switch f.Kind {
	case domain.FaultJam:
		return alertAction(ctx, domain.AlertJam)
	case domain.FaultSensor:
		if f.Key == "incorrectly_loaded" {
			return alertAction(ctx, domain.AlertIncorrectlyLoaded)
		}
		return alertAction(ctx, domain.AlertSensor)
	case domain.FaultSystem:
		return alertAction(ctx, domain.AlertSystem)
	}
	return tr(ctx, "format.fault_action_unknown")
}

// weekdayShort is a day's short name: "Sat", "Sa", "sáb", "sam.".
func weekdayShort(ctx context.Context, d time.Weekday) string {
	switch d {
	case time.Sunday:
		return tr(ctx, "format.sun")
	case time.Monday:
		return tr(ctx, "format.mon")
	case time.Tuesday:
		return tr(ctx, "format.tue")
	case time.Wednesday:
		return tr(ctx, "format.wed")
	case time.Thursday:
		return tr(ctx, "format.thu")
	case time.Friday:
		return tr(ctx, "format.fri")
	}
	return tr(ctx, "format.sat")
}

// monthShort is a month's short name: "Nov", "Nov.", "nov", "nov.".
func monthShort(ctx context.Context, m time.Month) string {
	switch m {
	case time.January:
		return tr(ctx, "format.jan")
	case time.February:
		return tr(ctx, "format.feb")
	case time.March:
		return tr(ctx, "format.mar")
	case time.April:
		return tr(ctx, "format.apr")
	case time.May:
		return tr(ctx, "format.may")
	case time.June:
		return tr(ctx, "format.jun")
	case time.July:
		return tr(ctx, "format.jul")
	case time.August:
		return tr(ctx, "format.aug")
	case time.September:
		return tr(ctx, "format.sep")
	case time.October:
		return tr(ctx, "format.oct")
	case time.November:
		return tr(ctx, "format.nov")
	}
	return tr(ctx, "format.dec")
}

// dateTimeZoned is a full date and time with its zone, as the page's
// language writes it: "Sat 21 Nov 2026, 14:02 CET", "Sa., 21. Nov. 2026,
// 14:02 CET".
func dateTimeZoned(ctx context.Context, t time.Time, zone *time.Location) string {
	t = in(t, zone)
	return tr(ctx, "format.date_time", "weekday", weekdayShort(ctx, t.Weekday()), "day", t.Day(),
		"month", monthShort(ctx, t.Month()), "year", t.Year(), "time", t.Format("15:04"), "zone", t.Format("MST"))
}

// shortDateTimeIn is a day of the week and a time, without the year:
// "Sat 14 Nov 14:02".
func shortDateTimeIn(ctx context.Context, t time.Time, zone *time.Location) string {
	t = in(t, zone)
	return tr(ctx, "format.short_date_time", "weekday", weekdayShort(ctx, t.Weekday()), "day", t.Day(),
		"month", monthShort(ctx, t.Month()), "time", t.Format("15:04"))
}

// freshnessReason is why the data may be out of date: Washboard's own
// reasons in the page's language, a refresh's error as it said it.
func freshnessReason(ctx context.Context, f Freshness) string {
	switch f.Reason {
	case domain.ReasonCacheUnreadable:
		return tr(ctx, "fresh.cache_unreadable")
	case domain.ReasonStale:
		return tr(ctx, "fresh.stale")
	}
	return syncFailureIn(ctx, f.Reason)
}

// syncFailureIn says in the page's language why a refresh failed, from
// the words the sync state keeps (domain.ReadSyncFailure): words it does
// not recognise show as they are.
func syncFailureIn(ctx context.Context, stored string) string {
	return domain.ReadSyncFailure(stored).Words(i18n.From(ctx))
}

// relativeWords are the messages of Ago for static/js/app.js, which
// keeps relative times current: the page's language, the words for "just
// now", and the plural forms of minutes, hours and days ago, as JSON.
func relativeWords(ctx context.Context) string {
	l := i18n.From(ctx)
	b, err := json.Marshal(map[string]any{
		"lang": l.Lang(), "now": tr(ctx, "format.just_now"),
		"min": l.Forms("format.minutes_ago"), "h": l.Forms("format.hours_ago"), "day": l.Forms("format.days_ago"),
	})
	if err != nil {
		return "{}"
	}
	return string(b)
}

// alertLocation names an alert's location: its name, or its id when the
// account's layout does not have it.
func alertLocation(ctx context.Context, a AlertRow) string {
	if a.LocationName != "" {
		return a.LocationName
	}
	return tr(ctx, "format.location_id", "id", a.LocationID)
}
