package sqlstore

import (
	"context"
	"time"

	"washboard/internal/store"
)

const receiverCols = `r.id, a.id, r.secret, r.previous_secret, r.previous_until, r.created, r.rotated,
	r.last_event, r.accepted, r.rejected`

func (s *Store) scanReceiver(scan func(...any) error) (store.Receiver, error) {
	var r store.Receiver
	err := scan(&r.ID, &r.Account, &r.Secret, &r.Previous, s.d.ScanTime(&r.PreviousUntil), s.d.ScanTime(&r.Created),
		s.d.ScanTime(&r.Rotated), s.d.ScanTime(&r.LastEvent), &r.Accepted, &r.Rejected)
	return r, err
}

// CreateReceiver stores a new receiver, unless its account has max
// already (see insertWithinLimit).
func (s *Store) CreateReceiver(ctx context.Context, r store.Receiver, max int) error {
	key, err := s.accountKey(ctx, r.Account, true)
	if err != nil {
		return err
	}
	return s.insertWithinLimit(ctx, key, max, `INSERT INTO webhook_receivers (id, account_id, secret, created)
		SELECT ?, ?, ?, ? WHERE (SELECT count(*) FROM webhook_receivers WHERE account_id = ?) < ?`,
		r.ID, key, r.Secret, s.d.Time(r.Created))
}

// Receivers lists an account's receivers, oldest first.
func (s *Store) Receivers(ctx context.Context, account string) ([]store.Receiver, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	return listOf(ctx, s.read, s.scanReceiver, `SELECT `+receiverCols+` FROM webhook_receivers r JOIN accounts a ON a.key = r.account_id
		WHERE r.account_id = ? ORDER BY r.created, r.id`, key)
}

// Receiver finds a receiver by its id, whatever its account. It reads the
// writer's view, so that a receiver just made or removed is seen at once.
func (s *Store) Receiver(ctx context.Context, id string) (store.Receiver, error) {
	r, err := s.scanReceiver(s.write.QueryRow(ctx, `SELECT `+receiverCols+` FROM webhook_receivers r
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
	n, err := s.write.Exec(ctx, `UPDATE webhook_receivers SET previous_secret = secret, previous_until = ?,
		secret = ?, rotated = ? WHERE account_id = ? AND id = ?`, s.d.TimeOrNever(previousUntil), secret, s.d.TimeOrNever(at), key, id)
	return oneRow(n, err, "receiver", id)
}

// RemoveReceiver removes an account's receiver: its address answers 404.
func (s *Store) RemoveReceiver(ctx context.Context, account, id string) error {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	n, err := s.write.Exec(ctx, `DELETE FROM webhook_receivers WHERE account_id = ? AND id = ?`, key, id)
	return oneRow(n, err, "receiver", id)
}

// RecordReceived adds counts to receivers, by id, in one transaction; a
// receiver removed meanwhile is skipped. A receiver's last event is the
// later of the one it had and the one counted.
func (s *Store) RecordReceived(ctx context.Context, counts map[string]store.ReceiverCounts) error {
	if len(counts) == 0 {
		return nil
	}
	stmts := make([]Statement, 0, len(counts))
	for id, c := range counts {
		st := Statement{SQL: `UPDATE webhook_receivers SET accepted = accepted + ?, rejected = rejected + ? WHERE id = ?`,
			Args: []any{c.Accepted, c.Rejected, id}}
		if !c.LastEvent.IsZero() {
			at := s.d.Time(c.LastEvent)
			st.SQL = `UPDATE webhook_receivers SET accepted = accepted + ?, rejected = rejected + ?,
				last_event = CASE WHEN last_event >= ? THEN last_event ELSE ? END WHERE id = ?`
			st.Args = []any{c.Accepted, c.Rejected, at, at, id}
		}
		stmts = append(stmts, st)
	}
	return s.inTx(ctx, func(tx Tx) error { return tx.Batch(ctx, stmts) })
}

// ReceiverSecrets returns every receiver's sealed signing secret, by id.
func (s *Store) ReceiverSecrets(ctx context.Context) (map[string][]byte, error) {
	return s.sealedByID(ctx, `SELECT id, secret FROM webhook_receivers`)
}

// ResealReceiverSecrets replaces receivers' sealed secrets, by id, in one
// transaction; one that changed since it was read (a new secret meanwhile)
// keeps its new one. It returns how many it replaced.
func (s *Store) ResealReceiverSecrets(ctx context.Context, byID map[string]store.Reseal) (int, error) {
	return s.reseal(ctx, `UPDATE webhook_receivers SET secret = ? WHERE id = ? AND secret = ?`, byID)
}
