package dashboard

import (
	"context"
	"errors"

	"washboard/internal/domain"
)

// Floor plans on wall screens (docs/wall-screens.md): a screen shows one
// floor's plan, or those of the floors of its place with something to
// do, in turn; each with a mark per placed location of the floor.

// ScreenPlan is a floor's plan as a wall screen shows it.
type ScreenPlan struct {
	Building, Floor string
	Plan            domain.FloorPlan
	Marks           []ScreenMark
}

// ScreenMark is a placed location on a screen's plan: its health and its
// open and overdue alerts.
type ScreenMark struct {
	LocationID, Name string
	At               domain.PlanPoint
	Health           domain.Health
	Open, Overdue    int
}

// screenPlans reads the plans a screen shows from the cards of its place:
// its chosen floor's, or with domain.ScreenPlansBusy those of the floors
// where a location is not fine, in the layout's order. A floor without a
// plan, or beyond the screen's place, shows none.
func (s *Service) screenPlans(ctx context.Context, sc domain.Screen, cards []Card, p Places) ([]ScreenPlan, error) {
	if sc.Plans == "" {
		return nil, nil
	}
	byFloor := map[string][]Card{}
	var floors []string
	for _, c := range cards {
		f := p.Rooms[c.Location.RoomID].FloorID
		if _, ok := byFloor[f]; !ok {
			floors = append(floors, f)
		}
		byFloor[f] = append(byFloor[f], c)
	}
	var show []string
	if sc.Plans == domain.ScreenPlansBusy {
		for _, f := range floors {
			for _, c := range byFloor[f] {
				if c.Health != domain.HealthOK || len(c.Alerts) > 0 {
					show = append(show, f)
					break
				}
			}
		}
	} else if _, ok := byFloor[sc.Plans]; ok {
		show = []string{sc.Plans}
	}
	var out []ScreenPlan
	for _, f := range show {
		plan, err := s.store.FloorPlan(ctx, sc.Account, f)
		if errors.Is(err, domain.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		fl := p.Floors[f]
		sp := ScreenPlan{Building: p.Buildings[fl.BuildingID].Name, Floor: fl.Name, Plan: plan}
		for _, c := range byFloor[f] {
			at, ok := plan.Placements.Locations[c.Location.ID]
			if !ok {
				continue
			}
			m := ScreenMark{LocationID: c.Location.ID, Name: c.Location.Name, At: at, Health: c.Health, Open: len(c.Alerts)}
			for _, a := range c.Alerts {
				if a.Overdue {
					m.Overdue++
				}
			}
			sp.Marks = append(sp.Marks, m)
		}
		out = append(out, sp)
	}
	return out, nil
}

// ScreenPlanImage reads the image of a floor's plan for a screen that
// shows it (domain.ErrNotFound for any other floor).
func (s *Service) ScreenPlanImage(ctx context.Context, sc domain.Screen, floor string) (string, []byte, error) {
	v, err := s.ScreenView(ctx, sc)
	if err != nil {
		return "", nil, err
	}
	for _, p := range v.Plans {
		if p.Plan.FloorID == floor {
			return s.store.FloorPlanImage(ctx, sc.Account, floor)
		}
	}
	return "", nil, notSeen("plan of floor", floor)
}
