package views

import (
	"time"

	"washboard/internal/clientreport"
)

// ClientReport is the client report page: a month picker, then how the
// account kept to its service levels over the period.
type ClientReport struct {
	Page
	Month    string // the month chosen, yyyy-mm
	From, To string // a range of days chosen, yyyy-mm-dd, both included
	Error    string // what is wrong with the values, in words
	ErrorFor string // the field at fault: month, from or to
	// Report is nil when the form's values name no period.
	Report    *clientreport.Report
	Scope     string // "All buildings", or the buildings a person sees
	Zone      *time.Location
	PrintedAt time.Time
	CSVHref   string
	PDFHref   string
	Running   string // the line at the top of every printed page
}
