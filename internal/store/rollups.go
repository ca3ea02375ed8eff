package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"washboard/internal/domain"
)

// Scope is a level of the layout that rollups count over.
type Scope string

// The rollup scopes.
const (
	ScopeAccount  Scope = "account"
	ScopeBuilding Scope = "building"
	ScopeFloor    Scope = "floor"
	ScopeRoom     Scope = "room"
)

type scopeKey struct {
	scope Scope
	id    string
}

// recomputeRollups brings the rollup counts of the account up to date,
// inside the refresh's transaction, so that pages read counts instead of
// scanning the fleet. A location's health is the worst of its devices',
// or needs-action when one of its alerts is overdue, or offline when no
// device has reported from it. It writes only what changed.
func recomputeRollups(ctx context.Context, tx *sql.Tx, key int64, account string) error {
	deviceHealth := map[string]domain.Health{}
	rows, err := tx.QueryContext(ctx, `SELECT location_id, max(health) FROM devices WHERE account_id = ? GROUP BY location_id`, key)
	if err != nil {
		return err
	}
	for rows.Next() {
		var id string
		var h int
		if err := rows.Scan(&id, &h); err != nil {
			rows.Close()
			return err
		}
		deviceHealth[id] = domain.Health(h)
	}
	if err := rows.Close(); err != nil {
		return err
	}

	type alertCount struct{ open, overdue int }
	alerts := map[string]alertCount{}
	rows, err = tx.QueryContext(ctx, `SELECT location_id, count(*), sum(overdue) FROM alerts
		WHERE account_id = ? AND status = 'OPEN' GROUP BY location_id`, key)
	if err != nil {
		return err
	}
	for rows.Next() {
		var id string
		var c alertCount
		if err := rows.Scan(&id, &c.open, &c.overdue); err != nil {
			rows.Close()
			return err
		}
		alerts[id] = c
	}
	if err := rows.Close(); err != nil {
		return err
	}

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
	accountKey := scopeKey{ScopeAccount, account}
	add(accountKey, 0, false, alertCount{})

	rows, err = tx.QueryContext(ctx, `SELECT id, room_id, floor_id, building_id FROM locations WHERE account_id = ?`, key)
	if err != nil {
		return err
	}
	for rows.Next() {
		var id, room, floor, building string
		if err := rows.Scan(&id, &room, &floor, &building); err != nil {
			rows.Close()
			return err
		}
		h, reported := deviceHealth[id]
		if !reported {
			h = domain.HealthOffline // no device has reported from this location
		}
		c := alerts[id]
		delete(alerts, id)
		if c.overdue > 0 {
			h = domain.Worse(h, domain.HealthAction)
		}
		for _, k := range []scopeKey{accountKey, {ScopeBuilding, building}, {ScopeFloor, floor}, {ScopeRoom, room}} {
			add(k, h, true, c)
		}
	}
	if err := rows.Close(); err != nil {
		return err
	}
	for _, c := range alerts { // alerts of locations the layout does not list yet
		add(accountKey, 0, false, c)
	}
	existing := map[scopeKey]domain.Rollup{}
	rows, err = tx.QueryContext(ctx, `SELECT scope, scope_id, ok, attention, action, offline, open_alerts, overdue_alerts
		FROM rollups WHERE account_id = ?`, key)
	if err != nil {
		return err
	}
	for rows.Next() {
		var k scopeKey
		var r domain.Rollup
		if err := rows.Scan(&k.scope, &k.id, &r.OK, &r.Attention, &r.Action, &r.Offline, &r.OpenAlerts, &r.OverdueAlerts); err != nil {
			rows.Close()
			return err
		}
		existing[k] = r
	}
	if err := rows.Close(); err != nil {
		return err
	}
	var put *sql.Stmt
	for k, r := range sums {
		if old, ok := existing[k]; ok && old == *r {
			continue
		}
		if put == nil {
			if put, err = tx.PrepareContext(ctx, `INSERT INTO rollups (account_id, scope, scope_id, ok, attention, action, offline, open_alerts, overdue_alerts)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (account_id, scope, scope_id) DO UPDATE SET ok = excluded.ok, attention = excluded.attention,
					action = excluded.action, offline = excluded.offline, open_alerts = excluded.open_alerts, overdue_alerts = excluded.overdue_alerts`); err != nil {
				return err
			}
			defer put.Close()
		}
		if _, err := put.ExecContext(ctx, key, string(k.scope), k.id, r.OK, r.Attention, r.Action, r.Offline, r.OpenAlerts, r.OverdueAlerts); err != nil {
			return err
		}
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

// Rollup reads the counts of one part of an account's layout. A part
// without locations has all counts zero.
func (s *Store) Rollup(ctx context.Context, account string, scope Scope, id string) (domain.Rollup, error) {
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
func (s *Store) Rollups(ctx context.Context, account string, scope Scope, ids ...string) (map[string]domain.Rollup, error) {
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
