package store

import (
	"context"
	"time"

	"washboard/internal/domain"
)

// Visitors are the rooms' codes, the presence scans of the people who
// open them, and what the washrooms' visitors report (docs/visitors.md).
type Visitors interface {
	// RoomCodes returns the current codes of the account's rooms of these
	// ids that have one, by room id, with their sealed tokens.
	RoomCodes(ctx context.Context, account string, rooms []string) (map[string]RoomCode, error)
	// AddRoomCodes keeps each code as its room's current one, unless the
	// room has one already (made meanwhile): then that one stays.
	AddRoomCodes(ctx context.Context, account string, codes []RoomCode) error
	// ReplaceRoomCode makes c its room's current code: the code it
	// replaces is kept as replaced at c.Created, and of a room's replaced
	// codes only the RoomCodesReplacedKept newest are kept.
	ReplaceRoomCode(ctx context.Context, account string, c RoomCode) error
	// RoomCodeByHash finds the code whose token has the hash, current or
	// replaced, whatever its account, as just written: domain.ErrNotFound
	// when none has.
	RoomCodeByHash(ctx context.Context, hash []byte) (RoomCode, error)
	// RoomCodeSeals returns the sealed tokens of every room's current
	// code, by account id and room id joined with a NUL: what each is
	// sealed for. ResealRoomCodes replaces them (a key's rotation) where
	// they are still the old ones, and counts those it replaced.
	RoomCodeSeals(ctx context.Context) (map[string][]byte, error)
	ResealRoomCodes(ctx context.Context, byRoom map[string]Reseal) (int, error)

	// AddPresenceScan keeps a scan, once per person, room and minute:
	// false, and nothing kept, when the person scanned the room in the
	// same minute already. Scans older than VisitorRecordsKept before it
	// go, and of the account's scans only the max newest are kept.
	AddPresenceScan(ctx context.Context, account string, sc domain.PresenceScan, max int) (bool, error)
	// PresenceScans returns the account's scans made in [from, to), of
	// one room (every room for ""), oldest first, at most limit of them.
	PresenceScans(ctx context.Context, account, room string, from, to time.Time, limit int) ([]domain.PresenceScan, error)

	// AddVisitorReport keeps r (its ID is the store's) and returns its
	// id, with the fact of it (FactVisitorReport) unless it is a rating
	// alone; AddVisitorFlood records the fact of the marker it keeps. Reports older than VisitorRecordsKept before it go, and of the
	// account's reports only the max newest are kept.
	AddVisitorReport(ctx context.Context, account string, r domain.VisitorReport, max int) (int64, error)
	// AddVisitorFlood keeps a flood marker (domain.VisitorFlood) of the
	// room at at, unless the room has one made at or after since: false
	// then. It is kept as AddVisitorReport keeps a report.
	AddVisitorFlood(ctx context.Context, account, room string, at, since time.Time, max int) (bool, error)
	// VisitorReports returns the account's reports that match the
	// filter, oldest first.
	VisitorReports(ctx context.Context, account string, f VisitorReportFilter) ([]domain.VisitorReport, error)
	// VisitorRatings returns a room's ratings made in [from, to), by day
	// in zone: their count and average, for the days that have one,
	// oldest first.
	VisitorRatings(ctx context.Context, account, room string, from, to time.Time, zone *time.Location) ([]domain.DailyRating, error)
	// RatingsDuring returns the account's ratings made in [from, to), of
	// every room, oldest first: at most the reports an account keeps.
	RatingsDuring(ctx context.Context, account string, from, to time.Time) ([]domain.Rating, error)
	// CloseVisitorReports closes those of the account's reports of these
	// ids that are open, at at and by what by says, ends the claims on
	// their alerts (domain.VisitorAlertID) and counts those it closed.
	CloseVisitorReports(ctx context.Context, account string, ids []int64, at time.Time, by domain.VisitorClosing) (int, error)
}

// A refresh of alerts, or the service's events, that leaves a
// consumable_out alert closed by a refill (domain.Alert.TellsOfRefill)
// closes, in its transaction, the open reports of the alert location's
// room made before the refill whose kind that location's dispenser puts
// right (domain.VisitorKind.Dispensers): by domain.ClosedService, at the
// alert's resolution, ending the claims on them.

// RoomCode is a room's code: the hash of its token, looked up when the
// code is opened, and the token sealed with the server's key, for the
// floor's sheet of codes to print again.
type RoomCode struct {
	Account  string
	RoomID   string
	Hash     []byte
	Sealed   []byte
	Created  time.Time
	Replaced time.Time // zero while it is the room's current code
}

// VisitorReportFilter chooses visitors' reports: of one room (every room
// for ""), made in [From, To) (To zero: until now), open ones only, at
// most Limit (VisitorReportsRead when <= 0).
type VisitorReportFilter struct {
	// ID chooses the report of the id alone, when set.
	ID       int64
	Room     string
	From, To time.Time
	OpenOnly bool
	// Problems leaves out the ratings alone (domain.VisitorRatingOnly):
	// the reports that stand for alerts.
	Problems bool
	Limit    int
}

// VisitorRecordsKept is how long visitors' reports, flood markers and
// presence scans are kept: as long as "done" reports and, by default,
// the alerts' history.
const VisitorRecordsKept = 90 * 24 * time.Hour

// RoomCodesReplacedKept is how many replaced codes of a room are kept,
// to say "this code was replaced" when one is opened; older ones are
// forgotten, and then answer as unknown.
const RoomCodesReplacedKept = 5

// VisitorReportsRead is the most reports VisitorReports returns when its
// filter sets no limit.
const VisitorReportsRead = 1000
