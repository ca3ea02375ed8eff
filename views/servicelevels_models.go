package views

import "time"

// ServiceLevels is the page of the account's service level: its hours,
// holidays and time zone, and the targets by alert type, as saved or as
// typed, with the field refused and why.
type ServiceLevels struct {
	Page
	Week, Holidays, Zone string
	Zones                []Option
	Targets              []TargetRow
	// Field is the name of the field refused ("" for none), Problem why.
	Field, Problem string
	Saved          bool
	Updated        time.Time // zero when never saved
	// Action is where the form is sent: /service-levels, or a building's.
	Action string
	// Building names the building whose service level the form is, ""
	// for the account's own; Own says the building has its own, and
	// Followed that it was just made to follow the account's again.
	Building      string
	Own, Followed bool
	// Buildings are the buildings the person sees, on the account's page.
	Buildings []BuildingLevelRow
	// Locked says the person may not change the account's service level
	// (they see some buildings only): it shows in Words, without a form.
	Locked bool
	Words  string
}

// BuildingLevelRow is a building and whether it follows the account's
// service level or has its own.
type BuildingLevelRow struct {
	Name, Href string
	Own        bool
	Words      string // its own service level in words
}

// TargetRow is the two targets of one alert type, as typed.
type TargetRow struct {
	Type, Label    string
	Claim, Resolve string
}

// Level is where an alert stands against its targets: the worst of the
// two in words and a symbol, each target's outcome, and where the clock
// stopped.
type Level struct {
	State       string // "met", "missed", "at-risk", "pending"
	Label       string // "Target missed"
	Claim       LevelOutcome
	Resolve     LevelOutcome
	Explanation string      // where the clock stopped, in English, as a kept measure says it
	Clock       *ClockStops // the same as a value, said in the page's language; nil for a kept measure
}

// ClockStops says where a service level's clock stopped within an
// alert's time, and when it runs again.
type ClockStops struct {
	Stops   []ClockStop
	More    int           // stops after those listed
	Stopped time.Duration // in all
	Resumes time.Time     // when a clock standing still runs again; zero otherwise
	Zone    *time.Location
}

// ClockStop is a stretch in which the clock stood still.
type ClockStop struct {
	From, To     time.Time
	Holidays     []time.Time // the days of the holidays it covers, midnight UTC
	OnlyHolidays bool        // every day it touches is a holiday: the sentence names their dates only
}

// LevelOutcome is an alert against one target; State "" when the type has
// no target of the kind.
type LevelOutcome struct {
	State, Label string
	Target, Used time.Duration
	Deadline     time.Time // zero when done, or further than can be told
}

// LevelCounts are the open alerts at risk of missing a target and that
// missed one; nil when the account has no service level.
type LevelCounts struct {
	AtRisk, Missed int
}

// savedZone is the page's zone, or UTC when it has none.
func (m ServiceLevels) savedZone() *time.Location {
	if m.Page.Zone == nil {
		return time.UTC
	}
	return m.Page.Zone
}
