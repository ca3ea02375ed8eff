package dashboard

import (
	"context"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// AlertFilter picks alerts by place, type, status, resolution and dates.
type AlertFilter = store.AlertFilter

// AlertsPage is the alerts page: at most a page of the alerts of a
// filter, how many there are in all, what the open ones ask staff to
// bring, and the places the filter can choose from.
type AlertsPage struct {
	Total   int
	Alerts  Located
	Refills []FloorRefill // nil for closed alerts
	// Claims are who is on the open alerts, by alert id.
	Claims map[string]domain.Claim
	// Buildings are the account's; Floors those of the chosen building (or
	// the chosen floor alone); Rooms those of the chosen floor (or the
	// chosen room alone).
	Buildings []domain.Building
	Floors    []domain.Floor
	Rooms     []domain.Room
}

// Alerts reads the alerts page of a filter, with at most limit alerts.
func (s *Service) Alerts(ctx context.Context, f AlertFilter, limit int) (AlertsPage, error) {
	var m AlertsPage
	var err error
	if m.Total, err = s.store.CountAlerts(ctx, f); err != nil {
		return m, err
	}
	page := f
	page.Limit = limit
	alerts, err := s.store.FindAlerts(ctx, page)
	if err != nil {
		return m, err
	}
	if m.Alerts, err = s.locate(ctx, f.Account, alerts); err != nil {
		return m, err
	}
	if f.Status != domain.AlertClosed {
		if m.Refills, err = s.refills(ctx, f); err != nil {
			return m, err
		}
		if m.Claims, err = s.store.ActiveClaims(ctx, f.Account); err != nil {
			return m, err
		}
	}
	if m.Buildings, err = s.store.Buildings(ctx, f.Account); err != nil {
		return m, err
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

// AllAlerts reads every alert of a filter, for the export.
func (s *Service) AllAlerts(ctx context.Context, f AlertFilter) (Located, error) {
	alerts, err := s.store.FindAlerts(ctx, f)
	if err != nil {
		return Located{}, err
	}
	return s.locate(ctx, f.Account, alerts)
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
