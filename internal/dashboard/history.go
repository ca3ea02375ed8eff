package dashboard

import (
	"cmp"
	"context"
	"slices"
	"time"

	"washboard/internal/domain"
	"washboard/internal/forecast"
	"washboard/internal/store"
)

// HistoryWindow is how far back a location's page shows what its devices
// did.
const HistoryWindow = 7 * 24 * time.Hour

// refillNear is how far apart a level's rise and the closing of a
// product-out alert may be and still be one refill: staff close the alert
// in the app, or the device closes it, about when the device reports the
// refilled level.
const refillNear = time.Hour

// LocationHistory reads what a location's devices (those its card holds)
// did over the HistoryWindow up to now: each compartment's level, the
// spans each device was offline, its refills, and the location's alerts.
// It reads the history the cache keeps (store.History): a location whose
// devices have no readings has devices without a record.
func (s *Service) LocationHistory(ctx context.Context, account string, sc domain.BuildingScope, id string, devices []domain.Device, now time.Time) (domain.LocationHistory, error) {
	if err := s.seesLocation(ctx, account, sc, id); err != nil {
		return domain.LocationHistory{}, err
	}
	from := now.Add(-HistoryWindow)
	alerts, err := s.store.FindAlerts(ctx, store.AlertFilter{Account: account, LocationID: id, OpenFrom: from, OpenTo: now})
	if err != nil {
		return domain.LocationHistory{}, err
	}
	var readings map[string][]store.Reading
	if len(devices) > 0 { // no MACs would read every device of the account
		macs := make([]string, len(devices))
		for i, d := range devices {
			macs[i] = d.MAC
		}
		if readings, err = s.store.DeviceHistory(ctx, account, macs, from); err != nil {
			return domain.LocationHistory{}, err
		}
	}
	return historyOf(devices, readings, alerts, from, now), nil
}

// historyOf is the history of a location's devices over [from, to], from
// their readings (those at or after from and the last one before it) and
// the location's alerts open at any moment of it.
func historyOf(devices []domain.Device, readings map[string][]store.Reading, alerts []domain.Alert, from, to time.Time) domain.LocationHistory {
	slices.SortStableFunc(alerts, func(a, b domain.Alert) int {
		return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.ID, b.ID))
	})
	h := domain.LocationHistory{From: from, To: to, Alerts: alerts}
	for _, d := range devices {
		dh := deviceHistoryOf(readings[d.MAC], from, to)
		dh.MAC, dh.Position = d.MAC, d.Position
		for _, a := range alerts {
			if len(a.MACs) == 0 || slices.Contains(a.MACs, d.MAC) {
				dh.Alerts = append(dh.Alerts, a)
			}
		}
		addAlertRefills(&dh, len(devices) == 1, from, to)
		h.Devices = append(h.Devices, dh)
	}
	return h
}

// deviceHistoryOf is a device's levels, offline spans and level rises over
// [from, to], from its readings in time order. The reading before from
// gives the state at from.
func deviceHistoryOf(readings []store.Reading, from, to time.Time) domain.DeviceHistory {
	var d domain.DeviceHistory
	var offline *domain.OfflineSpan
	for _, r := range readings {
		if r.At.After(to) {
			break
		}
		at := maxTime(r.At, from)
		if d.Since.IsZero() {
			d.Since = at
		}
		for i, level := range r.Levels {
			for len(d.Levels) <= i {
				d.Levels = append(d.Levels, nil)
			}
			steps := d.Levels[i]
			if n := len(steps); n > 0 {
				if steps[n-1].Level == level {
					continue
				}
				if forecast.IsRefill(steps[n-1].Level, level) {
					d.Refills = append(d.Refills, domain.Refill{At: at, Compartment: i, Before: steps[n-1].Level, After: level})
				}
			}
			d.Levels[i] = append(steps, domain.LevelStep{At: at, Level: level})
		}
		switch {
		case r.Offline && offline == nil:
			offline = &domain.OfflineSpan{From: maxTime(r.OfflineSince(), from)}
		case !r.Offline && offline != nil:
			if offline.To = at; offline.To.After(offline.From) {
				d.Offline = append(d.Offline, *offline)
			}
			offline = nil
		}
	}
	if offline != nil {
		offline.To, offline.Ongoing = to, true
		d.Offline = append(d.Offline, *offline)
	}
	return d
}

// addAlertRefills adds the refills the device's product-out alerts tell
// of: each such alert closed by the device or by staff within [from, to]
// is a refill. A rise of a level near its closing is the same refill,
// and names the alert; without one, the alert's closing is the refill. An
// alert naming no device is the device's only when it is its location's
// only device.
func addAlertRefills(d *domain.DeviceHistory, only bool, from, to time.Time) {
	for _, a := range d.Alerts {
		if !a.TellsOfRefill() || a.Resolved.Before(from) || a.Resolved.After(to) || len(a.MACs) == 0 && !only {
			continue
		}
		matched := false
		for i, r := range d.Refills {
			if r.Compartment >= 0 && r.AlertID == "" && absDuration(r.At.Sub(a.Resolved)) <= refillNear {
				d.Refills[i].AlertID, matched = a.ID, true
			}
		}
		if !matched {
			d.Refills = append(d.Refills, domain.Refill{At: a.Resolved, Compartment: -1, AlertID: a.ID})
		}
	}
	slices.SortStableFunc(d.Refills, func(a, b domain.Refill) int {
		return cmp.Or(a.At.Compare(b.At), cmp.Compare(a.Compartment, b.Compartment))
	})
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func absDuration(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}
