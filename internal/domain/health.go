package domain

// Health is the classification of a device, and of a location by its
// devices, that every page, screen and report uses.
type Health int

// The health classes, from best to worst. A device that is offline has
// unknown state, so offline ranks above needs-attention; anything that needs
// action ranks above offline.
const (
	HealthOK Health = iota
	HealthAttention
	HealthOffline
	HealthAction
)

// Healths lists the classes in the order pages show them.
var Healths = []Health{HealthOK, HealthAttention, HealthAction, HealthOffline}

// String is the class's short name, as used in URLs and CSV files.
func (h Health) String() string {
	switch h {
	case HealthAttention:
		return "attention"
	case HealthOffline:
		return "offline"
	case HealthAction:
		return "action"
	}
	return "ok"
}

// Label is the class in words.
func (h Health) Label() string {
	switch h {
	case HealthAttention:
		return "Needs attention"
	case HealthOffline:
		return "Offline"
	case HealthAction:
		return "Needs action"
	}
	return "OK"
}

// ParseHealth reads a class's short name.
func ParseHealth(s string) (Health, bool) {
	for _, h := range Healths {
		if h.String() == s {
			return h, true
		}
	}
	return HealthOK, false
}

// Worse returns the worse of two classes.
func Worse(a, b Health) Health {
	if b > a {
		return b
	}
	return a
}

// Classify returns a device's health. overdue says whether an open alert of
// the device is overdue.
//
//   - offline: the device has not communicated for 24 hours;
//   - needs action: product out, battery Shutdown, any fault, or an overdue alert;
//   - needs attention: product low or battery Low;
//   - ok otherwise.
func Classify(d Device, overdue bool) Health {
	if d.Offline {
		return HealthOffline
	}
	action, attention := overdue || len(d.Faults) > 0 || d.BatteryState == BatteryShutdown, d.BatteryState == BatteryLow
	for _, c := range d.Compartments {
		action = action || c.Out
		attention = attention || c.Low
	}
	switch {
	case action:
		return HealthAction
	case attention:
		return HealthAttention
	}
	return HealthOK
}

// Counts are the number of locations in each health class.
type Counts struct {
	OK, Attention, Action, Offline int
}

// Add counts one more location of class h.
func (c *Counts) Add(h Health) {
	switch h {
	case HealthOK:
		c.OK++
	case HealthAttention:
		c.Attention++
	case HealthAction:
		c.Action++
	case HealthOffline:
		c.Offline++
	}
}

// Of returns the count of class h.
func (c Counts) Of(h Health) int {
	switch h {
	case HealthAttention:
		return c.Attention
	case HealthAction:
		return c.Action
	case HealthOffline:
		return c.Offline
	}
	return c.OK
}

// Total is the number of locations counted.
func (c Counts) Total() int { return c.OK + c.Attention + c.Action + c.Offline }

// Rollup is the health of a part of the layout (the account, a building, a
// floor, a room): its locations by class, and its open and overdue alerts.
type Rollup struct {
	Counts
	OpenAlerts    int
	OverdueAlerts int
}

// LocationHealth is the health of a device location: the worst of its
// devices, needs-action when one of its open alerts is overdue, and offline
// when no device has reported from it.
func LocationHealth(devices []Device, overdue bool) Health {
	if len(devices) == 0 {
		return HealthOffline
	}
	h := HealthOK
	for _, d := range devices {
		h = Worse(h, Classify(d, false))
	}
	if overdue {
		h = Worse(h, HealthAction)
	}
	return h
}
