package web

import (
	"context"
	"net/url"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/views"
)

func (s *Server) showBuilding(c echo.Context) error {
	ss, id := sessionOf(c), c.Param("id")
	return s.servePage(c, "/buildings/"+id, func(ctx context.Context, now time.Time) (*renderedPage, error) {
		m, err := s.building(ctx, ss.Account, id)
		if err != nil {
			return nil, err
		}
		return s.renderPlace(ctx, m)
	})
}

func (s *Server) showFloor(c echo.Context) error {
	ss, id := sessionOf(c), c.Param("id")
	filter, err := parseDeviceFilter(c)
	if err != nil {
		return err
	}
	self := filter.url("/floors/" + id)
	return s.servePage(c, self, func(ctx context.Context, now time.Time) (*renderedPage, error) {
		m, err := s.floor(ctx, ss.Account, id, filter, now)
		if err != nil {
			return nil, err
		}
		m.Self = self
		return s.renderPlace(ctx, m)
	})
}

func (s *Server) showRoom(c echo.Context) error {
	ss, id := sessionOf(c), c.Param("id")
	filter, err := parseDeviceFilter(c)
	if err != nil {
		return err
	}
	self := filter.url("/rooms/" + id)
	return s.servePage(c, self, func(ctx context.Context, now time.Time) (*renderedPage, error) {
		m, err := s.room(ctx, ss.Account, id, filter, now)
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

func (s *Server) building(ctx context.Context, account, id string) (views.Place, error) {
	b, err := s.store.Building(ctx, account, id)
	if err != nil {
		return views.Place{}, err
	}
	rollup, err := s.store.Rollup(ctx, account, domain.ScopeBuilding, b.ID)
	if err != nil {
		return views.Place{}, err
	}
	floors, err := s.store.Floors(ctx, account, b.ID)
	if err != nil {
		return views.Place{}, err
	}
	floorIDs := make([]string, len(floors))
	roomsOf := map[string]int{}
	for i, f := range floors {
		floorIDs[i] = f.ID
		rooms, err := s.store.Rooms(ctx, account, f.ID)
		if err != nil {
			return views.Place{}, err
		}
		roomsOf[f.ID] = len(rooms)
	}
	floorRollups, err := s.store.Rollups(ctx, account, domain.ScopeFloor, floorIDs...)
	if err != nil {
		return views.Place{}, err
	}
	m := views.Place{Page: views.Page{Title: b.Name, Zone: s.cfg.Zone}, Kind: "building", ID: b.ID, Name: b.Name, Rollup: rollup,
		Self: "/buildings/" + b.ID}
	m.Crumbs = []views.Crumb{{Label: "Overview", Href: "/"}, {Label: b.Name}}
	for _, f := range floors {
		m.Parts = append(m.Parts, placeCard(f.ID, f.Name, "/floors/"+f.ID, plural(roomsOf[f.ID], "room"), floorRollups[f.ID]))
	}
	m.CSVHref = "/devices.csv?" + url.Values{"building": {b.ID}}.Encode()
	return m, nil
}

func (s *Server) floor(ctx context.Context, account, id string, filter deviceFilter, now time.Time) (views.Place, error) {
	f, err := s.store.Floor(ctx, account, id)
	if err != nil {
		return views.Place{}, err
	}
	b, err := s.store.Building(ctx, account, f.BuildingID)
	if err != nil {
		return views.Place{}, err
	}
	rollup, err := s.store.Rollup(ctx, account, domain.ScopeFloor, f.ID)
	if err != nil {
		return views.Place{}, err
	}
	rooms, err := s.store.Rooms(ctx, account, f.ID)
	if err != nil {
		return views.Place{}, err
	}
	m := views.Place{Page: views.Page{Title: f.Name + ", " + b.Name, Zone: s.cfg.Zone}, Kind: "floor", ID: f.ID, Name: f.Name,
		Where: b.Name, Rollup: rollup}
	m.Crumbs = []views.Crumb{{Label: "Overview", Href: "/"}, {Label: b.Name, Href: "/buildings/" + b.ID}, {Label: f.Name}}
	if m.Sections, err = s.sections(ctx, now, account, rooms, namesOf(b, f, rooms), store.DeviceFilter{Account: account, FloorID: f.ID},
		store.AlertFilter{Account: account, FloorID: f.ID, Status: domain.AlertOpen}, filter); err != nil {
		return views.Place{}, err
	}
	roomIDs := make([]string, len(rooms))
	for i, r := range rooms {
		roomIDs[i] = r.ID
	}
	roomRollups, err := s.store.Rollups(ctx, account, domain.ScopeRoom, roomIDs...)
	if err != nil {
		return views.Place{}, err
	}
	for i := range m.Sections {
		m.Sections[i].Rollup = roomRollups[m.Sections[i].ID]
	}
	m.Filter = filter.view("/floors/" + f.ID)
	m.CSVHref = "/devices.csv?" + filter.query(url.Values{"floor": {f.ID}}).Encode()
	return m, nil
}

func (s *Server) room(ctx context.Context, account, id string, filter deviceFilter, now time.Time) (views.Place, error) {
	r, err := s.store.Room(ctx, account, id)
	if err != nil {
		return views.Place{}, err
	}
	f, err := s.store.Floor(ctx, account, r.FloorID)
	if err != nil {
		return views.Place{}, err
	}
	b, err := s.store.Building(ctx, account, f.BuildingID)
	if err != nil {
		return views.Place{}, err
	}
	rollup, err := s.store.Rollup(ctx, account, domain.ScopeRoom, r.ID)
	if err != nil {
		return views.Place{}, err
	}
	m := views.Place{Page: views.Page{Title: r.Name, Zone: s.cfg.Zone}, Kind: "room", ID: r.ID, Name: r.Name,
		Where: b.Name + " › " + f.Name, Rollup: rollup}
	m.Crumbs = []views.Crumb{{Label: "Overview", Href: "/"}, {Label: b.Name, Href: "/buildings/" + b.ID},
		{Label: f.Name, Href: "/floors/" + f.ID}, {Label: r.Name}}
	if m.Sections, err = s.sections(ctx, now, account, []domain.Room{r}, namesOf(b, f, []domain.Room{r}), store.DeviceFilter{Account: account, RoomID: r.ID},
		store.AlertFilter{Account: account, RoomID: r.ID, Status: domain.AlertOpen}, filter); err != nil {
		return views.Place{}, err
	}
	for i := range m.Sections {
		m.Sections[i].Rollup = rollup
	}
	m.Filter = filter.view("/rooms/" + r.ID)
	m.CSVHref = "/devices.csv?" + filter.query(url.Values{"room": {r.ID}}).Encode()
	return m, nil
}

// sections builds the device cards of rooms, grouped by room, keeping the
// cards that pass the filter, with their ages as of now.
func (s *Server) sections(ctx context.Context, now time.Time, account string, rooms []domain.Room, n names, df store.DeviceFilter, af store.AlertFilter, filter deviceFilter) ([]views.RoomSection, error) {
	locs, err := s.store.LocationsIn(ctx, account, df.BuildingID, df.FloorID, df.RoomID)
	if err != nil {
		return nil, err
	}
	devices, err := s.store.FindDevices(ctx, df)
	if err != nil {
		return nil, err
	}
	open, err := s.store.FindAlerts(ctx, af)
	if err != nil {
		return nil, err
	}
	roomOf := make(map[string]string, len(locs))
	for _, l := range locs {
		roomOf[l.ID] = l.RoomID
	}
	byRoom := map[string][]views.DeviceCard{}
	for _, cd := range s.cardsAt(now, locs, devices, open, n) {
		if filter.keeps(cd) {
			byRoom[roomOf[cd.LocationID]] = append(byRoom[roomOf[cd.LocationID]], cd)
		}
	}
	var out []views.RoomSection
	for _, r := range rooms {
		if len(byRoom[r.ID]) == 0 && filter.active() {
			continue
		}
		out = append(out, views.RoomSection{ID: r.ID, Name: r.Name, Href: "/rooms/" + r.ID, Cards: byRoom[r.ID]})
	}
	return out, nil
}

func (s *Server) showLocation(c echo.Context) error {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	l, err := s.store.Location(ctx, ss.Account, c.Param("id"))
	if err != nil {
		return err
	}
	devices, err := s.store.FindDevices(ctx, store.DeviceFilter{Account: ss.Account, LocationID: l.ID})
	if err != nil {
		return err
	}
	open, err := s.store.FindAlerts(ctx, store.AlertFilter{Account: ss.Account, LocationID: l.ID, Status: domain.AlertOpen})
	if err != nil {
		return err
	}
	n, _, err := s.namesFor(ctx, ss.Account, []string{l.ID})
	if err != nil {
		return err
	}
	m := views.LocationPage{Page: s.page(c, l.Name, ""), Card: s.card(s.clock.Now(), l, devices, open, n)}
	m.Crumbs = []views.Crumb{{Label: "Overview", Href: "/"}}
	if r, ok := n.rooms[l.RoomID]; ok {
		f := n.floors[r.FloorID]
		b := n.buildings[f.BuildingID]
		m.Crumbs = append(m.Crumbs, views.Crumb{Label: b.Name, Href: "/buildings/" + b.ID},
			views.Crumb{Label: f.Name, Href: "/floors/" + f.ID}, views.Crumb{Label: r.Name, Href: "/rooms/" + r.ID})
	}
	m.Crumbs = append(m.Crumbs, views.Crumb{Label: l.Name})
	return pick(c, views.LocationView(m), views.DeviceCardView(m.Card))
}

// deviceFilter is the device type and health filter of floor and room
// pages, from the query parameters type and health.
type deviceFilter struct {
	typ    domain.DeviceType
	health *domain.Health
}

func parseDeviceFilter(c echo.Context) (deviceFilter, error) {
	var f deviceFilter
	if t := c.QueryParam("type"); t != "" {
		f.typ = domain.DeviceType(t)
		if !f.typ.Known() {
			return f, errBadParam("type", "must be one of tissue, towel, soap, sanitizer or collector, not %q", clip(t))
		}
	}
	if h := c.QueryParam("health"); h != "" {
		v, ok := domain.ParseHealth(h)
		if !ok {
			return f, errBadParam("health", "must be one of ok, attention, action or offline, not %q", clip(h))
		}
		f.health = &v
	}
	return f, nil
}

func (f deviceFilter) active() bool { return f.typ != "" || f.health != nil }

func (f deviceFilter) keeps(c views.DeviceCard) bool {
	return (f.typ == "" || c.Type == f.typ) && (f.health == nil || c.Health == *f.health)
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
	if f.typ != "" {
		q.Set("type", string(f.typ))
	}
	if f.health != nil {
		q.Set("health", f.health.String())
	}
	return q
}

func (f deviceFilter) view(action string) views.DeviceFilter {
	v := views.DeviceFilter{Action: action, Active: f.active()}
	v.Types = append(v.Types, views.Option{Value: "", Label: "All types", Selected: f.typ == ""})
	for _, t := range []domain.DeviceType{domain.Tissue, domain.Towel, domain.Soap, domain.Sanitizer, domain.Collector} {
		v.Types = append(v.Types, views.Option{Value: string(t), Label: t.Label(), Selected: f.typ == t})
	}
	v.Healths = append(v.Healths, views.Option{Value: "", Label: "Any health", Selected: f.health == nil})
	for _, h := range domain.Healths {
		v.Healths = append(v.Healths, views.Option{Value: h.String(), Label: h.Label(), Selected: f.health != nil && *f.health == h})
	}
	return v
}

// clip shortens a value echoed back in an error message.
func clip(s string) string {
	const max = 40
	r := []rune(s)
	if len(r) > max {
		return string(r[:max]) + "…"
	}
	return s
}
