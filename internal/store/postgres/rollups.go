package postgres

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"washboard/internal/domain"
)

type scopeKey struct {
	scope domain.Scope
	id    string
}

// alertCount is the open and overdue alerts of a location.
type alertCount struct{ open, overdue int }

// rollupInputs are what an account's rollups are computed from that a
// refresh may already know: where each location is, and the worst health
// of each location's devices. recomputeRollups reads those left nil.
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
	sums := sumRollups(account, in.places, in.healths, alerts)
	existing, err := cachedRollups(ctx, tx, key)
	if err != nil {
		return err
	}
	return writeRollups(ctx, tx, key, sums, existing)
}

// locationPlaces reads where each location of the account is.
func locationPlaces(ctx context.Context, tx *txn, key int64) ([]place, error) {
	rows, err := tx.Query(ctx, `SELECT id, room_id, floor_id, building_id FROM locations WHERE account_id = $1`, key)
	if err != nil {
		return nil, err
	}
	out := []place{}
	var p place
	_, err = pgx.ForEachRow(rows, []any{&p.location, &p.room, &p.floor, &p.building}, func() error {
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
func locationAlertCounts(ctx context.Context, tx *txn, key int64) (map[string]alertCount, error) {
	rows, err := tx.Query(ctx, `SELECT location_id, count(*), count(*) FILTER (WHERE overdue) FROM alerts
		WHERE account_id = $1 AND status = 'OPEN' GROUP BY location_id`, key)
	if err != nil {
		return nil, err
	}
	out := map[string]alertCount{}
	var id string
	var open, overdue int64
	_, err = pgx.ForEachRow(rows, []any{&id, &open, &overdue}, func() error {
		out[id] = alertCount{int(open), int(overdue)}
		return nil
	})
	return out, err
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
func cachedRollups(ctx context.Context, tx *txn, key int64) (map[scopeKey]domain.Rollup, error) {
	rows, err := tx.Query(ctx, `SELECT scope, scope_id, ok, attention, action, offline, open_alerts, overdue_alerts
		FROM rollups WHERE account_id = $1`, key)
	if err != nil {
		return nil, err
	}
	out := map[scopeKey]domain.Rollup{}
	var k scopeKey
	var r domain.Rollup
	_, err = pgx.ForEachRow(rows, []any{&k.scope, &k.id, &r.OK, &r.Attention, &r.Action, &r.Offline, &r.OpenAlerts, &r.OverdueAlerts}, func() error {
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

func (c *rollupColumns) add(k scopeKey, counts [6]int64) {
	c.scopes = append(c.scopes, string(k.scope))
	c.ids = append(c.ids, k.id)
	c.ok = append(c.ok, counts[0])
	c.attention = append(c.attention, counts[1])
	c.action = append(c.action, counts[2])
	c.offline = append(c.offline, counts[3])
	c.openAlerts = append(c.openAlerts, counts[4])
	c.overdueAl = append(c.overdueAl, counts[5])
}

func (c *rollupColumns) args(key int64) []any {
	return []any{key, c.scopes, c.ids, c.ok, c.attention, c.action, c.offline, c.openAlerts, c.overdueAl}
}

// fromRollupColumns are the parts of rollupColumns as a table.
const fromRollupColumns = `unnest($2::text[], $3::text[], $4::int8[], $5::int8[], $6::int8[], $7::int8[], $8::int8[], $9::int8[])
	AS u(scope, scope_id, ok, attention, action, offline, open_alerts, overdue_alerts)`

func counts(r domain.Rollup) [6]int64 {
	return [6]int64{int64(r.OK), int64(r.Attention), int64(r.Action), int64(r.Offline), int64(r.OpenAlerts), int64(r.OverdueAlerts)}
}

// writeRollups writes the sums that differ from the cache's rollups, in
// one statement, and removes the rollups of parts that are gone.
func writeRollups(ctx context.Context, tx *txn, key int64, sums map[scopeKey]*domain.Rollup, existing map[scopeKey]domain.Rollup) error {
	var changed []scopeKey
	for k, r := range sums {
		if old, ok := existing[k]; !ok || old != *r {
			changed = append(changed, k)
		}
	}
	sortScopeKeys(changed)
	var cols rollupColumns
	for _, k := range changed {
		cols.add(k, counts(*sums[k]))
	}
	if len(changed) > 0 {
		if _, err := tx.Exec(ctx, `INSERT INTO rollups (account_id, scope, scope_id, ok, attention, action, offline, open_alerts, overdue_alerts)
			SELECT $1, u.* FROM `+fromRollupColumns+`
			ON CONFLICT (account_id, scope, scope_id) DO UPDATE SET ok = excluded.ok, attention = excluded.attention,
				action = excluded.action, offline = excluded.offline, open_alerts = excluded.open_alerts, overdue_alerts = excluded.overdue_alerts`,
			cols.args(key)...); err != nil {
			return err
		}
	}
	var gone rollupColumns
	for k := range existing {
		if _, ok := sums[k]; !ok {
			gone.scopes = append(gone.scopes, string(k.scope))
			gone.ids = append(gone.ids, k.id)
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

// sortScopeKeys sorts keys as the rollups' primary key does, so that
// writers touch rows in one order.
func sortScopeKeys(keys []scopeKey) {
	slices.SortFunc(keys, func(a, b scopeKey) int {
		return cmp.Or(strings.Compare(string(a.scope), string(b.scope)), strings.Compare(a.id, b.id))
	})
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
func readLocationStates(ctx context.Context, tx *txn, key int64, ids []string) (map[string]locationState, error) {
	out := make(map[string]locationState, len(ids))
	for _, id := range ids {
		out[id] = locationState{}
	}
	healths := map[string]domain.Health{}
	for start := 0; start < len(ids); start += chunk {
		part := ids[start:min(start+chunk, len(ids))]
		rows, err := tx.Query(ctx, `SELECT id, room_id, floor_id, building_id FROM locations WHERE account_id = $1 AND id = ANY($2)`, key, part)
		if err != nil {
			return nil, err
		}
		var p place
		_, err = pgx.ForEachRow(rows, []any{&p.location, &p.room, &p.floor, &p.building}, func() error {
			s := out[p.location]
			s.place, s.inLayout = p, true
			out[p.location] = s
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
			s.alerts = alertCount{int(open), int(overdue)}
			out[id] = s
			return nil
		})
		if err != nil {
			return nil, err
		}
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
func adjustRollups(ctx context.Context, tx *txn, key int64, account string, before, after map[string]locationState) error {
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
	if len(keys) == 0 {
		return nil
	}
	sortScopeKeys(keys)
	var cols rollupColumns
	for _, k := range keys {
		cols.add(k, deltas[k].values())
	}
	// The parts counted already move by their deltas; the others start
	// from them. The account's row is locked: nobody else writes these.
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
		cols.args(key)...)
	return err
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

func (d *rollupDelta) values() [6]int64 {
	return [6]int64{int64(d.health[domain.HealthOK]), int64(d.health[domain.HealthAttention]), int64(d.health[domain.HealthAction]),
		int64(d.health[domain.HealthOffline]), int64(d.open), int64(d.overdue)}
}
