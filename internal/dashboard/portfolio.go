package dashboard

import (
	"context"
	"reflect"
	"sync"
	"time"

	"washboard/internal/domain"
	"washboard/internal/forecast"
	"washboard/internal/report"
	"washboard/internal/store"
)

// ClientState is an account's state as a portfolio of accounts shows it,
// as a scope sees it.
type ClientState struct {
	// Rollup counts the locations by health, and the open and overdue
	// alerts, as the account's overview does.
	Rollup domain.Rollup
	// Unclaimed are the open alerts nobody is on, visitors' reports
	// among them.
	Unclaimed int
	// Visitors are the visitors' reports open in the scope's rooms (not
	// counted in Rollup, which holds the service's alerts alone).
	Visitors int
	// DispensersOut are the devices with a compartment out, and
	// DevicesOffline those that have not reported for 24 hours.
	DispensersOut, DevicesOffline int
	// RunOuts are the dispensers, not out yet, estimated to run out before
	// ShiftEnd, the end of the account's current shift (or of the next one,
	// between shifts); Shift is its name.
	RunOuts  int
	Shift    string
	ShiftEnd time.Time
	// Level is how the account kept its service level this week.
	Level WeekLevel
	// Health is the worst of the account: needs action with an overdue
	// alert or a location needing action, offline with a location
	// offline, needs attention with an open alert, a visitor's report, a
	// location needing attention or a dispenser about to run out.
	Health domain.Health
}

// maxClientAlerts bounds the open alerts read to count those unclaimed.
const maxClientAlerts = 10_000

// maxClientStates bounds the accounts' states kept for the portfolio: one
// per account and scope, for 1,000 accounts (an organisation's most)
// seen whole and in up to three scopes of some buildings each.
const maxClientStates = 4_000

// A portfolio shows the state of every account of an organisation, each
// read from the cache with about six reads (counts, open alerts and
// claims, visitors' reports, devices, shifts, the week's measures): 200
// accounts are over a thousand reads, on every render. So each account's state is kept, by
// account and scope, for as long as what it is made of is unchanged:
//   - what the cache holds of the account: the sync engine's generation,
//     which moves with every change written here or announced by another
//     replica (a refresh, the service's events, a claim, saved shifts or
//     targets), has not moved;
//   - the week is the same (the service level counts the alerts closed
//     since Monday);
//   - the shift's end and the estimates of when dispensers run out are
//     the same: when either moves, the devices alone are read again to
//     count the run-outs.
//
// A visitors' report kept counts until it expires, a day after it was
// made, whether or not a read has closed it yet.

// clientKey names a kept state: an account as a scope sees it.
type clientKey struct {
	account string
	scope   string // domain.BuildingScope.Key
}

// keptClient is an account's state as read under one generation, with
// what is needed to bring it up to the clock. It
// is not changed once kept: a newer one replaces it.
type keptClient struct {
	generation uint64
	state      ClientState // without its shift, run-outs and health
	shifts     report.Shifts
	shiftZone  *time.Location
	zone       *time.Location // of the week
	monday     time.Time      // the week state.Level counts
	// runOuts counts the dispensers estimated to run out by shiftEnd, as
	// estimates said.
	runOuts   int
	shiftEnd  time.Time
	estimates map[string]forecast.Estimate
	// visitors are the visitors' reports open when read: each counts
	// until it is domain.VisitorReportsOpenFor old, when it expires.
	visitors []keptReport
}

// keptReport is a visitor's report as a kept state counts it.
type keptReport struct {
	created time.Time
	claimed bool
}

// clientStates are the accounts' states kept, at most maxClientStates.
type clientStates struct {
	mu sync.Mutex
	m  map[clientKey]*keptClient
}

func (c *clientStates) get(k clientKey) *keptClient {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[k]
}

// put keeps e under k, making room by letting another state go when
// maxClientStates are kept.
func (c *clientStates) put(k clientKey, e *keptClient) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[clientKey]*keptClient{}
	}
	if _, ok := c.m[k]; !ok && len(c.m) >= maxClientStates {
		for other := range c.m {
			delete(c.m, other)
			break
		}
	}
	c.m[k] = e
}

// ClientState returns an account's state for a portfolio, as the scope
// sees it, at now; zone is the time zone of its shifts unless it has
// saved its own, and of its week. It reads the cache only when the state
// kept is not what a read would return (see clientStates).
func (s *Service) ClientState(ctx context.Context, account string, sc domain.BuildingScope, zone *time.Location, now time.Time) (ClientState, error) {
	k := clientKey{account: account, scope: sc.Key()}
	gen := s.generation(account)
	kept := s.clients.get(k)
	e := kept
	if e == nil || e.generation != gen || e.zone != zone {
		var err error
		if e, err = s.readClient(ctx, account, sc, zone, now, s.estimates(account)); err != nil {
			return ClientState{}, err
		}
		e.generation = gen
	}
	estimates := s.estimates(account)
	next, changed := *e, e != kept
	if monday := mondayOf(now, zone); !monday.Equal(e.monday) {
		level, err := s.weekLevel(ctx, account, sc, monday)
		if err != nil {
			return ClientState{}, err
		}
		next.state.Level, next.monday, changed = level, monday, true
	}
	cs := next.state
	cs.Shift, cs.ShiftEnd = shiftAt(e.shifts, e.shiftZone, now)
	if !cs.ShiftEnd.Equal(e.shiftEnd) || !sameEstimates(estimates, e.estimates) {
		devices, err := s.store.FindDevices(ctx, store.DeviceFilter{Account: account, Buildings: sc.IDs()})
		if err != nil {
			return ClientState{}, err
		}
		next.runOuts, next.shiftEnd, next.estimates, changed = runOuts(devices, estimates, cs.ShiftEnd), cs.ShiftEnd, estimates, true
	}
	if changed {
		s.clients.put(k, &next)
	}
	cs.RunOuts = next.runOuts
	for _, r := range next.visitors {
		if now.Before(r.created.Add(domain.VisitorReportsOpenFor)) {
			cs.Visitors++
			if !r.claimed {
				cs.Unclaimed++
			}
		}
	}
	cs.Health = cs.worst()
	return cs, nil
}

// generation is the sync engine's generation of the account: zero
// without an engine.
func (s *Service) generation(account string) uint64 {
	if s.sync == nil {
		return 0
	}
	return s.sync.Generation(account)
}

// estimates are the account's estimates of when dispensers run out: nil
// without forecasts.
func (s *Service) estimates(account string) map[string]forecast.Estimate {
	if s.forecast == nil {
		return nil
	}
	return s.forecast.Estimates(account)
}

// readClient reads from the cache what an account's state is made of, as
// the scope sees it, at now, with its run-outs as estimates say.
func (s *Service) readClient(ctx context.Context, account string, sc domain.BuildingScope, zone *time.Location, now time.Time,
	estimates map[string]forecast.Estimate) (*keptClient, error) {
	e := &keptClient{zone: zone, monday: mondayOf(now, zone)}
	cs := &e.state
	var err error
	if cs.Rollup, err = s.rollupOf(ctx, account, sc); err != nil {
		return nil, err
	}
	open, err := s.store.FindAlerts(ctx, store.AlertFilter{Account: account, Buildings: sc.IDs(), Status: domain.AlertOpen, Limit: maxClientAlerts})
	if err != nil {
		return nil, err
	}
	claims, err := s.store.ActiveClaims(ctx, account)
	if err != nil {
		return nil, err
	}
	for _, a := range open {
		if _, ok := claims[a.ID]; !ok {
			cs.Unclaimed++
		}
	}
	visitors, _, err := s.visitorAlerts(ctx, sc, AlertFilter{Account: account, Buildings: sc.IDs()})
	if err != nil {
		return nil, err
	}
	for _, a := range visitors {
		_, claimed := claims[a.ID]
		e.visitors = append(e.visitors, keptReport{created: a.Created, claimed: claimed})
	}
	devices, err := s.store.FindDevices(ctx, store.DeviceFilter{Account: account, Buildings: sc.IDs()})
	if err != nil {
		return nil, err
	}
	for _, d := range devices {
		if d.Offline {
			cs.DevicesOffline++
		}
		out := false
		for _, c := range d.Compartments {
			out = out || c.Out
		}
		if out {
			cs.DispensersOut++
		}
	}
	if e.shifts, e.shiftZone, err = s.ReportSettings(ctx, account, zone); err != nil {
		return nil, err
	}
	_, e.shiftEnd = shiftAt(e.shifts, e.shiftZone, now)
	e.runOuts, e.estimates = runOuts(devices, estimates, e.shiftEnd), estimates
	if cs.Level, err = s.weekLevel(ctx, account, sc, e.monday); err != nil {
		return nil, err
	}
	return e, nil
}

// runOuts counts the dispensers, not out, estimated to run out by end.
func runOuts(devices []domain.Device, estimates map[string]forecast.Estimate, end time.Time) int {
	n := 0
	for _, d := range devices {
		if _, ok := runsOutBy(d, estimates, end); ok {
			n++
		}
	}
	return n
}

// runsOutBy returns when the dispenser is estimated to run out, when it
// is not out and that is by end.
func runsOutBy(d domain.Device, estimates map[string]forecast.Estimate, end time.Time) (time.Time, bool) {
	for _, c := range d.Compartments {
		if c.Out {
			return time.Time{}, false
		}
	}
	e, ok := estimates[d.MAC]
	if !ok || e.Basis == forecast.ReportedOut || e.At.After(end) {
		return time.Time{}, false
	}
	return e.At, true
}

// sameEstimates says whether a and b are the same map: the forecasts
// make a new map with each projection, and never change one given out.
func sameEstimates(a, b map[string]forecast.Estimate) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

func (cs ClientState) worst() domain.Health {
	r := cs.Rollup
	switch {
	case r.Action > 0 || r.OverdueAlerts > 0:
		return domain.HealthAction
	case r.Offline > 0:
		return domain.HealthOffline
	case r.Attention > 0 || r.OpenAlerts > 0 || cs.Visitors > 0 || cs.RunOuts > 0:
		return domain.HealthAttention
	}
	return domain.HealthOK
}

// shiftAt is the name and end of the shift at now, or of the next one
// when now falls between shifts.
func shiftAt(shifts report.Shifts, zone *time.Location, now time.Time) (string, time.Time) {
	if p, ok := shifts.At(now, zone); ok {
		return p.Shift, p.End
	}
	if p, ok := shifts.Next(shifts.LastEnded(now, zone)); ok {
		return p.Shift, p.End
	}
	return "", now
}

// rollupOf is the account's counts as the scope sees them: a scope of
// some buildings adds up theirs.
func (s *Service) rollupOf(ctx context.Context, account string, sc domain.BuildingScope) (domain.Rollup, error) {
	if !sc.Limited() {
		return s.store.Rollup(ctx, account, domain.ScopeAccount, account)
	}
	buildings, err := s.store.Buildings(ctx, account)
	if err != nil {
		return domain.Rollup{}, err
	}
	rollups, err := s.store.Rollups(ctx, account, domain.ScopeBuilding)
	if err != nil {
		return domain.Rollup{}, err
	}
	return sumOf(rollups, seen(sc, buildings)), nil
}
