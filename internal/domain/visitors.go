package domain

import (
	"strconv"
	"strings"
	"time"
)

// VisitorReport is what someone using a washroom said about it, from the
// page its room's code opens (docs/visitors.md): something wrong (out of
// paper, dirty, …), a rating of the washroom, or both. Nothing about who
// said it is kept. A flood marker (VisitorFlood) stands for the reports of
// a room that were refused for coming too fast.
type VisitorReport struct {
	ID     int64
	RoomID string
	Kind   VisitorKind
	// Text is what the visitor wrote with VisitorOther; empty otherwise.
	Text string
	// Rating is the visitor's rating of the washroom, 1 to 5; 0 for none.
	Rating  int
	Created time.Time
	// Closed is when the report was closed, zero while it is open, and
	// ClosedBy what closed it.
	Closed   time.Time
	ClosedBy VisitorClosing
}

// Open reports whether the report is still open.
func (r VisitorReport) Open() bool { return r.Closed.IsZero() }

// MaxVisitorText is the longest text a visitor may write, in characters.
const MaxVisitorText = 200

// VisitorKind is what a visitor says is wrong.
type VisitorKind string

// The kinds of visitor reports.
const (
	VisitorNoPaper  VisitorKind = "paper"  // out of toilet paper
	VisitorNoSoap   VisitorKind = "soap"   // out of soap
	VisitorNoTowels VisitorKind = "towels" // out of towels
	VisitorDirty    VisitorKind = "dirty"
	VisitorBroken   VisitorKind = "broken"
	VisitorOther    VisitorKind = "other" // with a short text
	// VisitorRatingOnly is a rating with nothing said to be wrong.
	VisitorRatingOnly VisitorKind = "rating"
	// VisitorFlood marks that a room's reports came faster than it takes
	// them, and some were refused: one marker per room and flood period.
	VisitorFlood VisitorKind = "flood"
)

// VisitorKinds are the kinds a visitor chooses from, in the order the
// page offers them.
var VisitorKinds = []VisitorKind{VisitorNoPaper, VisitorNoSoap, VisitorNoTowels, VisitorDirty, VisitorBroken, VisitorOther}

// Chosen reports whether a visitor may choose the kind (VisitorKinds).
func (k VisitorKind) Chosen() bool {
	for _, c := range VisitorKinds {
		if k == c {
			return true
		}
	}
	return false
}

// Known reports whether the kind is one Washboard keeps.
func (k VisitorKind) Known() bool {
	return k.Chosen() || k == VisitorRatingOnly || k == VisitorFlood
}

// Dispensers are the types of dispenser whose refill puts right what the
// kind reports: a tissue dispenser's for paper, a soap dispenser's for
// soap, a towel dispenser's for towels; none for the others, which a
// person looks at.
func (k VisitorKind) Dispensers() []DeviceType {
	switch k {
	case VisitorNoPaper:
		return []DeviceType{Tissue}
	case VisitorNoSoap:
		return []DeviceType{Soap}
	case VisitorNoTowels:
		return []DeviceType{Towel}
	}
	return nil
}

// VisitorClosing is what closed a visitor's report.
type VisitorClosing string

// What closes a visitor's report.
const (
	ClosedNot     VisitorClosing = ""
	ClosedDone    VisitorClosing = "done"    // a person reported it done ("My work")
	ClosedService VisitorClosing = "service" // the service's own alert resolved the same thing (a refill)
	ClosedPerson  VisitorClosing = "person"  // a person closed it by hand
	ClosedExpired VisitorClosing = "expired" // open longer than VisitorReportsOpenFor
)

// PresenceScan says that a person opened a room's code: they were there.
type PresenceScan struct {
	RoomID   string
	PersonID string
	// Name is the person's name as it was when they scanned.
	Name string
	At   time.Time
}

// DailyRating is what visitors rated a room on one day: how many ratings
// and their average (0 when there is none).
type DailyRating struct {
	Day     time.Time // midnight of the day, in the zone asked for
	Count   int
	Average float64
}

// AlertVisitor is the type of the alerts that stand for visitors' open
// reports (VisitorAlert): Washboard's own, never the service's. It is
// not in AlertTypes, which are the service's.
const AlertVisitor AlertType = "visitor_report"

// VisitorAlertPrefix starts the id of a visitor's alert: the service's
// alert ids are its own, and Washboard keeps the visitors' reports in a
// table of their own, so an id of this form names a report, never one
// of the service's alerts (the sync's table is never written with it).
const VisitorAlertPrefix = "v-"

// VisitorAlertID is the alert id of a visitor's report of the id: "v-12".
func VisitorAlertID(report int64) string {
	return VisitorAlertPrefix + strconv.FormatInt(report, 10)
}

// VisitorReportID is the report a visitor's alert id names, and whether
// id is one ("v-" and a positive number, written as VisitorAlertID
// writes it).
func VisitorReportID(id string) (int64, bool) {
	digits, ok := strings.CutPrefix(id, VisitorAlertPrefix)
	if !ok || digits == "" || len(digits) > 18 || digits[0] == '0' {
		return 0, false
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	return n, err == nil && n > 0
}

// VisitorAlert is the alert that stands for a visitor's report, shown
// beside the service's alerts and claimable like them: its id is
// VisitorAlertID, its type AlertVisitor, open while the report is. It
// has no location (a report is of a room): Visitor says which room.
func VisitorAlert(r VisitorReport) Alert {
	a := Alert{ID: VisitorAlertID(r.ID), Status: AlertOpen, Type: AlertVisitor, Created: r.Created, Visitor: &r}
	if !r.Open() {
		a.Status, a.Resolved = AlertClosed, r.Closed
	}
	return a
}

// VisitorReportsOpenFor is how long a visitor's report stays open when
// nothing closes it: after a day the staff have been by, or it is no
// longer worth a round, and it closes as expired (ClosedExpired).
const VisitorReportsOpenFor = 24 * time.Hour

// Rating is one visitor's rating of a room, 1 to 5, and when.
type Rating struct {
	RoomID string
	At     time.Time
	Rating int
}
