package web

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/visitors"
	"washboard/views"
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
