package dashboard

import (
	"context"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/visitors"
)

// Store is what the service reads and writes of the cache: the methods of
// store.Store it calls, and no others.
type Store interface {
	placeReader
	alertReader
	deviceReader
	screenStore
	portfolioScreenStore
	claimStore
	serviceLevelStore
	floorPlanStore
	visitors.Store
	roundStore
	// VisitorReports and CloseVisitorReports read and close the
	// visitors' reports that stand for alerts (visitoralerts.go).
	VisitorReports(ctx context.Context, account string, f store.VisitorReportFilter) ([]domain.VisitorReport, error)
	CloseVisitorReports(ctx context.Context, account string, ids []int64, at time.Time, by domain.VisitorClosing) (int, error)
	// VisitorRatings and RatingsDuring read what visitors rated.
	VisitorRatings(ctx context.Context, account, room string, from, to time.Time, zone *time.Location) ([]domain.DailyRating, error)
	RatingsDuring(ctx context.Context, account string, from, to time.Time) ([]domain.Rating, error)
	SyncStatuses(ctx context.Context, account string) (map[domain.Resource]store.SyncStatus, error)
	ReportSettings(ctx context.Context, account string) (rs store.ReportSettings, ok bool, err error)
	SaveReportSettings(ctx context.Context, account string, rs store.ReportSettings) error
	// Connection tells whether the account is connected (domain.ErrNotConnected).
	Connection(ctx context.Context, account string) (store.Connection, error)
	// Migrated reports whether every schema migration has been applied.
	Migrated(ctx context.Context) (bool, error)
}

// placeReader reads an account's layout: its buildings, floors, rooms
// and locations, and their counts.
type placeReader interface {
	Account(ctx context.Context, id string) (domain.Account, error)
	Buildings(ctx context.Context, account string) ([]domain.Building, error)
	Floors(ctx context.Context, account, building string) ([]domain.Floor, error)
	Rooms(ctx context.Context, account, floor string) ([]domain.Room, error)
	Building(ctx context.Context, account, id string) (domain.Building, error)
	Floor(ctx context.Context, account, id string) (domain.Floor, error)
	Room(ctx context.Context, account, id string) (domain.Room, error)
	Location(ctx context.Context, account, id string) (domain.Location, error)
	LocationsIn(ctx context.Context, account, building, floor, room string) ([]domain.Location, error)
	SearchLocations(ctx context.Context, account, query string, buildings []string, limit int) ([]domain.Location, error)
	Paths(ctx context.Context, account string, ids []string) (map[string]store.Path, error)
	Rollup(ctx context.Context, account string, scope domain.Scope, id string) (domain.Rollup, error)
	Rollups(ctx context.Context, account string, scope domain.Scope, ids ...string) (map[string]domain.Rollup, error)
}

// alertReader reads the cached alerts.
type alertReader interface {
	FindAlerts(ctx context.Context, f store.AlertFilter) ([]domain.Alert, error)
	CountAlerts(ctx context.Context, f store.AlertFilter) (int, error)
	RefillTotals(ctx context.Context, f store.AlertFilter) ([]store.RefillTotal, error)
	AlertSpans(ctx context.Context, f store.AlertFilter) ([]store.AlertSpan, error)
}

// deviceReader reads the cached devices and their history.
type deviceReader interface {
	FindDevices(ctx context.Context, f store.DeviceFilter) ([]domain.Device, error)
	DeviceHistory(ctx context.Context, account string, macs []string, from time.Time) (map[string][]store.Reading, error)
	EachDeviceHistory(ctx context.Context, f store.HistoryFilter, each func(store.DeviceReadings) error) error
}

// screenStore keeps the wall screens.
type screenStore interface {
	CreateScreen(ctx context.Context, sc domain.Screen, tokenHash, sealed []byte, max int) error
	UpdateScreen(ctx context.Context, sc domain.Screen) error
	RelinkScreen(ctx context.Context, account, id string, tokenHash, sealed []byte) error
	RevokeScreen(ctx context.Context, account, id string, at time.Time) error
	RemoveScreen(ctx context.Context, account, id string) error
	TouchScreen(ctx context.Context, id string, at time.Time) error
	Screens(ctx context.Context, account string) ([]domain.Screen, error)
	Screen(ctx context.Context, account, id string) (domain.Screen, error)
	ScreenByToken(ctx context.Context, tokenHash []byte) (domain.Screen, []byte, error)
	ScreenCredentials(ctx context.Context, account string) (map[string][]byte, error)
}

// claimStore keeps who is on the account's open alerts.
type claimStore interface {
	ClaimAlert(ctx context.Context, account string, c domain.Claim) error
	ReleaseClaim(ctx context.Context, account, alertID string, at time.Time) error
	ActiveClaims(ctx context.Context, account string) (map[string]domain.Claim, error)
	ClaimsDuring(ctx context.Context, account string, from, to time.Time, buildings []string, limit int) ([]domain.Claim, error)
	ClaimAlertOnce(ctx context.Context, account string, c domain.Claim, key string) (bool, error)
	AddDoneReport(ctx context.Context, account string, r domain.DoneReport, key string, before time.Time) (bool, error)
	LastDoneReports(ctx context.Context, account string, alertIDs []string) (map[string]domain.DoneReport, error)
	DoneReportsDuring(ctx context.Context, account string, from, to time.Time, limit int) ([]domain.DoneReport, error)
	DoneReportsIn(ctx context.Context, f store.ServiceFilter) ([]store.PlacedDoneReport, error)
	ClaimsIn(ctx context.Context, f store.ServiceFilter) ([]store.PlacedClaim, error)
	PresenceScansIn(ctx context.Context, f store.ServiceFilter) ([]domain.PresenceScan, error)
	RoundTicksIn(ctx context.Context, f store.ServiceFilter) ([]store.RoundTick, error)
}
