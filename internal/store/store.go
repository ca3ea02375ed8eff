// Package store is Washboard's cache of each account's layout, devices
// and alerts, with the rest the dashboard keeps: sessions, wall screens,
// webhook receivers, report settings and the records of the sync. It holds
// the cache's types and the Store interface; each database engine
// implements it in a package of its own (store/sqlite, the embedded
// default; store/postgres, for several replicas), and store/storetest
// holds the contract every implementation passes.
//
// Every refresh of a resource is one transaction: a reader sees a refresh
// whole or not at all. Every write of alerts or devices records, in its
// transaction, the facts notifications may be about (Facts), and every
// write of devices the readings of their history (History).
package store

import (
	"context"
	"errors"
	"time"

	"washboard/internal/domain"
)

// ErrChanged says that what a write was to replace was changed meanwhile:
// read it again, and make the change again.
var ErrChanged = errors.New("changed meanwhile")

// Store is the cache.
type Store interface {
	Layouts
	Devices
	Alerts
	Screens
	Receivers
	Sessions
	Syncs
	Reports
	Claims
	Facts
	History
	Notifications
	Keys
	Connections
	People
	AuditLog
	ServiceLevels
	Organisations
	ReportMail
	OrganisationScreens
	Push
	FloorPlans
	Visitors
	Rounds
	// Migrated reports whether every schema migration has been applied.
	Migrated(ctx context.Context) (bool, error)
	Close() error
}

// Layouts are the accounts' buildings, floors, rooms and locations.
type Layouts interface {
	// BeginLayout starts a refresh of an account's layout, written part by
	// part as the pages of /metadata arrive.
	BeginLayout(ctx context.Context, account string) (LayoutRefresh, error)
	// ReplaceLayout writes a whole layout in one refresh.
	ReplaceLayout(ctx context.Context, l domain.Layout) (domain.Change, error)
	Account(ctx context.Context, id string) (domain.Account, error)
	Layout(ctx context.Context, account string) (domain.Layout, error)
	Buildings(ctx context.Context, account string) ([]domain.Building, error)
	Floors(ctx context.Context, account, building string) ([]domain.Floor, error)
	Rooms(ctx context.Context, account, floor string) ([]domain.Room, error)
	Locations(ctx context.Context, account, room string) ([]domain.Location, error)
	Building(ctx context.Context, account, id string) (domain.Building, error)
	Floor(ctx context.Context, account, id string) (domain.Floor, error)
	Room(ctx context.Context, account, id string) (domain.Room, error)
	Location(ctx context.Context, account, id string) (domain.Location, error)
	// LocationsIn lists the locations of a building, floor or room (the
	// first non-empty), or of the whole account.
	LocationsIn(ctx context.Context, account, building, floor, room string) ([]domain.Location, error)
	SearchLocations(ctx context.Context, account, query string, buildings []string, limit int) ([]domain.Location, error)
	Paths(ctx context.Context, account string, ids []string) (map[string]Path, error)
	// Rollup reads the counts of one part of an account's layout; Rollups
	// those of several parts of one scope (every part when no id is given).
	Rollup(ctx context.Context, account string, scope domain.Scope, id string) (domain.Rollup, error)
	Rollups(ctx context.Context, account string, scope domain.Scope, ids ...string) (map[string]domain.Rollup, error)
}

// LayoutRefresh is a refresh of an account's layout being written, in one
// transaction until Commit or Rollback.
type LayoutRefresh interface {
	Write(ctx context.Context, part domain.Layout) error
	Commit(ctx context.Context) (domain.Change, error)
	// Rollback abandons the refresh; after Commit it does nothing.
	Rollback()
}

// Devices are the state of every device.
type Devices interface {
	BeginDevices(ctx context.Context, account string) (DeviceRefresh, error)
	ReplaceDevices(ctx context.Context, account string, devices []domain.Device) (domain.Change, error)
	FindDevices(ctx context.Context, f DeviceFilter) ([]domain.Device, error)
}

// DeviceRefresh is a refresh of an account's devices being written.
type DeviceRefresh interface {
	// SeenAt says when the service was read, before Commit: the time of
	// the readings the refresh records (History), and of the facts of a
	// device without a last-seen time. Without it, the store's clock as
	// it commits.
	SeenAt(t time.Time)
	Write(ctx context.Context, devices []domain.Device) error
	Commit(ctx context.Context) (domain.Change, error)
	Rollback()
}

// Alerts are the accounts' alerts, open and of the history kept.
type Alerts interface {
	BeginAlerts(ctx context.Context, account string) (AlertRefresh, error)
	ApplyAlerts(ctx context.Context, account string, w AlertWrite) (domain.Change, error)
	// ApplyAlertEvents writes what the service's events say of alerts, in
	// one transaction: each in its later state of the cached one and the
	// event's (domain.Later). seen is when the events arrived.
	ApplyAlertEvents(ctx context.Context, account string, alerts []domain.Alert, seen time.Time) (domain.Change, error)
	// AlertOfAnotherAccount reports whether an alert of this id is cached
	// under another account.
	AlertOfAnotherAccount(ctx context.Context, account, alertID string) (bool, error)
	// FindAlerts returns the alerts matching the filter: overdue first,
	// then oldest first.
	FindAlerts(ctx context.Context, f AlertFilter) ([]domain.Alert, error)
	CountAlerts(ctx context.Context, f AlertFilter) (int, error)
	RefillTotals(ctx context.Context, f AlertFilter) ([]RefillTotal, error)
	// AlertSpans returns what trends count of the alerts matching the
	// filter (AlertSpan), oldest first, at most Limit of them when it is
	// set: a read of many alerts that costs a fraction of FindAlerts.
	AlertSpans(ctx context.Context, f AlertFilter) ([]AlertSpan, error)
}

// AlertSpan is what trends count of an alert: where it was, of which
// type, and when it was open. Spans read together share the strings of
// their locations and types.
type AlertSpan struct {
	LocationID string
	Type       domain.AlertType
	Created    time.Time
	Resolved   time.Time // zero while open
}

// AlertRefresh is a refresh of an account's alerts being written. An
// alert written twice keeps the later version.
type AlertRefresh interface {
	// SeenAt says when the service was read, before the first Write.
	SeenAt(t time.Time)
	Write(ctx context.Context, alerts []domain.Alert) error
	// Commit removes the alerts the service no longer has and the closed
	// ones created before pruneBefore (unless zero), with the claims that
	// ended before pruneBefore of the alerts the cache no longer holds,
	// and commits.
	Commit(ctx context.Context, remove []string, pruneBefore time.Time) (domain.Change, error)
	Rollback()
}

// Screens are the wall screens, with the hash of their link's token and
// their credentials, sealed by the caller.
type Screens interface {
	// CreateScreen stores a new screen, unless its account has max
	// screens already (revoked ones included; max <= 0 for no limit):
	// then domain.ErrLimit. Two creations at once cannot both pass max.
	CreateScreen(ctx context.Context, sc domain.Screen, tokenHash, sealed []byte, max int) error
	UpdateScreen(ctx context.Context, sc domain.Screen) error
	RelinkScreen(ctx context.Context, account, id string, tokenHash, sealed []byte) error
	RevokeScreen(ctx context.Context, account, id string, at time.Time) error
	// RemoveScreen removes a revoked screen of the account for good, with
	// its sealed credentials: domain.ErrScreenLinked when it is not
	// revoked, domain.ErrNotFound when the account has no screen of the id.
	RemoveScreen(ctx context.Context, account, id string) error
	TouchScreen(ctx context.Context, id string, at time.Time) error
	Screens(ctx context.Context, account string) ([]domain.Screen, error)
	Screen(ctx context.Context, account, id string) (domain.Screen, error)
	// ScreenByToken finds the screen whose link token has the hash, with
	// its sealed credentials, as just written.
	ScreenByToken(ctx context.Context, tokenHash []byte) (domain.Screen, []byte, error)
	CountActiveScreens(ctx context.Context, since time.Time) (int, error)
	// ScreenCredentials returns the sealed credentials of an account's
	// screens ("" for every account's), by screen id.
	ScreenCredentials(ctx context.Context, account string) (map[string][]byte, error)
	ResealScreenCredentials(ctx context.Context, byID map[string]Reseal) (int, error)
}

// Receivers are the addresses given out for the service's events.
type Receivers interface {
	// CreateReceiver stores a new receiver, unless its account has max
	// receivers already (max <= 0 for no limit): then domain.ErrLimit.
	// Two creations at once cannot both pass max.
	CreateReceiver(ctx context.Context, r Receiver, max int) error
	Receivers(ctx context.Context, account string) ([]Receiver, error)
	// Receiver finds a receiver by id, whatever its account, as just
	// written.
	Receiver(ctx context.Context, id string) (Receiver, error)
	RotateReceiver(ctx context.Context, account, id string, secret []byte, at, previousUntil time.Time) error
	RemoveReceiver(ctx context.Context, account, id string) error
	RecordReceived(ctx context.Context, counts map[string]ReceiverCounts) error
	ReceiverSecrets(ctx context.Context) (map[string][]byte, error)
	ResealReceiverSecrets(ctx context.Context, byID map[string]Reseal) (int, error)
}

// Sessions are the signed-in sessions, sealed by the caller, by the hash
// of their token.
type Sessions interface {
	// FindSession returns a session that has not expired, and when it
	// expires.
	FindSession(ctx context.Context, token string) (data []byte, expiry time.Time, found bool, err error)
	CommitSession(ctx context.Context, token string, data []byte, expiry time.Time) error
	DeleteSession(ctx context.Context, token string) error
	// DeleteExpiredSessions removes the sessions past their expiry.
	DeleteExpiredSessions(ctx context.Context) error
	CountSessions(ctx context.Context) (int, error)
	// ResealSessions passes the data of every unexpired session through
	// reseal and writes back what it changed; it returns how many.
	ResealSessions(ctx context.Context, reseal func([]byte) ([]byte, bool, error)) (int, error)
}

// Syncs are the records of the sync's refreshes.
type Syncs interface {
	RecordSync(ctx context.Context, account string, st SyncStatus) error
	SyncStatuses(ctx context.Context, account string) (map[domain.Resource]SyncStatus, error)
}

// Reports are the accounts' shift report settings.
type Reports interface {
	ReportSettings(ctx context.Context, account string) (rs ReportSettings, ok bool, err error)
	SaveReportSettings(ctx context.Context, account string, rs ReportSettings) error
}

// ServiceLevels are the service levels agreed with each account's client
// (internal/servicelevel), and the measures of its alerts against them.
//
// Every write of an account's alerts (AlertRefresh.Commit, ApplyAlerts,
// ApplyAlertEvents) that sees an alert close, open before in the cache or
// not held by it, records in its transaction the alert's measure against
// the account's service levels as they are then, once: an alert measured
// is not measured again. The store does not measure: the Measurer given
// to MeasureWith does, and until one is given nothing is measured. An
// account with no service level records none; so does an account's first
// refresh (its baseline).
type ServiceLevels interface {
	// MeasureWith sets how the writes that begin from now on measure the
	// alerts they see close.
	MeasureWith(m Measurer)
	// ServiceLevels returns the account's service levels: its own (Building
	// "") and its buildings', by building id.
	ServiceLevels(ctx context.Context, account string) (map[string]ServiceLevel, error)
	// SaveServiceLevel keeps an account's service level, or a building's,
	// replacing the one it had.
	SaveServiceLevel(ctx context.Context, account string, sl ServiceLevel) error
	// RemoveServiceLevel removes a building's service level ("" for the
	// account's): its alerts follow the account's again.
	RemoveServiceLevel(ctx context.Context, account, building string) error
	// AlertMeasures returns the measures recorded of the account's alerts
	// of the given ids, by alert id; those never measured are left out.
	AlertMeasures(ctx context.Context, account string, ids []string) (map[string]AlertMeasure, error)
	// EachAlertMeasure passes f, one at a time, the measures of the
	// account's alerts closed in [from, to) (either zero leaves that side
	// open), of the given buildings only when buildings is not nil, in
	// the order they closed; it stops at f's first error and returns it.
	// What it holds does not grow with the measures: the client report's
	// month is read through it.
	EachAlertMeasure(ctx context.Context, account string, from, to time.Time, buildings []string, f func(AlertMeasure) error) error
	// FirstClaims returns when each of the account's alerts given was
	// first claimed, ended claims included, by alert id; those never
	// claimed are left out.
	FirstClaims(ctx context.Context, account string, ids []string) (map[string]time.Time, error)
	// PruneAlertMeasures removes the measures of alerts closed before
	// before, of every account; it returns how many.
	PruneAlertMeasures(ctx context.Context, before time.Time) (int, error)
}

// Measurer measures an alert a write saw close against the account's
// service levels by building ("" for the account's own): in holds the
// alert's id, type, location, building, times (Claimed its first claim,
// zero when never claimed; Closed when it closed); the measure to keep
// is in with its outcomes, policy and explanation set, and false when
// the service levels do not measure the alert. It runs inside the
// write's transaction: it does no I/O.
type Measurer func(levels map[string]ServiceLevel, in AlertMeasure) (AlertMeasure, bool)

// ServiceLevel is a service level as kept: the hours as text
// (servicelevel.ParseHours reads them) and the targets by alert type.
type ServiceLevel struct {
	Building string // "" for the account's own
	Week     string // "Mon-Fri 06:00-22:00"
	Holidays string // "2026-12-25, 2026-12-26"
	Zone     string // an IANA time zone name
	Targets  []ServiceTarget
	Updated  time.Time
}

// ServiceTarget is the target of one alert type: times in service time,
// zero for no target of that kind.
type ServiceTarget struct {
	Type           domain.AlertType
	Claim, Resolve time.Duration
}

// AlertMeasure is an alert measured against its targets when it closed.
type AlertMeasure struct {
	AlertID    string
	Type       domain.AlertType
	LocationID string
	BuildingID string
	Created    time.Time
	Claimed    time.Time // its first claim; zero when never claimed
	Closed     time.Time
	// Claim and Resolve are the outcomes against the two targets: State
	// (met, missed, or not applicable), Target and Used alone are kept.
	Claim, Resolve MeasureOutcome
	// Policy is the service level in force, in words; Explanation says
	// where the clock stopped, empty when it never did.
	Policy, Explanation string
}

// MeasureOutcome is an alert's outcome against one target as kept.
type MeasureOutcome struct {
	State        string // "met", "missed", or "not-applicable" (no target of the kind)
	Target, Used time.Duration
}

// Claims are who is on the accounts' open alerts (domain.Claim).
type Claims interface {
	// ClaimAlert records c (its AlertID, PersonID, Name, Note and At) as the active
	// claim of the account's alert, ending the one active before, if any,
	// as handed over at c.At. ErrNotFound when the account has no open
	// alert of that id.
	ClaimAlert(ctx context.Context, account string, c domain.Claim) error
	// ReleaseClaim ends the active claim of the account's alert, if any,
	// as released at at.
	ReleaseClaim(ctx context.Context, account, alertID string, at time.Time) error
	// ActiveClaims returns the account's active claims by alert id.
	ActiveClaims(ctx context.Context, account string) (map[string]domain.Claim, error)
	// ClaimsDuring returns the account's claims active at any moment of
	// [from, to), ended ones included, by the time they were made, at most
	// limit of them.
	ClaimsDuring(ctx context.Context, account string, from, to time.Time, buildings []string, limit int) ([]domain.Claim, error)
	// AddDoneReport keeps r under the idempotency key, unique in the
	// account: false, and nothing kept, when a report already has the key.
	// The report is kept whether the alert is open or not; lengths are
	// the caller's to check. The account's reports made before before
	// are let go.
	AddDoneReport(ctx context.Context, account string, r domain.DoneReport, key string, before time.Time) (bool, error)
	// LastDoneReports returns the newest report of each of the alerts
	// that has one, by alert id.
	LastDoneReports(ctx context.Context, account string, alertIDs []string) (map[string]domain.DoneReport, error)
	// DoneReportsDuring returns the account's reports made in [from, to),
	// by the time they were made, at most limit of them.
	DoneReportsDuring(ctx context.Context, account string, from, to time.Time, limit int) ([]domain.DoneReport, error)
	// ClaimAlertOnce is ClaimAlert under an action's idempotency key, in
	// one transaction: false, and nothing done, when the account has the
	// key already; a claim that fails keeps no key. Keys older than
	// ActionKeysKept are let go.
	ClaimAlertOnce(ctx context.Context, account string, c domain.Claim, key string) (bool, error)
	// DoneReportsIn returns the "done" reports the filter selects, newest
	// first, at most its Limit, each with its alert's location and type;
	// a report of an alert the cache no longer holds is left out.
	DoneReportsIn(ctx context.Context, f ServiceFilter) ([]PlacedDoneReport, error)
	// ClaimsIn returns the claims made in the filter's span that it
	// selects, ended ones included, newest first, at most its Limit, each
	// with its alert's location and type and whose claim it took over.
	ClaimsIn(ctx context.Context, f ServiceFilter) ([]PlacedClaim, error)
	// PresenceScansIn returns the scans of rooms' codes made in the
	// filter's span that it selects, newest first, at most its Limit; a
	// scan of a room the layout no longer has is left out.
	PresenceScansIn(ctx context.Context, f ServiceFilter) ([]domain.PresenceScan, error)
}

// ActionKeysKept is how long an action's idempotency key is kept: an
// action sent again within it is answered as done, once.
const ActionKeysKept = 7 * 24 * time.Hour

// Facts are the notifications' outbox: what happened to the accounts'
// alerts and devices, recorded by the transaction that wrote it, so that
// a notification is decided from a change that committed, once, across a
// crash. A reader reads them in order and prunes those it has decided.
//
// Every write of an account's alerts (AlertRefresh.Commit, ApplyAlerts,
// ApplyAlertEvents) or devices (DeviceRefresh.Commit, ReplaceDevices)
// records the facts of what it changed, compared with what the cache held:
//
//   - alert.opened: an open alert the cache did not hold, and
//     alert.overdue too when it arrives overdue;
//   - alert.overdue: an alert the cache held open and not overdue that is
//     open and overdue now;
//   - product.out: one of a device's compartments ran out (one fact per
//     device and write, however many did);
//   - battery.low: a device's battery state became Low or Shutdown from
//     another state (Normal, unknown); Low to Shutdown records nothing;
//   - device.offline: a device went offline.
//
// A device the cache did not hold records the facts of the state it
// arrives in: it is out, low or offline, and was not known before. An
// alert that arrives closed, a device or an alert removed, and a write of
// what the cache holds already record nothing: a refresh repeated, or an
// event replayed, adds no fact.
//
// An account's first refresh of its alerts, and its first of its devices,
// is its baseline and records no facts: signing in to an account with
// 2,000 open alerts does not notify 2,000 times. The service's events
// (ApplyAlertEvents) record none before the alerts' baseline, and do not
// make one: they bring a few alerts, not the account's list. A refresh
// that rolls back records nothing and makes no baseline.
type Facts interface {
	// FactsAfter returns at most limit facts with Seq > after, by Seq;
	// limit <= 0 means 1000. A reader that has read up to a Seq misses
	// no fact committed after it: Seq increases in the order the facts'
	// transactions commit, on every engine.
	FactsAfter(ctx context.Context, after int64, limit int) ([]Fact, error)
	// PruneFacts removes the facts with Seq <= through: those decided.
	PruneFacts(ctx context.Context, through int64) error
}

// FactKind is what happened; the values are those of notify.Kind for the
// same things.
type FactKind string

// The kinds of facts.
const (
	FactAlertOpened   FactKind = "alert.opened"   // an alert the cache did not hold arrived open
	FactAlertOverdue  FactKind = "alert.overdue"  // an open alert became overdue
	FactProductOut    FactKind = "product.out"    // a compartment's product ran out (Out became true)
	FactBatteryLow    FactKind = "battery.low"    // a device's battery state became Low or Shutdown
	FactDeviceOffline FactKind = "device.offline" // a device went offline (Offline became true)
	// FactVisitorReport: a visitor reported something wrong, or a flood
	// marker was left (store.Visitors); AlertID is the report's alert id
	// (domain.VisitorAlertID), AlertType domain.AlertVisitor, no location.
	FactVisitorReport FactKind = "visitor.report"
)

// Fact is something that happened to an account's alerts or devices that
// a notification may be about, recorded in the transaction that wrote it.
type Fact struct {
	Seq        int64 // increasing in the order facts were recorded, across accounts; set by the store
	Account    string
	Kind       FactKind
	AlertID    string           // for the alert kinds
	AlertType  domain.AlertType // for the alert kinds
	MAC        string           // the device; for the alert kinds, the alert's first MAC, if any
	LocationID string
	// At is when it happened: for alert.opened, the alert's creation; for
	// alert.overdue, the alert's overdue-since time (domain.Alert), which
	// is when the write saw the service unless the cache knew it earlier;
	// for the device kinds, the device's last-seen time, or when the write
	// saw the service if the device has none. When the write saw the
	// service is its SeenAt, if it says, or else the store's clock as it
	// commits.
	At time.Time
}

// History is each device's readings over time: its levels, battery and
// whether it is online, a reading whenever a write changes them.
//
// Every write of an account's devices (DeviceRefresh.Commit,
// ReplaceDevices) records, in its transaction, a reading of each device
// it lists whose levels, battery percent, battery state or offline state
// differ from what the cache held, and of each device the cache did not
// hold: an account's first refresh records every device. A write of what
// the cache holds, whatever the devices' last-seen times, records
// nothing; a device removed records nothing; a refresh that rolls back
// records nothing. A device written twice in one refresh is compared in
// its last version.
//
// A reading's At is when the write saw the service: its SeenAt, or the
// store's clock as it commits. Times are kept to the second.
type History interface {
	// DeviceHistory returns the readings of the account's devices of the
	// given MACs (those the cache holds when macs is empty) taken at or
	// after from, and the last one taken before from, which tells the
	// state at from: each device's in time order, by MAC. A device
	// without readings is left out. A device's readings may share their
	// Levels: change none.
	DeviceHistory(ctx context.Context, account string, macs []string, from time.Time) (map[string][]Reading, error)
	// EachDeviceHistory passes each, one device at a time in order of
	// MAC, the readings of the account's devices the cache holds that the
	// filter selects, taken in [From, To) and the last one taken before
	// From, which tells the state at From, in time order. A device
	// without such readings is left out. The readings are each's only
	// during the call, and may share their Levels: change none. It stops
	// at each's first error and returns it. What it holds is one device's
	// readings, not the account's: a month of an account's history is
	// read through it.
	EachDeviceHistory(ctx context.Context, f HistoryFilter, each func(DeviceReadings) error) error
	// PruneHistory removes the readings of the UTC days before the day of
	// before, except each device's last day of readings before it, so
	// that DeviceHistory from before still tells every device's state at
	// before. What it keeps of that day, and of the day of before, may be
	// older than before.
	PruneHistory(ctx context.Context, before time.Time) error
	// KeepHistory says whether the writes that begin from now on record
	// readings; they do until told otherwise.
	KeepHistory(on bool)
	// SeedHistory adds to the account's device history the readings
	// given, by MAC: what a cache would hold had it watched the devices
	// before (the demo's, from its simulator's past). A day a device
	// already has readings of keeps them and gets none of these; a device
	// the cache does not hold may have readings.
	SeedHistory(ctx context.Context, account string, history map[string][]Reading) error
	// DeviceStates returns, of each of the account's devices, in no
	// order, what tells whether its state changed since it was last read:
	// the sum of what a reading of it holds. It reads less than
	// FindDevices does. An account the cache does not hold has none.
	DeviceStates(ctx context.Context, account string) ([]DeviceState, error)
}

// HistoryFilter selects the devices and the span of EachDeviceHistory.
type HistoryFilter struct {
	Account string
	// From and To are the span, [From, To); a zero To leaves it open.
	From, To time.Time
	// Buildings, when not nil, keeps the devices of locations in these
	// buildings only (none when it is empty): a person's scope
	// (domain.BuildingScope.IDs).
	Buildings []string
	// Dispensers keeps the devices with compartments only.
	Dispensers bool
}

// DeviceReadings is one device's readings, with where it is now.
type DeviceReadings struct {
	MAC        string
	LocationID string
	BuildingID string // "" when its location is not in the layout
	Readings   []Reading
}

// DeviceState is what DeviceStates reads of a device.
type DeviceState struct {
	MAC        string
	LocationID string
	Dispenser  bool // it has compartments
	// Sum is the sum of what a reading of the device as the cache holds
	// it would hold (readings.Sum): its levels, battery and whether it is
	// offline. It changes with each of them, and not with its last-seen
	// time or faults; a write that records a reading of it (History)
	// changes it. It is 0 until a device's first write by a version of
	// the store that keeps readings (a cache made before it).
	Sum      int64
	LastSeen time.Time // as FindDevices returns it
}

// Reading is a device's state as a write of devices saw it (History).
type Reading struct {
	At           time.Time // when the write saw the service, to the second
	Levels       []int     // each compartment's level, in percent, in the order /devices lists them
	Battery      int       // percent; -1 when not reported
	BatteryState domain.BatteryState
	Offline      bool
	LastSeen     time.Time // the device's last-seen time, to the second; zero when it has none
}

// OfflineSince is when a device that a reading shows offline went silent:
// its last-seen time, or the reading's own when it has none or a later
// one.
func (r Reading) OfflineSince() time.Time {
	if r.LastSeen.IsZero() || r.LastSeen.After(r.At) {
		return r.At
	}
	return r.LastSeen
}

// Keys is the check value of the secret key that sealed what the store
// holds.
type Keys interface {
	KeyCheck(ctx context.Context) (string, error)
	SetKeyCheck(ctx context.Context, value string) error
}

// AlertFilter selects alerts of an account.
type AlertFilter struct {
	Account string
	// Buildings, when not nil, keeps the alerts of locations in these
	// buildings only (none when it is empty): a person's scope
	// (domain.BuildingScope.IDs).
	Buildings  []string
	AlertID    string // one alert alone, when set
	BuildingID string
	FloorID    string
	RoomID     string
	LocationID string
	Status     domain.AlertStatus // "" for both
	Type       domain.AlertType
	Resolution domain.Resolution
	// From and To bound the creation date, or the resolution date when
	// Status is CLOSED: [From, To). Zero times leave that side open.
	From, To time.Time
	// OpenFrom and OpenTo select the alerts open at any moment of
	// [OpenFrom, OpenTo): created before OpenTo, and open or resolved at
	// or after OpenFrom. Zero times leave that side open.
	OpenFrom, OpenTo time.Time
	Limit            int // 0 for no limit
}

// AlertWrite is one refresh of an account's alerts.
type AlertWrite struct {
	Upserts []domain.Alert // alerts as the service now lists them
	Remove  []string       // alerts the service no longer has
	// PruneBefore removes closed alerts created before it: the end of the
	// history the cache keeps. The zero time prunes nothing.
	PruneBefore time.Time
	// SeenAt is when the service was read (see AlertRefresh.SeenAt).
	SeenAt time.Time
}

// RefillTotal is what the open alerts of one floor ask staff to bring, of
// one kind: a device type's refills, or "battery" sets.
type RefillTotal struct {
	Building, Floor string
	Kind            string
	Count           int
}

// DeviceFilter selects devices of an account.
type DeviceFilter struct {
	Account string
	// Buildings, when not nil, keeps the devices of locations in these
	// buildings only (none when it is empty).
	Buildings  []string
	BuildingID string
	FloorID    string
	RoomID     string
	LocationID string
}

// Reseal is a sealed value sealed again: Old is what was read, New what
// replaces it.
type Reseal struct {
	Old, New []byte
}

// Path is a device location with the room, floor and building it is in.
type Path struct {
	Location domain.Location
	Room     domain.Room
	Floor    domain.Floor
	Building domain.Building
}

// ReportSettings are an account's shift report settings, as text: the web
// layer parses and checks them before they are saved.
type ReportSettings struct {
	Shifts  string // "Early 06:00-14:00, Late 14:00-22:00, ..."
	Zone    string // an IANA time zone name
	Updated time.Time
}

// SyncStatus is the record of an account's refreshes of one resource.
type SyncStatus struct {
	Resource    domain.Resource
	LastAttempt time.Time
	LastSuccess time.Time // zero: never
	Duration    time.Duration
	Change      domain.Change
	Skipped     int    // malformed records the service sent, skipped
	LastError   string // "" when the last attempt succeeded
}

// Receiver is an address Washboard gave out for the service's events, as
// the cache keeps it: its signing secrets sealed.
type Receiver struct {
	ID      string
	Account string
	// Secret is the signing secret, sealed; Previous the one it replaced,
	// accepted until PreviousUntil.
	Secret        []byte
	Previous      []byte
	PreviousUntil time.Time
	Created       time.Time
	Rotated       time.Time // zero: never rotated
	LastEvent     time.Time // zero: none yet
	Accepted      int64
	Rejected      int64
}

// ReceiverCounts is what receivers took since they were last recorded.
type ReceiverCounts struct {
	Accepted, Rejected int64
	LastEvent          time.Time // of the last accepted event; zero for none
}

// Notifications are what Washboard decided to notify from the outbox's
// facts: the delivery queue and its log, and the channels and rules made
// on the /notifications page.
//
// The decision worker reads facts after DecidedThrough, decides, and
// records its decisions and the new DecidedThrough in one transaction
// (Decide), which also removes the facts it decided: a crash before it
// commits decides the same facts again, one after it does not, so a fact
// is decided exactly once. The delivery worker takes the due notifications
// and records each attempt (Decide with Updates only).
type Notifications interface {
	// NotificationSettings returns the account's channels and rules made
	// on the page, sealed; nil when it has none.
	NotificationSettings(ctx context.Context, account string) ([]byte, error)
	// SaveNotificationSettings replaces the account's sealed settings
	// with sealed if they are still previous (nil: none saved), and
	// answers ErrChanged otherwise: of two changes made at once from the
	// same settings, the second is told, and none is lost.
	SaveNotificationSettings(ctx context.Context, account string, previous, sealed []byte, at time.Time) error
	// AllNotificationSettings returns every account's sealed settings,
	// by account.
	AllNotificationSettings(ctx context.Context) (map[string][]byte, error)
	// ResealNotificationSettings replaces accounts' sealed settings, by
	// account, in one transaction, each only if it still holds Old; it
	// returns how many it replaced.
	ResealNotificationSettings(ctx context.Context, byAccount map[string]Reseal) (int, error)

	// DecidedThrough returns the Seq of the last fact decided: 0 before
	// the first decision.
	DecidedThrough(ctx context.Context) (int64, error)
	// Decide records d in one transaction: it adds d.New (leaving a
	// notification whose ID is there already as it is), appends
	// d.DigestItems to their digests, applies d.Updates, and, when
	// d.Through is above DecidedThrough, sets DecidedThrough to it and
	// removes the facts with Seq <= d.Through. Notes longer than NoteMax
	// are cut (CutNote). An item for a digest, or an update of a
	// notification, that the store does not hold fails the whole decision
	// with domain.ErrNotFound, and nothing of it is recorded.
	Decide(ctx context.Context, d Decision) error
	// OpenDigest returns the ID of the digest of the account's rule to the
	// channel that is still collecting items: pending and never attempted.
	// Items is how many items it holds.
	OpenDigest(ctx context.Context, account, rule, channel string) (id string, items int, ok bool, err error)
	// DueNotifications returns at most limit notifications, waiting or
	// pending, whose Due is not after now, earliest Due first, with their
	// items. limit <= 0 means NotificationsLimit, and no more than
	// NotificationsMax are returned whatever limit says.
	DueNotifications(ctx context.Context, now time.Time, limit int) ([]Notification, error)
	// NextDue returns the earliest Due of the notifications waiting or
	// pending; ok is false when there are none.
	NextDue(ctx context.Context) (due time.Time, ok bool, err error)
	// NotificationLog returns the latest notifications of the account's
	// channel, newest Created first, at most limit (bounded as for
	// DueNotifications), without their items but with ItemCount.
	NotificationLog(ctx context.Context, account, channel string, limit int) ([]Notification, error)
	// PruneNotifications removes the finished notifications (neither
	// waiting nor pending) created before before, and their items; it
	// returns how many it removed.
	PruneNotifications(ctx context.Context, before time.Time) (int, error)
}

// How many notifications DueNotifications and NotificationLog return: as
// many as NotificationsLimit when their caller sets no limit (limit <= 0),
// and never more than NotificationsMax.
const (
	NotificationsLimit = 100
	NotificationsMax   = 1000
)

// NoteMax is the most characters a notification's Note keeps: Decide cuts
// a longer one (CutNote).
const NoteMax = 500

// CutNote returns note cut to its first NoteMax characters, on a
// character boundary; a shorter note as it is.
func CutNote(note string) string { return Cut(note, NoteMax) }

// Cut returns s cut to its first max characters, on a character
// boundary; a shorter s as it is.
func Cut(s string, max int) string {
	n := 0
	for i := range s {
		if n == max {
			return s[:i]
		}
		n++
	}
	return s
}

// NotificationState is where a notification is between being decided and
// being sent.
type NotificationState string

// The states of a notification. Waiting and pending ones are due at Due;
// the others are finished.
const (
	// Waiting for its condition to hold until Due: an alert still
	// unclaimed, a device still offline.
	NotificationWaiting NotificationState = "waiting"
	// Pending: to be sent, or tried again, at Due.
	NotificationPending NotificationState = "pending"
	// Sent: the channel accepted it.
	NotificationSent NotificationState = "sent"
	// Failed: given up on; Note says why.
	NotificationFailed NotificationState = "failed"
	// Dropped: decided during quiet hours that drop its kind.
	NotificationDropped NotificationState = "dropped"
	// Cancelled: its condition ended before Due (the alert was claimed
	// or closed, the device came back); Note says how.
	NotificationCancelled NotificationState = "cancelled"
	// Digested: it went into a digest instead; Note names it.
	NotificationDigested NotificationState = "digested"
)

// Finished reports whether nothing more happens to a notification in s.
func (s NotificationState) Finished() bool {
	return s != NotificationWaiting && s != NotificationPending
}

// Notification is one message decided for one channel of an account.
type Notification struct {
	// ID is the idempotency key, the same on every attempt
	// (rules.NotificationID).
	ID      string
	Account string
	Rule    string // the rule's name
	Channel string // the channel's name
	// Kind is a notify.Kind: what happened, or "digest".
	Kind string
	// Subject is what it is about: the alert's id for the alert kinds, the
	// device's MAC for the device kinds; "" for a digest.
	Subject string
	State   NotificationState
	Created time.Time
	// Due is when to check the condition (waiting) or to send, or try
	// again (pending); kept as it was once finished.
	Due         time.Time
	Attempts    int
	LastAttempt time.Time // zero before the first
	Sent        time.Time // zero until sent
	// Note is the last attempt's error, or why it was dropped, cancelled
	// or digested, in words for the delivery log; at most 500 characters.
	Note string
	// Items are what it is about, as the worker encoded them, in the
	// order they were added: one, or a digest's several.
	Items [][]byte
	// ItemCount is len(Items), also where NotificationLog leaves them out.
	ItemCount int
}

// DigestItem is an item added to an open digest.
type DigestItem struct {
	ID   string // the digest's
	Item []byte
}

// NotificationUpdate is what became of a notification: its state, when it
// is due, its attempts and its note. It replaces those fields.
type NotificationUpdate struct {
	ID          string
	State       NotificationState
	Due         time.Time
	Attempts    int
	LastAttempt time.Time
	Sent        time.Time
	Note        string
}

// Decision is what one transaction of Decide records.
type Decision struct {
	// Through is the Seq of the last fact decided; 0 leaves
	// DecidedThrough as it is.
	Through     int64
	New         []Notification
	DigestItems []DigestItem
	Updates     []NotificationUpdate
}

// FloorPlans are the floors' plans: an image each, and where the floor's
// locations and rooms are on it (docs/floor-plans.md).
type FloorPlans interface {
	// PutFloorPlan keeps a floor's plan and its image (at most
	// domain.MaxPlanBytes, domain.MaxPlanSide pixels a side), replacing
	// the one it had. The placements stay: as they were on a plan of the
	// same size; scaled in proportion, and waiting for review, on one of
	// another size.
	PutFloorPlan(ctx context.Context, account string, p domain.FloorPlan, body []byte) (domain.FloorPlan, error)
	// FloorPlan reads a floor's plan and its placements, without the
	// image; FloorPlanImage the image and its content type.
	FloorPlan(ctx context.Context, account, floor string) (domain.FloorPlan, error)
	FloorPlanImage(ctx context.Context, account, floor string) (contentType string, body []byte, err error)
	// SavePlacements replaces the placements of a floor's plan, by a
	// person at a time; they no longer wait for review.
	SavePlacements(ctx context.Context, account, floor string, p domain.Placements, by string, at time.Time) error
	// RemoveFloorPlan removes a floor's plan, its image and placements.
	RemoveFloorPlan(ctx context.Context, account, floor string) error
}
