package sqlstore

import (
	"context"

	"washboard/internal/domain"
)

// RecountRollups returns the account's rollups, by scope and id, as the
// cache keeps them and as a recount of the cache gives them, in a
// transaction it rolls back.
func (s *Store) RecountRollups(ctx context.Context, account string) (kept, recount map[string]domain.Rollup, err error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, nil, err
	}
	read := func(q Querier) (map[string]domain.Rollup, error) {
		out := map[string]domain.Rollup{}
		var k string
		var r domain.Rollup
		err := each(ctx, q, `SELECT scope || ' ' || scope_id, ok, attention, action, offline, open_alerts, overdue_alerts
			FROM rollups WHERE account_id = ?`, []any{key}, []any{&k, &r.OK, &r.Attention, &r.Action, &r.Offline, &r.OpenAlerts, &r.OverdueAlerts},
			func() error {
				out[k] = r
				return nil
			})
		return out, err
	}
	if kept, err = read(s.write); err != nil {
		return nil, nil, err
	}
	held, tx, err := s.beginRefresh(ctx, account)
	if err != nil {
		return nil, nil, err
	}
	defer tx.Rollback()
	if err := recomputeRollups(ctx, tx, held, rollupInputs{}); err != nil {
		return nil, nil, err
	}
	recount, err = read(tx)
	return kept, recount, err
}

// Exec runs a statement on the store's writer.
func Exec(ctx context.Context, s *Store, query string) error {
	_, err := s.write.Exec(ctx, query)
	return err
}

// Writer is the store's writer, for a test to read what no method reads.
func (s *Store) Writer() Querier { return s.write }

// Key is an account's key; -1 when the store does not hold it.
func (s *Store) Key(ctx context.Context, account string) (int64, error) {
	return s.accountKey(ctx, account, false)
}
