package web

import (
	"net/url"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/views"
)

func (s *Server) showBuilding(c echo.Context) error {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	b, err := s.store.Building(ctx, ss.Account, c.Param("id"))
	if err != nil {
		return err
	}
	rollup, err := s.store.Rollup(ctx, ss.Account, store.ScopeBuilding, b.ID)
	if err != nil {
		return err
	}
	floors, err := s.store.Floors(ctx, ss.Account, b.ID)
	if err != nil {
		return err
	}
	floorIDs := make([]string, len(floors))
	roomsOf := map[string]int{}
	for i, f := range floors {
		floorIDs[i] = f.ID
		rooms, err := s.store.Rooms(ctx, ss.Account, f.ID)
		if err != nil {
			return err
		}
		roomsOf[f.ID] = len(rooms)
	}
	floorRollups, err := s.store.Rollups(ctx, ss.Account, store.ScopeFloor, floorIDs...)
	if err != nil {
		return err
	}
	m := views.Place{Page: s.page(c, b.Name, ""), Kind: "building", ID: b.ID, Name: b.Name, Rollup: rollup, Self: c.Request().URL.RequestURI()}
	m.Crumbs = []views.Crumb{{Label: "Overview", Href: "/"}, {Label: b.Name}}
	for _, f := range floors {
		m.Parts = append(m.Parts, placeCard(f.ID, f.Name, "/floors/"+f.ID, plural(roomsOf[f.ID], "room"), floorRollups[f.ID]))
	}
	m.CSVHref = "/devices.csv?" + url.Values{"building": {b.ID}}.Encode()
	return pick(c, views.PlacePage(m), views.PlaceContent(m))
}

func (s *Server) showFloor(c echo.Context) error {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	f, err := s.store.Floor(ctx, ss.Account, c.Param("id"))
	if err != nil {
		return err
	}
	filter, err := parseDeviceFilter(c)
	if err != nil {
		return err
	}
	b, err := s.store.Building(ctx, ss.Account, f.BuildingID)
	if err != nil {
		return err
	}
	rollup, err := s.store.Rollup(ctx, ss.Account, store.ScopeFloor, f.ID)
	if err != nil {
		return err
	}
	rooms, err := s.store.Rooms(ctx, ss.Account, f.ID)
	if err != nil {
		return err
	}
	m := views.Place{Page: s.page(c, f.Name+", "+b.Name, ""), Kind: "floor", ID: f.ID, Name: f.Name, Where: b.Name,
		Rollup: rollup, Self: c.Request().URL.RequestURI()}
	m.Crumbs = []views.Crumb{{Label: "Overview", Href: "/"}, {Label: b.Name, Href: "/buildings/" + b.ID}, {Label: f.Name}}
	if m.Sections, err = s.sections(c, ss.Account, rooms, namesOf(b, f, rooms), store.DeviceFilter{Account: ss.Account, FloorID: f.ID},
		store.AlertFilter{Account: ss.Account, FloorID: f.ID, Status: domain.AlertOpen}, filter); err != nil {
		return err
	}
	roomIDs := make([]string, len(rooms))
	for i, r := range rooms {
		roomIDs[i] = r.ID
	}
	roomRollups, err := s.store.Rollups(ctx, ss.Account, store.ScopeRoom, roomIDs...)
	if err != nil {
		return err
	}
	for i := range m.Sections {
		m.Sections[i].Rollup = roomRollups[m.Sections[i].ID]
	}
	m.Filter = filter.view("/floors/" + f.ID)
	m.CSVHref = "/devices.csv?" + filter.query(url.Values{"floor": {f.ID}}).Encode()
	return pick(c, views.PlacePage(m), views.PlaceContent(m))
}

func (s *Server) showRoom(c echo.Context) error {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	r, err := s.store.Room(ctx, ss.Account, c.Param("id"))
	if err != nil {
		return err
	}
	filter, err := parseDeviceFilter(c)
	if err != nil {
		return err
	}
	f, err := s.store.Floor(ctx, ss.Account, r.FloorID)
	if err != nil {
		return err
	}
	b, err := s.store.Building(ctx, ss.Account, f.BuildingID)
	if err != nil {
		return err
	}
	rollup, err := s.store.Rollup(ctx, ss.Account, store.ScopeRoom, r.ID)
	if err != nil {
		return err
	}
	m := views.Place{Page: s.page(c, r.Name, ""), Kind: "room", ID: r.ID, Name: r.Name, Where: b.Name + " › " + f.Name,
		Rollup: rollup, Self: c.Request().URL.RequestURI()}
	m.Crumbs = []views.Crumb{{Label: "Overview", Href: "/"}, {Label: b.Name, Href: "/buildings/" + b.ID},
		{Label: f.Name, Href: "/floors/" + f.ID}, {Label: r.Name}}
	if m.Sections, err = s.sections(c, ss.Account, []domain.Room{r}, namesOf(b, f, []domain.Room{r}), store.DeviceFilter{Account: ss.Account, RoomID: r.ID},
		store.AlertFilter{Account: ss.Account, RoomID: r.ID, Status: domain.AlertOpen}, filter); err != nil {
		return err
	}
	for i := range m.Sections {
		m.Sections[i].Rollup = rollup
	}
	m.Filter = filter.view("/rooms/" + r.ID)
	m.CSVHref = "/devices.csv?" + filter.query(url.Values{"room": {r.ID}}).Encode()
	return pick(c, views.PlacePage(m), views.PlaceContent(m))
}

// sections builds the device cards of rooms, grouped by room, keeping the
// cards that pass the filter.
func (s *Server) sections(c echo.Context, account string, rooms []domain.Room, n names, df store.DeviceFilter, af store.AlertFilter, filter deviceFilter) ([]views.RoomSection, error) {
	ctx := c.Request().Context()
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
	for _, cd := range s.cards(locs, devices, open, n) {
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
	m := views.LocationPage{Page: s.page(c, l.Name, ""), Card: s.card(l, devices, open, n)}
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
