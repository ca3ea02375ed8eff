package views

import (
	"time"

	"washboard/internal/report"
)

// ShiftReport is the shift handover report page.
type ShiftReport struct {
	Page
	Form ReportForm
	// Report is nil when the form's values name no period (Form.Error
	// says why).
	Report    *report.Report
	Scope     string // "Whole account" or the building's name
	Zone      *time.Location
	PrintedAt time.Time
	AsOf      time.Time // the end of the last successful refresh of alerts
	// Sources says where the alerts came from, in words, when not only
	// from the cache; Gaps says which part of the period is missing or
	// may be incomplete. A report never leaves them unsaid.
	Sources []string
	Gaps    []string
	// InProgress is set when the period has not ended yet.
	InProgress         bool
	PrevHref, NextHref string
	CSV                []ReportCSV
	// Running is the line printed at the top of every page: the report's
	// period and the time it was printed.
	Running string
	// Plans are the plans of the floors with alerts open at the end of
	// the period that have one, those locations marked: printed only.
	Plans []PrintPlan
}

// ReportCSV is the download link of one of the report's tables.
type ReportCSV struct {
	Table string
	Label string
	Href  string
}

// ReportForm is the form choosing a report's period and scope. It keeps
// what was typed, also when it was wrong.
type ReportForm struct {
	Date      string   // yyyy-mm-dd
	Shifts    []Option // the account's shifts by name
	Buildings []Option // "" for the whole account
	From, To  string   // a custom range, yyyy-mm-ddThh:mm
	Custom    bool
	Error     string // what is wrong with the values, in words
	ErrorFor  string // the field at fault: date, shift, building, from or to
	// Action is where the form goes: /reports/shift when empty. Hidden
	// are parameters it carries unchanged.
	Action string
	Hidden []Param
}

// ActionOr is where the form goes.
func (f ReportForm) ActionOr() string {
	if f.Action == "" {
		return "/reports/shift"
	}
	return f.Action
}

// ReportSettings is the form of an account's shift settings.
type ReportSettings struct {
	Page
	Shifts string // "Early 06:00-14:00, Late 14:00-22:00, Night 22:00-06:00"
	Zone   string
	Zones  []Option
	Error  string
	Saved  bool
}
