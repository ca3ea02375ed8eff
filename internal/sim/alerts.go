package sim

import (
	"time"
)

// AlertType is the alert_type of an alert.
type AlertType string

// The alert types the simulator raises.
const (
	AlertConsumableOut     AlertType = "consumable_out"
	AlertBatteryOut        AlertType = "battery_out"
	AlertJam               AlertType = "jam_fault"
	AlertSensor            AlertType = "sensor_fault"
	AlertSystem            AlertType = "system_fault"
	AlertIncorrectlyLoaded AlertType = "incorrectly_loaded"
	AlertDeviceOff         AlertType = "device_off"
)

// Resolution is the resolution_type of a closed alert, in the upper case the
// interface answers with.
type Resolution string

// The three ways an alert is resolved.
const (
	ResolvedByDevice  Resolution = "RESOLVED"
	ResolvedByOffline Resolution = "RESOLVED_BY_OFFLINE"
	ResolvedByUser    Resolution = "RESOLVED_BY_USER"
)

// Deadlines says how long an alert of each type may stay open before it is
// overdue. The interface does not state them; these are the simulator's.
var Deadlines = map[AlertType]time.Duration{
	AlertConsumableOut:     4 * time.Hour,
	AlertBatteryOut:        24 * time.Hour,
	AlertJam:               4 * time.Hour,
	AlertSensor:            8 * time.Hour,
	AlertSystem:            72 * time.Hour,
	AlertIncorrectlyLoaded: 4 * time.Hour,
	AlertDeviceOff:         24 * time.Hour,
}

// Alert is one alert of an account.
type Alert struct {
	ID          string
	Type        AlertType
	Device      *Device
	Created     time.Time
	Resolved    time.Time // zero while open
	Resolution  Resolution
	RefillCount int

	seq         int64 // creation order within the account
	resolvedSeq int64 // resolution order within the account
}

// Open reports whether the alert is still open.
func (a *Alert) Open() bool { return a.Resolved.IsZero() }

// Overdue reports whether the alert is overdue at now: an open alert past its
// type's deadline. A closed alert keeps the value it had when it was
// resolved, so a late resolution stays visible in the history.
func (a *Alert) Overdue(now time.Time) bool {
	deadline, ok := Deadlines[a.Type]
	if !ok {
		return false
	}
	end := now
	if !a.Open() {
		end = a.Resolved
	}
	return end.Sub(a.Created) > deadline
}
