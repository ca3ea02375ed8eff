package web

import (
	"context"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/syncer"
	"washboard/views"
)

// page builds what every page carries: who is signed in, the CSRF token,
// how fresh the data is.
func (s *Server) page(c echo.Context, title, nav string) views.Page {
	p := views.Page{Title: title, Nav: nav, CSRFToken: csrfToken(c), Version: s.version, Zone: s.cfg.Zone}
	if loaded, _ := c.Get(ctxSessionLoaded).(bool); !loaded {
		return p
	}
	ctx := c.Request().Context()
	if ss, ok := s.currentSession(ctx); ok {
		p.SignedIn, p.AccountName = true, ss.AccountName
		p.Freshness = s.freshness(ctx, ss)
		p.Live = true
	}
	return p
}

// freshness says how old the account's data is, and why it may be out of
// date.
func (s *Server) freshness(ctx context.Context, ss session) views.Freshness {
	var f views.Freshness
	statuses, err := s.store.SyncStatuses(ctx, ss.Account)
	if err != nil {
		f.Failed, f.Reason = true, "the cache could not be read"
		return f
	}
	dev, al := statuses[domain.ResourceDevices], statuses[domain.ResourceAlerts]
	// While the service's events arrive, alerts are polled every few
	// minutes and are fresh all the same: the devices say how old the data
	// is.
	f.Live = s.sync.Live(ss.Account)
	if dev.LastSuccess.IsZero() || al.LastSuccess.IsZero() {
		f.FirstSync = true
	} else {
		f.AsOf = dev.LastSuccess.Add(dev.Duration)
		if t := al.LastSuccess.Add(al.Duration); t.Before(f.AsOf) && !f.Live {
			f.AsOf = t
		}
	}
	for _, st := range []store.SyncStatus{dev, al, statuses[domain.ResourceMetadata]} {
		if st.LastError != "" {
			f.Failed, f.Reason = true, st.LastError
			break
		}
	}
	if !f.AsOf.IsZero() && s.clock.Now().Sub(f.AsOf) > 2*s.cfg.Interval {
		f.Stale = true
		if f.Reason == "" {
			f.Reason = "the last refresh is more than two sync intervals old"
		}
	}
	if why, rejected := s.sync.Rejected(syncer.CredentialID(ss.Cred)); rejected {
		f.Rejected, f.Rejection = true, string(why)
	}
	return f
}

// firstSyncDone reports whether the account's cache has been filled once.
func (s *Server) firstSyncDone(c echo.Context, account string) (bool, error) {
	statuses, err := s.store.SyncStatuses(c.Request().Context(), account)
	if err != nil {
		return false, err
	}
	return !statuses[domain.ResourceDevices].LastSuccess.IsZero() && !statuses[domain.ResourceAlerts].LastSuccess.IsZero(), nil
}

// names holds the names of an account's buildings, floors and rooms, to
// say where a location is.
type names struct {
	buildings map[string]domain.Building
	floors    map[string]domain.Floor
	rooms     map[string]domain.Room
}

func (s *Server) loadNames(ctx context.Context, account string) (names, error) {
	n := names{buildings: map[string]domain.Building{}, floors: map[string]domain.Floor{}, rooms: map[string]domain.Room{}}
	bs, err := s.store.Buildings(ctx, account)
	if err != nil {
		return n, err
	}
	for _, b := range bs {
		n.buildings[b.ID] = b
	}
	fs, err := s.store.Floors(ctx, account, "")
	if err != nil {
		return n, err
	}
	for _, f := range fs {
		n.floors[f.ID] = f
	}
	rs, err := s.store.Rooms(ctx, account, "")
	if err != nil {
		return n, err
	}
	for _, r := range rs {
		n.rooms[r.ID] = r
	}
	return n, nil
}

// namesFor loads the names of the places the given locations are in, and
// the locations themselves.
func (s *Server) namesFor(ctx context.Context, account string, locationIDs []string) (names, map[string]domain.Location, error) {
	n := names{buildings: map[string]domain.Building{}, floors: map[string]domain.Floor{}, rooms: map[string]domain.Room{}}
	paths, err := s.store.Paths(ctx, account, locationIDs)
	if err != nil {
		return n, nil, err
	}
	locs := make(map[string]domain.Location, len(paths))
	for id, p := range paths {
		locs[id] = p.Location
		n.rooms[p.Room.ID], n.floors[p.Floor.ID], n.buildings[p.Building.ID] = p.Room, p.Floor, p.Building
	}
	return n, locs, nil
}

// namesOf holds the names of one building, one floor and its rooms.
func namesOf(b domain.Building, f domain.Floor, rooms []domain.Room) names {
	n := names{buildings: map[string]domain.Building{b.ID: b}, floors: map[string]domain.Floor{f.ID: f}, rooms: map[string]domain.Room{}}
	for _, r := range rooms {
		n.rooms[r.ID] = r
	}
	return n
}

// where says where a room is: "North Tower › Level 3 › Men's Restroom 3.12".
func (n names) where(roomID string) string {
	r, ok := n.rooms[roomID]
	if !ok {
		return "Not in the account's layout yet"
	}
	f := n.floors[r.FloorID]
	b := n.buildings[f.BuildingID]
	return strings.Join(nonEmpty(b.Name, f.Name, r.Name), " › ")
}

func nonEmpty(ss ...string) []string {
	out := ss[:0]
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// cards builds the device cards of locations from their devices and open
// alerts.
func (s *Server) cards(locs []domain.Location, devices []domain.Device, open []domain.Alert, n names) []views.DeviceCard {
	return s.cardsAt(s.clock.Now(), locs, devices, open, n)
}

// cardsAt builds the device cards of locations, with their ages as of now.
func (s *Server) cardsAt(now time.Time, locs []domain.Location, devices []domain.Device, open []domain.Alert, n names) []views.DeviceCard {
	byLoc := map[string][]domain.Device{}
	for _, d := range devices {
		byLoc[d.LocationID] = append(byLoc[d.LocationID], d)
	}
	alerts := map[string][]domain.Alert{}
	for _, a := range open {
		alerts[a.LocationID] = append(alerts[a.LocationID], a)
	}
	out := make([]views.DeviceCard, 0, len(locs))
	for _, l := range locs {
		out = append(out, s.card(now, l, byLoc[l.ID], alerts[l.ID], n))
	}
	return out
}

func (s *Server) card(now time.Time, l domain.Location, devices []domain.Device, open []domain.Alert, n names) views.DeviceCard {
	overdue := false
	c := views.DeviceCard{
		LocationID: l.ID, Name: l.Name, Href: "/locations/" + l.ID, Type: l.Type,
		Where: n.where(l.RoomID), Now: now, Zone: s.cfg.Zone,
	}
	for _, a := range open {
		overdue = overdue || a.Overdue
		c.Alerts = append(c.Alerts, alertRow(a, l, n, now))
	}
	for _, d := range devices {
		c.Devices = append(c.Devices, views.DeviceView{
			MAC: d.MAC, Position: d.Position, Generation: d.Generation, Compartments: d.Compartments,
			Battery: d.Battery, BatteryState: d.BatteryState, Faults: d.Faults, Offline: d.Offline,
			LastSeen: d.LastSeen, Health: domain.Classify(d, false),
		})
	}
	c.Health = domain.LocationHealth(devices, overdue)
	return c
}

func alertRow(a domain.Alert, l domain.Location, n names, now time.Time) views.AlertRow {
	r := views.AlertRow{
		ID: a.ID, Type: a.Type, Open: a.Open(), Overdue: a.Overdue, Created: a.Created, Resolved: a.Resolved,
		Resolution: a.Resolution, TimeToResolve: a.TimeToResolve(), RefillCount: a.RefillCount,
		LocationName: l.Name, Where: n.where(l.RoomID), MACs: a.MACs, Now: now,
	}
	if l.ID != "" {
		r.LocationHref = "/locations/" + l.ID
	} else {
		r.LocationName = "Location " + a.LocationID
	}
	return r
}

// placeCard is a building, floor or room card with its counts.
func placeCard(id, name, href, detail string, r domain.Rollup) views.PlaceCard {
	return views.PlaceCard{ID: id, Name: name, Href: href, Detail: detail, Rollup: r}
}
