package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"washboard/internal/domain"
	"washboard/internal/store"
)

const receiverCols = `r.id, a.id, r.secret, r.previous_secret, r.previous_until, r.created, r.rotated,
	r.last_event, r.accepted, r.rejected`

func scanReceiver(scan func(...any) error) (store.Receiver, error) {
	var r store.Receiver
	var until, created, rotated, last pgtype.Timestamptz
	err := scan(&r.ID, &r.Account, &r.Secret, &r.Previous, &until, &created, &rotated, &last, &r.Accepted, &r.Rejected)
	r.PreviousUntil, r.Created, r.Rotated, r.LastEvent = fromTS(until), fromTS(created), fromTS(rotated), fromTS(last)
	return r, err
}

// CreateReceiver stores a new receiver, unless its account has max
// already (see insertWithinLimit).
func (s *Store) CreateReceiver(ctx context.Context, r store.Receiver, max int) error {
	key, err := s.accountKey(ctx, r.Account, true)
	if err != nil {
		return err
	}
	return s.insertWithinLimit(ctx, key, `INSERT INTO webhook_receivers (id, account_id, secret, created)
		SELECT $1, $2, $3, $4 WHERE $5::int <= 0 OR (SELECT count(*) FROM webhook_receivers WHERE account_id = $2) < $5::int`,
		r.ID, key, r.Secret, r.Created, max)
}

// Receivers lists an account's receivers, oldest first.
func (s *Store) Receivers(ctx context.Context, account string) ([]store.Receiver, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `SELECT `+receiverCols+` FROM webhook_receivers r JOIN accounts a ON a.key = r.account_id
		WHERE r.account_id = $1 ORDER BY r.created, r.id`, key)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Receiver, error) { return scanReceiver(row.Scan) })
}

// Receiver finds a receiver by its id, whatever its account.
func (s *Store) Receiver(ctx context.Context, id string) (store.Receiver, error) {
	r, err := scanReceiver(s.pool.QueryRow(ctx, `SELECT `+receiverCols+` FROM webhook_receivers r
		JOIN accounts a ON a.key = r.account_id WHERE r.id = $1`, id).Scan)
	return r, notFound(err, "receiver", id)
}

// RotateReceiver gives an account's receiver a new sealed secret; the one
// it had is accepted until previousUntil.
func (s *Store) RotateReceiver(ctx context.Context, account, id string, secret []byte, at, previousUntil time.Time) error {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	tag, err := s.pool.Exec(ctx, `UPDATE webhook_receivers SET previous_secret = secret, previous_until = $1,
		secret = $2, rotated = $3 WHERE account_id = $4 AND id = $5`, ts(previousUntil), secret, ts(at), key, id)
	return oneRow(tag.RowsAffected(), err, "receiver", id)
}

// RemoveReceiver removes an account's receiver: its address answers 404.
func (s *Store) RemoveReceiver(ctx context.Context, account, id string) error {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	tag, err := s.pool.Exec(ctx, `DELETE FROM webhook_receivers WHERE account_id = $1 AND id = $2`, key, id)
	return oneRow(tag.RowsAffected(), err, "receiver", id)
}

// RecordReceived adds counts to receivers, by id, in one transaction; a
// receiver removed meanwhile is skipped.
func (s *Store) RecordReceived(ctx context.Context, counts map[string]store.ReceiverCounts) error {
	if len(counts) == 0 {
		return nil
	}
	ids := make([]string, 0, len(counts))
	accepted := make([]int64, 0, len(counts))
	rejected := make([]int64, 0, len(counts))
	last := make([]pgtype.Timestamptz, 0, len(counts))
	for id, c := range counts {
		ids = append(ids, id)
		accepted = append(accepted, c.Accepted)
		rejected = append(rejected, c.Rejected)
		last = append(last, pgtype.Timestamptz{Time: c.LastEvent, Valid: !c.LastEvent.IsZero()})
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		for start := 0; start < len(ids); start += chunk {
			end := min(start+chunk, len(ids))
			// greatest ignores NULLs: "none yet" on either side leaves the other.
			if _, err := tx.Exec(ctx, `UPDATE webhook_receivers r SET accepted = r.accepted + c.accepted, rejected = r.rejected + c.rejected,
					last_event = greatest(r.last_event, c.last_event)
				FROM unnest($1::text[], $2::int8[], $3::int8[], $4::timestamptz[]) AS c(id, accepted, rejected, last_event)
				WHERE r.id = c.id`, ids[start:end], accepted[start:end], rejected[start:end], last[start:end]); err != nil {
				return err
			}
		}
		return nil
	})
}

// ReceiverSecrets returns every receiver's sealed signing secret, by id.
func (s *Store) ReceiverSecrets(ctx context.Context) (map[string][]byte, error) {
	return s.sealedByID(ctx, `SELECT id, secret FROM webhook_receivers`)
}

// ResealReceiverSecrets replaces receivers' sealed secrets, by id, in one
// statement; one that changed since it was read (a new secret meanwhile)
// keeps its new one. It returns how many it replaced.
func (s *Store) ResealReceiverSecrets(ctx context.Context, byID map[string]store.Reseal) (int, error) {
	return s.reseal(ctx, "webhook_receivers", "secret", byID)
}

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
