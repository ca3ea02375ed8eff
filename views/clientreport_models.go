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
	// Every is how often fixed rounds would visit, in hours (checks
	// saved).
	Every int
}

// ClientReportBody is the client report's figures, in words.
type ClientReportBody struct {
	Period, Prior string // "November 2026", "October 2026"
	// Ratings are what visitors rated the rooms in the period, by
	// building, and the rooms rated lowest; Count 0 when nobody rated.
	Ratings Ratings
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
	// OutSummary says how long dispensers were out of product, against
	// the period before; OutBuildings and OutWorst are the figures by
	// building and of the locations out longest. ServiceHours says the
	// hours within service hours are counted.
	OutSummary   []string
	OutBuildings []ClientOut
	OutWorst     []ClientOut
	ServiceHours bool
	// Service is the service record's section; nil when not read.
	Service *ClientService
	// Checks is what rounds from need saved; nil when not read.
	Checks *ChecksSaved
}

// ClientOut is how long the dispensers of a building or a location were
// out of product, in words.
type ClientOut struct {
	Name, Building string // Building: of a location only
	Dispensers     int
	Out, InService string
	Before         string // of a building: in the period before
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
