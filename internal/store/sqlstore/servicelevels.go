package sqlstore

import (
	"context"
	"slices"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// Service levels (store.ServiceLevels): each account's and its buildings',
// and the measures of the alerts the cache saw close.

// maxPolicyWords is the most characters a measure keeps of the service
// level in force, in words, and of where the clock stopped.
const maxPolicyWords = 1000

// MeasureWith sets how the writes that begin from now on measure the
// alerts they see close.
func (s *Store) MeasureWith(m store.Measurer) { s.measurer.Store(&m) }

// ServiceLevels returns the account's service levels by building id, ""
// for the account's own.
func (s *Store) ServiceLevels(ctx context.Context, account string) (map[string]store.ServiceLevel, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	return s.serviceLevels(ctx, s.read, key)
}

func (s *Store) serviceLevels(ctx context.Context, q Querier, key int64) (map[string]store.ServiceLevel, error) {
	rows, err := q.Query(ctx, `SELECT building_id, week, holidays, zone, targets, updated FROM service_levels WHERE account_id = ?`, key)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]store.ServiceLevel{}
	for rows.Next() {
		var sl store.ServiceLevel
		var targets string
		if err := rows.Scan(&sl.Building, &sl.Week, &sl.Holidays, &sl.Zone, &targets, s.d.ScanTime(&sl.Updated)); err != nil {
			return nil, err
		}
		if sl.Targets, err = store.DecodeTargets(targets); err != nil {
			return nil, err
		}
		out[sl.Building] = sl
	}
	return out, rows.Err()
}

// SaveServiceLevel keeps an account's service level, or a building's.
func (s *Store) SaveServiceLevel(ctx context.Context, account string, sl store.ServiceLevel) error {
	key, err := s.accountKey(ctx, account, true)
	if err != nil {
		return err
	}
	_, err = s.write.Exec(ctx, `INSERT INTO service_levels (account_id, building_id, week, holidays, zone, targets, updated)
		VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (account_id, building_id) DO UPDATE SET week = excluded.week, holidays = excluded.holidays,
		zone = excluded.zone, targets = excluded.targets, updated = excluded.updated`,
		key, sl.Building, sl.Week, sl.Holidays, sl.Zone, store.EncodeTargets(sl.Targets), s.d.Time(sl.Updated))
	return err
}

// RemoveServiceLevel removes a building's service level, or the account's.
func (s *Store) RemoveServiceLevel(ctx context.Context, account, building string) error {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	_, err = s.write.Exec(ctx, `DELETE FROM service_levels WHERE account_id = ? AND building_id = ?`, key, building)
	return err
}

const measureCols = `alert_id, type, location_id, building_id, created, claimed, closed, claim_state, claim_used, claim_target,
	resolve_state, resolve_used, resolve_target, policy, explanation`

// AlertMeasures returns the measures kept of the account's alerts of the
// given ids.
func (s *Store) AlertMeasures(ctx context.Context, account string, ids []string) (map[string]store.AlertMeasure, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	out := map[string]store.AlertMeasure{}
	err = chunks(ids, s.d.MaxList(), func(part []string) error {
		in, args := s.d.In(part)
		return s.measures(ctx, `SELECT `+measureCols+` FROM alert_measures WHERE account_id = ? AND alert_id `+in,
			append([]any{key}, args...), func(m store.AlertMeasure) error {
				out[m.AlertID] = m
				return nil
			})
	})
	return out, err
}

// EachAlertMeasure passes f the measures of the account's alerts closed
// in a period, in the order they closed.
func (s *Store) EachAlertMeasure(ctx context.Context, account string, from, to time.Time, buildings []string,
	f func(store.AlertMeasure) error) error {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	q, args := `SELECT `+measureCols+` FROM alert_measures WHERE account_id = ?`, []any{key}
	if !from.IsZero() {
		q, args = q+` AND closed >= ?`, append(args, s.d.Time(from))
	}
	if !to.IsZero() {
		q, args = q+` AND closed < ?`, append(args, s.d.Time(to))
	}
	in, inArgs := s.inBuildings("building_id", buildings)
	q, args = q+in, append(args, inArgs...)
	return s.measures(ctx, q+` ORDER BY closed, alert_id`, args, f)
}

// measures runs a query of measureCols and passes each measure to f.
func (s *Store) measures(ctx context.Context, query string, args []any, f func(store.AlertMeasure) error) error {
	rows, err := s.read.Query(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var m store.AlertMeasure
		var typ string
		var claimUsed, claimTarget, resolveUsed, resolveTarget int64
		if err := rows.Scan(&m.AlertID, &typ, &m.LocationID, &m.BuildingID, s.d.ScanTime(&m.Created), s.d.ScanTime(&m.Claimed),
			s.d.ScanTime(&m.Closed), &m.Claim.State, &claimUsed, &claimTarget, &m.Resolve.State, &resolveUsed, &resolveTarget,
			&m.Policy, &m.Explanation); err != nil {
			return err
		}
		m.Type = domain.AlertType(typ)
		m.Claim.Used, m.Claim.Target = time.Duration(claimUsed)*time.Millisecond, time.Duration(claimTarget)*time.Millisecond
		m.Resolve.Used, m.Resolve.Target = time.Duration(resolveUsed)*time.Millisecond, time.Duration(resolveTarget)*time.Millisecond
		if err := f(m); err != nil {
			return err
		}
	}
	return rows.Err()
}

// PruneAlertMeasures removes the measures of alerts closed before before.
func (s *Store) PruneAlertMeasures(ctx context.Context, before time.Time) (int, error) {
	n, err := s.write.Exec(ctx, `DELETE FROM alert_measures WHERE closed < ?`, s.d.Time(before))
	return int(n), err
}

// measureClosed records, in tx, the measure of each alert given (closed,
// by id) that the Measurer set measures against the account's service
// levels, unless it was measured before. seen is when the write saw the
// service: the closing time of an alert that has none.
func (s *Store) measureClosed(ctx context.Context, tx Tx, key int64, closed map[string]domain.Alert, seen time.Time) error {
	measure := s.measurer.Load()
	if len(closed) == 0 || measure == nil || *measure == nil {
		return nil
	}
	levels, err := s.serviceLevels(ctx, tx, key)
	if err != nil || len(levels) == 0 {
		return err
	}
	ids := make([]string, 0, len(closed))
	var locations []string
	for id, a := range closed {
		ids = append(ids, id)
		locations = append(locations, a.LocationID)
	}
	slices.Sort(ids)
	slices.Sort(locations)
	buildings, err := s.buildingsOf(ctx, tx, key, slices.Compact(locations))
	if err != nil {
		return err
	}
	claimed, err := s.firstClaims(ctx, tx, key, ids)
	if err != nil {
		return err
	}
	if seen.IsZero() {
		seen = s.Now()
	}
	for _, id := range ids {
		a := closed[id]
		in := store.AlertMeasure{AlertID: id, Type: a.Type, LocationID: a.LocationID, BuildingID: buildings[a.LocationID],
			Created: a.Created, Claimed: claimed[id], Closed: a.Resolved}
		if in.Closed.IsZero() {
			in.Closed = seen
		}
		m, ok := (*measure)(levels, in)
		if !ok {
			continue
		}
		if _, err := tx.Exec(ctx, `INSERT INTO alert_measures (`+measureCols+`, account_id)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (account_id, alert_id) DO NOTHING`,
			id, string(in.Type), in.LocationID, in.BuildingID, s.d.Time(in.Created), s.d.NullTime(in.Claimed), s.d.Time(in.Closed),
			m.Claim.State, m.Claim.Used.Milliseconds(), m.Claim.Target.Milliseconds(),
			m.Resolve.State, m.Resolve.Used.Milliseconds(), m.Resolve.Target.Milliseconds(),
			store.Cut(m.Policy, maxPolicyWords), store.Cut(m.Explanation, maxPolicyWords), key); err != nil {
			return err
		}
	}
	return nil
}

// buildingsOf returns the building of each of the account's locations
// given, by location id; those the cache does not hold are left out.
func (s *Store) buildingsOf(ctx context.Context, q Querier, key int64, locations []string) (map[string]string, error) {
	out := map[string]string{}
	err := chunks(locations, s.d.MaxList(), func(part []string) error {
		in, args := s.d.In(part)
		rows, err := q.Query(ctx, `SELECT id, building_id FROM locations WHERE account_id = ? AND id `+in, append([]any{key}, args...)...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id, b string
			if err := rows.Scan(&id, &b); err != nil {
				return err
			}
			out[id] = b
		}
		return rows.Err()
	})
	return out, err
}

// FirstClaims returns when each of the account's alerts given was first
// claimed.
func (s *Store) FirstClaims(ctx context.Context, account string, ids []string) (map[string]time.Time, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	return s.firstClaims(ctx, s.read, key, ids)
}

// firstClaims returns when each of the account's alerts given was first
// claimed, by alert id; those never claimed are left out.
func (s *Store) firstClaims(ctx context.Context, q Querier, key int64, ids []string) (map[string]time.Time, error) {
	out := map[string]time.Time{}
	err := chunks(ids, s.d.MaxList(), func(part []string) error {
		in, args := s.d.In(part)
		rows, err := q.Query(ctx, `SELECT alert_id, min(claimed) FROM claims WHERE account_id = ? AND alert_id `+in+` GROUP BY alert_id`,
			append([]any{key}, args...)...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			var at time.Time
			if err := rows.Scan(&id, s.d.ScanTime(&at)); err != nil {
				return err
			}
			out[id] = at
		}
		return rows.Err()
	})
	return out, err
}
