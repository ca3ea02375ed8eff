package dashboard

import (
	"context"
	"time"

	"washboard/internal/domain"
	"washboard/internal/forecast"
	"washboard/internal/store"
)

// ClientState is an account's state as a portfolio of accounts shows it,
// as a scope sees it.
type ClientState struct {
	// Rollup counts the locations by health, and the open and overdue
	// alerts, as the account's overview does.
	Rollup domain.Rollup
	// Unclaimed are the open alerts nobody is on.
	Unclaimed int
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
	// offline, needs attention with an open alert, a location needing
	// attention or a dispenser about to run out.
	Health domain.Health
}

// maxClientAlerts bounds the open alerts read to count those unclaimed.
const maxClientAlerts = 10_000

// ClientState reads an account's state for a portfolio, as the scope
// sees it, at now; zone is the time zone of its shifts unless it has
// saved its own.
func (s *Service) ClientState(ctx context.Context, account string, sc domain.BuildingScope, zone *time.Location, now time.Time) (ClientState, error) {
	var cs ClientState
	var err error
	if cs.Rollup, err = s.rollupOf(ctx, account, sc); err != nil {
		return cs, err
	}
	open, err := s.store.FindAlerts(ctx, store.AlertFilter{Account: account, Buildings: sc.IDs(), Status: domain.AlertOpen, Limit: maxClientAlerts})
	if err != nil {
		return cs, err
	}
	claims, err := s.store.ActiveClaims(ctx, account)
	if err != nil {
		return cs, err
	}
	for _, a := range open {
		if _, ok := claims[a.ID]; !ok {
			cs.Unclaimed++
		}
	}
	devices, err := s.store.FindDevices(ctx, store.DeviceFilter{Account: account, Buildings: sc.IDs()})
	if err != nil {
		return cs, err
	}
	if cs.Shift, cs.ShiftEnd, err = s.shiftEnd(ctx, account, zone, now); err != nil {
		return cs, err
	}
	var estimates map[string]forecast.Estimate
	if s.forecast != nil {
		estimates = s.forecast.Estimates(account)
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
		} else if e, ok := estimates[d.MAC]; ok && e.Basis != forecast.ReportedOut && !e.At.After(cs.ShiftEnd) {
			cs.RunOuts++
		}
	}
	if cs.Level, err = s.weekLevel(ctx, account, sc, zone, now); err != nil {
		return cs, err
	}
	cs.Health = cs.worst()
	return cs, nil
}

func (cs ClientState) worst() domain.Health {
	r := cs.Rollup
	switch {
	case r.Action > 0 || r.OverdueAlerts > 0:
		return domain.HealthAction
	case r.Offline > 0:
		return domain.HealthOffline
	case r.Attention > 0 || r.OpenAlerts > 0 || cs.RunOuts > 0:
		return domain.HealthAttention
	}
	return domain.HealthOK
}

// shiftEnd is the name and end of the account's shift at now, or of the
// next one when now falls between shifts.
func (s *Service) shiftEnd(ctx context.Context, account string, zone *time.Location, now time.Time) (string, time.Time, error) {
	shifts, zone, err := s.ReportSettings(ctx, account, zone)
	if err != nil {
		return "", time.Time{}, err
	}
	if p, ok := shifts.At(now, zone); ok {
		return p.Shift, p.End, nil
	}
	if p, ok := shifts.Next(shifts.LastEnded(now, zone)); ok {
		return p.Shift, p.End, nil
	}
	return "", now, nil
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
