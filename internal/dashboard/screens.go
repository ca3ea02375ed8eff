package dashboard

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"washboard/internal/domain"
	"washboard/internal/forecast"
	"washboard/internal/keyring"
	"washboard/internal/servicelevel"
	"washboard/internal/syncer"
)

// Wall screens are made by signed-in users. Each gets a link with a random
// 256-bit token, of which only the hash is stored; the credentials of the
// user who made it are stored sealed with the server's key, bound to the
// screen, so that the screen can keep its data fresh on its own.

// newToken returns a screen link token and its hash.
func newToken() (token string, hash []byte) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, tokenHash(token)
}

func tokenHash(token string) []byte {
	h := sha256.Sum256([]byte("screen-link\x00" + token))
	return h[:]
}

func (s *Service) sealCreds(screenID string, c domain.Credentials) ([]byte, error) {
	return s.keys.SealCredentials(keyring.ScreenCredentials, c, []byte(screenID)), nil
}

// openCreds opens a screen's credentials; keyring.ErrCannotOpen when this
// server's keys cannot.
func (s *Service) openCreds(screenID string, b []byte) (domain.Credentials, error) {
	c, _, err := s.keys.OpenCredentials(keyring.ScreenCredentials, b, []byte(screenID))
	return c, err
}

// MaxScreens is how many wall screens an account keeps at most, revoked
// ones included until they are removed (RemoveScreen): a revoked screen
// is relinked, or removed to make room, rather than counted for ever.
const MaxScreens = 200

// CreateScreen makes a screen showing the account's data with cred, and
// returns it with its link token, which is never stored; a
// *domain.LimitError when the account has MaxScreens already. What it
// shows lies within the maker's scope: domain.ErrNotFound otherwise, as
// for a place the account does not have.
func (s *Service) CreateScreen(ctx context.Context, maker domain.BuildingScope, sc domain.Screen, cred domain.Credentials) (domain.Screen, string, error) {
	if err := s.screenWithin(ctx, sc.Account, maker, sc.Scope); err != nil {
		return sc, "", err
	}
	id := make([]byte, 8)
	if _, err := rand.Read(id); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	sc.ID, sc.Created = hex.EncodeToString(id), s.clock.Now()
	sealed, err := s.sealCreds(sc.ID, cred)
	if err != nil {
		return sc, "", err
	}
	token, hash := newToken()
	switch err := s.store.CreateScreen(ctx, sc, hash, sealed, MaxScreens); {
	case errors.Is(err, domain.ErrLimit):
		return sc, "", &domain.LimitError{What: "wall screens", Max: MaxScreens,
			Advice: "Revoked screens can be removed to make room: use Remove beside one in the list. Or reuse a screen it no longer uses (New link gives it a new link, Edit a new name and scope) rather than adding one."}
	case err != nil:
		return sc, "", err
	}
	return sc, token, nil
}

// Screen reads one of the account's screens that shows what the scope
// sees (screenWithin).
func (s *Service) Screen(ctx context.Context, account string, seer domain.BuildingScope, id string) (domain.Screen, error) {
	sc, err := s.store.Screen(ctx, account, id)
	if err != nil {
		return sc, err
	}
	if s.screenWithin(ctx, account, seer, sc.Scope) != nil {
		return domain.Screen{}, notSeen("screen", id)
	}
	return sc, nil
}

// UpdateScreen renames, re-scopes or re-configures one of the account's
// screens, one the scope sees, to show what it sees.
func (s *Service) UpdateScreen(ctx context.Context, seer domain.BuildingScope, sc domain.Screen) error {
	if _, err := s.Screen(ctx, sc.Account, seer, sc.ID); err != nil {
		return err
	}
	if err := s.screenWithin(ctx, sc.Account, seer, sc.Scope); err != nil {
		return err
	}
	return s.store.UpdateScreen(ctx, sc)
}

// RevokeScreen unlinks a screen the scope sees.
func (s *Service) RevokeScreen(ctx context.Context, account string, seer domain.BuildingScope, id string) error {
	if _, err := s.Screen(ctx, account, seer, id); err != nil {
		return err
	}
	return s.store.RevokeScreen(ctx, account, id, s.clock.Now())
}

// screenWithin is nil when what a screen shows lies within the scope: any
// place for a scope of every building; one of its buildings, or a floor
// of one, otherwise. domain.ErrNotFound when it does not, as for a place
// the account does not have.
func (s *Service) screenWithin(ctx context.Context, account string, seer domain.BuildingScope, scope domain.ScreenScope) error {
	if !seer.Limited() {
		return nil
	}
	switch scope.Kind {
	case "building":
		if seer.Sees(scope.ID) {
			return nil
		}
	case "floor":
		f, err := s.store.Floor(ctx, account, scope.ID)
		if err == nil && seer.Sees(f.BuildingID) {
			return nil
		}
	}
	return notSeen(scope.Kind, scope.ID)
}

// ScreenRemovable is the rule of removing a screen: only a revoked one can
// be, so that a screen in use never leaves the list unseen.
func ScreenRemovable(sc domain.Screen) bool { return !sc.Revoked.IsZero() }

// RemoveScreen removes a revoked screen of the account for good, with the
// credentials it keeps: it no longer counts toward MaxScreens, and its old
// link answers as an unknown one. domain.ErrScreenLinked when the screen
// is not revoked (or was relinked meanwhile); domain.ErrNotFound when the
// account has no screen of the id.
func (s *Service) RemoveScreen(ctx context.Context, account string, seer domain.BuildingScope, id string) error {
	sc, err := s.Screen(ctx, account, seer, id)
	if err != nil {
		return err
	}
	if !ScreenRemovable(sc) {
		return fmt.Errorf("screen %q: %w", id, domain.ErrScreenLinked)
	}
	return s.store.RemoveScreen(ctx, account, id)
}

// RelinkScreen gives a screen a new link token and the credentials cred;
// the old link, and the browser opened with it, stop working.
func (s *Service) RelinkScreen(ctx context.Context, account string, seer domain.BuildingScope, id string, cred domain.Credentials) (domain.Screen, string, error) {
	sc, err := s.Screen(ctx, account, seer, id)
	if err != nil {
		return sc, "", err
	}
	sealed, err := s.sealCreds(sc.ID, cred)
	if err != nil {
		return sc, "", err
	}
	token, hash := newToken()
	if err := s.store.RelinkScreen(ctx, account, sc.ID, hash, sealed); err != nil {
		return sc, "", err
	}
	return sc, token, nil
}

// ScreenOfLink returns the screen a link token opens; domain.ErrNotFound
// when the token opens none (it was replaced, or the screen unlinked).
func (s *Service) ScreenOfLink(ctx context.Context, token string) (domain.Screen, error) {
	sc, _, err := s.screenByToken(ctx, tokenHash(token))
	if err == nil && !sc.Revoked.IsZero() {
		return sc, domain.ErrNotFound
	}
	return sc, err
}

// LinkState says whether a linked browser's screen shows data.
type LinkState int

const (
	// Linked: the screen shows its data.
	Linked LinkState = iota
	// Unlinked: the screen was unlinked, or linked anew elsewhere.
	Unlinked
	// NeedsLink: the server's keys cannot open what it keeps for the
	// screen (the key changed); only a new link brings it back.
	NeedsLink
)

// LinkedScreen is a browser's screen, with the credentials it syncs with.
type LinkedScreen struct {
	Screen domain.Screen
	Cred   domain.Credentials
	State  LinkState
}

// LinkedScreen finds the screen a browser was linked to, from the screen
// id and link token its cookie holds.
func (s *Service) LinkedScreen(ctx context.Context, id, token string) (LinkedScreen, error) {
	sc, sealed, err := s.screenByToken(ctx, tokenHash(token))
	if errors.Is(err, domain.ErrNotFound) {
		return LinkedScreen{Screen: domain.Screen{ID: id}, State: Unlinked}, nil // linked anew: this browser is out
	}
	if err != nil {
		return LinkedScreen{}, err
	}
	if sc.ID != id || !sc.Revoked.IsZero() {
		return LinkedScreen{Screen: sc, State: Unlinked}, nil
	}
	if sc.Portfolio() {
		return LinkedScreen{Screen: sc}, nil // it reads accounts kept current by their connections
	}
	cred, err := s.openCreds(sc.ID, sealed)
	if errors.Is(err, keyring.ErrCannotOpen) {
		return LinkedScreen{Screen: sc, State: NeedsLink}, nil
	}
	if err != nil {
		return LinkedScreen{}, fmt.Errorf("opening screen %s's credentials: %w", sc.ID, err)
	}
	return LinkedScreen{Screen: sc, Cred: cred}, nil
}

// TouchScreen records that a screen checked in at now, at most once a
// minute.
func (s *Service) TouchScreen(ctx context.Context, sc domain.Screen, now time.Time) error {
	if now.Sub(sc.LastSeen) < time.Minute {
		return nil
	}
	if sc.Portfolio() {
		return s.store.TouchPortfolioScreen(ctx, sc.ID, now)
	}
	return s.store.TouchScreen(ctx, sc.ID, now)
}

// screenByToken finds the screen, of an account or of an organisation,
// whose link token has the hash, with the sealed credentials of an
// account's screen; domain.ErrNotFound when none has.
func (s *Service) screenByToken(ctx context.Context, hash []byte) (domain.Screen, []byte, error) {
	sc, sealed, err := s.store.ScreenByToken(ctx, hash)
	if errors.Is(err, domain.ErrNotFound) {
		sc, err = s.store.PortfolioScreenByToken(ctx, hash)
	}
	return sc, sealed, err
}

// ScreenSummary is a screen as the Screens page lists it.
type ScreenSummary struct {
	Screen    domain.Screen
	ScopeName string // what it shows, in words
	NeedsLink bool   // the server's keys cannot open its credentials
	Removable bool   // it can be removed from the list: see ScreenRemovable
	Rejection string // why the service rejects its credentials; "" when it does not
}

// Screens lists the account's screens that show what the scope sees.
func (s *Service) Screens(ctx context.Context, account string, seer domain.BuildingScope) ([]ScreenSummary, error) {
	screens, err := s.store.Screens(ctx, account)
	if err != nil {
		return nil, err
	}
	screens = slices.DeleteFunc(screens, func(sc domain.Screen) bool { return s.screenWithin(ctx, account, seer, sc.Scope) != nil })
	sealed, err := s.store.ScreenCredentials(ctx, account)
	if err != nil {
		return nil, err
	}
	out := make([]ScreenSummary, 0, len(screens))
	for _, sc := range screens {
		row := ScreenSummary{Screen: sc, Removable: ScreenRemovable(sc)}
		cred, openErr := s.openCreds(sc.ID, sealed[sc.ID])
		row.NeedsLink = openErr != nil
		if why, rejected := s.sync.Rejected(syncer.CredentialID(cred)); openErr == nil && rejected {
			row.Rejection = string(why)
		}
		if row.ScopeName, err = s.ScopeName(ctx, account, sc.Scope); err != nil {
			row.ScopeName = "A place no longer in the account"
		}
		out = append(out, row)
	}
	return out, nil
}

// BuildingFloors is a building and its floors, the places a screen can
// show.
type BuildingFloors struct {
	Building domain.Building
	Floors   []domain.Floor
}

// ScreenScopes lists the buildings and floors a screen of the account can
// show, of those the scope sees.
func (s *Service) ScreenScopes(ctx context.Context, account string, seer domain.BuildingScope) ([]BuildingFloors, error) {
	buildings, err := s.store.Buildings(ctx, account)
	if err != nil {
		return nil, err
	}
	buildings = seen(seer, buildings)
	out := make([]BuildingFloors, 0, len(buildings))
	for _, b := range buildings {
		floors, err := s.store.Floors(ctx, account, b.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, BuildingFloors{Building: b, Floors: floors})
	}
	return out, nil
}

// ScopeName says in words what a screen shows: the account's name, a
// building's, or a building's and a floor's.
func (s *Service) ScopeName(ctx context.Context, account string, scope domain.ScreenScope) (string, error) {
	switch scope.Kind {
	case "building":
		b, err := s.store.Building(ctx, account, scope.ID)
		return b.Name, err
	case "floor":
		f, err := s.store.Floor(ctx, account, scope.ID)
		if err != nil {
			return "", err
		}
		b, err := s.store.Building(ctx, account, f.BuildingID)
		return b.Name + " › " + f.Name, err
	}
	a, err := s.store.Account(ctx, account)
	return a.Name, err
}

// ScreenView is what a wall screen shows: its place's counts, what needs
// doing (most urgent first), and apart what only needs attention.
type ScreenView struct {
	ScopeName string
	Rollup    domain.Rollup
	Action    []ScreenGroup
	Attention []ScreenGroup
	// RunningOut are the rooms with dispensers, not out yet, estimated to
	// run out before RunsOutBy, most first.
	RunningOut []RoomRunningOut
	RunsOutBy  time.Time
	// Levels counts the open alerts of its place at risk of missing a
	// target and past one; Set is false when the account has no service
	// level.
	Levels LevelCounts
	// Rounds are the rounds running in its place, for a screen that shows
	// them, newest first.
	Rounds []domain.Round
	// Plans are the floor plans it shows, for a screen that shows them.
	Plans []ScreenPlan
}

// RoomRunningOut is how many dispensers of a room will run out soon.
type RoomRunningOut struct {
	Where      string
	Dispensers int
}

// runningOutAhead is how far ahead a screen looks for dispensers that
// will run out: the hour after this long from now.
const runningOutAhead = 4 * time.Hour

// ScreenGroup is the items of one room.
type ScreenGroup struct {
	Where string // "Level 3 › Men's Restroom 3.12", with the building when the screen shows the account
	Items []ScreenItem
}

// ScreenItem is one thing that needs doing at a location.
type ScreenItem struct {
	Location string
	Problem  string // in words: "Overdue: Product out", "Jammed", "Battery low", "Offline"
	// What is the problem as a value, which a screen says in its language.
	What     domain.ScreenProblem
	Severity domain.Health
	Since    time.Time // zero when unknown
	Overdue  bool
	// ClaimedBy is who is on the location (the first claim of its open
	// alerts), since ClaimedAt; empty when nobody is.
	ClaimedBy string
	ClaimedAt time.Time
	// Level is where the item's alert stands against its targets when it
	// is at risk of missing one or past one (the worst of its alerts when
	// it stands for several); nil otherwise.
	Level *AlertLevel
}

// ScreenView reads what a screen shows.
func (s *Service) ScreenView(ctx context.Context, sc domain.Screen) (ScreenView, error) {
	var m ScreenView
	account := sc.Account
	var err error
	if m.ScopeName, err = s.ScopeName(ctx, account, sc.Scope); err != nil {
		return m, err
	}
	scope, scopeID := domain.ScopeAccount, account
	var building, floor string
	switch sc.Scope.Kind {
	case "building":
		scope, scopeID, building = domain.ScopeBuilding, sc.Scope.ID, sc.Scope.ID
	case "floor":
		scope, scopeID, floor = domain.ScopeFloor, sc.Scope.ID, sc.Scope.ID
	}
	if m.Rollup, err = s.store.Rollup(ctx, account, scope, scopeID); err != nil {
		return m, err
	}
	cards, err := s.cardsIn(ctx, account, building, floor, "")
	if err != nil {
		return m, err
	}
	ids := make([]string, len(cards))
	for i, c := range cards {
		ids[i] = c.Location.ID
	}
	p, locs, err := s.placesOf(ctx, account, ids)
	if err != nil {
		return m, err
	}
	warnings, err := s.screenLevels(ctx, account, cards, Located{Locations: locs, Places: p}, &m.Levels)
	if err != nil {
		return m, err
	}
	reports, err := s.screenVisitorItems(ctx, sc, building, floor, &p)
	if err != nil {
		return m, err
	}
	m.Action, m.Attention = screenGroups(cards, sc, p, warnings, reports)
	m.RunsOutBy = s.clock.Now().Add(runningOutAhead).Truncate(time.Hour).Add(time.Hour)
	m.RunningOut = runningOut(cards, sc, p, m.RunsOutBy)
	if sc.Rounds {
		if m.Rounds, err = s.screenRounds(ctx, sc); err != nil {
			return m, err
		}
	}
	m.Plans, err = s.screenPlans(ctx, sc, cards, p)
	return m, err
}

// screenVisitorItems are the items of the visitors' open reports of the
// screen's place (the account's, the building's or the floor's), by room,
// each saying who is on it; p gains the places they are in.
func (s *Service) screenVisitorItems(ctx context.Context, sc domain.Screen, building, floor string, p *Places) (map[string][]rankedItem, error) {
	alerts, vp, err := s.visitorAlerts(ctx, domain.BuildingScope{}, AlertFilter{Account: sc.Account, BuildingID: building, FloorID: floor})
	if err != nil || len(alerts) == 0 {
		return nil, err
	}
	claims, err := s.store.ActiveClaims(ctx, sc.Account)
	if err != nil {
		return nil, err
	}
	*p = addPlaces(*p, vp)
	out := map[string][]rankedItem{}
	for _, a := range alerts {
		r := a.Visitor
		c := claims[a.ID]
		out[r.RoomID] = append(out[r.RoomID], rankedItem{ScreenItem{
			Problem:  "Reported by a visitor",
			What:     domain.ScreenProblem{Kind: domain.ProblemVisitor, Visitor: r.Kind, Text: r.Text},
			Severity: domain.HealthAction, Since: r.Created, ClaimedBy: c.Name, ClaimedAt: c.At,
		}, rankVisitor})
	}
	return out, nil
}

// screenLevels measures the open alerts of the cards against their
// targets, as the alerts page does (alertLevels), counts those at risk and
// past target into c, and returns those by alert id.
func (s *Service) screenLevels(ctx context.Context, account string, cards []Card, al Located, c *LevelCounts) (map[string]AlertLevel, error) {
	ps, err := s.policies(ctx, account)
	if err != nil || len(ps) == 0 {
		return nil, err
	}
	c.Set = true
	for _, cd := range cards {
		al.Alerts = append(al.Alerts, cd.Alerts...)
	}
	levels, err := s.measureAlerts(ctx, account, ps, al, s.clock.Now())
	if err != nil {
		return nil, err
	}
	warnings := map[string]AlertLevel{}
	for id, l := range levels {
		switch l.Worst() {
		case servicelevel.AtRisk:
			c.AtRisk++
		case servicelevel.Missed:
			c.Missed++
		default:
			continue
		}
		warnings[id] = l
	}
	return warnings, nil
}

// runningOut counts, by room, the dispensers not out yet that are
// estimated to run out by t, most first.
func runningOut(cards []Card, sc domain.Screen, p Places, t time.Time) []RoomRunningOut {
	byRoom := map[string]int{}
	for _, cd := range cards {
		for _, d := range cd.Devices {
			if e, ok := cd.RunsOut[d.MAC]; ok && e.Basis != forecast.ReportedOut && !e.At.After(t) {
				byRoom[cd.Location.RoomID]++
			}
		}
	}
	out := make([]RoomRunningOut, 0, len(byRoom))
	for room, n := range byRoom {
		b, f, r, _ := p.Path(room)
		where := f.Name + " › " + r.Name
		if sc.Scope.Kind == "account" {
			where = b.Name + " › " + where
		}
		out = append(out, RoomRunningOut{Where: where, Dispensers: n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Dispensers != out[j].Dispensers {
			return out[i].Dispensers > out[j].Dispensers
		}
		return out[i].Where < out[j].Where
	})
	return out
}

// The ranks of a screen's items: what needs action comes first.
const (
	rankOverdue = iota
	rankOut
	rankFault
	rankVisitor // a visitor's report: a person's word, after what the devices say is wrong
	rankBattery
	rankOffline
	rankLow
)

type rankedItem struct {
	ScreenItem
	rank int
}

// screenGroups turns the cards the screen shows into items in words,
// grouped by room: what needs action (overdue or past a service level
// target, out, faults, batteries out, offline), the most urgent rooms and
// items first; and apart, what only needs attention (product or battery
// low). warnings are the open alerts at risk of missing a target or past
// one, by id: a location with one shows when the screen shows what needs
// action, whatever its health. visitors are the items of the visitors'
// open reports, by room: they need action, and join their room's group,
// after its overdue, out and faulty dispensers (oldest report first).
func screenGroups(cards []Card, sc domain.Screen, p Places, warnings map[string]AlertLevel, visitors map[string][]rankedItem) (action, attention []ScreenGroup) {
	type group struct {
		where string
		items []rankedItem
		best  int
	}
	actionBy, attentionBy := map[string]*group{}, map[string]*group{}
	groupOf := func(groups map[string]*group, room string) *group {
		g := groups[room]
		if g == nil {
			b, f, r, _ := p.Path(room)
			where := f.Name + " › " + r.Name
			if sc.Scope.Kind == "account" {
				where = b.Name + " › " + where
			}
			g = &group{where: where, best: rankLow + 1}
			groups[room] = g
		}
		return g
	}
	for _, cd := range cards {
		if !sc.Shows(cd.Health) && !((cd.Health == domain.HealthAction || warned(cd, warnings)) && sc.Shows(domain.HealthAction)) {
			continue
		}
		for _, it := range cardItems(cd, warnings) {
			g := groupOf(actionBy, cd.Location.RoomID)
			if it.Severity == domain.HealthAttention {
				g = groupOf(attentionBy, cd.Location.RoomID)
			}
			g.items = append(g.items, it)
			g.best = min(g.best, it.rank)
		}
	}
	if sc.Shows(domain.HealthAction) {
		for room, items := range visitors {
			g := groupOf(actionBy, room)
			g.items = append(g.items, items...)
			g.best = min(g.best, rankVisitor)
		}
	}
	sorted := func(groups map[string]*group) []ScreenGroup {
		list := make([]*group, 0, len(groups))
		for _, g := range groups {
			sort.SliceStable(g.items, func(i, j int) bool { return g.items[i].rank < g.items[j].rank })
			list = append(list, g)
		}
		sort.Slice(list, func(i, j int) bool {
			if list[i].best != list[j].best {
				return list[i].best < list[j].best
			}
			return list[i].where < list[j].where
		})
		out := make([]ScreenGroup, 0, len(list))
		for _, g := range list {
			sg := ScreenGroup{Where: g.where}
			for _, it := range g.items {
				sg.Items = append(sg.Items, it.ScreenItem)
			}
			out = append(out, sg)
		}
		return out
	}
	return sorted(actionBy), sorted(attentionBy)
}

// warned reports whether an open alert of the card is at risk of missing
// a target or past one.
func warned(cd Card, warnings map[string]AlertLevel) bool {
	for _, a := range cd.Alerts {
		if _, ok := warnings[a.ID]; ok {
			return true
		}
	}
	return false
}

// cardItems says in words what needs doing at one location, and who is
// on it. An item that stands for open alerts at risk of missing a target
// or past one (warnings, by id) says so; one past its target ranks with
// the overdue ones. Such an alert that no item stands for (its device no
// longer shows what it is about) gets an item of its own.
func cardItems(cd Card, warnings map[string]AlertLevel) []rankedItem {
	var out []rankedItem
	var claim domain.Claim
	for _, c := range cd.Claims {
		if claim.Name == "" || c.At.Before(claim.At) {
			claim = c
		}
	}
	shown := map[string]bool{} // the warned alerts an item stands for
	// levelOf is the worst warning of the open alerts of the types, of
	// the device mac ("" for any).
	levelOf := func(mac string, types ...domain.AlertType) *AlertLevel {
		var worst *AlertLevel
		for _, a := range cd.Alerts {
			l, ok := warnings[a.ID]
			if !ok || !slices.Contains(types, a.Type) || (mac != "" && len(a.MACs) > 0 && !slices.Contains(a.MACs, mac)) {
				continue
			}
			shown[a.ID] = true
			if worst == nil || l.Worst() == servicelevel.Missed {
				worst = &l
			}
		}
		return worst
	}
	add := func(rank int, what domain.ScreenProblem, problem string, sev domain.Health, since time.Time, overdue bool, level *AlertLevel) {
		if level != nil && level.Worst() == servicelevel.Missed {
			rank = rankOverdue
		}
		out = append(out, rankedItem{ScreenItem{Location: cd.Location.Name, Problem: problem, What: what, Severity: sev, Since: since, Overdue: overdue,
			ClaimedBy: claim.Name, ClaimedAt: claim.At, Level: level}, rank})
	}
	overdueTypes := map[domain.AlertType]bool{}
	for _, a := range cd.Alerts {
		if a.Overdue {
			overdueTypes[a.Type] = true
			var level *AlertLevel
			if l, ok := warnings[a.ID]; ok {
				shown[a.ID], level = true, &l
			}
			add(rankOverdue, domain.ScreenProblem{Kind: domain.ProblemOverdue, Alert: a.Type}, "Overdue: "+a.Type.Label(), domain.HealthAction, a.Created, true, level)
		}
	}
	for _, d := range cd.Devices {
		if d.Offline {
			add(rankOffline, domain.ScreenProblem{Kind: domain.ProblemOffline}, "Offline", domain.HealthOffline, d.LastSeen, false, levelOf(d.MAC, domain.AlertDeviceOff))
			continue
		}
		out, low := 0, 0
		for _, comp := range d.Compartments {
			if comp.Out {
				out++
			} else if comp.Low {
				low++
			}
		}
		if out > 0 && !overdueTypes[domain.AlertConsumableOut] {
			add(rankOut, domain.ScreenProblem{Kind: domain.ProblemOut}, "Product out", domain.HealthAction, time.Time{}, false, levelOf(d.MAC, domain.AlertConsumableOut))
		}
		for _, f := range d.Faults {
			add(rankFault, domain.ScreenProblem{Kind: domain.ProblemFault, Fault: f}, f.Label(), domain.HealthAction, time.Time{}, false, levelOf(d.MAC, faultAlertTypes[f.Kind]...))
		}
		switch d.BatteryState {
		case domain.BatteryShutdown:
			if !overdueTypes[domain.AlertBatteryOut] {
				add(rankBattery, domain.ScreenProblem{Kind: domain.ProblemBatteryOut}, "Battery out", domain.HealthAction, time.Time{}, false, levelOf(d.MAC, domain.AlertBatteryOut))
			}
		case domain.BatteryLow:
			add(rankBattery, domain.ScreenProblem{Kind: domain.ProblemBatteryLow}, "Battery low", domain.HealthAttention, time.Time{}, false, nil)
		}
		if low > 0 && out == 0 {
			add(rankLow, domain.ScreenProblem{Kind: domain.ProblemLow}, "Product low", domain.HealthAttention, time.Time{}, false, nil)
		}
	}
	if len(cd.Devices) == 0 {
		add(rankOffline, domain.ScreenProblem{Kind: domain.ProblemNoDevice}, "No device reporting", domain.HealthOffline, time.Time{}, false, nil)
	}
	for _, a := range cd.Alerts {
		if l, ok := warnings[a.ID]; ok && !shown[a.ID] {
			add(rankFault, domain.ScreenProblem{Kind: domain.ProblemAlert, Alert: a.Type}, a.Type.Label(), domain.HealthAction, a.Created, false, &l)
		}
	}
	return out
}

// faultAlertTypes are the types of the alerts a device's fault of each
// kind stands for.
var faultAlertTypes = map[domain.FaultKind][]domain.AlertType{
	domain.FaultJam:    {domain.AlertJam},
	domain.FaultSensor: {domain.AlertSensor, domain.AlertIncorrectlyLoaded},
	domain.FaultSystem: {domain.AlertSystem},
}
