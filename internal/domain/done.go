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
