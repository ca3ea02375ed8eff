package dashboard

import (
	"context"
	"slices"
	"time"

	"washboard/internal/domain"
	"washboard/internal/forecast"
	"washboard/internal/store"
)

// AlertFilter picks alerts by place, type, status, resolution and dates.
type AlertFilter = store.AlertFilter

// AlertsQuery is the alerts page's choice: a filter of the cache's alerts,
// and what the forecasts add to it.
type AlertsQuery struct {
	AlertFilter
	// RunsOutBy keeps the alerts about supplies whose dispenser is
	// estimated to run out by then, and is not out yet; the zero time
	// keeps any.
	RunsOutBy time.Time
	// BySoonestOut orders the alerts by when their dispenser runs out,
	// or went out; those without an estimate last, in the cache's order
	// (overdue first, then oldest).
	BySoonestOut bool
}

// forecasts reports whether the query needs the estimates to choose or
// order its alerts: closed alerts have none.
func (q AlertsQuery) forecasts() bool {
	return !q.RunsOutBy.IsZero() || q.BySoonestOut && q.Status != domain.AlertClosed
}

// AlertsPage is the alerts page: at most a page of the alerts of a
// filter, how many there are in all, what the open ones ask staff to
// bring, and the places the filter can choose from.
type AlertsPage struct {
	Total   int
	Alerts  Located
	Refills []FloorRefill // nil for closed alerts
	// Claims are who is on the open alerts, by alert id.
	Claims map[string]domain.Claim
	// Levels are the alerts measured against their targets, by alert id:
	// none when the account has no service level.
	Levels map[string]AlertLevel
	// RunsOut is when the dispenser of each listed open alert about
	// supplies will run out, or went out, by alert id: of those with an
	// estimate.
	RunsOut map[string]forecast.Estimate
	// Buildings are the account's; Floors those of the chosen building (or
	// the chosen floor alone); Rooms those of the chosen floor (or the
	// chosen room alone).
	Buildings []domain.Building
	Floors    []domain.Floor
	Rooms     []domain.Room
}

// Alerts reads the alerts page of a query, with at most limit alerts, of
// the buildings the scope sees.
func (s *Service) Alerts(ctx context.Context, sc domain.BuildingScope, q AlertsQuery, limit int) (AlertsPage, error) {
	q.Buildings = sc.IDs()
	f := q.AlertFilter
	var m AlertsPage
	var alerts []domain.Alert
	var err error
	if q.forecasts() {
		if alerts, m.RunsOut, m.Total, err = s.alertsByForecast(ctx, q, limit); err != nil {
			return m, err
		}
		alerts = alerts[:min(len(alerts), limit)]
	} else {
		if m.Total, err = s.store.CountAlerts(ctx, f); err != nil {
			return m, err
		}
		page := f
		page.Limit = limit
		if alerts, err = s.store.FindAlerts(ctx, page); err != nil {
			return m, err
		}
		if m.RunsOut, err = s.alertsRunOut(ctx, f, alerts); err != nil {
			return m, err
		}
	}
	if m.Alerts, err = s.locate(ctx, f.Account, alerts); err != nil {
		return m, err
	}
	if m.Levels, err = s.alertLevels(ctx, f.Account, m.Alerts, s.clock.Now()); err != nil {
		return m, err
	}
	// Visitors' reports come first, before the service's alerts: what
	// someone in the room said just now. A run-out filter chooses none.
	if q.RunsOutBy.IsZero() {
		visitors, places, err := s.visitorAlerts(ctx, sc, f)
		if err != nil {
			return m, err
		}
		m.Total += len(visitors)
		m.Alerts = withVisitorAlerts(m.Alerts, visitors, places, limit)
		alerts = m.Alerts.Alerts
	}
	if f.Status != domain.AlertClosed {
		// What to bring is what the open consumable_out and battery_out
		// alerts ask for: a dispenser that has yet to run out asks for
		// nothing, so the run-out filter leaves none.
		if q.RunsOutBy.IsZero() {
			if m.Refills, err = s.refills(ctx, f); err != nil {
				return m, err
			}
		}
		if m.Claims, err = s.store.ActiveClaims(ctx, f.Account); err != nil {
			return m, err
		}
		m.Claims = claimsOf(m.Claims, alerts)
	}
	if m.Buildings, err = s.store.Buildings(ctx, f.Account); err != nil {
		return m, err
	}
	m.Buildings = seen(sc, m.Buildings)
	if (f.FloorID != "" && s.seesFloor(ctx, f.Account, sc, f.FloorID) != nil) || (f.RoomID != "" && s.seesRoom(ctx, f.Account, sc, f.RoomID) != nil) ||
		!sc.Sees(f.BuildingID) && f.BuildingID != "" {
		return m, nil // no choice of places outside the scope
	}
	switch {
	case f.BuildingID != "":
		m.Floors, _ = s.store.Floors(ctx, f.Account, f.BuildingID)
	case f.FloorID != "":
		if fl, err := s.store.Floor(ctx, f.Account, f.FloorID); err == nil {
			m.Floors = []domain.Floor{fl}
		}
	}
	switch {
	case f.FloorID != "":
		m.Rooms, _ = s.store.Rooms(ctx, f.Account, f.FloorID)
	case f.RoomID != "":
		if r, err := s.store.Room(ctx, f.Account, f.RoomID); err == nil {
			m.Rooms = []domain.Room{r}
		}
	}
	return m, nil
}

// AllAlerts reads every alert of a query of the buildings the scope sees,
// for the export.
func (s *Service) AllAlerts(ctx context.Context, sc domain.BuildingScope, q AlertsQuery) (Located, error) {
	q.Buildings = sc.IDs()
	var alerts []domain.Alert
	var err error
	if q.forecasts() {
		alerts, _, _, err = s.alertsByForecast(ctx, q, 0)
	} else {
		alerts, err = s.store.FindAlerts(ctx, q.AlertFilter)
	}
	if err != nil {
		return Located{}, err
	}
	l, err := s.locate(ctx, q.Account, alerts)
	if err != nil || !q.RunsOutBy.IsZero() {
		return l, err
	}
	visitors, places, err := s.visitorAlerts(ctx, sc, q.AlertFilter)
	return withVisitorAlerts(l, visitors, places, 0), err
}

// alertsByForecast reads the open alerts of the query's filter, keeps
// those whose dispenser runs out by RunsOutBy, and orders them by when it
// runs out if asked; with their estimates by alert id, and how many
// alerts the query has in all. Open alerts are few, so all of them are
// read; when the filter takes closed ones too, they follow the open ones
// in the cache's order, at most limit of them (0 for all).
func (s *Service) alertsByForecast(ctx context.Context, q AlertsQuery, limit int) ([]domain.Alert, map[string]forecast.Estimate, int, error) {
	open := q.AlertFilter
	open.Status, open.Limit = domain.AlertOpen, 0
	alerts, err := s.store.FindAlerts(ctx, open)
	if err != nil {
		return nil, nil, 0, err
	}
	runsOut, err := s.alertsRunOut(ctx, q.AlertFilter, alerts)
	if err != nil {
		return nil, nil, 0, err
	}
	if !q.RunsOutBy.IsZero() {
		alerts = slices.DeleteFunc(alerts, func(a domain.Alert) bool {
			e, ok := runsOut[a.ID]
			return !ok || e.Basis == forecast.ReportedOut || e.At.After(q.RunsOutBy)
		})
	}
	if q.BySoonestOut {
		slices.SortStableFunc(alerts, func(a, b domain.Alert) int {
			ea, aOK := runsOut[a.ID]
			eb, bOK := runsOut[b.ID]
			return soonestOut(ea.At, aOK, eb.At, bOK)
		})
	}
	if q.Status != "" || !q.RunsOutBy.IsZero() {
		return alerts, runsOut, len(alerts), nil
	}
	// The closed ones, by the filter's own dates: read with the open ones,
	// which are left out.
	all := q.AlertFilter
	if limit > 0 {
		all.Limit = limit + len(alerts)
	}
	rest, err := s.store.FindAlerts(ctx, all)
	if err != nil {
		return nil, nil, 0, err
	}
	total, err := s.store.CountAlerts(ctx, q.AlertFilter)
	if err != nil {
		return nil, nil, 0, err
	}
	return append(alerts, slices.DeleteFunc(rest, domain.Alert.Open)...), runsOut, total, nil
}

// alertsRunOut says when the dispenser of each open alert about its
// supplies (product or batteries) will run out, or went out: the soonest
// of the devices the alert names, or of its location's when it names
// none. Other alerts, and those without an estimate, are left out.
func (s *Service) alertsRunOut(ctx context.Context, f AlertFilter, alerts []domain.Alert) (map[string]forecast.Estimate, error) {
	if s.forecast == nil {
		return nil, nil
	}
	estimates := s.forecast.Estimates(f.Account)
	if len(estimates) == 0 {
		return nil, nil
	}
	var atLocation map[string][]string // MACs by location, read if needed
	out := map[string]forecast.Estimate{}
	for _, a := range alerts {
		if !a.Open() || !a.Type.Supplies() {
			continue
		}
		macs := a.MACs
		if len(macs) == 0 {
			if atLocation == nil {
				devices, err := s.store.FindDevices(ctx, store.DeviceFilter{Account: f.Account, Buildings: f.Buildings, BuildingID: f.BuildingID,
					FloorID: f.FloorID, RoomID: f.RoomID, LocationID: f.LocationID})
				if err != nil {
					return nil, err
				}
				atLocation = map[string][]string{}
				for _, d := range devices {
					atLocation[d.LocationID] = append(atLocation[d.LocationID], d.MAC)
				}
			}
			macs = atLocation[a.LocationID]
		}
		for _, mac := range macs {
			e, ok := estimates[mac]
			if cur, seen := out[a.ID]; ok && (!seen || e.At.Before(cur.At)) {
				out[a.ID] = e
			}
		}
	}
	return out, nil
}

// Refill kinds besides the device types' products.
const RefillBattery = "battery"

// RefillItem is how many of one thing a floor needs: a device type's
// product, or RefillBattery sets.
type RefillItem struct {
	Kind  string
	Count int
}

// FloorRefill is what a floor's open consumable_out and battery_out alerts
// ask staff to bring, products in the device types' order, then
// batteries.
type FloorRefill struct {
	Building, Floor string
	Items           []RefillItem
}

func (s *Service) refills(ctx context.Context, f AlertFilter) ([]FloorRefill, error) {
	totals, err := s.store.RefillTotals(ctx, f)
	if err != nil {
		return nil, err
	}
	type floorKey struct{ building, floor string }
	counts := map[floorKey]map[string]int{}
	var order []floorKey
	for _, t := range totals {
		k := floorKey{t.Building, t.Floor}
		if counts[k] == nil {
			counts[k] = map[string]int{}
			order = append(order, k)
		}
		counts[k][t.Kind] += t.Count
	}
	kinds := []string{string(domain.Tissue), string(domain.Towel), string(domain.Soap), string(domain.Sanitizer), RefillBattery}
	out := make([]FloorRefill, 0, len(order))
	for _, k := range order {
		r := FloorRefill{Building: k.building, Floor: k.floor}
		for _, kind := range kinds {
			if n := counts[k][kind]; n > 0 {
				r.Items = append(r.Items, RefillItem{Kind: kind, Count: n})
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// claimsOf keeps the claims of the alerts: who is on those listed, and no
// others.
func claimsOf(claims map[string]domain.Claim, alerts []domain.Alert) map[string]domain.Claim {
	out := make(map[string]domain.Claim, min(len(claims), len(alerts)))
	for _, a := range alerts {
		if c, ok := claims[a.ID]; ok {
			out[a.ID] = c
		}
	}
	return out
}
