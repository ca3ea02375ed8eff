package domain

import "time"

// DoneReport is what a person says they did about an open alert, from
// "My work": an outcome and, when they could not fix it, why. Washboard
// keeps it; the service goes on saying whether the alert is open, and a
// report the service contradicts is shown as such (docs/my-work.md).
type DoneReport struct {
	AlertID  string
	PersonID string
	// Name is the person's name as it was when they reported.
	Name    string
	Outcome Outcome
	// Reason is why it could not be fixed; empty otherwise.
	Reason string
	At     time.Time
}

// Outcome is what was done about an alert.
type Outcome string

// The outcomes a person can report.
const (
	Refilled         Outcome = "refilled"
	BatteriesChanged Outcome = "batteries_changed"
	FaultCleared     Outcome = "fault_cleared"
	CouldNotFix      Outcome = "could_not_fix"
)

// Outcomes are the outcomes in the order forms offer them.
var Outcomes = []Outcome{Refilled, BatteriesChanged, FaultCleared, CouldNotFix}

// Label is the outcome as people read it.
func (o Outcome) Label() string {
	switch o {
	case Refilled:
		return "Refilled"
	case BatteriesChanged:
		return "Batteries changed"
	case FaultCleared:
		return "Fault cleared"
	case CouldNotFix:
		return "Could not fix"
	}
	return string(o)
}

// Known reports whether the outcome is one of Outcomes.
func (o Outcome) Known() bool {
	for _, k := range Outcomes {
		if o == k {
			return true
		}
	}
	return false
}

// Contradiction is how the service contradicts a "done" report, if it
// does.
type Contradiction string

// The ways a "done" report can be contradicted.
const (
	// NotContradicted: the service agrees, or has not had the time to say.
	NotContradicted Contradiction = ""
	// StillOpen: the alert is still open long after the report.
	StillOpen Contradiction = "still_open"
	// StillEmpty: the alert may be closed, but the device at its location
	// still reports a compartment out, long after a report of "refilled".
	StillEmpty Contradiction = "still_empty"
)

// ContradictedBy says how the service contradicts the report, given the
// alert it is about as the service reports it now, the device at the
// alert's location (nil when unknown), the time now, and the grace the
// service has to catch up (two sync intervals). A report of "could not
// fix" says the alert stays open, and is never contradicted. A device
// counts only when it reported after the grace: an older reading says
// nothing about the refill.
func (r DoneReport) ContradictedBy(alert Alert, device *Device, now time.Time, grace time.Duration) Contradiction {
	if r.At.IsZero() || r.Outcome == CouldNotFix || now.Sub(r.At) <= grace {
		return NotContradicted
	}
	if alert.Open() {
		return StillOpen
	}
	if r.Outcome != Refilled || device == nil || device.Offline || !device.LastSeen.After(r.At.Add(grace)) {
		return NotContradicted
	}
	for _, c := range device.Compartments {
		if c.Out || c.Level == 0 {
			return StillEmpty
		}
	}
	return NotContradicted
}
