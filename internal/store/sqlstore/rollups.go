package sqlstore

import (
	"context"
	"database/sql"
	"errors"

	"washboard/internal/domain"
	"washboard/internal/store/rollup"
)

// rollupInputs are what an account's rollups are computed from that a
// refresh may already know, or read early, while it waits for pages:
// where each location is, and the worst health of each location's
// devices. recomputeRollups reads those left nil.
type rollupInputs struct {
	places  []rollup.Place
	healths map[string]domain.Health
}

// recomputeRollups brings the rollup counts of the account up to date,
// inside the refresh's transaction, so that pages read counts instead of
// scanning the fleet, with the rules of rollup.Sum. It writes only what
// changed.
func recomputeRollups(ctx context.Context, tx Tx, account heldAccount, in rollupInputs) error {
	var err error
	if in.places == nil {
		if in.places, err = locationPlaces(ctx, tx, account.key); err != nil {
			return err
		}
	}
	if in.healths == nil {
		if in.healths, err = locationDeviceHealths(ctx, tx, account.key); err != nil {
			return err
		}
	}
	alerts, err := locationAlertCounts(ctx, tx, account.key)
	if err != nil {
		return err
	}
	sums := rollup.Sum(account.id, in.places, in.healths, alerts)
	existing, err := cachedRollups(ctx, tx, account.key)
	if err != nil {
		return err
	}
	return writeRollups(ctx, tx, account.key, sums, existing)
}

// locationPlaces reads where each location of the account is.
func locationPlaces(ctx context.Context, q Querier, key int64) ([]rollup.Place, error) {
	out := []rollup.Place{}
	var p rollup.Place
	err := each(ctx, q, `SELECT id, room_id, floor_id, building_id FROM locations WHERE account_id = ?`, []any{key},
		[]any{&p.Location, &p.Room, &p.Floor, &p.Building}, func() error {
			out = append(out, p)
			return nil
		})
	return out, err
}

// locationDeviceHealths returns the worst health of the devices of each
// location that has any. It reads the devices in table order and compares
// in Go, which is cheaper than grouping them through the location index.
func locationDeviceHealths(ctx context.Context, q Querier, key int64) (map[string]domain.Health, error) {
	out := map[string]domain.Health{}
	var id string
	var h int64
	err := each(ctx, q, `SELECT location_id, health FROM devices WHERE account_id = ?`, []any{key}, []any{&id, &h}, func() error {
		rollup.Worsen(out, id, domain.Health(h))
		return nil
	})
	return out, err
}

// openAlertCounts are the columns of a location's open and overdue alerts,
// of a query of open alerts grouped by location.
const openAlertCounts = `location_id, count(*), count(CASE WHEN overdue THEN 1 END)`

// locationAlertCounts counts the open and overdue alerts of each location
// that has open alerts.
func locationAlertCounts(ctx context.Context, q Querier, key int64) (map[string]rollup.Alerts, error) {
	out := map[string]rollup.Alerts{}
	var id string
	var c rollup.Alerts
	err := each(ctx, q, `SELECT `+openAlertCounts+` FROM alerts WHERE account_id = ? AND status = 'OPEN' GROUP BY location_id`,
		[]any{key}, []any{&id, &c.Open, &c.Overdue}, func() error {
			out[id] = c
			return nil
		})
	return out, err
}

// cachedRollups reads the rollups the cache holds for the account.
func cachedRollups(ctx context.Context, q Querier, key int64) (map[rollup.Key]domain.Rollup, error) {
	out := map[rollup.Key]domain.Rollup{}
	var k rollup.Key
	var scope string
	var r domain.Rollup
	err := each(ctx, q, `SELECT scope, scope_id, ok, attention, action, offline, open_alerts, overdue_alerts
		FROM rollups WHERE account_id = ?`, []any{key},
		[]any{&scope, &k.ID, &r.OK, &r.Attention, &r.Action, &r.Offline, &r.OpenAlerts, &r.OverdueAlerts}, func() error {
			k.Scope = domain.Scope(scope)
			out[k] = r
			return nil
		})
	return out, err
}

// rollupsUpsert writes rollups, replacing those the cache holds.
var rollupsUpsert = &Insert{Table: "rollups", Columns: []Column{
	{"account_id", Int}, {"scope", Text}, {"scope_id", Text},
	{"ok", Int}, {"attention", Int}, {"action", Int}, {"offline", Int}, {"open_alerts", Int}, {"overdue_alerts", Int},
}, Then: `ON CONFLICT (account_id, scope, scope_id) DO UPDATE SET ok = excluded.ok, attention = excluded.attention,
	action = excluded.action, offline = excluded.offline, open_alerts = excluded.open_alerts, overdue_alerts = excluded.overdue_alerts`}

// rollupKey are the columns of a rollup's key within its account.
var rollupKey = []Column{{"scope", Text}, {"scope_id", Text}}

// writeRollups writes the sums that differ from the cache's rollups, in
// key order, and removes the rollups of parts that are gone.
func writeRollups(ctx context.Context, tx Tx, key int64, sums map[rollup.Key]*domain.Rollup, existing map[rollup.Key]domain.Rollup) error {
	var changed []rollup.Key
	for k, r := range sums {
		if old, ok := existing[k]; !ok || old != *r {
			changed = append(changed, k)
		}
	}
	rollup.SortKeys(changed)
	rows := make([][]any, len(changed))
	for i, k := range changed {
		r := sums[k]
		rows[i] = []any{key, string(k.Scope), k.ID, r.OK, r.Attention, r.Action, r.Offline, r.OpenAlerts, r.OverdueAlerts}
	}
	if err := tx.Insert(ctx, rollupsUpsert, rows, nil); err != nil {
		return err
	}
	var gone [][]any
	for k := range existing {
		if _, ok := sums[k]; !ok {
			gone = append(gone, []any{string(k.Scope), k.ID})
		}
	}
	if len(gone) == 0 {
		return nil
	}
	_, err := tx.Delete(ctx, "rollups", key, rollupKey, gone)
	return err
}

// Rollup reads the counts of one part of an account's layout. A part
// without locations has all counts zero.
func (s *Store) Rollup(ctx context.Context, account string, scope domain.Scope, id string) (domain.Rollup, error) {
	var r domain.Rollup
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return r, err
	}
	err = s.read.QueryRow(ctx, `SELECT ok, attention, action, offline, open_alerts, overdue_alerts
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
	out := map[string]domain.Rollup{}
	var id string
	var r domain.Rollup
	read := func(q string, args ...any) error {
		return each(ctx, s.read, q, args, []any{&id, &r.OK, &r.Attention, &r.Action, &r.Offline, &r.OpenAlerts, &r.OverdueAlerts}, func() error {
			out[id] = r
			return nil
		})
	}
	const q = `SELECT scope_id, ok, attention, action, offline, open_alerts, overdue_alerts
		FROM rollups WHERE account_id = ? AND scope = ?`
	if len(ids) == 0 {
		return out, read(q, key, string(scope))
	}
	err = chunks(ids, s.d.MaxList(), func(part []string) error {
		in, args := s.d.In(part)
		return read(q+` AND scope_id `+in, append([]any{key, string(scope)}, args...)...)
	})
	return out, err
}

// readLocationStates reads the states of some locations of an account,
// within a transaction.
func (s *Store) readLocationStates(ctx context.Context, tx Tx, key int64, ids []string) (map[string]rollup.State, error) {
	out := make(map[string]rollup.State, len(ids))
	for _, id := range ids {
		out[id] = rollup.State{}
	}
	healths := map[string]domain.Health{}
	var id string
	err := chunks(ids, s.d.MaxList(), func(part []string) error {
		in, list := s.d.In(part)
		args := append([]any{key}, list...)
		var p rollup.Place
		err := each(ctx, tx, `SELECT id, room_id, floor_id, building_id FROM locations WHERE account_id = ? AND id `+in, args,
			[]any{&p.Location, &p.Room, &p.Floor, &p.Building}, func() error {
				st := out[p.Location]
				st.Place, st.InLayout = p, true
				out[p.Location] = st
				return nil
			})
		if err != nil {
			return err
		}
		var h int64
		err = each(ctx, tx, `SELECT location_id, health FROM devices WHERE account_id = ? AND location_id `+in, args, []any{&id, &h}, func() error {
			rollup.Worsen(healths, id, domain.Health(h))
			return nil
		})
		if err != nil {
			return err
		}
		var c rollup.Alerts
		return each(ctx, tx, `SELECT `+openAlertCounts+` FROM alerts`+s.d.IndexedBy("alerts_open_location")+`
			WHERE account_id = ? AND status = 'OPEN' AND location_id `+in+` GROUP BY location_id`, args, []any{&id, &c.Open, &c.Overdue}, func() error {
			st := out[id]
			st.Alerts = c
			out[id] = st
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	for id, st := range out {
		h, reported := healths[id]
		st.Health = rollup.Health(h, reported, st.Alerts)
		out[id] = st
	}
	return out, nil
}

// adjustRollups brings the rollups of the parts a few locations are in up
// to date, from those locations' states before and after a change that
// touched nothing else: each count moves by the difference, and a part
// not counted yet starts from it (never below zero). It costs a few rows
// where recomputeRollups reads the whole account; the account is held:
// nobody else writes these.
func adjustRollups(ctx context.Context, tx Tx, account heldAccount, before, after map[string]rollup.State) error {
	deltas := rollup.Deltas(account.id, before, after)
	stmts := make([]Statement, len(deltas))
	for i, d := range deltas {
		c := d.Counts
		stmts[i] = Statement{SQL: `INSERT INTO rollups (account_id, scope, scope_id, ok, attention, action, offline, open_alerts, overdue_alerts)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (account_id, scope, scope_id) DO UPDATE SET ok = rollups.ok + ?, attention = rollups.attention + ?,
				action = rollups.action + ?, offline = rollups.offline + ?, open_alerts = rollups.open_alerts + ?,
				overdue_alerts = rollups.overdue_alerts + ?`,
			Args: []any{account.key, string(d.Key.Scope), d.Key.ID,
				max(c.OK, 0), max(c.Attention, 0), max(c.Action, 0), max(c.Offline, 0), max(c.OpenAlerts, 0), max(c.OverdueAlerts, 0),
				c.OK, c.Attention, c.Action, c.Offline, c.OpenAlerts, c.OverdueAlerts}}
	}
	return tx.Batch(ctx, stmts)
}
