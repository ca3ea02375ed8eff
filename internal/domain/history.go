package domain

import "time"

// LocationHistory is what a location's devices did over a stretch of
// time, [From, To]: their product levels, the spans they were offline,
// their refills, and the location's alerts.
type LocationHistory struct {
	From, To time.Time
	// Devices are the location's devices, in the order the location lists
	// them, those without a record among them.
	Devices []DeviceHistory
	// Alerts are the location's alerts open at any moment of the stretch,
	// oldest first.
	Alerts []Alert
}

// Recorded reports whether any device of the location has a record of
// the stretch.
func (h LocationHistory) Recorded() bool {
	for _, d := range h.Devices {
		if d.Recorded() {
			return true
		}
	}
	return false
}

// DeviceHistory is one device's record over a location's stretch.
type DeviceHistory struct {
	MAC      string
	Position string
	// Since is when the record begins: the stretch's From when the device's
	// state then is known, or its first reading when that came later; zero
	// when the device has no record at all.
	Since time.Time
	// Levels holds each compartment's level as a step series: a level
	// holds from its step's At until the next step's, the last one until
	// the stretch's To. The first step is at Since, or later for a
	// compartment first reported later.
	Levels [][]LevelStep
	// Offline are the spans the device was silent, within the stretch, in
	// time order.
	Offline []OfflineSpan
	// Refills are the times the device was refilled, in time order.
	Refills []Refill
	// Alerts are those of the location's alerts about the device: the ones
	// naming it, and the ones naming no device.
	Alerts []Alert
}

// Recorded reports whether the device has a record of the stretch.
func (d DeviceHistory) Recorded() bool { return !d.Since.IsZero() }

// LevelStep is a compartment's level, in percent, from At on.
type LevelStep struct {
	At    time.Time
	Level int
}

// OfflineSpan is a span a device was offline: from its last transmission
// (or the stretch's start) to the first reading that saw it back, or to
// the stretch's end when Ongoing.
type OfflineSpan struct {
	From, To time.Time
	Ongoing  bool // the device was still offline at the stretch's end
}

// Refill is a time a device was refilled: a compartment's level rose, or
// staff or the device closed its product-out alert, or both.
type Refill struct {
	At time.Time
	// Compartment is the compartment whose level rose, from Before to
	// After percent; -1 when only an alert's closing tells of the refill.
	Compartment   int
	Before, After int
	// AlertID is the product-out alert the refill closed, if any.
	AlertID string
}
