package dashboard

import (
	"context"
	"fmt"
	"hash/fnv"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// A person whose role is limited to some buildings reads through a
// domain.BuildingScope: every read of the service takes one, and keeps to
// it. An id of a place, alert or screen outside it answers as an unknown
// id does (domain.ErrNotFound, or ErrNoOpenAlert for an alert), so that
// nothing tells the two apart.

// notSeen is the error of an id outside the scope: the store's own for
// an id it does not hold.
func notSeen(what, id string) error { return fmt.Errorf("%s %q: %w", what, id, domain.ErrNotFound) }

// seen keeps the buildings the scope holds, in their order.
func seen(sc domain.BuildingScope, bs []domain.Building) []domain.Building {
	if !sc.Limited() {
		return bs
	}
	out := make([]domain.Building, 0, len(bs))
	for _, b := range bs {
		if sc.Sees(b.ID) {
			out = append(out, b)
		}
	}
	return out
}

// seesLocation is nil when the account's location of the id is in one of
// the scope's buildings, or the scope holds every building.
func (s *Service) seesLocation(ctx context.Context, account string, sc domain.BuildingScope, id string) error {
	if !sc.Limited() {
		return nil
	}
	paths, err := s.store.Paths(ctx, account, []string{id})
	if err != nil {
		return err
	}
	if p, ok := paths[id]; !ok || !sc.Sees(p.Building.ID) {
		return notSeen("location", id)
	}
	return nil
}

// seesFloor is nil when the account's floor of the id is in one of the
// scope's buildings.
func (s *Service) seesFloor(ctx context.Context, account string, sc domain.BuildingScope, id string) error {
	if !sc.Limited() {
		return nil
	}
	f, err := s.store.Floor(ctx, account, id)
	if err != nil {
		return err
	}
	if !sc.Sees(f.BuildingID) {
		return notSeen("floor", id)
	}
	return nil
}

// seesRoom is nil when the account's room of the id is in one of the
// scope's buildings.
func (s *Service) seesRoom(ctx context.Context, account string, sc domain.BuildingScope, id string) error {
	if !sc.Limited() {
		return nil
	}
	r, err := s.store.Room(ctx, account, id)
	if err != nil {
		return err
	}
	if s.seesFloor(ctx, account, sc, r.FloorID) != nil {
		return notSeen("room", id)
	}
	return nil
}

// seesOpenAlert is nil when the account has an open alert of the id at a
// location of the scope's buildings; ErrNoOpenAlert otherwise, as for an
// alert that is closed or unknown.
func (s *Service) seesOpenAlert(ctx context.Context, account string, sc domain.BuildingScope, id string) error {
	if _, ok := domain.VisitorReportID(id); ok {
		return s.seesVisitorAlert(ctx, account, sc, id, true)
	}
	n, err := s.store.CountAlerts(ctx, store.AlertFilter{Account: account, Buildings: sc.IDs(), AlertID: id, Status: domain.AlertOpen})
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrNoOpenAlert
	}
	return nil
}

// seesAlert answers ErrNoOpenAlert when the scope sees no alert of the
// id, open or closed.
func (s *Service) seesAlert(ctx context.Context, account string, sc domain.BuildingScope, id string) error {
	if _, ok := domain.VisitorReportID(id); ok {
		return s.seesVisitorAlert(ctx, account, sc, id, false)
	}
	n, err := s.store.CountAlerts(ctx, store.AlertFilter{Account: account, Buildings: sc.IDs(), AlertID: id})
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrNoOpenAlert
	}
	return nil
}

// sumOf adds up the buildings' counts: the account's, as a person limited
// to them sees it.
func sumOf(rollups map[string]domain.Rollup, bs []domain.Building) domain.Rollup {
	var sum domain.Rollup
	for _, b := range bs {
		r := rollups[b.ID]
		sum.OK += r.OK
		sum.Attention += r.Attention
		sum.Action += r.Action
		sum.Offline += r.Offline
		sum.OpenAlerts += r.OpenAlerts
		sum.OverdueAlerts += r.OverdueAlerts
	}
	return sum
}

// seesFloorOf is nil when the account has the floor of the id in one of
// the scope's buildings: domain.ErrNotFound otherwise.
func (s *Service) seesFloorOf(ctx context.Context, account string, sc domain.BuildingScope, id string) error {
	if _, err := s.store.Floor(ctx, account, id); err != nil {
		return err
	}
	return s.seesFloor(ctx, account, sc, id)
}

// seesRoomOf is nil when the account has the room of the id in one of
// the scope's buildings: domain.ErrNotFound otherwise.
func (s *Service) seesRoomOf(ctx context.Context, account string, sc domain.BuildingScope, id string) error {
	if _, err := s.store.Room(ctx, account, id); err != nil {
		return err
	}
	return s.seesRoom(ctx, account, sc, id)
}

// cardsSeen keeps the cards of locations in the scope's buildings.
func (s *Service) cardsSeen(ctx context.Context, account string, sc domain.BuildingScope, cards []Card) ([]Card, error) {
	ids := make([]string, len(cards))
	for i, c := range cards {
		ids[i] = c.Location.ID
	}
	paths, err := s.store.Paths(ctx, account, ids)
	if err != nil {
		return nil, err
	}
	kept := cards[:0]
	for _, c := range cards {
		if p, ok := paths[c.Location.ID]; ok && sc.Sees(p.Building.ID) {
			kept = append(kept, c)
		}
	}
	return kept, nil
}

// seen keeps the places of the scope's buildings.
func (p Places) seen(sc domain.BuildingScope) Places {
	out := newPlaces()
	for id, b := range p.Buildings {
		if sc.Sees(id) {
			out.Buildings[id] = b
		}
	}
	for id, f := range p.Floors {
		if sc.Sees(f.BuildingID) {
			out.Floors[id] = f
		}
	}
	for id, r := range p.Rooms {
		if _, ok := out.Floors[r.FloorID]; ok {
			out.Rooms[id] = r
		}
	}
	return out
}

// Seen is a digest of what the scope sees of one of the account's
// resources: its devices, its alerts and who is on them, or its places.
// A person's event stream tells them of a change only when the digest of
// their scope changed, so that a change in another building says nothing.
func (s *Service) Seen(ctx context.Context, account string, sc domain.BuildingScope, res domain.Resource) (uint64, error) {
	h := fnv.New64a()
	switch res {
	case domain.ResourceDevices:
		devices, err := s.store.FindDevices(ctx, store.DeviceFilter{Account: account, Buildings: sc.IDs()})
		if err != nil {
			return 0, err
		}
		fmt.Fprintf(h, "%+v", devices)
	case domain.ResourceAlerts:
		f := store.AlertFilter{Account: account, Buildings: sc.IDs()}
		n, err := s.store.CountAlerts(ctx, f)
		if err != nil {
			return 0, err
		}
		f.Status = domain.AlertOpen
		open, err := s.store.FindAlerts(ctx, f)
		if err != nil {
			return 0, err
		}
		claims, err := s.store.ActiveClaims(ctx, account)
		if err != nil {
			return 0, err
		}
		fmt.Fprintf(h, "%d %+v %+v", n, open, claimsOf(claims, open))
	default:
		p, err := s.allPlaces(ctx, account)
		if err != nil {
			return 0, err
		}
		fmt.Fprintf(h, "%+v", p.seen(sc))
		for _, id := range sc.IDs() {
			locs, err := s.store.LocationsIn(ctx, account, id, "", "")
			if err != nil {
				return 0, err
			}
			fmt.Fprintf(h, "%+v", locs)
		}
	}
	return h.Sum64(), nil
}
