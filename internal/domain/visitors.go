package domain

import "time"

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
