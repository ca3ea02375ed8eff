package domain

import "time"

// AlertStatus is OPEN or CLOSED.
type AlertStatus string

// The alert statuses.
const (
	AlertOpen   AlertStatus = "OPEN"
	AlertClosed AlertStatus = "CLOSED"
)

// AlertType is the alert_type of an alert. Types the service adds later are
// kept as they come.
type AlertType string

// The alert types Washboard knows.
const (
	AlertConsumableOut     AlertType = "consumable_out"
	AlertBatteryOut        AlertType = "battery_out"
	AlertJam               AlertType = "jam_fault"
	AlertSensor            AlertType = "sensor_fault"
	AlertSystem            AlertType = "system_fault"
	AlertIncorrectlyLoaded AlertType = "incorrectly_loaded"
	AlertDeviceOff         AlertType = "device_off"
)

// AlertTypes lists the known alert types in the order a page shows them.
var AlertTypes = []AlertType{
	AlertConsumableOut, AlertBatteryOut, AlertJam, AlertSensor, AlertSystem,
	AlertIncorrectlyLoaded, AlertDeviceOff,
}

type alertTypeInfo struct {
	label  string
	action string
}

// alertTypeInfos holds each type's name in words and its recommended action.
// The actions of the first five are the spec's; the spec states none for
// incorrectly_loaded and device_off, so those are Washboard's.
var alertTypeInfos = map[AlertType]alertTypeInfo{
	AlertConsumableOut:     {"Product out", "Replace with a full refill."},
	AlertBatteryOut:        {"Battery out", "Replace batteries with fully charged ones."},
	AlertJam:               {"Jammed", "Remove refill and debris, reinstall refill."},
	AlertSensor:            {"Sensor fault", "Check for obstructions near the hand-wave sensor, wipe the hand-wave lens, and for towel dispensers wipe the sensor lens."},
	AlertSystem:            {"System fault", "Contact the supplier representative for next steps and replacement."},
	AlertIncorrectlyLoaded: {"Loaded incorrectly", "Remove the refill and load it again as shown inside the dispenser."},
	AlertDeviceOff:         {"Offline", "The device has not reported for 24 hours: check its batteries and that it is mounted and within range of its gateway."},
}

// Label is the alert type in words.
func (t AlertType) Label() string {
	if info, ok := alertTypeInfos[t]; ok {
		return info.label
	}
	return humanize(string(t))
}

// Action is the recommended action for the alert type.
func (t AlertType) Action() string {
	if info, ok := alertTypeInfos[t]; ok {
		return info.action
	}
	return "The service gives no recommended action for this alert type."
}

// Supplies reports whether an alert of the type asks for what a dispenser
// uses up: its product (consumable_out, raised when product is out or,
// by the account's preference, low) or its batteries (battery_out). Only
// beside these does a forecast of when the dispenser runs out belong: a
// fault or an offline device is not what it forecasts.
func (t AlertType) Supplies() bool { return t == AlertConsumableOut || t == AlertBatteryOut }

// Known reports whether Washboard knows the type.
func (t AlertType) Known() bool {
	_, ok := alertTypeInfos[t]
	return ok
}

// Resolution is how a closed alert was resolved, in upper case.
type Resolution string

// The resolution types of the interface.
const (
	ResolvedByDevice  Resolution = "RESOLVED"
	ResolvedByOffline Resolution = "RESOLVED_BY_OFFLINE"
	ResolvedByUser    Resolution = "RESOLVED_BY_USER"
)

// Resolutions lists the resolution types.
var Resolutions = []Resolution{ResolvedByDevice, ResolvedByOffline, ResolvedByUser}

// Label is the resolution in words. "Resolved by offline" means the alert
// closed because the device went offline: the problem may not be fixed.
func (r Resolution) Label() string {
	switch r {
	case ResolvedByDevice:
		return "Resolved"
	case ResolvedByOffline:
		return "Closed: device went offline"
	case ResolvedByUser:
		return "Resolved by a user"
	case "":
		return ""
	}
	return humanize(string(r))
}

// MayBeUnfixed reports whether the problem may still be there.
func (r Resolution) MayBeUnfixed() bool { return r == ResolvedByOffline }

// Alert is an alert of a device location.
type Alert struct {
	ID          string
	LocationID  string
	MACs        []string
	Status      AlertStatus
	Type        AlertType
	Created     time.Time
	Resolved    time.Time // zero while open
	Resolution  Resolution
	Overdue     bool
	RefillCount int
	// OverdueSince is when Washboard first saw the alert overdue, to within
	// one sync interval; zero when it never did. The service says whether an
	// alert is overdue, not since when.
	OverdueSince time.Time
	// Visitor is the visitor's report the alert stands for (VisitorAlert);
	// nil for the service's alerts.
	Visitor *VisitorReport
}

// Open reports whether the alert is open.
func (a Alert) Open() bool { return a.Status != AlertClosed }

// TellsOfRefill reports whether the alert says its device was refilled:
// a consumable_out alert closed by the device or by staff.
func (a Alert) TellsOfRefill() bool {
	return a.Type == AlertConsumableOut && !a.Open() && (a.Resolution == ResolvedByDevice || a.Resolution == ResolvedByUser)
}

// TimeToResolve is how long the alert was open; zero while it is open.
func (a Alert) TimeToResolve() time.Duration {
	if a.Open() || a.Resolved.IsZero() {
		return 0
	}
	return a.Resolved.Sub(a.Created)
}

// Later is the later state of one alert, of what the cache holds and
// what an event brings, which may come late, twice, or out of order:
// events are not ordered, so the alert's own status and dates decide. A
// closed alert never opens again; of two closed versions, the one
// resolved later stands (the earlier, on a tie); of two open ones, the
// refill count only rises and overdue, once set, stays. Later reports
// whether the result differs from what the cache holds.
func Later(cached, event Alert) (Alert, bool) {
	switch {
	case !cached.Open() && event.Open():
		return cached, false
	case !cached.Open():
		if !event.Resolved.After(cached.Resolved) {
			return cached, false
		}
		event.OverdueSince = cached.OverdueSince
		return event, true
	case !event.Open():
		event.OverdueSince = cached.OverdueSince
		return event, true
	}
	out := cached
	out.RefillCount = max(cached.RefillCount, event.RefillCount)
	out.Overdue = cached.Overdue || event.Overdue
	if len(out.MACs) == 0 {
		out.MACs = event.MACs
	}
	return out, out.RefillCount != cached.RefillCount || out.Overdue != cached.Overdue || len(out.MACs) != len(cached.MACs)
}
