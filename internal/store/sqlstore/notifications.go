package sqlstore

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
	err = s.read.QueryRow(ctx, `SELECT sealed FROM notification_settings WHERE account_id = ?`, key).Scan(&sealed)
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
	var n int64
	if previous == nil {
		n, err = s.write.Exec(ctx, `INSERT INTO notification_settings (account_id, sealed, updated) VALUES (?, ?, ?)
			ON CONFLICT (account_id) DO NOTHING`, key, sealed, s.d.Time(at))
	} else {
		n, err = s.write.Exec(ctx, `UPDATE notification_settings SET sealed = ?, updated = ? WHERE account_id = ? AND sealed = ?`,
			sealed, s.d.Time(at), key, previous)
	}
	if err != nil || n == 1 {
		return err
	}
	return store.ErrChanged
}

// AllNotificationSettings returns every account's sealed channels and
// rules, by account.
func (s *Store) AllNotificationSettings(ctx context.Context) (map[string][]byte, error) {
	return s.sealedByID(ctx, `SELECT a.id, n.sealed FROM notification_settings n JOIN accounts a ON a.key = n.account_id`)
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
	err := s.read.QueryRow(ctx, `SELECT through FROM notification_cursor`).Scan(&through)
	return through, err
}

// live is the condition of the notifications still to be checked or sent,
// written as the partial index notifications_due is, so that the queries
// of the queue read that index.
const live = `state IN ('waiting', 'pending')`

// The statements of a decision.
var (
	// addNotifications adds notifications, unless the table holds their
	// ids already, and returns the ids of those it added.
	addNotifications = &Insert{Table: "notifications", Columns: []Column{
		{"id", Text}, {"account_id", Int}, {"rule", Text}, {"channel", Text}, {"kind", Text}, {"subject", Text}, {"state", Text},
		{"created", Time}, {"due", Time}, {"attempts", Int}, {"last_attempt", Time}, {"sent", Time}, {"note", Text},
	}, Then: `ON CONFLICT (id) DO NOTHING RETURNING id`}
	addItems = &Insert{Table: "notification_items", Columns: []Column{
		{"notification_id", Text}, {"position", Int}, {"item", Bytes},
	}}
)

// Decide records a decision in one transaction: the new notifications
// (those whose id the table holds already are left as they are, with
// their items), the items added to digests, after their last, the
// updates, and, when d.Through is above the seq decided through, that seq
// and the deletion of the facts up to it. Notes are cut to
// store.NoteMax characters. An item for a digest, or an update of a
// notification, that the table does not hold fails the decision
// (domain.ErrNotFound).
//
// Of two decisions at once, by two replicas while one hands its lease to
// the other, the second waits for the cursor's row and checks its
// condition again on what the first committed: the cursor never moves
// back, and facts decided are never decided again.
func (s *Store) Decide(ctx context.Context, d store.Decision) error {
	// The accounts' keys first: a key is made outside the transaction.
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
	return s.inTx(ctx, func(tx Tx) error {
		if err := s.addNotifications(ctx, tx, keys, d.New); err != nil {
			return err
		}
		var stmts []Statement
		for _, it := range d.DigestItems {
			stmts = append(stmts, Statement{SQL: `INSERT INTO notification_items (notification_id, position, item)
				SELECT id, (SELECT coalesce(max(position) + 1, 0) FROM notification_items WHERE notification_id = ?), ?
				FROM notifications WHERE id = ?`, Args: []any{it.ID, item(it.Item), it.ID}, Check: oneRowOf("digest", it.ID)})
		}
		for _, u := range d.Updates {
			stmts = append(stmts, Statement{SQL: `UPDATE notifications SET state = ?, due = ?, attempts = ?, last_attempt = ?, sent = ?, note = ?
				WHERE id = ?`, Args: []any{string(u.State), s.d.Time(u.Due), u.Attempts, s.d.TimeOrNever(u.LastAttempt), s.d.TimeOrNever(u.Sent),
				store.CutNote(u.Note), u.ID}, Check: oneRowOf("notification", u.ID)})
		}
		moved := false
		if d.Through > 0 {
			stmts = append(stmts, Statement{SQL: `UPDATE notification_cursor SET through = ? WHERE through < ?`, Args: []any{d.Through, d.Through},
				Check: func(n int64) error {
					moved = n > 0
					return nil
				}})
		}
		if err := tx.Batch(ctx, stmts); err != nil || !moved {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM facts WHERE seq <= ?`, d.Through)
		return err
	})
}

// oneRowOf is the check of a statement of a batch that must change a row
// of what it names.
func oneRowOf(what, id string) func(int64) error {
	return func(n int64) error {
		if n == 0 {
			return fmt.Errorf("%s %q: %w", what, id, domain.ErrNotFound)
		}
		return nil
	}
}

// addNotifications adds notifications, with their items, within the
// transaction of a decision; one whose id the table holds already is left
// as it is, and its items are not added. keys are the accounts' keys.
func (s *Store) addNotifications(ctx context.Context, tx Tx, keys map[string]int64, ns []store.Notification) error {
	if len(ns) == 0 {
		return nil
	}
	rows := make([][]any, len(ns))
	byID := make(map[string]*store.Notification, len(ns))
	for i := range ns {
		n := &ns[i]
		rows[i] = []any{n.ID, keys[n.Account], n.Rule, n.Channel, n.Kind, n.Subject, string(n.State),
			s.d.Time(n.Created), s.d.Time(n.Due), n.Attempts, s.d.TimeOrNever(n.LastAttempt), s.d.TimeOrNever(n.Sent), store.CutNote(n.Note)}
		if _, ok := byID[n.ID]; !ok {
			byID[n.ID] = n
		}
	}
	var items [][]any
	err := tx.Insert(ctx, addNotifications, rows, func(scan func(...any) error) error {
		var id string
		if err := scan(&id); err != nil {
			return err
		}
		for i, it := range byID[id].Items {
			items = append(items, []any{id, i, item(it)})
		}
		return nil
	})
	if err != nil {
		return err
	}
	return tx.Insert(ctx, addItems, items, nil)
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
	err = s.read.QueryRow(ctx, `SELECT id, (SELECT count(*) FROM notification_items WHERE notification_id = notifications.id) FROM notifications
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

// notifications runs a query of notificationCols, then the columns in
// more, and calls f after each row, with the notification scanned.
func (s *Store) notifications(ctx context.Context, q string, args []any, more []any, f func(n store.Notification) error) error {
	var n store.Notification
	var state string
	dest := append([]any{&n.ID, &n.Account, &n.Rule, &n.Channel, &n.Kind, &n.Subject, &state,
		s.d.ScanTime(&n.Created), s.d.ScanTime(&n.Due), &n.Attempts, s.d.ScanTime(&n.LastAttempt), s.d.ScanTime(&n.Sent), &n.Note}, more...)
	return each(ctx, s.read, q, args, dest, func() error {
		n.State = store.NotificationState(state)
		return f(n)
	})
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
	var out []store.Notification
	var position sql.NullInt64
	var it []byte
	err := s.notifications(ctx, `SELECT `+notificationCols+`, i.position, i.item
		FROM (SELECT * FROM notifications WHERE `+live+` AND due <= ? ORDER BY due, id LIMIT ?) n
		JOIN accounts a ON a.key = n.account_id
		LEFT JOIN notification_items i ON i.notification_id = n.id
		ORDER BY n.due, n.id, i.position`, []any{s.d.Time(now), notificationLimit(limit)}, []any{&position, &it},
		func(n store.Notification) error {
			if len(out) == 0 || out[len(out)-1].ID != n.ID {
				out = append(out, n)
			}
			if position.Valid {
				last := &out[len(out)-1]
				last.Items = append(last.Items, item(it))
				last.ItemCount++
			}
			return nil
		})
	return out, err
}

// NextDue returns the earliest due time of the notifications waiting or
// pending; ok is false when there are none.
func (s *Store) NextDue(ctx context.Context) (time.Time, bool, error) {
	var due time.Time
	err := s.read.QueryRow(ctx, `SELECT due FROM notifications WHERE `+live+` ORDER BY due LIMIT 1`).Scan(s.d.ScanTime(&due))
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, false, nil
	}
	if err != nil {
		return time.Time{}, false, err
	}
	return due, true, nil
}

// NotificationLog returns the latest notifications of the account's
// channel, newest first (then by id, descending), at most limit of them,
// with how many items each has but not the items.
func (s *Store) NotificationLog(ctx context.Context, account, channel string, limit int) ([]store.Notification, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	var out []store.Notification
	var count int
	err = s.notifications(ctx, `SELECT `+notificationCols+`,
			(SELECT count(*) FROM notification_items i WHERE i.notification_id = n.id)
		FROM notifications n JOIN accounts a ON a.key = n.account_id
		WHERE n.account_id = ? AND n.channel = ? ORDER BY n.created DESC, n.id DESC LIMIT ?`,
		[]any{key, channel, notificationLimit(limit)}, []any{&count},
		func(n store.Notification) error {
			n.ItemCount = count
			out = append(out, n)
			return nil
		})
	return out, err
}

// PruneNotifications removes the finished notifications (neither waiting
// nor pending) created before before, and their items, in one
// transaction; it returns how many notifications it removed.
func (s *Store) PruneNotifications(ctx context.Context, before time.Time) (int, error) {
	const finished = `state NOT IN ('waiting', 'pending') AND created < ?`
	var n int64
	err := s.inTx(ctx, func(tx Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM notification_items WHERE notification_id IN (SELECT id FROM notifications WHERE `+finished+`)`,
			s.d.Time(before)); err != nil {
			return err
		}
		var err error
		n, err = tx.Exec(ctx, `DELETE FROM notifications WHERE `+finished, s.d.Time(before))
		return err
	})
	return int(n), err
}
