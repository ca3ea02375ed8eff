package dashboard

import (
	"context"
	"errors"
	"time"

	"washboard/internal/domain"
	"washboard/internal/rounds"
)

// Floor plans (docs/floor-plans.md): a person sees, puts, places on and
// removes the plans of the floors of the buildings they see.

// floorPlanStore keeps the floors' plans.
type floorPlanStore interface {
	PutFloorPlan(ctx context.Context, account string, p domain.FloorPlan, body []byte) (domain.FloorPlan, error)
	FloorPlan(ctx context.Context, account, floor string) (domain.FloorPlan, error)
	FloorPlanImage(ctx context.Context, account, floor string) (contentType string, body []byte, err error)
	SavePlacements(ctx context.Context, account, floor string, p domain.Placements, by string, at time.Time) error
	RemoveFloorPlan(ctx context.Context, account, floor string) error
}

// FloorPlan is a floor with its rooms and locations, and its plan if it
// has one.
type FloorPlan struct {
	Building  domain.Building
	Floor     domain.Floor
	Rooms     []domain.Room
	Locations []domain.Location
	Plan      domain.FloorPlan
	HasPlan   bool
}

// FloorPlan reads a floor's plan, its rooms and its locations
// (domain.ErrNotFound for a floor of a building the scope does not see).
func (s *Service) FloorPlan(ctx context.Context, account string, sc domain.BuildingScope, floor string) (FloorPlan, error) {
	f, err := s.seenFloor(ctx, account, sc, floor)
	if err != nil {
		return FloorPlan{}, err
	}
	m := FloorPlan{Floor: f}
	if m.Building, err = s.store.Building(ctx, account, f.BuildingID); err != nil {
		return m, err
	}
	if m.Rooms, err = s.store.Rooms(ctx, account, f.ID); err != nil {
		return m, err
	}
	if m.Locations, err = s.store.LocationsIn(ctx, account, "", f.ID, ""); err != nil {
		return m, err
	}
	m.Plan, err = s.store.FloorPlan(ctx, account, f.ID)
	switch {
	case errors.Is(err, domain.ErrNotFound):
		m.Plan = domain.FloorPlan{FloorID: f.ID}
		return m, nil
	case err != nil:
		return m, err
	}
	m.HasPlan = true
	m.Plan.Placements = m.placed(m.Plan.Placements)
	return m, nil
}

// placed keeps the placements of the floor's rooms and locations: one
// that moved to another floor, or went, is no longer on the plan.
func (m FloorPlan) placed(p domain.Placements) domain.Placements {
	out := domain.Placements{Locations: map[string]domain.PlanPoint{}, Rooms: map[string][]domain.PlanPoint{}}
	for _, l := range m.Locations {
		if pt, ok := p.Locations[l.ID]; ok {
			out.Locations[l.ID] = pt
		}
	}
	for _, r := range m.Rooms {
		if shape, ok := p.Rooms[r.ID]; ok {
			out.Rooms[r.ID] = shape
		}
	}
	return out
}

// PutFloorPlan keeps the plan of a floor the scope sees, with its image
// as accepted, put by a person now.
func (s *Service) PutFloorPlan(ctx context.Context, account string, sc domain.BuildingScope, p domain.FloorPlan, body []byte) (domain.FloorPlan, error) {
	if _, err := s.seenFloor(ctx, account, sc, p.FloorID); err != nil {
		return p, err
	}
	p.Updated = s.clock.Now()
	kept, err := s.store.PutFloorPlan(ctx, account, p, body)
	if err == nil {
		s.planChanged(account)
	}
	return kept, err
}

// planChanged tells the account's pages that a plan changed: the floor's
// page, open or kept, shows it anew.
func (s *Service) planChanged(account string) {
	s.sync.Changed(account, domain.ResourceMetadata)
}

// FloorPlanImage reads the image of the plan of a floor the scope sees,
// and its content type.
func (s *Service) FloorPlanImage(ctx context.Context, account string, sc domain.BuildingScope, floor string) (string, []byte, error) {
	if _, err := s.seenFloor(ctx, account, sc, floor); err != nil {
		return "", nil, err
	}
	return s.store.FloorPlanImage(ctx, account, floor)
}

// SavePlacements replaces the placements on the plan of a floor the
// scope sees, placed by a person now. Placements of what is not on the
// floor, beyond the plan's edges or of rooms of too few or many corners
// are refused with a *domain.PlacementError.
func (s *Service) SavePlacements(ctx context.Context, account string, sc domain.BuildingScope, floor string, p domain.Placements, by string) error {
	m, err := s.FloorPlan(ctx, account, sc, floor)
	if err != nil {
		return err
	}
	if !m.HasPlan {
		return notSeen("plan of floor", floor)
	}
	locations, rooms := make([]string, len(m.Locations)), make([]string, len(m.Rooms))
	for i, l := range m.Locations {
		locations[i] = l.ID
	}
	for i, r := range m.Rooms {
		rooms[i] = r.ID
	}
	if err := p.Check(m.Plan.Width, m.Plan.Height, locations, rooms); err != nil {
		return err
	}
	if err := s.store.SavePlacements(ctx, account, floor, p, by, s.clock.Now()); err != nil {
		return err
	}
	s.planChanged(account)
	return nil
}

// RemoveFloorPlan removes the plan of a floor the scope sees, with its
// placements.
func (s *Service) RemoveFloorPlan(ctx context.Context, account string, sc domain.BuildingScope, floor string) error {
	if _, err := s.seenFloor(ctx, account, sc, floor); err != nil {
		return err
	}
	if err := s.store.RemoveFloorPlan(ctx, account, floor); err != nil {
		return err
	}
	s.planChanged(account)
	return nil
}

// seenFloor reads a floor of a building the scope sees.
func (s *Service) seenFloor(ctx context.Context, account string, sc domain.BuildingScope, id string) (domain.Floor, error) {
	f, err := s.store.Floor(ctx, account, id)
	if err != nil {
		return f, err
	}
	if !sc.Sees(f.BuildingID) {
		return domain.Floor{}, notSeen("floor", id)
	}
	return f, nil
}

// PrintedPlan is a floor's plan as a printed page shows it: the plan and
// where each room of the floor is on it (rounds.RoomSpot: its shape's
// centre, else its placed locations' centre).
type PrintedPlan struct {
	Plan  domain.FloorPlan
	Spots map[string]domain.PlanPoint // by room
}

// printedPlans reads the plans of the floors that have one among floors,
// by floor, with their rooms' spots.
func (s *Service) printedPlans(ctx context.Context, account string, floors []string) (map[string]PrintedPlan, error) {
	out := map[string]PrintedPlan{}
	seen := map[string]bool{}
	for _, f := range floors {
		if seen[f] {
			continue
		}
		seen[f] = true
		plan, err := s.store.FloorPlan(ctx, account, f)
		if errors.Is(err, domain.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		rooms, err := s.store.Rooms(ctx, account, f)
		if err != nil {
			return nil, err
		}
		locs, err := s.store.LocationsIn(ctx, account, "", f, "")
		if err != nil {
			return nil, err
		}
		markers := map[string][]domain.PlanPoint{}
		for _, l := range locs {
			if pt, ok := plan.Placements.Locations[l.ID]; ok {
				markers[l.RoomID] = append(markers[l.RoomID], pt)
			}
		}
		p := PrintedPlan{Plan: plan, Spots: map[string]domain.PlanPoint{}}
		for _, r := range rooms {
			if pt, ok := rounds.RoomSpot(plan.Placements.Rooms[r.ID], markers[r.ID]); ok {
				p.Spots[r.ID] = pt
			}
		}
		out[f] = p
	}
	return out, nil
}

// PrintedPlans reads the plans of those of floors that have one, of the
// buildings the scope sees, by floor, with their rooms' spots; a floor
// the scope does not see, or without a plan, is left out.
func (s *Service) PrintedPlans(ctx context.Context, account string, sc domain.BuildingScope, floors []string) (map[string]PrintedPlan, error) {
	var seen []string
	for _, f := range floors {
		if _, err := s.seenFloor(ctx, account, sc, f); err == nil {
			seen = append(seen, f)
		} else if !errors.Is(err, domain.ErrNotFound) {
			return nil, err
		}
	}
	return s.printedPlans(ctx, account, seen)
}
