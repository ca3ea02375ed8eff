package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// NotificationSettings returns the account's channels and rules, sealed;
// nil when it has none.
func (s *Store) NotificationSettings(ctx context.Context, account string) ([]byte, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	var sealed []byte
	err = s.read.QueryRowContext(ctx, `SELECT sealed FROM notification_settings WHERE account_id = ?`, key).Scan(&sealed)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return sealed, err
}

// SaveNotificationSettings replaces the account's sealed channels and
// rules if they are still previous (nil: none saved); store.ErrChanged
// otherwise.
func (s *Store) SaveNotificationSettings(ctx context.Context, account string, previous, sealed []byte, at time.Time) error {
	key, err := s.accountKey(ctx, account, true)
	if err != nil {
		return err
	}
	var res sql.Result
	if previous == nil {
		res, err = s.write.ExecContext(ctx, `INSERT INTO notification_settings (account_id, sealed, updated) VALUES (?, ?, ?)
			ON CONFLICT (account_id) DO NOTHING`, key, sealed, ms(at))
	} else {
		res, err = s.write.ExecContext(ctx, `UPDATE notification_settings SET sealed = ?, updated = ? WHERE account_id = ? AND sealed = ?`,
			sealed, ms(at), key, previous)
	}
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return err
	}
	return store.ErrChanged
}

// AllNotificationSettings returns every account's sealed channels and
// rules, by account.
func (s *Store) AllNotificationSettings(ctx context.Context) (map[string][]byte, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT a.id, n.sealed FROM notification_settings n JOIN accounts a ON a.key = n.account_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]byte{}
	for rows.Next() {
		var account string
		var sealed []byte
		if err := rows.Scan(&account, &sealed); err != nil {
			return nil, err
		}
		out[account] = sealed
	}
	return out, rows.Err()
}

// ResealNotificationSettings replaces accounts' sealed settings, by
// account, in one transaction; an account whose settings were saved since
// they were read keeps the ones saved. It returns how many it replaced.
func (s *Store) ResealNotificationSettings(ctx context.Context, byAccount map[string]store.Reseal) (int, error) {
	return s.reseal(ctx, `UPDATE notification_settings SET sealed = ?
		WHERE account_id = (SELECT key FROM accounts WHERE id = ?) AND sealed = ?`, byAccount)
}

// DecidedThrough returns the seq of the last fact decided; 0 before the
// first decision.
func (s *Store) DecidedThrough(ctx context.Context) (int64, error) {
	var through int64
	err := s.read.QueryRowContext(ctx, `SELECT through FROM notification_cursor`).Scan(&through)
	return through, err
}

// live is the condition of the notifications still to be checked or sent,
// written as the partial index notifications_due is, so that the queries
// of the queue read that index.
const live = `state IN ('waiting', 'pending')`

// Decide records a decision in one transaction: the new notifications
// (those whose id the table holds already are left as they are, with
// their items), the items added to digests, after their last, the
// updates, and, when d.Through is above the seq decided through, that seq
// and the deletion of the facts up to it. Notes are cut to
// store.NoteMax characters. An item for a digest, or an update of a
// notification, that the table does not hold fails the decision
// (domain.ErrNotFound).
func (s *Store) Decide(ctx context.Context, d store.Decision) error {
	// The accounts' keys first: a key is made on the writer connection,
	// outside the transaction, which holds that connection.
	keys := map[string]int64{}
	for _, n := range d.New {
		if _, ok := keys[n.Account]; ok {
			continue
		}
		k, err := s.accountKey(ctx, n.Account, true)
		if err != nil {
			return err
		}
		keys[n.Account] = k
	}
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := addNotifications(ctx, tx, keys, d.New); err != nil {
		return err
	}
	for _, it := range d.DigestItems {
		res, err := tx.ExecContext(ctx, `INSERT INTO notification_items (notification_id, position, item)
			SELECT id, (SELECT coalesce(max(position) + 1, 0) FROM notification_items WHERE notification_id = ?), ?
			FROM notifications WHERE id = ?`, it.ID, item(it.Item), it.ID)
		if n, err := rowsAffected(res, err); err != nil {
			return err
		} else if n == 0 {
			return fmt.Errorf("digest %q: %w", it.ID, domain.ErrNotFound)
		}
	}
	for _, u := range d.Updates {
		res, err := tx.ExecContext(ctx, `UPDATE notifications SET state = ?, due = ?, attempts = ?, last_attempt = ?, sent = ?, note = ?
			WHERE id = ?`, string(u.State), ms(u.Due), u.Attempts, ms(u.LastAttempt), ms(u.Sent), store.CutNote(u.Note), u.ID)
		if n, err := rowsAffected(res, err); err != nil {
			return err
		} else if n == 0 {
			return fmt.Errorf("notification %q: %w", u.ID, domain.ErrNotFound)
		}
	}
	if d.Through > 0 {
		res, err := tx.ExecContext(ctx, `UPDATE notification_cursor SET through = ? WHERE through < ?`, d.Through, d.Through)
		n, err := rowsAffected(res, err)
		if err != nil {
			return err
		}
		if n > 0 {
			if _, err := tx.ExecContext(ctx, `DELETE FROM facts WHERE seq <= ?`, d.Through); err != nil {
				return err
			}
		}
	}
	return tx.Commit()
}

// addNotifications adds notifications, with their items, within the
// transaction of a decision; one whose id the table holds already is left
// as it is, and its items are not added. keys are the accounts' keys.
func addNotifications(ctx context.Context, tx *sql.Tx, keys map[string]int64, ns []store.Notification) error {
	if len(ns) == 0 {
		return nil
	}
	insert, err := tx.PrepareContext(ctx, `INSERT INTO notifications (id, account_id, rule, channel, kind, subject, state,
			created, due, attempts, last_attempt, sent, note)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`)
	if err != nil {
		return err
	}
	defer insert.Close()
	items, err := tx.PrepareContext(ctx, `INSERT INTO notification_items (notification_id, position, item) VALUES (?, ?, ?)`)
	if err != nil {
		return err
	}
	defer items.Close()
	for _, n := range ns {
		res, err := insert.ExecContext(ctx, n.ID, keys[n.Account], n.Rule, n.Channel, n.Kind, n.Subject, string(n.State),
			ms(n.Created), ms(n.Due), n.Attempts, ms(n.LastAttempt), ms(n.Sent), store.CutNote(n.Note))
		added, err := rowsAffected(res, err)
		if err != nil {
			return err
		}
		if added == 0 {
			continue
		}
		for i, it := range n.Items {
			if _, err := items.ExecContext(ctx, n.ID, i, item(it)); err != nil {
				return err
			}
		}
	}
	return nil
}

// item is an item as the table holds it: never NULL.
func item(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// OpenDigest returns the id of the digest of the account's rule to the
// channel that is still collecting items: pending and never attempted;
// the newest, should there be several.
func (s *Store) OpenDigest(ctx context.Context, account, rule, channel string) (string, int, bool, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return "", 0, false, err
	}
	var id string
	var items int
	// 'digest' is notify.KindDigest.
	err = s.read.QueryRowContext(ctx, `SELECT id, (SELECT count(*) FROM notification_items WHERE notification_id = notifications.id) FROM notifications
		WHERE account_id = ? AND channel = ? AND rule = ? AND kind = 'digest' AND state = 'pending' AND attempts = 0
		ORDER BY created DESC, id DESC LIMIT 1`, key, channel, rule).Scan(&id, &items)
	if errors.Is(err, sql.ErrNoRows) {
		return "", 0, false, nil
	}
	return id, items, err == nil, err
}

// notificationCols are the columns scanNotification reads, of
// notifications n joined with accounts a.
const notificationCols = `n.id, a.id, n.rule, n.channel, n.kind, n.subject, n.state, n.created, n.due, n.attempts,
	n.last_attempt, n.sent, n.note`

// scanNotification reads notificationCols, then the columns in more.
func scanNotification(scan func(...any) error, more ...any) (store.Notification, error) {
	var n store.Notification
	var state string
	var created, due, last, sent int64
	err := scan(append([]any{&n.ID, &n.Account, &n.Rule, &n.Channel, &n.Kind, &n.Subject, &state, &created, &due, &n.Attempts,
		&last, &sent, &n.Note}, more...)...)
	n.State = store.NotificationState(state)
	n.Created, n.Due, n.LastAttempt, n.Sent = fromMS(created), fromMS(due), fromMS(last), fromMS(sent)
	return n, err
}

// notificationLimit bounds the limit of DueNotifications and
// NotificationLog (see store.NotificationsLimit).
func notificationLimit(limit int) int {
	if limit <= 0 {
		return store.NotificationsLimit
	}
	return min(limit, store.NotificationsMax)
}

// DueNotifications returns the notifications waiting or pending whose due
// time is not after now, earliest due first (then by id), with their
// items, at most limit of them, in one statement: the items are those of
// the same moment.
func (s *Store) DueNotifications(ctx context.Context, now time.Time, limit int) ([]store.Notification, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+notificationCols+`, i.position, i.item
		FROM (SELECT * FROM notifications WHERE `+live+` AND due <= ? ORDER BY due, id LIMIT ?) n
		JOIN accounts a ON a.key = n.account_id
		LEFT JOIN notification_items i ON i.notification_id = n.id
		ORDER BY n.due, n.id, i.position`, ms(now), notificationLimit(limit))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Notification
	for rows.Next() {
		var position sql.NullInt64
		var it []byte
		n, err := scanNotification(rows.Scan, &position, &it)
		if err != nil {
			return nil, err
		}
		if len(out) == 0 || out[len(out)-1].ID != n.ID {
			out = append(out, n)
		}
		if position.Valid {
			last := &out[len(out)-1]
			last.Items = append(last.Items, item(it))
			last.ItemCount++
		}
	}
	return out, rows.Err()
}

// NextDue returns the earliest due time of the notifications waiting or
// pending; ok is false when there are none.
func (s *Store) NextDue(ctx context.Context) (time.Time, bool, error) {
	var due int64
	err := s.read.QueryRowContext(ctx, `SELECT due FROM notifications WHERE `+live+` ORDER BY due LIMIT 1`).Scan(&due)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, false, nil
	}
	if err != nil {
		return time.Time{}, false, err
	}
	return fromMS(due), true, nil
}

// NotificationLog returns the latest notifications of the account's
// channel, newest first (then by id, descending), at most limit of them,
// with how many items each has but not the items.
func (s *Store) NotificationLog(ctx context.Context, account, channel string, limit int) ([]store.Notification, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	rows, err := s.read.QueryContext(ctx, `SELECT `+notificationCols+`,
			(SELECT count(*) FROM notification_items i WHERE i.notification_id = n.id)
		FROM notifications n JOIN accounts a ON a.key = n.account_id
		WHERE n.account_id = ? AND n.channel = ? ORDER BY n.created DESC, n.id DESC LIMIT ?`, key, channel, notificationLimit(limit))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Notification
	for rows.Next() {
		var count int
		n, err := scanNotification(rows.Scan, &count)
		if err != nil {
			return nil, err
		}
		n.ItemCount = count
		out = append(out, n)
	}
	return out, rows.Err()
}

// PruneNotifications removes the finished notifications (neither waiting
// nor pending) created before before, and their items, in one
// transaction; it returns how many notifications it removed.
func (s *Store) PruneNotifications(ctx context.Context, before time.Time) (int, error) {
	const finished = `state NOT IN ('waiting', 'pending') AND created < ?`
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM notification_items WHERE notification_id IN (SELECT id FROM notifications WHERE `+finished+`)`,
		ms(before)); err != nil {
		return 0, err
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM notifications WHERE `+finished, ms(before))
	n, err := rowsAffected(res, err)
	if err != nil {
		return 0, err
	}
	return int(n), tx.Commit()
}
