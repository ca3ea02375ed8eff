package web

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/visitors"
	"washboard/views"
	"washboard/web/httpkit"
)

func (s *Server) showBuilding(c echo.Context) error {
	ss, sc, id := sessionOf(c), s.scopeOf(c), c.Param("id")
	return s.servePage(c, "/buildings/"+id, func(ctx context.Context, now time.Time) (*renderedPage, error) {
		m, err := s.building(ctx, ss.Account, sc, id)
		if err != nil {
			return nil, err
		}
		return s.renderPlace(ctx, m)
	})
}

func (s *Server) showFloor(c echo.Context) error {
	ss, sc, id := sessionOf(c), s.scopeOf(c), c.Param("id")
	filter, err := parseDeviceFilter(c)
	if err != nil {
		return err
	}
	self := filter.url("/floors/" + id)
	return s.servePage(c, self, func(ctx context.Context, now time.Time) (*renderedPage, error) {
		m, err := s.floor(ctx, ss.Account, sc, id, filter, now)
		if err != nil {
			return nil, err
		}
		m.Self = self
		if ss.Role >= domain.Supervisor {
			m.CodesHref = "/floors/" + m.ID + "/codes"
		}
		return s.renderPlace(ctx, m)
	})
}

func (s *Server) showRoom(c echo.Context) error {
	ss, sc, id := sessionOf(c), s.scopeOf(c), c.Param("id")
	filter, err := parseDeviceFilter(c)
	if err != nil {
		return err
	}
	self := filter.url("/rooms/" + id)
	return s.servePage(c, self, func(ctx context.Context, now time.Time) (*renderedPage, error) {
		m, err := s.room(ctx, ss.Account, sc, id, filter, now)
		if err != nil {
			return nil, err
		}
		m.Self = self
		return s.renderPlace(ctx, m)
	})
}

// renderPlace renders a place page's live region. Like the overview's,
// the model's Page holds nothing of the client's.
func (s *Server) renderPlace(ctx context.Context, m views.Place) (*renderedPage, error) {
	live, err := renderLive(ctx, views.PlaceContent(m))
	if err != nil {
		return nil, err
	}
	return &renderedPage{title: m.Title, crumbs: m.Crumbs, live: live}, nil
}

func (s *Server) building(ctx context.Context, account string, sc domain.BuildingScope, id string) (views.Place, error) {
	pl, err := s.dash.Building(ctx, account, sc, id)
	if err != nil {
		return views.Place{}, err
	}
	b := pl.Building
	m := views.Place{Page: views.Page{Title: b.Name, Zone: s.cfg.Zone}, Kind: "building", ID: b.ID, Name: b.Name, Rollup: pl.Rollup,
		Self: "/buildings/" + b.ID}
	l := i18n.From(ctx)
	m.Crumbs = []views.Crumb{{Label: l.T("nav.overview"), Href: "/"}, {Label: b.Name}}
	for _, f := range pl.Parts {
		m.Parts = append(m.Parts, placeCard(f, "/floors/"+f.ID, l.N("place.rooms_count", f.Parts)))
	}
	m.CSVHref = "/devices.csv?" + url.Values{"building": {b.ID}}.Encode()
	return m, nil
}

func (s *Server) floor(ctx context.Context, account string, sc domain.BuildingScope, id string, filter deviceFilter, now time.Time) (views.Place, error) {
	pl, err := s.dash.Floor(ctx, account, sc, id, filter.at(s.clock.Now()))
	if err != nil {
		return views.Place{}, err
	}
	b, f := pl.Building, pl.Floor
	m := views.Place{Page: views.Page{Title: f.Name + ", " + b.Name, Zone: s.cfg.Zone}, Kind: "floor", ID: f.ID, Name: f.Name,
		Where: b.Name, Rollup: pl.Rollup, Sections: s.sections(ctx, now, pl)}
	m.Crumbs = []views.Crumb{{Label: i18n.From(ctx).T("nav.overview"), Href: "/"}, {Label: b.Name, Href: "/buildings/" + b.ID}, {Label: f.Name}}
	m.Filter = filter.view(ctx, "/floors/"+f.ID)
	m.CSVHref = "/devices.csv?" + filter.query(url.Values{"floor": {f.ID}}).Encode()
	m.Plan, m.PlanHref = placePlan(pl, m.Sections), "/floors/"+f.ID+"/plan"
	m.Visitors = visitorRows(pl, "/floors/"+f.ID, now)
	return m, nil
}

func (s *Server) room(ctx context.Context, account string, sc domain.BuildingScope, id string, filter deviceFilter, now time.Time) (views.Place, error) {
	pl, err := s.dash.Room(ctx, account, sc, id, filter.at(s.clock.Now()))
	if err != nil {
		return views.Place{}, err
	}
	b, f, r := pl.Building, pl.Floor, pl.Room
	m := views.Place{Page: views.Page{Title: r.Name, Zone: s.cfg.Zone}, Kind: "room", ID: r.ID, Name: r.Name,
		Where: b.Name + " › " + f.Name, Rollup: pl.Rollup, Sections: s.sections(ctx, now, pl)}
	m.Crumbs = []views.Crumb{{Label: i18n.From(ctx).T("nav.overview"), Href: "/"}, {Label: b.Name, Href: "/buildings/" + b.ID},
		{Label: f.Name, Href: "/floors/" + f.ID}, {Label: r.Name}}
	m.Filter = filter.view(ctx, "/rooms/"+r.ID)
	m.CSVHref = "/devices.csv?" + filter.query(url.Values{"room": {r.ID}}).Encode()
	rec, err := s.dash.RoomServiceRecord(ctx, account, sc, r.ID, now.Add(-dashboard.RecentService), now.Add(time.Second), dashboard.RecentVisits)
	if err != nil {
		return m, err
	}
	service := serviceVisits(rec, s.cfg.Zone)
	service.Since = time.Time{} // the page shows the latest visits; the whole record, the rest
	m.Service, m.ServiceHref = &service, "/rooms/"+url.PathEscape(r.ID)+"/service"
	m.Visitors = visitorRows(pl, "/rooms/"+r.ID, now)
	weeks, err := s.dash.RoomRatings(ctx, account, sc, r.ID, s.cfg.Zone)
	if err != nil {
		return m, err
	}
	m.Ratings = ratingsView(weeks, s.cfg.Zone)
	return m, nil
}

// sections presents a floor's or a room's cards, grouped by room, with
// their ages as of now.
func (s *Server) sections(ctx context.Context, now time.Time, pl dashboard.Place) []views.RoomSection {
	out := make([]views.RoomSection, 0, len(pl.Rooms))
	for _, rc := range pl.Rooms {
		out = append(out, views.RoomSection{ID: rc.Room.ID, Name: rc.Room.Name, Href: "/rooms/" + rc.Room.ID, Rollup: rc.Rollup,
			Cards: s.cardViews(ctx, now, rc.Cards, pl.Places)})
	}
	return out
}

func (s *Server) showLocation(c echo.Context) error {
	ss, ctx, now := sessionOf(c), c.Request().Context(), s.clock.Now()
	card, p, err := s.dash.Location(ctx, ss.Account, s.scopeOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	l := card.Location
	m := views.LocationPage{Page: s.page(c, l.Name, ""), Card: s.cardView(ctx, now, card, p)}
	if isHTMX(c) { // the card alone
		return render(c, http.StatusOK, views.DeviceCardView(m.Card))
	}
	// The page charts the last days, in the zone its card's times are in.
	history, err := s.dash.LocationHistory(ctx, ss.Account, s.scopeOf(c), l.ID, card.Devices, now)
	if err != nil {
		return err
	}
	m.History = views.LocationHistory{LocationHistory: history, Type: l.Type, Zone: s.cfg.Zone}
	m.Crumbs = []views.Crumb{{Label: tr(c, "nav.overview"), Href: "/"}}
	if b, f, r, ok := p.Path(l.RoomID); ok {
		m.Crumbs = append(m.Crumbs, views.Crumb{Label: b.Name, Href: "/buildings/" + b.ID},
			views.Crumb{Label: f.Name, Href: "/floors/" + f.ID}, views.Crumb{Label: r.Name, Href: "/rooms/" + r.ID})
	}
	m.Crumbs = append(m.Crumbs, views.Crumb{Label: l.Name})
	return render(c, http.StatusOK, views.LocationView(m))
}

// deviceFilter is the device type and health filter of floor and room
// pages, from the query parameters type and health.
type deviceFilter struct {
	dashboard.DeviceFilter
	within runsOutOption // the runs_out parameter; zero for any
}

// at is the filter as of now: runs_out counted from now.
func (f deviceFilter) at(now time.Time) dashboard.DeviceFilter {
	d := f.DeviceFilter
	if f.within.within > 0 {
		d.RunsOutBy = now.Add(f.within.within)
	}
	return d
}

func parseDeviceFilter(c echo.Context) (deviceFilter, error) {
	var f deviceFilter
	if t := c.QueryParam("type"); t != "" {
		f.Type = domain.DeviceType(t)
		if !f.Type.Known() {
			return f, httpkit.BadParamSaid("type", tr(c, "place.bad_type", "value", clipQuoted(t)))
		}
	}
	if h := c.QueryParam("health"); h != "" {
		v, ok := domain.ParseHealth(h)
		if !ok {
			return f, httpkit.BadParamSaid("health", tr(c, "place.bad_health", "value", clipQuoted(h)))
		}
		f.Health = &v
	}
	var err error
	if f.within, err = parseRunsOut(c); err != nil {
		return f, err
	}
	f.BySoonestOut, err = parseSortByRunOut(c)
	return f, err
}

// parseRunsOut reads the runs_out parameter: within how long a dispenser
// runs out; the zero option when it is not given.
func parseRunsOut(c echo.Context) (runsOutOption, error) {
	w := c.QueryParam("runs_out")
	if w == "" {
		return runsOutOption{}, nil
	}
	i := slices.IndexFunc(runsOutWithin, func(o runsOutOption) bool { return o.value == w })
	if i < 0 {
		return runsOutOption{}, httpkit.BadParamSaid("runs_out", tr(c, "format.bad_runs_out", "value", clipQuoted(w)))
	}
	return runsOutWithin[i], nil
}

// parseSortByRunOut reads the sort parameter: runs_out puts what runs out
// first at the top; empty keeps the page's own order.
func parseSortByRunOut(c echo.Context) (bool, error) {
	switch o := c.QueryParam("sort"); o {
	case "":
		return false, nil
	case "runs_out":
		return true, nil
	default:
		return false, httpkit.BadParamSaid("sort", tr(c, "format.bad_sort", "value", clipQuoted(o)))
	}
}

// runsOutOption is a choice of the filter of when dispensers run out.
type runsOutOption struct {
	value  string
	within time.Duration
}

var runsOutWithin = []runsOutOption{
	{"2h", 2 * time.Hour},
	{"4h", 4 * time.Hour},
	{"8h", 8 * time.Hour},
	{"24h", 24 * time.Hour},
	{"48h", 48 * time.Hour},
}

// label is the option in words: "Within 8 h (a shift)".
func (o runsOutOption) label(l *i18n.Localizer) string {
	switch o.value {
	case "2h":
		return l.T("format.within_2h")
	case "4h":
		return l.T("format.within_4h")
	case "8h":
		return l.T("format.within_8h")
	case "24h":
		return l.T("format.within_day")
	case "48h":
		return l.T("format.within_two_days")
	}
	return l.T("format.any_time")
}

// runsOutOptions are the choices of the runs_out filter, chosen selected.
func runsOutOptions(ctx context.Context, chosen runsOutOption) []views.Option {
	l := i18n.From(ctx)
	out := []views.Option{{Value: "", Label: runsOutOption{}.label(l), Selected: chosen.value == ""}}
	for _, o := range runsOutWithin {
		out = append(out, views.Option{Value: o.value, Label: o.label(l), Selected: chosen.value == o.value})
	}
	return out
}

// sortOptions are the choices of the sort parameter: the page's own order
// (named ownOrder) or what runs out first.
func sortOptions(ctx context.Context, ownOrder string, bySoonestOut bool) []views.Option {
	return []views.Option{{Value: "", Label: ownOrder, Selected: !bySoonestOut},
		{Value: "runs_out", Label: i18n.From(ctx).T("format.runs_out_first"), Selected: bySoonestOut}}
}

// url is the address of a page at path with the filter, its parameters
// in a fixed order.
func (f deviceFilter) url(path string) string {
	if q := f.query(url.Values{}); len(q) > 0 {
		return path + "?" + q.Encode()
	}
	return path
}

// query adds the filter's parameters to q.
func (f deviceFilter) query(q url.Values) url.Values {
	if f.Type != "" {
		q.Set("type", string(f.Type))
	}
	if f.Health != nil {
		q.Set("health", f.Health.String())
	}
	if f.within.value != "" {
		q.Set("runs_out", f.within.value)
	}
	if f.BySoonestOut {
		q.Set("sort", "runs_out")
	}
	return q
}

func (f deviceFilter) view(ctx context.Context, action string) views.DeviceFilter {
	l := i18n.From(ctx)
	v := views.DeviceFilter{Action: action, Active: f.Active() || f.within.value != "" || f.BySoonestOut}
	v.Sorts = sortOptions(ctx, l.T("place.sort_rooms"), f.BySoonestOut)
	v.RunsOut = runsOutOptions(ctx, f.within)
	v.Types = append(v.Types, views.Option{Value: "", Label: l.T("format.all_types"), Selected: f.Type == ""})
	for _, t := range []domain.DeviceType{domain.Tissue, domain.Towel, domain.Soap, domain.Sanitizer, domain.Collector} {
		v.Types = append(v.Types, views.Option{Value: string(t), Label: views.DeviceTypeName(ctx, t), Selected: f.Type == t})
	}
	v.Healths = append(v.Healths, views.Option{Value: "", Label: l.T("place.any_health"), Selected: f.Health == nil})
	for _, h := range domain.Healths {
		v.Healths = append(v.Healths, views.Option{Value: h.String(), Label: views.HealthName(ctx, h), Selected: f.Health != nil && *f.Health == h})
	}
	return v
}

// visitorRows presents the open visitors' alerts of a place's page, with
// their claims, whose pages lead back to back.
func visitorRows(pl dashboard.Place, back string, now time.Time) []views.AlertRow {
	rows := make([]views.AlertRow, 0, len(pl.Visitors))
	for _, a := range pl.Visitors {
		rows = append(rows, alertRow(a, domain.Location{}, pl.Places, now))
	}
	return withClaims(rows, pl.VisitorClaims, back)
}

// ratingsView presents a room's ratings by week, with their sum.
func ratingsView(weeks []visitors.WeekRating, zone *time.Location) *views.Ratings {
	r := &views.Ratings{Zone: zone}
	sum := 0.0
	for _, w := range weeks {
		r.Weeks = append(r.Weeks, views.RatingWeek{Week: w.Week, Count: w.Count, Average: w.Average})
		r.Count += w.Count
		sum += w.Average * float64(w.Count)
	}
	if r.Count > 0 {
		r.Average = sum / float64(r.Count)
	}
	return r
}
