package syncer

import (
	"context"
	"time"

	"washboard/internal/domain"
	"washboard/internal/upstream"
)

// Source is where the sync reads an account from: the Device Monitoring
// Service, through the upstream client. The methods that walk pages hand
// each page to a function as it arrives, so that the sync can write one
// page while the next is on its way; an error from the function ends the
// walk.
type Source interface {
	// Layout reads the account's layout from /metadata, handing each
	// page's part of it to the function: the account, and the buildings,
	// floors, rooms and locations the page lists first, in the service's
	// order.
	Layout(ctx context.Context, cred upstream.Credentials, page func(domain.Layout) error) (Fetched, error)
	// Devices reads the state of every device from /devices.
	Devices(ctx context.Context, cred upstream.Credentials, page func([]domain.Device) error) (Fetched, error)
	// Alerts reads the alerts with the status whose relevant date (creation
	// for open alerts, resolution for closed ones) lies in [from, to).
	Alerts(ctx context.Context, cred upstream.Credentials, status domain.AlertStatus, from, to time.Time, page func([]domain.Alert) error) (Fetched, error)
	// Alert reads one alert, created at created, by identifier; found is
	// false when the service no longer has it.
	Alert(ctx context.Context, cred upstream.Credentials, id string, created time.Time) (a domain.Alert, found bool, err error)
}

// Page is one page a Source fetched.
type Page struct {
	Items int // records on the page
}

// Fetched says what a walk received.
type Fetched struct {
	Pages   int
	Skipped int // malformed records skipped
}
