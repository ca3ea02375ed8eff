package views

import "time"

// ClientReport is the client report page: a month picker, then how the
// account kept to its service levels over the period.
type ClientReport struct {
	Page
	Month    string // the month chosen, yyyy-mm
	From, To string // a range of days chosen, yyyy-mm-dd, both included
	Error    string // what is wrong with the values, in words
	ErrorFor string // the field at fault: month, from or to
	// Report is nil when the form's values name no period.
	Report    *ClientReportBody
	Scope     string // "All buildings", or the buildings a person sees
	Zone      *time.Location
	PrintedAt time.Time
	CSVHref   string
	PDFHref   string
	Running   string // the line at the top of every printed page
}

// ClientReportBody is the client report's figures, in words.
type ClientReportBody struct {
	Period, Prior string // "November 2026", "October 2026"
	// Set says the account has a service level.
	Set bool
	// Measured says some alert of the period was measured.
	Measured   bool
	Summary    []string
	Unmeasured int
	ByType     []ClientRow
	ByBuilding []ClientRow
	Against    []ClientAgainst
	Worst      []ClientWorst
}

// ClientRow is the figures of a set of alerts: a type's or a building's.
type ClientRow struct {
	Name                                    string
	Alerts                                  int
	ClaimShare, ClaimMedian, ClaimP90       string
	ResolveShare, ResolveMedian, ResolveP90 string
}

// ClientAgainst is an alert type's shares met in the period and the one
// before.
type ClientAgainst struct {
	Type                                             string
	ClaimNow, ClaimBefore, ResolveNow, ResolveBefore string
}

// ClientWorst is one of the worst locations.
type ClientWorst struct {
	Place, Building string
	Alerts, Missed  int
	Longest         string
}
