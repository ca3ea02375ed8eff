package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"washboard/internal/domain"
	"washboard/internal/store/rollup"
)

// rollupInputs are what an account's rollups are computed from that a
// refresh which does not change them may read early, while it waits for
// pages: where each location is, and the worst health of each location's
// devices. recomputeRollups reads those left nil.
type rollupInputs struct {
	places  []rollup.Place
	healths map[string]domain.Health
}

// recomputeRollups brings the rollup counts of the account up to date,
// inside the refresh's transaction, so that pages read counts instead of
// scanning the fleet, with the rules of rollup.Sum. It writes only what
// changed.
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
	sums := rollup.Sum(account, in.places, in.healths, alerts)
	existing, err := cachedRollups(ctx, tx, key)
	if err != nil {
		return err
	}
	return writeRollups(ctx, tx, key, sums, existing)
}

// locationPlaces reads where each location of the account is.
func locationPlaces(ctx context.Context, tx *sql.Tx, key int64) ([]rollup.Place, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, room_id, floor_id, building_id FROM locations WHERE account_id = ?`, key)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []rollup.Place{}
	for rows.Next() {
		var p rollup.Place
		if err := rows.Scan(&p.Location, &p.Room, &p.Floor, &p.Building); err != nil {
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
		rollup.Worsen(out, id, h)
	}
	return out, rows.Err()
}

// locationAlertCounts counts the open and overdue alerts of each location
// that has open alerts.
func locationAlertCounts(ctx context.Context, tx *sql.Tx, key int64) (map[string]rollup.Alerts, error) {
	out := map[string]rollup.Alerts{}
	rows, err := tx.QueryContext(ctx, `SELECT location_id, count(*), sum(overdue) FROM alerts
		WHERE account_id = ? AND status = 'OPEN' GROUP BY location_id`, key)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var c rollup.Alerts
		if err := rows.Scan(&id, &c.Open, &c.Overdue); err != nil {
			return nil, err
		}
		out[id] = c
	}
	return out, rows.Err()
}

// cachedRollups reads the rollups the cache holds for the account.
func cachedRollups(ctx context.Context, tx *sql.Tx, key int64) (map[rollup.Key]domain.Rollup, error) {
	out := map[rollup.Key]domain.Rollup{}
	rows, err := tx.QueryContext(ctx, `SELECT scope, scope_id, ok, attention, action, offline, open_alerts, overdue_alerts
		FROM rollups WHERE account_id = ?`, key)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var k rollup.Key
		var r domain.Rollup
		if err := rows.Scan(&k.Scope, &k.ID, &r.OK, &r.Attention, &r.Action, &r.Offline, &r.OpenAlerts, &r.OverdueAlerts); err != nil {
			return nil, err
		}
		out[k] = r
	}
	return out, rows.Err()
}

// writeRollups writes the sums that differ from the cache's rollups, in
// batches and in key order, and removes the rollups of parts that are gone.
func writeRollups(ctx context.Context, tx *sql.Tx, key int64, sums map[rollup.Key]*domain.Rollup, existing map[rollup.Key]domain.Rollup) error {
	var changed []rollup.Key
	for k, r := range sums {
		if old, ok := existing[k]; !ok || old != *r {
			changed = append(changed, k)
		}
	}
	rollup.SortKeys(changed)
	b := newBatch(tx, "rollups", upsertRollups)
	defer b.close()
	for _, k := range changed {
		r := sums[k]
		if err := b.add(ctx, key, k.ID, string(k.Scope), r.OK, r.Attention, r.Action, r.Offline, r.OpenAlerts, r.OverdueAlerts); err != nil {
			return err
		}
	}
	if err := b.flush(ctx); err != nil {
		return err
	}
	for k := range existing {
		if _, ok := sums[k]; !ok {
			if _, err := tx.ExecContext(ctx, `DELETE FROM rollups WHERE account_id = ? AND scope = ? AND scope_id = ?`, key, string(k.Scope), k.ID); err != nil {
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

// readLocationStates reads the states of some locations of an account,
// within a transaction.
func readLocationStates(ctx context.Context, tx *sql.Tx, key int64, ids []string) (map[string]rollup.State, error) {
	out := make(map[string]rollup.State, len(ids))
	args := make([]any, 0, len(ids)+1)
	args = append(args, key)
	for _, id := range ids {
		args = append(args, id)
		out[id] = rollup.State{}
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
		var p rollup.Place
		if err := rows.Scan(&p.Location, &p.Room, &p.Floor, &p.Building); err != nil {
			return err
		}
		s := out[p.Location]
		s.Place, s.InLayout = p, true
		out[p.Location] = s
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
		rollup.Worsen(healths, id, h)
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = each(`SELECT location_id, count(*), sum(overdue) FROM alerts INDEXED BY alerts_open_location
		WHERE account_id = ? AND status = 'OPEN' AND location_id IN `+in+` GROUP BY location_id`, func(rows *sql.Rows) error {
		var id string
		var c rollup.Alerts
		if err := rows.Scan(&id, &c.Open, &c.Overdue); err != nil {
			return err
		}
		s := out[id]
		s.Alerts = c
		out[id] = s
		return nil
	})
	if err != nil {
		return nil, err
	}
	for id, s := range out {
		h, reported := healths[id]
		s.Health = rollup.Health(h, reported, s.Alerts)
		out[id] = s
	}
	return out, nil
}

// adjustRollups brings the rollups of the parts a few locations are in up
// to date, from those locations' states before and after a change that
// touched nothing else: each count moves by the difference. It costs a few
// rows where recomputeRollups reads the whole account.
func adjustRollups(ctx context.Context, tx *sql.Tx, key int64, account string, before, after map[string]rollup.State) error {
	for _, d := range rollup.Deltas(account, before, after) {
		c := d.Counts
		v := []any{c.OK, c.Attention, c.Action, c.Offline, c.OpenAlerts, c.OverdueAlerts}
		if _, err := tx.ExecContext(ctx, `INSERT INTO rollups (account_id, scope_id, scope, ok, attention, action, offline, open_alerts, overdue_alerts)
			VALUES (?, ?, ?, max(?, 0), max(?, 0), max(?, 0), max(?, 0), max(?, 0), max(?, 0))
			ON CONFLICT (account_id, scope, scope_id) DO UPDATE SET ok = ok + ?, attention = attention + ?, action = action + ?,
				offline = offline + ?, open_alerts = open_alerts + ?, overdue_alerts = overdue_alerts + ?`,
			append(append([]any{key, d.Key.ID, string(d.Key.Scope)}, v...), v...)...); err != nil {
			return err
		}
	}
	return nil
}
