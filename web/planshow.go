package web

import (
	"maps"
	"slices"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/report"
	"washboard/views"
)

// printPlan is a floor's plan for a printed page, named by where it is,
// with its rooms' shapes; the caller adds the marks, which key says.
func printPlan(c echo.Context, p dashboard.PrintedPlan, where, key string) *views.PrintPlan {
	plan := p.Plan
	out := &views.PrintPlan{FloorID: plan.FloorID, Width: plan.Width, Height: plan.Height,
		ImageHref: views.PlanImageHref(plan.FloorID, plan.Updated.UnixMilli()),
		Heading:   tr(c, "planshow.plan_of", "place", where), Key: key}
	for _, id := range slices.Sorted(maps.Keys(plan.Placements.Rooms)) {
		out.Rooms = append(out.Rooms, views.PlanRoom{Shape: plan.Placements.Rooms[id]})
	}
	return out
}

// reportPlans are the plans of the floors with alerts open at the end of
// a shift report's period, in the order the rows name them, each open
// alert's location numbered on its floor's plan with its count of alerts.
func (s *Server) reportPlans(c echo.Context, account string, open []report.AlertRow) ([]views.PrintPlan, error) {
	type spot struct {
		place  report.Place
		alerts int
	}
	var floors []string
	byFloor := map[string][]*spot{}
	byLocation := map[string]*spot{}
	for _, row := range open {
		p := row.Place
		if p.FloorID == "" {
			continue
		}
		if sp, ok := byLocation[p.LocationID]; ok {
			sp.alerts++
			continue
		}
		if _, ok := byFloor[p.FloorID]; !ok {
			floors = append(floors, p.FloorID)
		}
		sp := &spot{place: p, alerts: 1}
		byLocation[p.LocationID] = sp
		byFloor[p.FloorID] = append(byFloor[p.FloorID], sp)
	}
	plans, err := s.dash.PrintedPlans(c.Request().Context(), account, s.scopeOf(c), floors)
	if err != nil || len(plans) == 0 {
		return nil, err
	}
	var out []views.PrintPlan
	for _, f := range floors {
		plan, ok := plans[f]
		if !ok {
			continue
		}
		first := byFloor[f][0].place
		pp := printPlan(c, plan, first.Building+" › "+first.Floor, tr(c, "planshow.report_key"))
		pp.ListMarks = true
		for _, sp := range byFloor[f] {
			at, ok := plan.Plan.Placements.Locations[sp.place.LocationID]
			if !ok {
				continue
			}
			pp.Marks = append(pp.Marks, views.PrintMark{Number: len(pp.Marks) + 1, At: at,
				Words: tr(c, "planshow.report_mark", "place", sp.place.Room+" › "+sp.place.Location, "alerts", trn(c, "format.open_alerts", sp.alerts))})
		}
		out = append(out, *pp)
	}
	return out, nil
}

// showScreenPlanImage serves a wall screen the image of a floor plan it
// shows, with the headers of the plans' images.
func (s *Server) showScreenPlanImage(c echo.Context) error {
	sc := c.Get(ctxScreen).(screenCtx)
	if !sc.stopped.IsZero() || sc.screen.Portfolio() {
		return errNoScreen(c)
	}
	contentType, body, err := s.dash.ScreenPlanImage(c.Request().Context(), sc.screen, c.Param("floor"))
	if err != nil {
		return err
	}
	return servePlanImage(c, contentType, body)
}
