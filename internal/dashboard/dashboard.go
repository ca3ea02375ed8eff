// Package dashboard answers the pages' questions: one call per page or
// view, reading the cache through the store's interfaces and returning
// domain types. It holds the rules about the data the pages show (what is
// stale, which places a filter can choose, whether a report reads the cache
// or the service); the web layer parses requests and presents the answers.
package dashboard

import (
	"context"
	"log/slog"
	"strings"
	"sync"

	"golang.org/x/sync/singleflight"

	"washboard/internal/clientreport"
	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/forecast"
	"washboard/internal/keyring"
	"washboard/internal/syncer"
	"washboard/internal/upstream"
	"washboard/internal/visitors"
)

// Deps are what the service reads from.
type Deps struct {
	Store    Store
	Sync     *syncer.Engine
	Upstream *upstream.Client // checks credentials at sign-in
	Clock    clock.Clock
	// Keys seal the credentials screens keep.
	Keys *keyring.Ring
	// Forecasts, when set, says when dispensers will run out.
	Forecasts Forecasts
	// Log records what fails with no caller to tell: a count of the
	// trends made in the background. Nothing is logged when it is nil.
	Log *slog.Logger
}

// Forecasts keeps the estimates of when each dispenser of an account will
// next report a compartment out (internal/runout).
type Forecasts interface {
	// Estimates returns the account's estimates by MAC, of the devices
	// that have one; the caller only reads the map.
	Estimates(account string) map[string]forecast.Estimate
}

// Service answers the pages from the cache.
type Service struct {
	store    Store
	sync     *syncer.Engine
	upstream *upstream.Client
	clock    clock.Clock
	keys     *keyring.Ring
	forecast Forecasts

	statusMu    sync.Mutex
	statuses    map[string]keptStatuses // by account: see syncStatuses
	statusReads singleflight.Group      // one read of an account's states at a time

	// Trends computed lately (see Trends): the alerts' counts by scope and
	// period, the latest heat maps by account and zone.
	trendAlerts keptValues[trendsKey, alertTrends]
	// trendChecks are the trends pages' checks saved (TrendChecks).
	trendChecks keptValues[checksKey, clientreport.Checks]
	trendHeat   renewedValues[heatScope, heatTrends]

	// The reads of periods older than the cache covers (see Report).
	pastReads pastReads

	// The accounts' states the portfolio shows (see ClientState).
	clients clientStates

	// The rooms' codes, and what is done with them.
	visitors *visitors.Service
}

// New returns the service.
func New(d Deps) *Service {
	if d.Clock == nil {
		d.Clock = clock.Real{}
	}
	s := &Service{store: d.Store, sync: d.Sync, upstream: d.Upstream, clock: d.Clock, keys: d.Keys, forecast: d.Forecasts,
		statuses: map[string]keptStatuses{}, trendHeat: renewedValues[heatScope, heatTrends]{log: d.Log},
		visitors: visitors.New(d.Store, d.Keys, d.Clock)}
	// A visitor's report is an alert: the pages that list alerts show it
	// at once, and the notifier (woken by the engine's change) decides
	// the rules of visitor.report now rather than at its next poll.
	if s.sync != nil {
		s.visitors.OnReport(func(account string) { s.sync.Changed(account, domain.ResourceAlerts) })
	}
	return s
}

// Visitors keeps the rooms' codes and records what is done with them:
// presence scans and visitors' reports, throttled in this process's
// memory.
func (s *Service) Visitors() *visitors.Service { return s.visitors }

// Ready reports whether the database answers and every migration is
// applied.
func (s *Service) Ready(ctx context.Context) (bool, error) { return s.store.Migrated(ctx) }

// Places names an account's buildings, floors and rooms, to say where a
// location is.
type Places struct {
	Buildings map[string]domain.Building
	Floors    map[string]domain.Floor
	Rooms     map[string]domain.Room
}

func newPlaces() Places {
	return Places{Buildings: map[string]domain.Building{}, Floors: map[string]domain.Floor{}, Rooms: map[string]domain.Room{}}
}

// Path returns the building, floor and room a room is in; false when the
// room is not in the layout the places were read from.
func (p Places) Path(roomID string) (domain.Building, domain.Floor, domain.Room, bool) {
	r, ok := p.Rooms[roomID]
	if !ok {
		return domain.Building{}, domain.Floor{}, domain.Room{}, false
	}
	f := p.Floors[r.FloorID]
	return p.Buildings[f.BuildingID], f, r, true
}

// Where says where a room is: "North Tower › Level 3 › Men's Restroom 3.12".
func (p Places) Where(roomID string) string {
	b, f, r, ok := p.Path(roomID)
	if !ok {
		return "Not in the account's layout yet"
	}
	var parts []string
	for _, s := range []string{b.Name, f.Name, r.Name} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, " › ")
}

// Parts returns the building, floor and room names of a room; empty when
// it is not in the layout.
func (p Places) Parts(roomID string) (building, floor, room string) {
	b, f, r, _ := p.Path(roomID)
	return b.Name, f.Name, r.Name
}

// allPlaces reads every building, floor and room of an account.
func (s *Service) allPlaces(ctx context.Context, account string) (Places, error) {
	p := newPlaces()
	bs, err := s.store.Buildings(ctx, account)
	if err != nil {
		return p, err
	}
	for _, b := range bs {
		p.Buildings[b.ID] = b
	}
	fs, err := s.store.Floors(ctx, account, "")
	if err != nil {
		return p, err
	}
	for _, f := range fs {
		p.Floors[f.ID] = f
	}
	rs, err := s.store.Rooms(ctx, account, "")
	if err != nil {
		return p, err
	}
	for _, r := range rs {
		p.Rooms[r.ID] = r
	}
	return p, nil
}

// placesOf reads the places the given locations are in, and the locations
// themselves.
func (s *Service) placesOf(ctx context.Context, account string, locationIDs []string) (Places, map[string]domain.Location, error) {
	p := newPlaces()
	paths, err := s.store.Paths(ctx, account, locationIDs)
	if err != nil {
		return p, nil, err
	}
	locs := make(map[string]domain.Location, len(paths))
	for id, pa := range paths {
		locs[id] = pa.Location
		p.Rooms[pa.Room.ID], p.Floors[pa.Floor.ID], p.Buildings[pa.Building.ID] = pa.Room, pa.Floor, pa.Building
	}
	return p, locs, nil
}

// Card is a device location as its card shows it: its devices, its open
// alerts and the health they add up to.
type Card struct {
	Location domain.Location
	Devices  []domain.Device
	Alerts   []domain.Alert // open
	Health   domain.Health
	// Claims are who is on its open alerts, by alert id.
	Claims map[string]domain.Claim
	// RunsOut holds when its dispensers will next report a compartment
	// out, by MAC, for those with an estimate.
	RunsOut map[string]forecast.Estimate
}

// cardsOf builds the cards of locations from their devices and open
// alerts, in the locations' order.
func cardsOf(locs []domain.Location, devices []domain.Device, open []domain.Alert) []Card {
	byLoc := map[string][]domain.Device{}
	for _, d := range devices {
		byLoc[d.LocationID] = append(byLoc[d.LocationID], d)
	}
	alerts := map[string][]domain.Alert{}
	for _, a := range open {
		alerts[a.LocationID] = append(alerts[a.LocationID], a)
	}
	out := make([]Card, 0, len(locs))
	for _, l := range locs {
		out = append(out, cardOf(l, byLoc[l.ID], alerts[l.ID]))
	}
	return out
}

func cardOf(l domain.Location, devices []domain.Device, open []domain.Alert) Card {
	overdue := false
	for _, a := range open {
		overdue = overdue || a.Overdue
	}
	return Card{Location: l, Devices: devices, Alerts: open, Health: domain.LocationHealth(devices, overdue)}
}

// Located are alerts with the locations and places they are at.
type Located struct {
	Alerts    []domain.Alert
	Locations map[string]domain.Location
	Places    Places
}

func (s *Service) locate(ctx context.Context, account string, alerts []domain.Alert) (Located, error) {
	ids := make([]string, 0, len(alerts))
	for _, a := range alerts {
		ids = append(ids, a.LocationID)
	}
	p, locs, err := s.placesOf(ctx, account, ids)
	return Located{Alerts: alerts, Locations: locs, Places: p}, err
}
