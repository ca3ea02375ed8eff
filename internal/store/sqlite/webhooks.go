package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

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
	var n int
	err = s.read.QueryRowContext(ctx, `SELECT count(*) FROM alerts WHERE account_id IN (SELECT key FROM accounts WHERE key != ?) AND id = ?`,
		key, alertID).Scan(&n)
	return n > 0, err
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
	ids := make([]any, 0, len(alerts))
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
func alertsByID(ctx context.Context, tx *sql.Tx, account int64, ids []any) (map[string]domain.Alert, error) {
	out := make(map[string]domain.Alert, len(ids))
	const chunk = 500
	for start := 0; start < len(ids); start += chunk {
		part := ids[start:min(start+chunk, len(ids))]
		rows, err := tx.QueryContext(ctx, `SELECT `+alertCols+` FROM alerts a WHERE a.account_id = ? AND a.id IN (`+
			strings.TrimSuffix(strings.Repeat("?,", len(part)), ",")+`)`, append([]any{account}, part...)...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			a, err := scanAlert(rows.Scan)
			if err != nil {
				rows.Close()
				return nil, err
			}
			out[a.ID] = a
		}
		if err := errors.Join(rows.Err(), rows.Close()); err != nil {
			return nil, err
		}
	}
	return out, nil
}
