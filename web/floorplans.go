package web

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/floorplan"
	"washboard/internal/i18n"
	"washboard/views"
)

// Floor plans (docs/floor-plans.md): /floors/{id}/plan uploads, replaces
// and removes a floor's plan, and places the floor's locations and rooms
// on it; /floors/{id}/plan/image serves the plan as it was kept.

// PlanAccepter makes an uploaded plan safe to keep and serve: it returns
// the bytes to keep, their content type and the plan's size in pixels, or
// an error that says in words why the file was refused. What the file is
// comes from its content, never from its name or the type the browser
// said.
type PlanAccepter func(ctx context.Context, r io.Reader) (body []byte, contentType string, width, height int, err error)

// keyFloorPlanFlash is the session's value of the message the plan's
// page shows once, after a change.
const keyFloorPlanFlash = "floor_plan_flash"

// maxPlanBody is the largest request to upload a plan: a plan a little
// over the bound is read, so that the page can say what the bound is.
const maxPlanBody = domain.MaxPlanBytes + 1<<20

// maxPlacementsBody is the largest request to save placements: a floor's
// hundreds of locations and rooms of many corners, as JSON.
const maxPlacementsBody = 1 << 20

// isPlacements says whether path is where placements are saved.
func isPlacements(path string) bool {
	return strings.HasPrefix(path, "/floors/") && strings.HasSuffix(path, "/plan/placements") && strings.Count(path, "/") == 4
}

// isPlanUpload says whether path is where plans are uploaded.
func isPlanUpload(path string) bool {
	return strings.HasPrefix(path, "/floors/") && strings.HasSuffix(path, "/plan") && strings.Count(path, "/") == 3
}

// showFloorPlan shows a floor's plan with what is placed on it, the forms
// to upload, replace and remove it, and the placing.
func (s *Server) showFloorPlan(c echo.Context) error {
	fp, err := s.dash.FloorPlan(c.Request().Context(), sessionOf(c).Account, s.scopeOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	m := s.floorPlanModel(c, fp)
	m.Flash = s.sessions.PopString(c.Request().Context(), keyFloorPlanFlash)
	return render(c, http.StatusOK, views.FloorPlanView(m))
}

func (s *Server) floorPlanModel(c echo.Context, fp dashboard.FloorPlan) views.FloorPlanPage {
	f, b := fp.Floor, fp.Building
	m := views.FloorPlanPage{Page: s.page(c, tr(c, "plan.title", "floor", f.Name, "building", b.Name), ""),
		FloorID: f.ID, Floor: f.Name, Building: b.Name, Plan: fp.Plan, HasPlan: fp.HasPlan, Rooms: fp.Rooms, Locations: fp.Locations}
	m.Crumbs = []views.Crumb{{Label: tr(c, "nav.overview"), Href: "/"}, {Label: b.Name, Href: "/buildings/" + b.ID},
		{Label: f.Name, Href: "/floors/" + f.ID}, {Label: tr(c, "plan.crumb")}}
	return m
}

// refuseFloorPlan shows the plan's page again, saying why a change was
// refused.
func (s *Server) refuseFloorPlan(c echo.Context, fp dashboard.FloorPlan, why string) error {
	m := s.floorPlanModel(c, fp)
	m.Flash, m.FlashFailed = why, true
	return render(c, http.StatusUnprocessableEntity, views.FloorPlanView(m))
}

// putFloorPlan uploads a floor's plan, or replaces it.
func (s *Server) putFloorPlan(c echo.Context) error {
	ss, ctx, sc := sessionOf(c), c.Request().Context(), s.scopeOf(c)
	fp, err := s.dash.FloorPlan(ctx, ss.Account, sc, c.Param("id"))
	if err != nil {
		return err
	}
	fh, err := c.FormFile("plan")
	if err != nil {
		return s.refuseFloorPlan(c, fp, tr(c, "plan.no_file"))
	}
	f, err := fh.Open()
	if err != nil {
		return s.refuseFloorPlan(c, fp, tr(c, "plan.no_file"))
	}
	defer f.Close()
	body, contentType, w, h, err := s.acceptPlan(ctx, f)
	if err != nil {
		return s.refuseFloorPlan(c, fp, s.planRefusalWords(c, err))
	}
	kept, err := s.dash.PutFloorPlan(ctx, ss.Account, sc, domain.FloorPlan{FloorID: fp.Floor.ID, ContentType: contentType,
		Width: w, Height: h, UpdatedBy: ss.PersonID}, body)
	if errors.Is(err, domain.ErrLimit) {
		return s.refuseFloorPlan(c, fp, tr(c, "plan.too_large"))
	}
	if err != nil {
		return err
	}
	s.logOf(c).Info("floor plan kept", "floor", fp.Floor.ID, "bytes", len(body), "width", w, "height", h)
	msg := tr(c, "plan.flash_kept")
	if kept.Review {
		msg = tr(c, "plan.flash_review")
	}
	return s.flashTo(c, keyFloorPlanFlash, msg, "/floors/"+fp.Floor.ID+"/plan")
}

// removeFloorPlan removes a floor's plan and what was placed on it.
func (s *Server) removeFloorPlan(c echo.Context) error {
	ss, id := sessionOf(c), c.Param("id")
	if err := s.dash.RemoveFloorPlan(c.Request().Context(), ss.Account, s.scopeOf(c), id); err != nil {
		return err
	}
	s.logOf(c).Info("floor plan removed", "floor", id)
	return s.flashTo(c, keyFloorPlanFlash, tr(c, "plan.flash_removed"), "/floors/"+id+"/plan")
}

// placementsForm is the placements as the page sends them, in its field
// "placements": {"locations": {id: [x, y]}, "rooms": {id: [[x, y], …]}}.
type placementsForm struct {
	Locations map[string][2]int   `json:"locations"`
	Rooms     map[string][][2]int `json:"rooms"`
}

// savePlacements saves where the floor's locations and rooms are on its
// plan.
func (s *Server) savePlacements(c echo.Context) error {
	ss, ctx, sc := sessionOf(c), c.Request().Context(), s.scopeOf(c)
	fp, err := s.dash.FloorPlan(ctx, ss.Account, sc, c.Param("id"))
	if err != nil {
		return err
	}
	if !fp.HasPlan {
		return s.refuseFloorPlan(c, fp, tr(c, "plan.no_plan_to_place"))
	}
	p, ok := readPlacements(c.FormValue("placements"))
	if !ok {
		return s.refuseFloorPlan(c, fp, tr(c, "plan.placements_unreadable"))
	}
	err = s.dash.SavePlacements(ctx, ss.Account, sc, fp.Floor.ID, p, ss.PersonID)
	if pe := (*domain.PlacementError)(nil); errors.As(err, &pe) {
		return s.refuseFloorPlan(c, fp, s.placementWords(c, fp, pe))
	}
	if err != nil {
		return err
	}
	return s.flashTo(c, keyFloorPlanFlash, tr(c, "plan.flash_placed"), "/floors/"+fp.Floor.ID+"/plan")
}

// readPlacements reads the placements the page sent as JSON; false when
// they are not JSON of that form. The JSON is as long as the body may be.
func readPlacements(text string) (domain.Placements, bool) {
	var in placementsForm
	d := json.NewDecoder(strings.NewReader(text))
	d.DisallowUnknownFields()
	if err := d.Decode(&in); err != nil || d.More() {
		return domain.Placements{}, false
	}
	p := domain.Placements{Locations: make(map[string]domain.PlanPoint, len(in.Locations)), Rooms: make(map[string][]domain.PlanPoint, len(in.Rooms))}
	for id, xy := range in.Locations {
		p.Locations[id] = domain.PlanPoint{X: xy[0], Y: xy[1]}
	}
	for id, shape := range in.Rooms {
		pts := make([]domain.PlanPoint, len(shape))
		for i, xy := range shape {
			pts[i] = domain.PlanPoint{X: xy[0], Y: xy[1]}
		}
		p.Rooms[id] = pts
	}
	return p, true
}

// placementWords says what is wrong with a placement, naming the location
// or room by its name where the floor has it.
func (s *Server) placementWords(c echo.Context, fp dashboard.FloorPlan, pe *domain.PlacementError) string {
	name := clipQuoted(pe.ID)
	for _, l := range fp.Locations {
		if l.ID == pe.ID {
			name = l.Name
		}
	}
	for _, r := range fp.Rooms {
		if r.ID == pe.ID {
			name = r.Name
		}
	}
	switch pe.Problem {
	case domain.UnknownLocation:
		return tr(c, "plan.unknown_location", "id", name)
	case domain.UnknownRoom:
		return tr(c, "plan.unknown_room", "id", name)
	case domain.OutsidePlan:
		return tr(c, "plan.outside", "name", name, "width", i18n.From(c.Request().Context()).Number(fp.Plan.Width), "height", i18n.From(c.Request().Context()).Number(fp.Plan.Height))
	case domain.TooFewPoints:
		return tr(c, "plan.too_few_points", "name", name)
	default:
		return tr(c, "plan.too_many_points", "name", name, "max", i18n.From(c.Request().Context()).Number(domain.MaxRoomPoints))
	}
}

// showFloorPlanImage serves a floor's plan as it was kept, with its own
// content type, and a policy that lets it run nothing and fetch nothing.
func (s *Server) showFloorPlanImage(c echo.Context) error {
	contentType, body, err := s.dash.FloorPlanImage(c.Request().Context(), sessionOf(c).Account, s.scopeOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	return servePlanImage(c, contentType, body)
}

// servePlanImage answers with a plan's image, under a policy that runs no
// script and a type browsers do not sniff.
func servePlanImage(c echo.Context, contentType string, body []byte) error {
	h := c.Response().Header()
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set(echo.HeaderContentLength, strconv.Itoa(len(body)))
	return c.Blob(http.StatusOK, contentType, body)
}

// planRefusalWords says why a plan was refused, in the page's language:
// the accepter's own words (internal/floorplan), or for a server that
// cannot draw PDFs, how to put that right.
func (s *Server) planRefusalWords(c echo.Context, err error) string {
	l := i18n.From(c.Request().Context())
	var refused *floorplan.Error
	if errors.As(err, &refused) {
		return refused.MsgIn(l)
	}
	var tool *floorplan.ToolError
	if errors.As(err, &tool) {
		s.logOf(c).Error("floor plan not drawn", "err", err)
		return tool.MsgIn(l)
	}
	return tr(c, "plan.refused", "why", err.Error())
}

// acceptPlanWith is the accepter that checks uploads with checker: an SVG
// sanitised by an allow-list, a PNG or JPEG decoded and encoded again, a
// PDF's one page drawn as a PNG (docs/floor-plans.md).
func acceptPlanWith(checker *floorplan.Checker) PlanAccepter {
	return func(ctx context.Context, r io.Reader) ([]byte, string, int, int, error) {
		p, err := checker.Accept(ctx, r)
		if err != nil {
			return nil, "", 0, 0, err
		}
		return p.Data, p.ContentType(), p.Width, p.Height, nil
	}
}

// placePlan is a floor's plan as its page shows it, with a marker for
// each placed location among the page's cards (those its filter keeps);
// nil when the floor has no plan.
func placePlan(pl dashboard.Place, sections []views.RoomSection) *views.PlacePlan {
	if !pl.HasPlan {
		return nil
	}
	f, plan := pl.Floor, pl.Plan
	p := &views.PlacePlan{FloorID: f.ID, Width: plan.Width, Height: plan.Height, EditHref: "/floors/" + f.ID + "/plan",
		// The plan's time in its address: a new plan is a new image.
		ImageHref: "/floors/" + f.ID + "/plan/image?v=" + strconv.FormatInt(plan.Updated.UnixMilli(), 36)}
	for _, rc := range pl.Rooms {
		if shape, ok := plan.Placements.Rooms[rc.Room.ID]; ok {
			p.Rooms = append(p.Rooms, views.PlanRoom{Name: rc.Room.Name, Shape: shape})
		}
	}
	for _, s := range sections {
		for _, c := range s.Cards {
			at, ok := plan.Placements.Locations[c.LocationID]
			if !ok {
				continue
			}
			m := views.PlanMarker{LocationID: c.LocationID, Name: c.Name, Href: c.Href, At: at, Health: c.Health}
			for _, a := range c.Alerts {
				m.Open++
				if a.Overdue {
					m.Overdue++
				}
				if a.Claim != nil {
					m.Claimed++
				}
			}
			// What runs out soonest of the location's dispensers.
			var soonest time.Time
			for _, d := range c.Devices {
				if d.RunsOut != "" && (m.RunsOut == "" || d.RunsOutAt.Before(soonest)) {
					m.RunsOut, soonest = d.RunsOut, d.RunsOutAt
				}
			}
			p.Markers = append(p.Markers, m)
		}
	}
	return p
}
