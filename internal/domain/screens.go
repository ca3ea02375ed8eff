package domain

import (
	"errors"
	"time"
)

// Screen is a wall screen: a browser that shows one part of an account
// unattended, opened once with a link instead of a sign-in.
type Screen struct {
	ID          string
	Account     string
	Name        string
	Scope       ScreenScope
	Healths     []Health // the health classes it shows
	PageSeconds int      // how long each page of items shows
	DimFrom     int      // minutes after midnight when dimming starts; -1 for none
	DimTo       int      // minutes after midnight when it ends
	Contact     string   // who should re-link it if its access is rejected
	// Language is the code of the language the screen shows its words in
	// ("de"), whatever its browser's: "" for English, as the screens made
	// before screens had one.
	Language string
	// Rounds says that the screen shows the rounds running in its place,
	// with the rooms they have left (docs/rounds.md).
	Rounds bool
	// Plans says which floor plans the screen shows (docs/floor-plans.md):
	// "" none, ScreenPlansBusy the floors of its place with something to
	// do, in turn, or one floor's id.
	Plans    string
	Created  time.Time
	LastSeen time.Time // zero: never opened
	Revoked  time.Time // zero: active

	// A portfolio screen (Scope.Kind ScreenOrganisation) shows the
	// clients of an organisation rather than one account's places: its
	// Account is "" and it has no Healths.
	Organisation string
	// Accounts are the accounts of the organisation a portfolio screen
	// shows; none: every account its Maker sees, now and later.
	Accounts []string
	// Maker is the person whose view of the organisation a portfolio
	// screen shows (who last saved it or gave it a link): it never shows
	// more than they may see.
	Maker string
}

// ScreenPlansBusy is the Plans of a screen that shows the plans of the
// floors of its place with something to do, in turn.
const ScreenPlansBusy = "busy"

// ScreenOrganisation is the scope of a portfolio screen: an organisation's
// clients, each as one line.
const ScreenOrganisation = "organisation"

// Portfolio reports whether the screen shows an organisation's clients.
func (s Screen) Portfolio() bool { return s.Scope.Kind == ScreenOrganisation }

// ErrScreenLinked says that a screen is still linked (not revoked): only
// a revoked screen can be removed.
var ErrScreenLinked = errors.New("the screen is still linked")

// ErrScreenMakerLeft says that the person whose view a portfolio screen
// shows no longer belongs to its organisation: it shows nothing until
// someone of the organisation gives it a new link.
var ErrScreenMakerLeft = errors.New("the screen's maker left its organisation")

// ScreenScope is what a screen shows: the whole account, one building or
// one floor.
type ScreenScope struct {
	Kind string // "account", "building" or "floor"
	ID   string // "" for the account
}

// Shows reports whether the screen shows locations of health h.
func (s Screen) Shows(h Health) bool {
	for _, x := range s.Healths {
		if x == h {
			return true
		}
	}
	return false
}

// Dimmed reports whether the screen dims at the minute of the day m
// (minutes after local midnight). The period may cross midnight.
func (s Screen) Dimmed(m int) bool {
	if s.DimFrom < 0 || s.DimTo < 0 || s.DimFrom == s.DimTo {
		return false
	}
	if s.DimFrom < s.DimTo {
		return m >= s.DimFrom && m < s.DimTo
	}
	return m >= s.DimFrom || m < s.DimTo
}

// ScreenProblem is what needs doing at a location of a wall screen, as a
// value the screen puts in words in its language: its kind, and the alert
// type or fault the kinds ProblemOverdue, ProblemAlert and ProblemFault
// are about.
type ScreenProblem struct {
	Kind  ProblemKind
	Alert AlertType
	Fault Fault
	// Visitor is what a visitor reported, of the kind ProblemVisitor,
	// and Text what they wrote with VisitorOther.
	Visitor VisitorKind
	Text    string
}

// ProblemKind is the kind of a ScreenProblem.
type ProblemKind string

// The kinds of a screen's problems.
const (
	ProblemOverdue    ProblemKind = "overdue"     // an alert of the type Alert is overdue
	ProblemAlert      ProblemKind = "alert"       // an alert of the type Alert, at risk of missing its target or past it
	ProblemOffline    ProblemKind = "offline"     // a device does not report
	ProblemOut        ProblemKind = "out"         // a dispenser is out of product
	ProblemLow        ProblemKind = "low"         // a dispenser's product is low
	ProblemFault      ProblemKind = "fault"       // a device reports Fault
	ProblemBatteryOut ProblemKind = "battery-out" // its batteries are out
	ProblemBatteryLow ProblemKind = "battery-low" // its batteries are low
	ProblemNoDevice   ProblemKind = "no-device"   // the location has no device reporting
	ProblemVisitor    ProblemKind = "visitor"     // a visitor's open report of the room (VisitorReport)
)
