package dashboard

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"time"

	"washboard/internal/domain"
	"washboard/internal/forecast"
	"washboard/internal/store"
)

// Summary is a building or a floor as a card on the page above it: how
// many floors or rooms it has, and its counts.
type Summary struct {
	ID, Name string
	Parts    int // floors of a building, rooms of a floor
	Rollup   domain.Rollup
}

// Overview is the front page: the account's counts, its buildings and its
// most urgent open alerts.
type Overview struct {
	Rollup    domain.Rollup
	Buildings []Summary
	Alerts    Located
	// Levels counts the open alerts at risk of missing a target, or that
	// missed one, of the scope (Set false when the account has no service
	// level); BuildingLevels those of each building, by id.
	Levels         LevelCounts
	BuildingLevels map[string]LevelCounts
	// AlertLevels are the listed alerts measured, by alert id.
	AlertLevels map[string]AlertLevel
}

// Overview reads the front page of an account, as the scope sees it,
// with at most alertLimit open alerts, the most urgent first. A scope of
// some buildings counts theirs alone.
func (s *Service) Overview(ctx context.Context, account string, sc domain.BuildingScope, alertLimit int) (Overview, error) {
	var m Overview
	var err error
	buildings, err := s.store.Buildings(ctx, account)
	if err != nil {
		return m, err
	}
	buildings = seen(sc, buildings)
	rollups, err := s.store.Rollups(ctx, account, domain.ScopeBuilding)
	if err != nil {
		return m, err
	}
	if sc.Limited() {
		m.Rollup = sumOf(rollups, buildings)
	} else if m.Rollup, err = s.store.Rollup(ctx, account, domain.ScopeAccount, account); err != nil {
		return m, err
	}
	floors, err := s.store.Floors(ctx, account, "")
	if err != nil {
		return m, err
	}
	floorsOf := map[string]int{}
	for _, f := range floors {
		floorsOf[f.BuildingID]++
	}
	for _, b := range buildings {
		m.Buildings = append(m.Buildings, Summary{ID: b.ID, Name: b.Name, Parts: floorsOf[b.ID], Rollup: rollups[b.ID]})
	}
	open, err := s.store.FindAlerts(ctx, store.AlertFilter{Account: account, Buildings: sc.IDs(), Status: domain.AlertOpen, Limit: alertLimit})
	if err != nil {
		return m, err
	}
	if m.Alerts, err = s.locate(ctx, account, open); err != nil {
		return m, err
	}
	if err := s.overviewLevels(ctx, account, sc, &m); err != nil {
		return m, err
	}
	// The visitors' reports are listed first; the counts stay those of
	// the service's alerts, which the rollups keep.
	visitors, places, err := s.visitorAlerts(ctx, sc, AlertFilter{Account: account, Buildings: sc.IDs()})
	m.Alerts = withVisitorAlerts(m.Alerts, visitors, places, alertLimit)
	return m, err
}

// DeviceFilter keeps the cards of one device type, one health, or both;
// the zero filter keeps every card.
type DeviceFilter struct {
	Type   domain.DeviceType // "" for any
	Health *domain.Health    // nil for any
	// RunsOutBy keeps the locations with a dispenser estimated to run out
	// by then, and not out yet; the zero time keeps any.
	RunsOutBy time.Time
	// BySoonestOut orders the rooms and their cards by when their first
	// dispenser runs out, or went out (RunsOutAt); those without an
	// estimate last, in their own order.
	BySoonestOut bool
}

// Active reports whether the filter leaves cards out.
func (f DeviceFilter) Active() bool { return f.Type != "" || f.Health != nil || !f.RunsOutBy.IsZero() }

// Keeps reports whether a card passes the filter.
func (f DeviceFilter) Keeps(c Card) bool {
	return (f.Type == "" || c.Location.Type == f.Type) && (f.Health == nil || c.Health == *f.Health) &&
		(f.RunsOutBy.IsZero() || c.RunsOutBy(f.RunsOutBy))
}

// RunsOutBy reports whether a dispenser of the card, not out yet, is
// estimated to run out by t.
func (c Card) RunsOutBy(t time.Time) bool {
	for _, e := range c.RunsOut {
		if e.Basis != forecast.ReportedOut && !e.At.After(t) {
			return true
		}
	}
	return false
}

// RunsOutAt is when the card's first dispenser will run out, or went
// out; false when none has an estimate.
func (c Card) RunsOutAt() (time.Time, bool) {
	var first time.Time
	for _, e := range c.RunsOut {
		if first.IsZero() || e.At.Before(first) {
			first = e.At
		}
	}
	return first, !first.IsZero()
}

// soonestOut orders two times of RunsOutAt: sooner first, none last.
func soonestOut(a time.Time, aOK bool, b time.Time, bOK bool) int {
	switch {
	case aOK && bOK:
		return a.Compare(b)
	case aOK:
		return -1
	case bOK:
		return 1
	}
	return 0
}

// RoomCards are the cards of one room's locations.
type RoomCards struct {
	Room   domain.Room
	Rollup domain.Rollup
	Cards  []Card
}

// Place is a building, floor or room page. A building's page has its
// floors as Parts; a floor's and a room's have their rooms' cards.
type Place struct {
	Building domain.Building
	Floor    domain.Floor // zero on a building's page
	Room     domain.Room  // zero but on a room's page
	Rollup   domain.Rollup
	Parts    []Summary
	Rooms    []RoomCards
	Places   Places
	// Plan is a floor's plan, with its placements, when HasPlan: on a
	// floor's page only.
	Plan    domain.FloorPlan
	HasPlan bool
	// Visitors are the open visitors' alerts of a floor's or a room's
	// rooms (domain.VisitorAlert), and VisitorClaims who is on them.
	Visitors      []domain.Alert
	VisitorClaims map[string]domain.Claim
}

// Building reads a building's page: its counts and its floors.
func (s *Service) Building(ctx context.Context, account string, sc domain.BuildingScope, id string) (Place, error) {
	if !sc.Sees(id) {
		return Place{}, notSeen("building", id)
	}
	b, err := s.store.Building(ctx, account, id)
	if err != nil {
		return Place{}, err
	}
	m := Place{Building: b}
	if m.Rollup, err = s.store.Rollup(ctx, account, domain.ScopeBuilding, b.ID); err != nil {
		return m, err
	}
	floors, err := s.store.Floors(ctx, account, b.ID)
	if err != nil {
		return m, err
	}
	floorIDs := make([]string, len(floors))
	roomsOf := map[string]int{}
	for i, f := range floors {
		floorIDs[i] = f.ID
		rooms, err := s.store.Rooms(ctx, account, f.ID)
		if err != nil {
			return m, err
		}
		roomsOf[f.ID] = len(rooms)
	}
	floorRollups, err := s.store.Rollups(ctx, account, domain.ScopeFloor, floorIDs...)
	if err != nil {
		return m, err
	}
	for _, f := range floors {
		m.Parts = append(m.Parts, Summary{ID: f.ID, Name: f.Name, Parts: roomsOf[f.ID], Rollup: floorRollups[f.ID]})
	}
	return m, nil
}

// Floor reads a floor's page: its rooms' cards that pass the filter. With
// an active filter, rooms with no card left are left out.
func (s *Service) Floor(ctx context.Context, account string, sc domain.BuildingScope, id string, filter DeviceFilter) (Place, error) {
	f, err := s.store.Floor(ctx, account, id)
	if err != nil {
		return Place{}, err
	}
	if !sc.Sees(f.BuildingID) {
		return Place{}, notSeen("floor", id)
	}
	b, err := s.store.Building(ctx, account, f.BuildingID)
	if err != nil {
		return Place{}, err
	}
	m := Place{Building: b, Floor: f}
	if m.Rollup, err = s.store.Rollup(ctx, account, domain.ScopeFloor, f.ID); err != nil {
		return m, err
	}
	rooms, err := s.store.Rooms(ctx, account, f.ID)
	if err != nil {
		return m, err
	}
	m.Places = placesIn(b, f, rooms)
	if m.Rooms, err = s.roomCards(ctx, account, "", f.ID, "", rooms, filter); err != nil {
		return m, err
	}
	roomIDs := make([]string, len(rooms))
	for i, r := range rooms {
		roomIDs[i] = r.ID
	}
	rollups, err := s.store.Rollups(ctx, account, domain.ScopeRoom, roomIDs...)
	if err != nil {
		return m, err
	}
	for i := range m.Rooms {
		m.Rooms[i].Rollup = rollups[m.Rooms[i].Room.ID]
	}
	if err := s.addVisitorAlerts(ctx, sc, &m, AlertFilter{Account: account, FloorID: f.ID}); err != nil {
		return m, err
	}
	m.Plan, err = s.store.FloorPlan(ctx, account, f.ID)
	if errors.Is(err, domain.ErrNotFound) {
		return m, nil
	}
	m.HasPlan = err == nil
	return m, err
}

// Room reads a room's page: its cards that pass the filter.
func (s *Service) Room(ctx context.Context, account string, sc domain.BuildingScope, id string, filter DeviceFilter) (Place, error) {
	r, err := s.store.Room(ctx, account, id)
	if err != nil {
		return Place{}, err
	}
	f, err := s.store.Floor(ctx, account, r.FloorID)
	if err != nil {
		return Place{}, err
	}
	if !sc.Sees(f.BuildingID) {
		return Place{}, notSeen("room", id)
	}
	b, err := s.store.Building(ctx, account, f.BuildingID)
	if err != nil {
		return Place{}, err
	}
	m := Place{Building: b, Floor: f, Room: r, Places: placesIn(b, f, []domain.Room{r})}
	if m.Rollup, err = s.store.Rollup(ctx, account, domain.ScopeRoom, r.ID); err != nil {
		return m, err
	}
	if m.Rooms, err = s.roomCards(ctx, account, "", "", r.ID, []domain.Room{r}, filter); err != nil {
		return m, err
	}
	for i := range m.Rooms {
		m.Rooms[i].Rollup = m.Rollup
	}
	return m, s.addVisitorAlerts(ctx, sc, &m, AlertFilter{Account: account, RoomID: r.ID})
}

// addVisitorAlerts adds to a place's page the open visitors' alerts the
// filter chooses, and who is on them.
func (s *Service) addVisitorAlerts(ctx context.Context, sc domain.BuildingScope, m *Place, f AlertFilter) error {
	alerts, places, err := s.visitorAlerts(ctx, sc, f)
	if err != nil || len(alerts) == 0 {
		return err
	}
	m.Visitors, m.Places = alerts, addPlaces(m.Places, places)
	claims, err := s.store.ActiveClaims(ctx, f.Account)
	m.VisitorClaims = claimsOf(claims, alerts)
	return err
}

// placesIn holds the places of one building, one floor and its rooms.
func placesIn(b domain.Building, f domain.Floor, rooms []domain.Room) Places {
	p := newPlaces()
	p.Buildings[b.ID], p.Floors[f.ID] = b, f
	for _, r := range rooms {
		p.Rooms[r.ID] = r
	}
	return p
}

// roomCards builds the cards of a floor's or a room's locations that pass
// the filter, grouped by room in the rooms' order.
func (s *Service) roomCards(ctx context.Context, account, building, floor, room string, rooms []domain.Room, filter DeviceFilter) ([]RoomCards, error) {
	cards, err := s.cardsIn(ctx, account, building, floor, room)
	if err != nil {
		return nil, err
	}
	byRoom := map[string][]Card{}
	for _, c := range cards {
		if filter.Keeps(c) {
			byRoom[c.Location.RoomID] = append(byRoom[c.Location.RoomID], c)
		}
	}
	var out []RoomCards
	for _, r := range rooms {
		if len(byRoom[r.ID]) == 0 && filter.Active() {
			continue
		}
		out = append(out, RoomCards{Room: r, Cards: byRoom[r.ID]})
	}
	if filter.BySoonestOut {
		for _, rc := range out {
			slices.SortStableFunc(rc.Cards, bySoonestOut)
		}
		// Each room's cards are in order now: its first is its soonest.
		slices.SortStableFunc(out, func(a, b RoomCards) int {
			if len(a.Cards) == 0 || len(b.Cards) == 0 {
				return cmp.Compare(len(b.Cards), len(a.Cards))
			}
			return bySoonestOut(a.Cards[0], b.Cards[0])
		})
	}
	return out, nil
}

// bySoonestOut orders cards by RunsOutAt: sooner first, none last.
func bySoonestOut(a, b Card) int {
	at, aOK := a.RunsOutAt()
	bt, bOK := b.RunsOutAt()
	return soonestOut(at, aOK, bt, bOK)
}

// cardsIn builds the cards of every location of an account, building,
// floor or room (the ids not empty narrow it).
func (s *Service) cardsIn(ctx context.Context, account, building, floor, room string) ([]Card, error) {
	locs, err := s.store.LocationsIn(ctx, account, building, floor, room)
	if err != nil {
		return nil, err
	}
	devices, err := s.store.FindDevices(ctx, store.DeviceFilter{Account: account, BuildingID: building, FloorID: floor, RoomID: room})
	if err != nil {
		return nil, err
	}
	open, err := s.store.FindAlerts(ctx, store.AlertFilter{Account: account, BuildingID: building, FloorID: floor, RoomID: room, Status: domain.AlertOpen})
	if err != nil {
		return nil, err
	}
	cards := cardsOf(locs, devices, open)
	s.addForecasts(account, cards)
	return cards, s.addClaims(ctx, account, cards)
}

// addForecasts gives each card when its dispensers will run out.
func (s *Service) addForecasts(account string, cards []Card) {
	if s.forecast == nil {
		return
	}
	estimates := s.forecast.Estimates(account)
	if len(estimates) == 0 {
		return
	}
	for i, cd := range cards {
		for _, d := range cd.Devices {
			if e, ok := estimates[d.MAC]; ok {
				if cards[i].RunsOut == nil {
					cards[i].RunsOut = map[string]forecast.Estimate{}
				}
				cards[i].RunsOut[d.MAC] = e
			}
		}
	}
}

// addClaims gives each card who is on its open alerts.
func (s *Service) addClaims(ctx context.Context, account string, cards []Card) error {
	claims, err := s.store.ActiveClaims(ctx, account)
	if err != nil || len(claims) == 0 {
		return err
	}
	for i, cd := range cards {
		for _, a := range cd.Alerts {
			if c, ok := claims[a.ID]; ok {
				if cards[i].Claims == nil {
					cards[i].Claims = map[string]domain.Claim{}
				}
				cards[i].Claims[a.ID] = c
			}
		}
	}
	return nil
}

// Location reads one location's card and the places it is in.
func (s *Service) Location(ctx context.Context, account string, sc domain.BuildingScope, id string) (Card, Places, error) {
	l, err := s.store.Location(ctx, account, id)
	if err != nil {
		return Card{}, Places{}, err
	}
	if err := s.seesLocation(ctx, account, sc, id); err != nil {
		return Card{}, Places{}, err
	}
	c, err := s.cardOfLocation(ctx, account, l)
	if err != nil {
		return Card{}, Places{}, err
	}
	p, _, err := s.placesOf(ctx, account, []string{l.ID})
	return c, p, err
}

func (s *Service) cardOfLocation(ctx context.Context, account string, l domain.Location) (Card, error) {
	devices, err := s.store.FindDevices(ctx, store.DeviceFilter{Account: account, LocationID: l.ID})
	if err != nil {
		return Card{}, err
	}
	open, err := s.store.FindAlerts(ctx, store.AlertFilter{Account: account, LocationID: l.ID, Status: domain.AlertOpen})
	if err != nil {
		return Card{}, err
	}
	cards := []Card{cardOf(l, devices, open)}
	s.addForecasts(account, cards)
	return cards[0], s.addClaims(ctx, account, cards)
}

// Search finds at most limit locations by their name, their room's name or
// a device's MAC address; more reports whether there were more.
func (s *Service) Search(ctx context.Context, account string, sc domain.BuildingScope, query string, limit int) (cards []Card, p Places, more bool, err error) {
	locs, err := s.store.SearchLocations(ctx, account, query, sc.IDs(), limit+1)
	if err != nil {
		return nil, p, false, err
	}
	if len(locs) > limit {
		locs, more = locs[:limit], true
	}
	ids := make([]string, len(locs))
	for i, l := range locs {
		ids[i] = l.ID
	}
	if p, _, err = s.placesOf(ctx, account, ids); err != nil {
		return nil, p, false, err
	}
	cards = make([]Card, 0, len(locs))
	for _, l := range locs {
		c, err := s.cardOfLocation(ctx, account, l)
		if err != nil {
			return nil, p, false, err
		}
		cards = append(cards, c)
	}
	return cards, p, more, nil
}

// Scope narrows a view to a building, a floor or a room of an account;
// the zero Scope is the whole account.
type Scope struct {
	Building, Floor, Room string
}

// CheckScope says which of the scope's places is not one of the account's
// that the person's scope sees: "building", "floor" or "room", "" when
// all are.
func (s *Service) CheckScope(ctx context.Context, account string, seer domain.BuildingScope, sc Scope) (string, error) {
	for _, c := range []struct {
		kind, id string
		read     func(ctx context.Context, account, id string) error
	}{
		{"building", sc.Building, func(ctx context.Context, a, id string) error {
			if !seer.Sees(id) {
				return notSeen("building", id)
			}
			_, err := s.store.Building(ctx, a, id)
			return err
		}},
		{"floor", sc.Floor, func(ctx context.Context, a, id string) error { return s.seesFloorOf(ctx, a, seer, id) }},
		{"room", sc.Room, func(ctx context.Context, a, id string) error { return s.seesRoomOf(ctx, a, seer, id) }},
	} {
		if c.id == "" {
			continue
		}
		switch err := c.read(ctx, account, c.id); {
		case errors.Is(err, domain.ErrNotFound):
			return c.kind, nil
		case err != nil:
			return "", err
		}
	}
	return "", nil
}

// Devices reads the cards of a scope that pass the filter, for the
// devices export, and every place of the account the person's scope sees.
func (s *Service) Devices(ctx context.Context, account string, seer domain.BuildingScope, sc Scope, filter DeviceFilter) ([]Card, Places, error) {
	cards, err := s.cardsIn(ctx, account, sc.Building, sc.Floor, sc.Room)
	if seer.Limited() && err == nil {
		cards, err = s.cardsSeen(ctx, account, seer, cards)
	}
	if err != nil {
		return nil, Places{}, err
	}
	kept := cards[:0]
	for _, c := range cards {
		if filter.Keeps(c) {
			kept = append(kept, c)
		}
	}
	if filter.BySoonestOut {
		slices.SortStableFunc(kept, bySoonestOut)
	}
	p, err := s.allPlaces(ctx, account)
	if err == nil && seer.Limited() {
		p = p.seen(seer)
	}
	return kept, p, err
}
