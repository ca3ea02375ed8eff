package views

import (
	"time"

	"washboard/internal/domain"
)

// ServiceVisits is a room's service record as a page shows it: its
// visits, newest first.
type ServiceVisits struct {
	Visits []ServiceVisit
	// Since is set when the record holds less than its period: what was
	// done after it alone.
	Since time.Time
	Zone  *time.Location
}

// ServiceVisit is what one person did in a room at one time.
type ServiceVisit struct {
	Who        string
	Start, End time.Time
	Entries    []ServiceEntry
	Dispensers []ServiceDispenser
}

// ServiceEntry is one thing done in a visit.
type ServiceEntry struct {
	// Kind is "done", "claimed", "room_ticked" or "door_scan"
	// (servicerecord.Kind).
	Kind      string
	At        time.Time
	Outcome   domain.Outcome   // of "done"
	Reason    string           // of "done" that could not fix it
	AlertType domain.AlertType // of "done" and "claimed"
	Location  string           // the alert's location; "" when since removed
	TookOver  string           // of "claimed": whose claim it took over
}

// ServiceDispenser is one of the room's dispensers, before and after a
// visit.
type ServiceDispenser struct {
	Location, Position string
	Type               domain.DeviceType
	// Several says the location has more than one dispenser: each is
	// named by its position.
	Several       bool
	Before, After ServiceState
}

// ServiceState is a dispenser's state as the service reported it.
type ServiceState struct {
	// Level is "unknown", "offline", "out", "low", "some" or "full"
	// (servicerecord.Level); Lowest the emptiest compartment's level.
	Level  string
	Lowest int
}

// RoomService is the page of a room's service record over a period.
type RoomService struct {
	Page
	Room, Where string
	RoomHref    string
	// From and To are the period's first and last days, yyyy-mm-dd, as
	// the form shows them; Period the period in words.
	From, To, Period       string
	Record                 ServiceVisits
	CSVHref                string
	EarlierHref, LaterHref string // "" when there is none
	MaxDays                int
}

// ClientService is the client report's section of the service record:
// visits by building, and the rooms visited least.
type ClientService struct {
	Summary   []string
	Buildings []ClientServiceRow
	Least     []ClientServiceRow
	// CSVHref is the record's CSV of the period; "" when the period is
	// longer than a record covers.
	CSVHref string
}

// ClientServiceRow is a building's or a room's visits, in words.
type ClientServiceRow struct {
	Name, Building string // Building: of a room only
	Visits         int
	Rooms          string // of a building: "3 of 4"
	Last           string // of a room: its last visit
}
