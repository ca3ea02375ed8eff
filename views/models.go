// Package views holds Washboard's templ components and the view models
// they render. Components are pure functions of their parameters: the web
// layer builds a model, a component renders it. Views import only the
// domain and templ.
package views

import (
	"time"

	"washboard/internal/domain"
)

// Page is what every full page carries besides its content.
type Page struct {
	Title       string // the page's own title; the layout appends "Washboard"
	Nav         string // the active navigation item: "overview", "alerts", "reports", "trends", ... or ""
	SignedIn    bool
	AccountName string
	CSRFToken   string // for the forms of the page (sign-out among them)
	Crumbs      []Crumb
	Freshness   Freshness
	Flash       string // a one-time message, such as "You have signed out."
	// FlashFailed says the one-time message tells of a failure.
	FlashFailed bool
	Version     string
	Zone        *time.Location // the zone times are shown in
	Live        bool           // open the server-sent events stream for live updates
	// Still pages (a shift report) do not change under the reader and load
	// no htmx: nothing on them is fetched again.
	Still bool
	// NotificationsLink puts /notifications in the menu: the server sends
	// notifications.
	NotificationsLink bool
	// PersonName and Role are who is signed in, and their role in the
	// account: the menu offers only what the role may use (the server
	// refuses the rest all the same).
	PersonName string
	Role       domain.Role
	// SwitchAccounts puts a link to switch accounts in the menu: the
	// person belongs to several.
	SwitchAccounts bool
	// Portfolio puts a link to the portfolio in the menu: the person
	// belongs to an organisation.
	Portfolio bool
}

// May reports whether the signed-in person's role is r or one above it.
func (p Page) May(r domain.Role) bool { return p.Role >= r && p.Role > domain.NoRole }

// Crumb is one step of the breadcrumbs. The last one has no link.
type Crumb struct {
	Label string
	Href  string
}

// Freshness says how old the data on a page is.
type Freshness = domain.Freshness

// SyncProgress is the progress bar shown until an account's first sync is
// done.
type SyncProgress struct {
	Page
	Phase   string // metadata, devices or alerts
	Pages   int
	Devices int
	Alerts  int
	Total   int // expected devices, when known (0 otherwise)
	// Failure says why the last attempt failed, in words; the next starts
	// within RetryEvery.
	Failure    string
	RetryEvery time.Duration
}

// SignIn is the sign-in form.
type SignIn struct {
	Page
	// Error says why the last attempt failed, in words; Kind is
	// "rejected", "unreachable", "invalid" or "limited".
	Error string
	Kind  string
	// Demo offers the demo account's credentials in one click; the
	// credentials stay on the server.
	Demo bool
	Next string // where to go after signing in
	// SingleSignOn names the OpenID provider people may sign in through;
	// "" offers none.
	SingleSignOn string
	// Email offers a one-time sign-in link by e-mail: the server sends
	// mail.
	Email bool
	// Passkeys offers to sign in with a passkey, where the browser can.
	Passkeys bool
}

// Overview is the account's front page.
type Overview struct {
	Page
	Rollup     domain.Rollup
	Buildings  []PlaceCard
	Alerts     []AlertRow // the most urgent open alerts: overdue first, then oldest
	MoreAlerts int        // open alerts not listed
	// Levels counts the open alerts at risk and missed; nil when the
	// account has no service level.
	Levels *LevelCounts
}

// PlaceCard is a building, floor or room with its counts, linking to it.
type PlaceCard struct {
	ID     string
	Name   string
	Href   string
	Detail string // e.g. "8 floors", "12 rooms"
	Rollup domain.Rollup
	// Levels counts its open alerts at risk and missed; nil when the
	// account has no service level.
	Levels *LevelCounts
}

// Place is a building, floor or room page: its counts, its parts and,
// for floors and rooms, the device cards of its locations.
type Place struct {
	Page
	Kind     string // "building", "floor" or "room"
	ID       string
	Name     string
	Where    string // the places above it, e.g. "North Tower › Level 3"
	Rollup   domain.Rollup
	Parts    []PlaceCard // floors of a building, rooms of a floor
	Filter   DeviceFilter
	Sections []RoomSection // floors and rooms: device cards by room
	CSVHref  string        // devices.csv of this place with its filters
	Self     string        // this page's URL with its query, which live updates fetch again
	Plan     *PlacePlan    // a floor's plan with its markers; nil without one
	PlanHref string        // a floor's plan page, offered when it has no plan

	// CodesHref is a floor's sheet of room codes, for those who may print it.
	CodesHref string
	// Service is a room's recent service record, ServiceHref the page of
	// its whole record; nil on other pages.
	Service     *ServiceVisits
	ServiceHref string

	// Visitors are the open visitors' reports of a floor's or a room's
	// rooms, as alerts (docs/visitors.md).
	Visitors []AlertRow
	// Ratings are what visitors rated a room, by week; nil but on a
	// room's page.
	Ratings *Ratings
}

// RoomSection is a room's device cards on a floor or room page.
type RoomSection struct {
	ID     string
	Name   string
	Href   string
	Rollup domain.Rollup
	Cards  []DeviceCard
}

// DeviceFilter is the device type and health filter of a place page.
type DeviceFilter struct {
	Action  string // the URL the form submits to
	Types   []Option
	Healths []Option
	RunsOut []Option // within how long a dispenser runs out
	Sorts   []Option // the order of the cards
	Active  bool     // a filter is set
}

// Option is a choice of a select element.
type Option struct {
	Value    string
	Label    string
	Selected bool
}

// DeviceCard is the state of a device location: what is there, where,
// how it is, and its open alerts.
type DeviceCard struct {
	LocationID string
	Name       string
	Href       string
	Type       domain.DeviceType
	Where      string // building › floor › room
	Health     domain.Health
	Devices    []DeviceView
	Alerts     []AlertRow     // open alerts of the location
	Now        time.Time      // for "last seen 5 min ago"
	Zone       *time.Location // the zone times are shown in; when nil, the page's zone on a page and UTC on its own
}

// DeviceView is one physical device of a location.
type DeviceView struct {
	MAC          string
	Position     string
	Generation   string
	Compartments []domain.Compartment
	Battery      *int
	BatteryState domain.BatteryState
	Faults       []domain.Fault
	Offline      bool
	LastSeen     time.Time
	Health       domain.Health
	// RunsOut says when it will run out, in words ("Runs out in about
	// 3 h, between 2 and 5 h"); empty without an estimate, or when it is
	// out already.
	RunsOut string
	// RunsOutAt is when RunsOut expects it to run out: zero without
	// RunsOut.
	RunsOutAt time.Time
}

// LocationPage is one device location on its own page.
type LocationPage struct {
	Page
	Card DeviceCard
	// History is what its devices did over the last days, charted below
	// the card.
	History LocationHistory
}

// LocationHistory is a location's history as its page charts it.
type LocationHistory struct {
	domain.LocationHistory
	Type domain.DeviceType // the location's, which names its compartments
	Zone *time.Location    // the days of the chart are this zone's; UTC when nil
}

// Search is the search by location name, room name or MAC address.
type Search struct {
	Page
	Query     string
	Results   []DeviceCard
	Truncated bool // more matched than are shown
}

// Alerts is the alerts page.
type Alerts struct {
	Page
	Filter       AlertFilter
	Rows         []AlertRow
	Total        int  // alerts matching the filter
	Truncated    bool // more matched than are shown
	RefillTotals []RefillTotal
	CSVHref      string
	Self         string // this page's URL with its query, which live updates fetch again
}

// AlertFilter is the alerts page's filter form, as in the URL.
type AlertFilter struct {
	Buildings   []Option
	Floors      []Option
	Rooms       []Option
	Types       []Option
	Statuses    []Option
	Resolutions []Option
	RunsOut     []Option // within how long the alert's dispenser runs out
	Sorts       []Option // the order of the alerts
	From        string   // yyyy-mm-dd
	To          string   // yyyy-mm-dd, inclusive
	Active      bool
}

// AlertRow is an alert as pages list it.
type AlertRow struct {
	ID            string
	Type          domain.AlertType
	Open          bool
	Overdue       bool
	Created       time.Time
	Resolved      time.Time
	Resolution    domain.Resolution
	TimeToResolve time.Duration
	RefillCount   int
	LocationName  string // "" when the account's layout has no such location
	LocationID    string
	LocationHref  string
	Where         string
	MACs          []string
	Now           time.Time // for "open for 3 h"
	// Claim is who is on the open alert; nil when nobody is.
	Claim *ClaimView
	// ClaimHref is the claim page of an open alert; empty for a closed one.
	ClaimHref string
	// RunsOut says when the open alert's dispenser will run out ("Runs out
	// in about 3 h"); empty without an estimate, or when it is out.
	RunsOut string
	// Level is where the alert stands against its targets; nil when it
	// has none.
	Level *Level
	// Visitor is what a visitor reported, for an alert of the type
	// domain.AlertVisitor, with the text they wrote ("other"); "" for the
	// service's alerts.
	Visitor     domain.VisitorKind
	VisitorText string
}

// ClaimView is who is on an alert: "Maria — 4 min", and their note.
type ClaimView struct {
	Name, Note string
	Since      time.Time
}

// Claim is the page where someone says they are on an open alert, hands
// it over, or releases it.
type Claim struct {
	Page
	// CloseReport is where a supervisor closes a visitor's report by
	// hand (docs/visitors.md); "" when it is not offered.
	CloseReport     string
	Alert           AlertRow
	Name            string // the name of the person signed in
	Note            string // the form's note
	Problem         string // why the form was refused, in words
	Action, Release string // where the forms post
	Back            string // the page to return to
	// NameFixed says that the person signed in claims as themselves
	// (Name), their role not letting them claim for others.
	NameFixed bool
	// People, when not nil, are whom a supervisor may put on the alert
	// (the account's people who see its building), by id, the one chosen
	// selected. The form then asks for one of them rather than a name.
	People []Option
	// MayRelease offers to end the claim: their own, or anyone's from
	// supervisors up.
	MayRelease bool
	// Done is the alert's newest "done" report in words, for supervisors
	// and above; DoneContradicted says the service contradicts it (the
	// alert is still open long after), which Done then says too.
	Done             string
	DoneContradicted bool
}

// ClaimGone says that the alert to claim is no longer open.
type ClaimGone struct {
	Page
	Back string
}

// RefillTotal is what to carry to one floor: "Level 3: 12 tissue rolls, 2
// soap refills".
type RefillTotal struct {
	Building string
	Floor    string
	Items    []RefillItem
}

// RefillItem is a count of one product, or of battery sets.
type RefillItem struct {
	Count int
	Noun  string // "tissue rolls", "battery sets"
	// Words are the count and noun in the page's language ("12 tissue
	// rolls"), which the alerts page shows; "" for number and Noun.
	Words string
}

// ErrorPage says what went wrong in words.
type ErrorPage struct {
	Page
	Status  int
	Heading string
	Message string
	ErrorID string // for a 500: the id the log line carries too
}
