package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"washboard/internal/domain"
)

// AlertOfAnotherAccount reports whether the cache holds an alert of this
// id under another account than this one. Alert ids are unique across
// accounts; location ids need not be.
func (s *Store) AlertOfAnotherAccount(ctx context.Context, account, alertID string) (bool, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return false, err
	}
	var found bool
	err = s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM alerts WHERE id = $1 AND account_id != $2)`, alertID, key).Scan(&found)
	return found, err
}

// ApplyAlertEvents writes what the service's events say of alerts, in one
// transaction with the rollups: each alert in its later state of what
// the cache holds and what the event brings (domain.Later), so that an
// event that comes late or twice changes nothing. seen is when the events
// arrived, for the time an alert first counted as overdue.
func (s *Store) ApplyAlertEvents(ctx context.Context, account string, alerts []domain.Alert, seen time.Time) (domain.Change, error) {
	r, err := s.beginAlerts(ctx, account)
	if err != nil {
		return domain.Change{}, err
	}
	defer r.Rollback()
	r.SeenAt(seen)
	r.events = true
	ids := make([]string, 0, len(alerts))
	for _, a := range alerts {
		ids = append(ids, a.ID)
	}
	cached, err := alertsByID(ctx, r.tx, r.key, ids)
	if err != nil {
		return domain.Change{}, err
	}
	var write []domain.Alert
	var locations []string
	seenLoc := map[string]bool{}
	for _, a := range alerts {
		if c, ok := cached[a.ID]; ok {
			later, changed := domain.Later(c, a)
			if !changed {
				continue
			}
			a = later
		}
		cached[a.ID] = a
		write = append(write, a)
		if !seenLoc[a.LocationID] {
			seenLoc[a.LocationID] = true
			locations = append(locations, a.LocationID)
		}
	}
	if len(write) == 0 {
		return domain.Change{}, nil
	}
	// Only these locations' counts can move: their parts' rollups are
	// adjusted, not counted again.
	if r.touched, err = readLocationStates(ctx, r.tx, r.key, locations); err != nil {
		return domain.Change{}, err
	}
	if err := r.Write(ctx, write); err != nil {
		return domain.Change{}, err
	}
	return r.Commit(ctx, nil, time.Time{})
}

// alertsByID reads the given alerts of an account within a transaction.
func alertsByID(ctx context.Context, tx *txn, account int64, ids []string) (map[string]domain.Alert, error) {
	out := make(map[string]domain.Alert, len(ids))
	for start := 0; start < len(ids); start += chunk {
		rows, err := tx.Query(ctx, `SELECT `+alertCols+` FROM alerts a WHERE a.account_id = $1 AND a.id = ANY($2)`,
			account, ids[start:min(start+chunk, len(ids))])
		if err != nil {
			return nil, err
		}
		alerts, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (domain.Alert, error) { return scanAlert(row.Scan) })
		if err != nil {
			return nil, err
		}
		for _, a := range alerts {
			out[a.ID] = a
		}
	}
	return out, nil
}
