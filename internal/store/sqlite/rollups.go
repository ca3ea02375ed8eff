package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"

	"washboard/internal/domain"
)

type scopeKey struct {
	scope domain.Scope
	id    string
}

// alertCount is the open and overdue alerts of a location.
type alertCount struct{ open, overdue int }

// rollupInputs are what an account's rollups are computed from that a
// refresh which does not change them may read early, while it waits for
// pages: where each location is, and the worst health of each location's
// devices. recomputeRollups reads those left nil.
type rollupInputs struct {
	places  []place
	healths map[string]domain.Health
}

// place is where a location is in the layout.
type place struct{ location, room, floor, building string }

// recomputeRollups brings the rollup counts of the account up to date,
// inside the refresh's transaction, so that pages read counts instead of
// scanning the fleet. A location's health is the worst of its devices',
// or needs-action when one of its alerts is overdue, or offline when no
// device has reported from it. It writes only what changed.
func recomputeRollups(ctx context.Context, tx *sql.Tx, key int64, account string, in rollupInputs) error {
	var err error
	if in.places == nil {
		if in.places, err = locationPlaces(ctx, tx, key); err != nil {
			return err
		}
	}
	if in.healths == nil {
		if in.healths, err = locationDeviceHealths(ctx, tx, key); err != nil {
			return err
		}
	}
	alerts, err := locationAlertCounts(ctx, tx, key)
	if err != nil {
		return err
	}
	sums := sumRollups(account, in.places, in.healths, alerts)
	existing, err := cachedRollups(ctx, tx, key)
	if err != nil {
		return err
	}
	return writeRollups(ctx, tx, key, sums, existing)
}

// locationPlaces reads where each location of the account is.
func locationPlaces(ctx context.Context, tx *sql.Tx, key int64) ([]place, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, room_id, floor_id, building_id FROM locations WHERE account_id = ?`, key)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []place{}
	for rows.Next() {
		var p place
		if err := rows.Scan(&p.location, &p.room, &p.floor, &p.building); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// locationDeviceHealths returns the worst health of the devices of each
// location that has any. It reads the devices in table order and compares
// in Go, which is cheaper than grouping them through the location index.
func locationDeviceHealths(ctx context.Context, tx *sql.Tx, key int64) (map[string]domain.Health, error) {
	out := map[string]domain.Health{}
	rows, err := tx.QueryContext(ctx, `SELECT location_id, health FROM devices WHERE account_id = ?`, key)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var h domain.Health
		if err := rows.Scan(&id, &h); err != nil {
			return nil, err
		}
		worsen(out, id, h)
	}
	return out, rows.Err()
}

// worsen records a device of the location in health h: the location's is
// the worst of its devices'.
func worsen(healths map[string]domain.Health, location string, h domain.Health) {
	if prev, ok := healths[location]; ok {
		h = domain.Worse(prev, h)
	}
	healths[location] = h
}

// locationAlertCounts counts the open and overdue alerts of each location
// that has open alerts.
func locationAlertCounts(ctx context.Context, tx *sql.Tx, key int64) (map[string]alertCount, error) {
	out := map[string]alertCount{}
	rows, err := tx.QueryContext(ctx, `SELECT location_id, count(*), sum(overdue) FROM alerts
		WHERE account_id = ? AND status = 'OPEN' GROUP BY location_id`, key)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var c alertCount
		if err := rows.Scan(&id, &c.open, &c.overdue); err != nil {
			return nil, err
		}
		out[id] = c
	}
	return out, rows.Err()
}

// sumRollups adds up the locations of the layout, by health, and their
// alerts into the account, its buildings, floors and rooms. The alerts of
// locations the layout does not list yet count for the account only. It
// takes the counts of alerts out of alerts as it goes.
func sumRollups(account string, places []place, deviceHealth map[string]domain.Health, alerts map[string]alertCount) map[scopeKey]*domain.Rollup {
	sums := map[scopeKey]*domain.Rollup{}
	add := func(k scopeKey, h domain.Health, counted bool, c alertCount) {
		r := sums[k]
		if r == nil {
			r = &domain.Rollup{}
			sums[k] = r
		}
		if counted {
			r.Add(h)
		}
		r.OpenAlerts += c.open
		r.OverdueAlerts += c.overdue
	}
	accountKey := scopeKey{domain.ScopeAccount, account}
	add(accountKey, 0, false, alertCount{})
	for _, p := range places {
		h, reported := deviceHealth[p.location]
		if !reported {
			h = domain.HealthOffline // no device has reported from this location
		}
		c := alerts[p.location]
		delete(alerts, p.location)
		if c.overdue > 0 {
			h = domain.Worse(h, domain.HealthAction)
		}
		for _, k := range []scopeKey{accountKey, {domain.ScopeBuilding, p.building}, {domain.ScopeFloor, p.floor}, {domain.ScopeRoom, p.room}} {
			add(k, h, true, c)
		}
	}
	for _, c := range alerts { // alerts of locations the layout does not list yet
		add(accountKey, 0, false, c)
	}
	return sums
}

// cachedRollups reads the rollups the cache holds for the account.
func cachedRollups(ctx context.Context, tx *sql.Tx, key int64) (map[scopeKey]domain.Rollup, error) {
	out := map[scopeKey]domain.Rollup{}
	rows, err := tx.QueryContext(ctx, `SELECT scope, scope_id, ok, attention, action, offline, open_alerts, overdue_alerts
		FROM rollups WHERE account_id = ?`, key)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var k scopeKey
		var r domain.Rollup
		if err := rows.Scan(&k.scope, &k.id, &r.OK, &r.Attention, &r.Action, &r.Offline, &r.OpenAlerts, &r.OverdueAlerts); err != nil {
			return nil, err
		}
		out[k] = r
	}
	return out, rows.Err()
}

// writeRollups writes the sums that differ from the cache's rollups, in
// batches and in key order, and removes the rollups of parts that are gone.
func writeRollups(ctx context.Context, tx *sql.Tx, key int64, sums map[scopeKey]*domain.Rollup, existing map[scopeKey]domain.Rollup) error {
	var changed []scopeKey
	for k, r := range sums {
		if old, ok := existing[k]; !ok || old != *r {
			changed = append(changed, k)
		}
	}
	slices.SortFunc(changed, func(a, b scopeKey) int {
		return cmp.Or(strings.Compare(string(a.scope), string(b.scope)), strings.Compare(a.id, b.id))
	})
	b := newBatch(tx, "rollups", upsertRollups)
	defer b.close()
	for _, k := range changed {
		r := sums[k]
		if err := b.add(ctx, key, k.id, string(k.scope), r.OK, r.Attention, r.Action, r.Offline, r.OpenAlerts, r.OverdueAlerts); err != nil {
			return err
		}
	}
	if err := b.flush(ctx); err != nil {
		return err
	}
	for k := range existing {
		if _, ok := sums[k]; !ok {
			if _, err := tx.ExecContext(ctx, `DELETE FROM rollups WHERE account_id = ? AND scope = ? AND scope_id = ?`, key, string(k.scope), k.id); err != nil {
				return err
			}
		}
	}
	return nil
}

// upsertRollups returns the statement that writes n rollups, replacing
// those the cache holds.
func upsertRollups(n int) string {
	return `INSERT INTO rollups (account_id, scope_id, scope, ok, attention, action, offline, open_alerts, overdue_alerts)
		VALUES ` + placeholders(9, n) + `
		ON CONFLICT (account_id, scope, scope_id) DO UPDATE SET ok = excluded.ok, attention = excluded.attention,
			action = excluded.action, offline = excluded.offline, open_alerts = excluded.open_alerts, overdue_alerts = excluded.overdue_alerts`
}

// Rollup reads the counts of one part of an account's layout. A part
// without locations has all counts zero.
func (s *Store) Rollup(ctx context.Context, account string, scope domain.Scope, id string) (domain.Rollup, error) {
	var r domain.Rollup
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return r, err
	}
	err = s.read.QueryRowContext(ctx, `SELECT ok, attention, action, offline, open_alerts, overdue_alerts
		FROM rollups WHERE account_id = ? AND scope = ? AND scope_id = ?`, key, string(scope), id).
		Scan(&r.OK, &r.Attention, &r.Action, &r.Offline, &r.OpenAlerts, &r.OverdueAlerts)
	if errors.Is(err, sql.ErrNoRows) {
		return r, nil
	}
	return r, err
}

// Rollups reads the counts of the parts of one scope of an account with
// the given ids (every part of the scope when none is given), by id.
func (s *Store) Rollups(ctx context.Context, account string, scope domain.Scope, ids ...string) (map[string]domain.Rollup, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	q := `SELECT scope_id, ok, attention, action, offline, open_alerts, overdue_alerts
		FROM rollups WHERE account_id = ? AND scope = ?`
	args := []any{key, string(scope)}
	if len(ids) > 0 {
		q += ` AND scope_id IN (` + strings.TrimSuffix(strings.Repeat("?,", len(ids)), ",") + `)`
		for _, id := range ids {
			args = append(args, id)
		}
	}
	rows, err := s.read.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]domain.Rollup{}
	for rows.Next() {
		var id string
		var r domain.Rollup
		if err := rows.Scan(&id, &r.OK, &r.Attention, &r.Action, &r.Offline, &r.OpenAlerts, &r.OverdueAlerts); err != nil {
			return nil, err
		}
		out[id] = r
	}
	return out, rows.Err()
}

// locationState is what one location adds to the rollups of the parts it
// is in: its place (when the layout lists it), its health, and its open
// and overdue alerts.
type locationState struct {
	place    place
	inLayout bool
	health   domain.Health
	alerts   alertCount
}

// readLocationStates reads the states of some locations of an account,
// within a transaction, with the rules of sumRollups.
func readLocationStates(ctx context.Context, tx *sql.Tx, key int64, ids []string) (map[string]locationState, error) {
	out := make(map[string]locationState, len(ids))
	args := make([]any, 0, len(ids)+1)
	args = append(args, key)
	for _, id := range ids {
		args = append(args, id)
		out[id] = locationState{}
	}
	in := `(` + strings.TrimSuffix(strings.Repeat("?,", len(ids)), ",") + `)`
	each := func(q string, scan func(*sql.Rows) error) error {
		rows, err := tx.QueryContext(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			if err := scan(rows); err != nil {
				return err
			}
		}
		return rows.Err()
	}
	err := each(`SELECT id, room_id, floor_id, building_id FROM locations WHERE account_id = ? AND id IN `+in, func(rows *sql.Rows) error {
		var p place
		if err := rows.Scan(&p.location, &p.room, &p.floor, &p.building); err != nil {
			return err
		}
		s := out[p.location]
		s.place, s.inLayout = p, true
		out[p.location] = s
		return nil
	})
	if err != nil {
		return nil, err
	}
	healths := map[string]domain.Health{}
	err = each(`SELECT location_id, health FROM devices WHERE account_id = ? AND location_id IN `+in, func(rows *sql.Rows) error {
		var id string
		var h domain.Health
		if err := rows.Scan(&id, &h); err != nil {
			return err
		}
		worsen(healths, id, h)
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = each(`SELECT location_id, count(*), sum(overdue) FROM alerts INDEXED BY alerts_open_location
		WHERE account_id = ? AND status = 'OPEN' AND location_id IN `+in+` GROUP BY location_id`, func(rows *sql.Rows) error {
		var id string
		var c alertCount
		if err := rows.Scan(&id, &c.open, &c.overdue); err != nil {
			return err
		}
		s := out[id]
		s.alerts = c
		out[id] = s
		return nil
	})
	if err != nil {
		return nil, err
	}
	for id, s := range out {
		h, reported := healths[id]
		if !reported {
			h = domain.HealthOffline
		}
		if s.alerts.overdue > 0 {
			h = domain.Worse(h, domain.HealthAction)
		}
		s.health = h
		out[id] = s
	}
	return out, nil
}

// adjustRollups brings the rollups of the parts a few locations are in up
// to date, from those locations' states before and after a change that
// touched nothing else: each count moves by the difference. It costs a few
// rows where recomputeRollups reads the whole account.
func adjustRollups(ctx context.Context, tx *sql.Tx, key int64, account string, before, after map[string]locationState) error {
	deltas := map[scopeKey]*rollupDelta{}
	add := func(s locationState, sign int) {
		keys := []scopeKey{{domain.ScopeAccount, account}}
		if s.inLayout {
			keys = append(keys, scopeKey{domain.ScopeBuilding, s.place.building}, scopeKey{domain.ScopeFloor, s.place.floor}, scopeKey{domain.ScopeRoom, s.place.room})
		}
		for _, k := range keys {
			d := deltas[k]
			if d == nil {
				d = &rollupDelta{health: map[domain.Health]int{}}
				deltas[k] = d
			}
			if s.inLayout {
				d.health[s.health] += sign
			}
			d.open += sign * s.alerts.open
			d.overdue += sign * s.alerts.overdue
		}
	}
	for id, s := range before {
		add(s, -1)
		add(after[id], +1)
	}
	keys := make([]scopeKey, 0, len(deltas))
	for k, d := range deltas {
		if !d.zero() {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b scopeKey) int {
		return cmp.Or(strings.Compare(string(a.scope), string(b.scope)), strings.Compare(a.id, b.id))
	})
	for _, k := range keys {
		d := deltas[k]
		if _, err := tx.ExecContext(ctx, `INSERT INTO rollups (account_id, scope_id, scope, ok, attention, action, offline, open_alerts, overdue_alerts)
			VALUES (?, ?, ?, max(?, 0), max(?, 0), max(?, 0), max(?, 0), max(?, 0), max(?, 0))
			ON CONFLICT (account_id, scope, scope_id) DO UPDATE SET ok = ok + ?, attention = attention + ?, action = action + ?,
				offline = offline + ?, open_alerts = open_alerts + ?, overdue_alerts = overdue_alerts + ?`,
			append(append([]any{key, k.id, string(k.scope)}, d.values()...), d.values()...)...); err != nil {
			return err
		}
	}
	return nil
}

// rollupDelta is how much the counts of one part move.
type rollupDelta struct {
	health        map[domain.Health]int
	open, overdue int
}

func (d *rollupDelta) zero() bool {
	for _, n := range d.health {
		if n != 0 {
			return false
		}
	}
	return d.open == 0 && d.overdue == 0
}

func (d *rollupDelta) values() []any {
	return []any{d.health[domain.HealthOK], d.health[domain.HealthAttention], d.health[domain.HealthAction], d.health[domain.HealthOffline], d.open, d.overdue}
}
