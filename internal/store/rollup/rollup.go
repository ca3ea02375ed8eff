// Package rollup counts an account's locations, by health, and their open
// and overdue alerts into the rollups of the account, its buildings,
// floors and rooms: the rules every store engine keeps its counts by,
// whether it counts a whole account again or moves the counts of a few
// locations.
package rollup

import (
	"cmp"
	"slices"
	"strings"

	"washboard/internal/domain"
)

// Key names the rollup of one part of an account.
type Key struct {
	Scope domain.Scope
	ID    string
}

// SortKeys sorts keys by scope, then id: the order of the rollups' primary
// key, in which writers touch them.
func SortKeys(keys []Key) {
	slices.SortFunc(keys, func(a, b Key) int {
		return cmp.Or(strings.Compare(string(a.Scope), string(b.Scope)), strings.Compare(a.ID, b.ID))
	})
}

// Place is where a location is in the layout.
type Place struct{ Location, Room, Floor, Building string }

// Alerts are the open and overdue alerts of a location.
type Alerts struct{ Open, Overdue int }

// Worsen records a device of the location in health h: the location's
// devices' health is the worst of theirs.
func Worsen(healths map[string]domain.Health, location string, h domain.Health) {
	if prev, ok := healths[location]; ok {
		h = domain.Worse(prev, h)
	}
	healths[location] = h
}

// Health is a location's health: the worst of its devices' (devices, when
// reported says any has reported), offline when none has, and needs-action
// when one of its open alerts is overdue, devices or not.
func Health(devices domain.Health, reported bool, a Alerts) domain.Health {
	h := devices
	if !reported {
		h = domain.HealthOffline
	}
	if a.Overdue > 0 {
		h = domain.Worse(h, domain.HealthAction)
	}
	return h
}

// Sum adds up the locations of the layout, by health, and their alerts
// into the account, its buildings, floors and rooms. The alerts of
// locations the layout does not list count for the account only. healths
// holds the health of the devices of each location that has any. The
// account always has a rollup; other parts have one when they have
// locations.
func Sum(account string, places []Place, healths map[string]domain.Health, alerts map[string]Alerts) map[Key]*domain.Rollup {
	sums := map[Key]*domain.Rollup{}
	add := func(k Key, h domain.Health, counted bool, a Alerts) {
		r := sums[k]
		if r == nil {
			r = &domain.Rollup{}
			sums[k] = r
		}
		if counted {
			r.Add(h)
		}
		r.OpenAlerts += a.Open
		r.OverdueAlerts += a.Overdue
	}
	accountKey := Key{domain.ScopeAccount, account}
	add(accountKey, 0, false, Alerts{})
	listed := make(map[string]bool, len(places))
	for _, p := range places {
		listed[p.Location] = true
		h, reported := healths[p.Location]
		a := alerts[p.Location]
		h = Health(h, reported, a)
		for _, k := range []Key{accountKey, {domain.ScopeBuilding, p.Building}, {domain.ScopeFloor, p.Floor}, {domain.ScopeRoom, p.Room}} {
			add(k, h, true, a)
		}
	}
	for loc, a := range alerts {
		if !listed[loc] {
			add(accountKey, 0, false, a)
		}
	}
	return sums
}

// State is what one location adds to the rollups of the parts it is in:
// its place (when the layout lists it), its health, and its alerts.
type State struct {
	Place    Place
	InLayout bool
	Health   domain.Health
	Alerts   Alerts
}

// Delta is how much the counts of one part move; they may be negative.
type Delta struct {
	Key    Key
	Counts domain.Rollup
}

// Deltas returns how the rollups move when some locations go from their
// states before to their states after, a change that touched nothing
// else: only the parts whose counts move, in SortKeys's order.
func Deltas(account string, before, after map[string]State) []Delta {
	moves := map[Key]*domain.Rollup{}
	add := func(s State, sign int) {
		keys := []Key{{domain.ScopeAccount, account}}
		if s.InLayout {
			keys = append(keys, Key{domain.ScopeBuilding, s.Place.Building}, Key{domain.ScopeFloor, s.Place.Floor}, Key{domain.ScopeRoom, s.Place.Room})
		}
		for _, k := range keys {
			d := moves[k]
			if d == nil {
				d = &domain.Rollup{}
				moves[k] = d
			}
			if s.InLayout {
				switch s.Health {
				case domain.HealthOK:
					d.OK += sign
				case domain.HealthAttention:
					d.Attention += sign
				case domain.HealthAction:
					d.Action += sign
				case domain.HealthOffline:
					d.Offline += sign
				}
			}
			d.OpenAlerts += sign * s.Alerts.Open
			d.OverdueAlerts += sign * s.Alerts.Overdue
		}
	}
	for id, s := range before {
		add(s, -1)
		add(after[id], +1)
	}
	keys := make([]Key, 0, len(moves))
	for k, d := range moves {
		if *d != (domain.Rollup{}) {
			keys = append(keys, k)
		}
	}
	SortKeys(keys)
	out := make([]Delta, len(keys))
	for i, k := range keys {
		out[i] = Delta{k, *moves[k]}
	}
	return out
}
