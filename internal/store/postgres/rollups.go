package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"washboard/internal/domain"
	"washboard/internal/store/rollup"
)

// rollupInputs are what an account's rollups are computed from that a
// refresh may already know: where each location is, and the worst health
// of each location's devices. recomputeRollups reads those left nil.
type rollupInputs struct {
	places  []rollup.Place
	healths map[string]domain.Health
}

// recomputeRollups brings the rollup counts of the account up to date,
// inside the refresh's transaction, so that pages read counts instead of
// scanning the fleet, with the rules of rollup.Sum. It writes only what
// changed.
func recomputeRollups(ctx context.Context, tx *txn, key int64, account string, in rollupInputs) error {
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
func locationPlaces(ctx context.Context, tx *txn, key int64) ([]rollup.Place, error) {
	rows, err := tx.Query(ctx, `SELECT id, room_id, floor_id, building_id FROM locations WHERE account_id = $1`, key)
	if err != nil {
		return nil, err
	}
	out := []rollup.Place{}
	var p rollup.Place
	_, err = pgx.ForEachRow(rows, []any{&p.Location, &p.Room, &p.Floor, &p.Building}, func() error {
		out = append(out, p)
		return nil
	})
	return out, err
}

// locationDeviceHealths returns the worst health of the devices of each
// location that has any.
func locationDeviceHealths(ctx context.Context, tx *txn, key int64) (map[string]domain.Health, error) {
	rows, err := tx.Query(ctx, `SELECT location_id, max(health) FROM devices WHERE account_id = $1 GROUP BY location_id`, key)
	if err != nil {
		return nil, err
	}
	out := map[string]domain.Health{}
	var id string
	var h int16
	_, err = pgx.ForEachRow(rows, []any{&id, &h}, func() error {
		out[id] = domain.Health(h)
		return nil
	})
	return out, err
}

// locationAlertCounts counts the open and overdue alerts of each location
// that has open alerts.
func locationAlertCounts(ctx context.Context, tx *txn, key int64) (map[string]rollup.Alerts, error) {
	rows, err := tx.Query(ctx, `SELECT location_id, count(*), count(*) FILTER (WHERE overdue) FROM alerts
		WHERE account_id = $1 AND status = 'OPEN' GROUP BY location_id`, key)
	if err != nil {
		return nil, err
	}
	out := map[string]rollup.Alerts{}
	var id string
	var open, overdue int64
	_, err = pgx.ForEachRow(rows, []any{&id, &open, &overdue}, func() error {
		out[id] = rollup.Alerts{Open: int(open), Overdue: int(overdue)}
		return nil
	})
	return out, err
}

// cachedRollups reads the rollups the cache holds for the account.
func cachedRollups(ctx context.Context, tx *txn, key int64) (map[rollup.Key]domain.Rollup, error) {
	rows, err := tx.Query(ctx, `SELECT scope, scope_id, ok, attention, action, offline, open_alerts, overdue_alerts
		FROM rollups WHERE account_id = $1`, key)
	if err != nil {
		return nil, err
	}
	out := map[rollup.Key]domain.Rollup{}
	var k rollup.Key
	var r domain.Rollup
	_, err = pgx.ForEachRow(rows, []any{&k.Scope, &k.ID, &r.OK, &r.Attention, &r.Action, &r.Offline, &r.OpenAlerts, &r.OverdueAlerts}, func() error {
		out[k] = r
		return nil
	})
	return out, err
}

// rollupColumns are the rollups of several parts, a column each, as the
// arrays of one statement.
type rollupColumns struct {
	scopes, ids                                           []string
	ok, attention, action, offline, openAlerts, overdueAl []int64
}

func (c *rollupColumns) add(k rollup.Key, r domain.Rollup) {
	c.scopes = append(c.scopes, string(k.Scope))
	c.ids = append(c.ids, k.ID)
	c.ok = append(c.ok, int64(r.OK))
	c.attention = append(c.attention, int64(r.Attention))
	c.action = append(c.action, int64(r.Action))
	c.offline = append(c.offline, int64(r.Offline))
	c.openAlerts = append(c.openAlerts, int64(r.OpenAlerts))
	c.overdueAl = append(c.overdueAl, int64(r.OverdueAlerts))
}

// each calls f with the arguments of a statement about the account, $1,
// and its parts' rollups, the other arguments, at most chunk parts at a
// time.
func (c *rollupColumns) each(key int64, f func(args ...any) error) error {
	for start := 0; start < len(c.ids); start += chunk {
		end := min(start+chunk, len(c.ids))
		if err := f(key, c.scopes[start:end], c.ids[start:end], c.ok[start:end], c.attention[start:end], c.action[start:end],
			c.offline[start:end], c.openAlerts[start:end], c.overdueAl[start:end]); err != nil {
			return err
		}
	}
	return nil
}

// fromRollupColumns are the parts of rollupColumns as a table.
const fromRollupColumns = `unnest($2::text[], $3::text[], $4::int8[], $5::int8[], $6::int8[], $7::int8[], $8::int8[], $9::int8[])
	AS u(scope, scope_id, ok, attention, action, offline, open_alerts, overdue_alerts)`

// writeRollups writes the sums that differ from the cache's rollups, a
// statement per chunk of them, and removes the rollups of parts that are
// gone.
func writeRollups(ctx context.Context, tx *txn, key int64, sums map[rollup.Key]*domain.Rollup, existing map[rollup.Key]domain.Rollup) error {
	var changed []rollup.Key
	for k, r := range sums {
		if old, ok := existing[k]; !ok || old != *r {
			changed = append(changed, k)
		}
	}
	rollup.SortKeys(changed)
	var cols rollupColumns
	for _, k := range changed {
		cols.add(k, *sums[k])
	}
	err := cols.each(key, func(args ...any) error {
		_, err := tx.Exec(ctx, `INSERT INTO rollups (account_id, scope, scope_id, ok, attention, action, offline, open_alerts, overdue_alerts)
			SELECT $1, u.* FROM `+fromRollupColumns+`
			ON CONFLICT (account_id, scope, scope_id) DO UPDATE SET ok = excluded.ok, attention = excluded.attention,
				action = excluded.action, offline = excluded.offline, open_alerts = excluded.open_alerts, overdue_alerts = excluded.overdue_alerts`,
			args...)
		return err
	})
	if err != nil {
		return err
	}
	var gone rollupColumns
	for k := range existing {
		if _, ok := sums[k]; !ok {
			gone.scopes = append(gone.scopes, string(k.Scope))
			gone.ids = append(gone.ids, k.ID)
		}
	}
	for start := 0; start < len(gone.ids); start += chunk {
		end := min(start+chunk, len(gone.ids))
		if _, err := tx.Exec(ctx, `DELETE FROM rollups r USING unnest($2::text[], $3::text[]) AS u(scope, scope_id)
			WHERE r.account_id = $1 AND r.scope = u.scope AND r.scope_id = u.scope_id`,
			key, gone.scopes[start:end], gone.ids[start:end]); err != nil {
			return err
		}
	}
	return nil
}

// Rollup reads the counts of one part of an account's layout. A part
// without locations has all counts zero.
func (s *Store) Rollup(ctx context.Context, account string, scope domain.Scope, id string) (domain.Rollup, error) {
	var r domain.Rollup
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return r, err
	}
	err = s.pool.QueryRow(ctx, `SELECT ok, attention, action, offline, open_alerts, overdue_alerts
		FROM rollups WHERE account_id = $1 AND scope = $2 AND scope_id = $3`, key, string(scope), id).
		Scan(&r.OK, &r.Attention, &r.Action, &r.Offline, &r.OpenAlerts, &r.OverdueAlerts)
	if errors.Is(err, pgx.ErrNoRows) {
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
	out := map[string]domain.Rollup{}
	read := func(q string, args ...any) error {
		rows, err := s.pool.Query(ctx, q, args...)
		if err != nil {
			return err
		}
		var id string
		var r domain.Rollup
		_, err = pgx.ForEachRow(rows, []any{&id, &r.OK, &r.Attention, &r.Action, &r.Offline, &r.OpenAlerts, &r.OverdueAlerts}, func() error {
			out[id] = r
			return nil
		})
		return err
	}
	const q = `SELECT scope_id, ok, attention, action, offline, open_alerts, overdue_alerts
		FROM rollups WHERE account_id = $1 AND scope = $2`
	if len(ids) == 0 {
		return out, read(q, key, string(scope))
	}
	for start := 0; start < len(ids); start += chunk {
		if err := read(q+` AND scope_id = ANY($3)`, key, string(scope), ids[start:min(start+chunk, len(ids))]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readLocationStates reads the states of some locations of an account,
// within a transaction.
func readLocationStates(ctx context.Context, tx *txn, key int64, ids []string) (map[string]rollup.State, error) {
	out := make(map[string]rollup.State, len(ids))
	for _, id := range ids {
		out[id] = rollup.State{}
	}
	healths := map[string]domain.Health{}
	for start := 0; start < len(ids); start += chunk {
		part := ids[start:min(start+chunk, len(ids))]
		rows, err := tx.Query(ctx, `SELECT id, room_id, floor_id, building_id FROM locations WHERE account_id = $1 AND id = ANY($2)`, key, part)
		if err != nil {
			return nil, err
		}
		var p rollup.Place
		_, err = pgx.ForEachRow(rows, []any{&p.Location, &p.Room, &p.Floor, &p.Building}, func() error {
			s := out[p.Location]
			s.Place, s.InLayout = p, true
			out[p.Location] = s
			return nil
		})
		if err != nil {
			return nil, err
		}
		rows, err = tx.Query(ctx, `SELECT location_id, max(health) FROM devices WHERE account_id = $1 AND location_id = ANY($2) GROUP BY location_id`, key, part)
		if err != nil {
			return nil, err
		}
		var id string
		var h int16
		_, err = pgx.ForEachRow(rows, []any{&id, &h}, func() error {
			healths[id] = domain.Health(h)
			return nil
		})
		if err != nil {
			return nil, err
		}
		rows, err = tx.Query(ctx, `SELECT location_id, count(*), count(*) FILTER (WHERE overdue) FROM alerts
			WHERE account_id = $1 AND status = 'OPEN' AND location_id = ANY($2) GROUP BY location_id`, key, part)
		if err != nil {
			return nil, err
		}
		var open, overdue int64
		_, err = pgx.ForEachRow(rows, []any{&id, &open, &overdue}, func() error {
			s := out[id]
			s.Alerts = rollup.Alerts{Open: int(open), Overdue: int(overdue)}
			out[id] = s
			return nil
		})
		if err != nil {
			return nil, err
		}
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
func adjustRollups(ctx context.Context, tx *txn, key int64, account string, before, after map[string]rollup.State) error {
	deltas := rollup.Deltas(account, before, after)
	if len(deltas) == 0 {
		return nil
	}
	var cols rollupColumns
	for _, d := range deltas {
		cols.add(d.Key, d.Counts)
	}
	// The parts counted already move by their deltas; the others start
	// from them. The account's row is locked: nobody else writes these.
	return cols.each(key, func(args ...any) error {
		_, err := tx.Exec(ctx, `WITH d AS (SELECT * FROM `+fromRollupColumns+`),
			moved AS (
				UPDATE rollups r SET ok = r.ok + d.ok, attention = r.attention + d.attention, action = r.action + d.action,
					offline = r.offline + d.offline, open_alerts = r.open_alerts + d.open_alerts, overdue_alerts = r.overdue_alerts + d.overdue_alerts
				FROM d WHERE r.account_id = $1 AND r.scope = d.scope AND r.scope_id = d.scope_id
				RETURNING r.scope, r.scope_id)
			INSERT INTO rollups (account_id, scope, scope_id, ok, attention, action, offline, open_alerts, overdue_alerts)
			SELECT $1, d.scope, d.scope_id, greatest(d.ok, 0), greatest(d.attention, 0), greatest(d.action, 0), greatest(d.offline, 0),
				greatest(d.open_alerts, 0), greatest(d.overdue_alerts, 0)
			FROM d WHERE NOT EXISTS (SELECT 1 FROM moved m WHERE m.scope = d.scope AND m.scope_id = d.scope_id)`,
			args...)
		return err
	})
}
