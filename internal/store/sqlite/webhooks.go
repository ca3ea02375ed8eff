package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

const receiverCols = `r.id, a.id, r.secret, r.previous_secret, r.previous_until, r.created, r.rotated,
	r.last_event, r.accepted, r.rejected`

func scanReceiver(scan func(...any) error) (store.Receiver, error) {
	var r store.Receiver
	var until, created, rotated, last int64
	err := scan(&r.ID, &r.Account, &r.Secret, &r.Previous, &until, &created, &rotated, &last, &r.Accepted, &r.Rejected)
	r.PreviousUntil, r.Created, r.Rotated, r.LastEvent = fromMS(until), fromMS(created), fromMS(rotated), fromMS(last)
	return r, err
}

// CreateReceiver stores a new receiver, unless its account has max
// already; one statement counts and inserts, as CreateScreen.
func (s *Store) CreateReceiver(ctx context.Context, r store.Receiver, max int) error {
	key, err := s.accountKey(ctx, r.Account, true)
	if err != nil {
		return err
	}
	res, err := s.write.ExecContext(ctx, `INSERT INTO webhook_receivers (id, account_id, secret, created)
		SELECT ?, ?, ?, ? WHERE ? <= 0 OR (SELECT count(*) FROM webhook_receivers WHERE account_id = ?) < ?`,
		r.ID, key, r.Secret, ms(r.Created), max, key, max)
	return insertedOne(res, err)
}

// Receivers lists an account's receivers, oldest first.
func (s *Store) Receivers(ctx context.Context, account string) ([]store.Receiver, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	rows, err := s.read.QueryContext(ctx, `SELECT `+receiverCols+` FROM webhook_receivers r JOIN accounts a ON a.key = r.account_id
		WHERE r.account_id = ? ORDER BY r.created, r.id`, key)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Receiver
	for rows.Next() {
		r, err := scanReceiver(rows.Scan)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// store.Receiver finds a receiver by its id, whatever its account. It reads the
// writer's view, so that a receiver just made or removed is seen at once.
func (s *Store) Receiver(ctx context.Context, id string) (store.Receiver, error) {
	r, err := scanReceiver(s.write.QueryRowContext(ctx, `SELECT `+receiverCols+` FROM webhook_receivers r
		JOIN accounts a ON a.key = r.account_id WHERE r.id = ?`, id).Scan)
	return r, notFound(err, "receiver", id)
}

// RotateReceiver gives an account's receiver a new sealed secret; the one
// it had is accepted until previousUntil.
func (s *Store) RotateReceiver(ctx context.Context, account, id string, secret []byte, at, previousUntil time.Time) error {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	res, err := s.write.ExecContext(ctx, `UPDATE webhook_receivers SET previous_secret = secret, previous_until = ?,
		secret = ?, rotated = ? WHERE account_id = ? AND id = ?`, ms(previousUntil), secret, ms(at), key, id)
	return oneRow(res, err, "receiver", id)
}

// RemoveReceiver removes an account's receiver: its address answers 404.
func (s *Store) RemoveReceiver(ctx context.Context, account, id string) error {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	res, err := s.write.ExecContext(ctx, `DELETE FROM webhook_receivers WHERE account_id = ? AND id = ?`, key, id)
	return oneRow(res, err, "receiver", id)
}

// RecordReceived adds counts to receivers, by id, in one transaction; a
// receiver removed meanwhile is skipped.
func (s *Store) RecordReceived(ctx context.Context, counts map[string]store.ReceiverCounts) error {
	if len(counts) == 0 {
		return nil
	}
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for id, c := range counts {
		if _, err := tx.ExecContext(ctx, `UPDATE webhook_receivers SET accepted = accepted + ?, rejected = rejected + ?,
			last_event = max(last_event, ?) WHERE id = ?`, c.Accepted, c.Rejected, ms(c.LastEvent), id); err != nil {
			return err
		}
	}
	return tx.Commit()
}

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

// ReceiverSecrets returns every receiver's sealed signing secret, by id.
func (s *Store) ReceiverSecrets(ctx context.Context) (map[string][]byte, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id, secret FROM webhook_receivers`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]byte{}
	for rows.Next() {
		var id string
		var sealed []byte
		if err := rows.Scan(&id, &sealed); err != nil {
			return nil, err
		}
		out[id] = sealed
	}
	return out, rows.Err()
}

// ResealReceiverSecrets replaces receivers' sealed secrets, by id, in one
// transaction; one that changed since it was read (a new secret meanwhile)
// keeps its new one. It returns how many it replaced.
func (s *Store) ResealReceiverSecrets(ctx context.Context, byID map[string]store.Reseal) (int, error) {
	return s.reseal(ctx, `UPDATE webhook_receivers SET secret = ? WHERE id = ? AND secret = ?`, byID)
}
