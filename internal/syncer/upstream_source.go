package syncer

import (
	"context"
	"errors"
	"strings"
	"time"

	"washboard/internal/domain"
	"washboard/internal/upstream"
)

// Page sizes the sync asks for. The service may serve fewer; the client
// advances by what it received.
const (
	alertPageSize = 500
	offsetLimit   = 1000
)

// UpstreamSource reads accounts from the Device Monitoring Service.
type UpstreamSource struct {
	Client *upstream.Client
}

var _ Source = UpstreamSource{}

// Layout walks /metadata by offset. Every part carries the account as
// the first page names it.
func (s UpstreamSource) Layout(ctx context.Context, cred upstream.Credentials, page func(domain.Layout) error) (Fetched, error) {
	var account domain.Account
	var f Fetched
	seenB, seenF, seenL := map[string]bool{}, map[string]bool{}, map[string]bool{}
	err := s.Client.WalkMetadata(ctx, cred, upstream.MetadataQuery{Limit: offsetLimit}, func(p upstream.MetadataPage) error {
		f.Pages++
		f.Skipped += p.Skipped
		if account.ID == "" {
			account = domain.Account{ID: p.AccountID, Name: p.AccountName}
		}
		l := domain.Layout{Account: account, Rooms: make([]domain.Room, 0, len(p.Rooms))}
		for _, r := range p.Rooms {
			if !seenB[r.BuildingID] {
				seenB[r.BuildingID] = true
				l.Buildings = append(l.Buildings, domain.Building{ID: r.BuildingID, Name: r.BuildingName})
			}
			if !seenF[r.FloorID] {
				seenF[r.FloorID] = true
				l.Floors = append(l.Floors, domain.Floor{ID: r.FloorID, BuildingID: r.BuildingID, Name: r.FloorName})
			}
			l.Rooms = append(l.Rooms, domain.Room{ID: r.RoomID, FloorID: r.FloorID, Name: r.RoomName})
			for _, loc := range r.Locations {
				if seenL[loc.ID] {
					continue
				}
				seenL[loc.ID] = true
				l.Locations = append(l.Locations, domain.Location{ID: loc.ID, RoomID: r.RoomID, Name: loc.Name, Type: domain.DeviceType(loc.Type)})
			}
		}
		return page(l)
	})
	return f, err
}

// Devices walks /devices by offset.
func (s UpstreamSource) Devices(ctx context.Context, cred upstream.Credentials, page func([]domain.Device) error) (Fetched, error) {
	var f Fetched
	err := s.Client.WalkDevices(ctx, cred, upstream.DeviceQuery{Limit: offsetLimit}, func(p upstream.DevicePage) error {
		f.Pages++
		f.Skipped += p.Skipped
		out := make([]domain.Device, 0, len(p.Devices))
		for _, d := range p.Devices {
			for _, st := range d.States {
				out = append(out, deviceFromUpstream(d, st))
			}
		}
		return page(out)
	})
	return f, err
}

// deviceFromUpstream folds one reported device state into the domain's
// model.
func deviceFromUpstream(d upstream.Device, st upstream.DeviceState) domain.Device {
	gen := st.StateType
	if gen == "" {
		gen = d.StateType
	}
	n := max(len(st.ProductLevel), len(st.ProductLow), len(st.ProductOut))
	comps := make([]domain.Compartment, n)
	for i := range comps {
		if i < len(st.ProductLevel) {
			comps[i].Level = st.ProductLevel[i]
		}
		if i < len(st.ProductLow) {
			comps[i].Low = st.ProductLow[i]
		}
		if i < len(st.ProductOut) {
			comps[i].Out = st.ProductOut[i]
		}
		comps[i].Low = comps[i].Low || comps[i].Out // out is lower than low
	}
	return domain.Device{
		MAC:          st.MacID,
		LocationID:   d.LocationID,
		Position:     st.Position,
		Generation:   gen,
		Compartments: comps,
		Battery:      st.BatteryLevel,
		BatteryState: BatteryState(st.BatteryState),
		Faults:       domain.FoldFaults(st.Faults),
		Offline:      st.DeviceOff,
		LastSeen:     st.LastSeen,
	}
}

// BatteryState is the cache's battery state of the service's.
func BatteryState(s string) domain.BatteryState {
	switch strings.ToUpper(s) {
	case "":
		return domain.BatteryUnknown
	case upstream.BatteryNormal:
		return domain.BatteryNormal
	case upstream.BatteryLow:
		return domain.BatteryLow
	case upstream.BatteryShutdown:
		return domain.BatteryShutdown
	}
	return domain.BatteryState(s) // kept as it came
}

// Alerts walks /alerts by cursor.
func (s UpstreamSource) Alerts(ctx context.Context, cred upstream.Credentials, status domain.AlertStatus, from, to time.Time, page func([]domain.Alert) error) (Fetched, error) {
	var f Fetched
	q := upstream.AlertQuery{AlertStatus: string(status), StartDate: from, EndDate: to, PageSize: alertPageSize}
	err := s.Client.WalkAlerts(ctx, cred, q, func(p upstream.AlertPage) error {
		f.Pages++
		f.Skipped += p.Skipped
		out := make([]domain.Alert, len(p.Alerts))
		for i, a := range p.Alerts {
			out[i] = alertFromUpstream(a)
		}
		return page(out)
	})
	return f, err
}

// Alert reads one alert by identifier, within a window around its
// creation (without alert_status the window applies to the creation date).
func (s UpstreamSource) Alert(ctx context.Context, cred upstream.Credentials, id string, created time.Time) (domain.Alert, bool, error) {
	p, err := s.Client.Alerts(ctx, cred, upstream.AlertQuery{
		AlertID: id, StartDate: created.Add(-time.Second), EndDate: created.Add(time.Second), PageSize: 1,
	})
	if errors.Is(err, upstream.ErrNotFound) {
		return domain.Alert{}, false, nil
	}
	if err != nil {
		return domain.Alert{}, false, err
	}
	for _, a := range p.Alerts {
		if a.ID == id {
			return alertFromUpstream(a), true, nil
		}
	}
	return domain.Alert{}, false, nil
}

func alertFromUpstream(a upstream.Alert) domain.Alert {
	status := domain.AlertOpen
	if a.Status == upstream.StatusClosed || (!a.Resolved.IsZero() && a.Status != upstream.StatusOpen) {
		status = domain.AlertClosed
	}
	return domain.Alert{
		ID:          a.ID,
		LocationID:  a.LocationID,
		MACs:        a.MacIDs,
		Status:      status,
		Type:        domain.AlertType(a.Type),
		Created:     a.Created,
		Resolved:    a.Resolved,
		Resolution:  domain.Resolution(a.ResolutionType),
		Overdue:     a.Overdue,
		RefillCount: a.RefillCount,
	}
}
