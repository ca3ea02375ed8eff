package syncer

import (
	"context"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// Store is what the engine reads and writes of the cache: the methods of
// store.Store it calls, and no others.
type Store interface {
	refreshes
	SyncStatuses(ctx context.Context, account string) (map[domain.Resource]store.SyncStatus, error)
	RecordSync(ctx context.Context, account string, st store.SyncStatus) error
	// FindAlerts reads what the cache holds as open before an alerts
	// refresh, to find the alerts the service stopped listing.
	FindAlerts(ctx context.Context, f store.AlertFilter) ([]domain.Alert, error)
	// Rollup reads the size of the account's layout, which bounds a
	// refresh's pages.
	Rollup(ctx context.Context, account string, scope domain.Scope, id string) (domain.Rollup, error)
}

// refreshes write what the service said: a refresh of each resource, in
// one transaction, and the alerts of the service's events.
type refreshes interface {
	BeginLayout(ctx context.Context, account string) (store.LayoutRefresh, error)
	BeginDevices(ctx context.Context, account string) (store.DeviceRefresh, error)
	BeginAlerts(ctx context.Context, account string) (store.AlertRefresh, error)
	ApplyAlertEvents(ctx context.Context, account string, alerts []domain.Alert, seen time.Time) (domain.Change, error)
}
