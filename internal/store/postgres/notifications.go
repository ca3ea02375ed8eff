package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"

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
	err = s.pool.QueryRow(ctx, `SELECT sealed FROM notification_settings WHERE account_id = $1`, key).Scan(&sealed)
	if errors.Is(err, pgx.ErrNoRows) {
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
	var tag pgconn.CommandTag
	if previous == nil {
		tag, err = s.pool.Exec(ctx, `INSERT INTO notification_settings (account_id, sealed, updated) VALUES ($1, $2, $3)
			ON CONFLICT (account_id) DO NOTHING`, key, sealed, at)
	} else {
		tag, err = s.pool.Exec(ctx, `UPDATE notification_settings SET sealed = $2, updated = $3 WHERE account_id = $1 AND sealed = $4`,
			key, sealed, at, previous)
	}
	if err != nil || tag.RowsAffected() == 1 {
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
	return s.resealWith(ctx, `UPDATE notification_settings t SET sealed = r.new
		FROM unnest($1::text[], $2::bytea[], $3::bytea[]) AS r(id, old, new) JOIN accounts a ON a.id = r.id
		WHERE t.account_id = a.key AND t.sealed = r.old`, byAccount)
}

// DecidedThrough returns the seq of the last fact decided; 0 before the
// first decision.
func (s *Store) DecidedThrough(ctx context.Context) (int64, error) {
	var through int64
	err := s.pool.QueryRow(ctx, `SELECT through FROM notification_cursor`).Scan(&through)
	return through, err
}

// live is the condition of the notifications still to be checked or sent,
// written as the partial index notifications_due is, so that the queries
// of the queue read that index.
const live = `state IN ('waiting', 'pending')`

// The statements of a decision.
const (
	// addNotification adds a notification ($1 to $13) and its items ($14,
	// in order) unless the table holds its id already.
	addNotification = `WITH n AS (
			INSERT INTO notifications (id, account_id, rule, channel, kind, subject, state, created, due, attempts, last_attempt, sent, note)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT (id) DO NOTHING RETURNING id)
		INSERT INTO notification_items (notification_id, position, item)
		SELECT n.id, i.n - 1, i.item FROM n, unnest($14::bytea[]) WITH ORDINALITY AS i(item, n)`
	// addDigestItem adds an item ($2) to a digest ($1), after its last.
	addDigestItem = `INSERT INTO notification_items (notification_id, position, item)
		SELECT id, (SELECT coalesce(max(position) + 1, 0) FROM notification_items WHERE notification_id = $1), $2
		FROM notifications WHERE id = $1`
	updateNotification = `UPDATE notifications SET state = $2, due = $3, attempts = $4, last_attempt = $5, sent = $6, note = $7
		WHERE id = $1`
	// decideThrough moves the cursor on to $1, if it is below, and deletes
	// the facts up to it. Of two decisions at once, by two replicas while
	// one hands its lease to the other, the second waits for the cursor's
	// row and checks the condition again on what the first committed: the
	// cursor never moves back, and facts decided are never decided again.
	decideThrough = `WITH c AS (UPDATE notification_cursor SET through = $1 WHERE through < $1 RETURNING through)
		DELETE FROM facts WHERE seq <= (SELECT through FROM c)`
)

// Decide records a decision in one transaction, its statements sent in
// one batch: the new notifications (those whose id the table holds
// already are left as they are, with their items), the items added to
// digests, after their last, the updates, and, when d.Through is above the
// seq decided through, that seq and the deletion of the facts up to it.
// Notes are cut to store.NoteMax characters. An item for a digest, or an
// update of a notification, that the table does not hold fails the
// decision (domain.ErrNotFound).
func (s *Store) Decide(ctx context.Context, d store.Decision) error {
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
	b := &pgx.Batch{}
	for _, n := range d.New {
		items := make([][]byte, len(n.Items))
		for i, it := range n.Items {
			items[i] = item(it)
		}
		b.Queue(addNotification, n.ID, keys[n.Account], n.Rule, n.Channel, n.Kind, n.Subject, string(n.State),
			n.Created, n.Due, n.Attempts, ts(n.LastAttempt), ts(n.Sent), store.CutNote(n.Note), items)
	}
	for _, it := range d.DigestItems {
		b.Queue(addDigestItem, it.ID, item(it.Item)).Exec(oneRowOf("digest", it.ID))
	}
	for _, u := range d.Updates {
		b.Queue(updateNotification, u.ID, string(u.State), u.Due, u.Attempts, ts(u.LastAttempt), ts(u.Sent), store.CutNote(u.Note)).
			Exec(oneRowOf("notification", u.ID))
	}
	if d.Through > 0 {
		b.Queue(decideThrough, d.Through)
	}
	if b.Len() == 0 {
		return nil
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		return tx.SendBatch(ctx, b).Close()
	})
}

// oneRowOf is the check of a statement of a batch that must write a row of
// what it names.
func oneRowOf(what, id string) func(pgconn.CommandTag) error {
	return func(tag pgconn.CommandTag) error {
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("%s %q: %w", what, id, domain.ErrNotFound)
		}
		return nil
	}
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
	err = s.pool.QueryRow(ctx, `SELECT id, (SELECT count(*) FROM notification_items WHERE notification_id = notifications.id) FROM notifications
		WHERE account_id = $1 AND channel = $2 AND rule = $3 AND kind = 'digest' AND state = 'pending' AND attempts = 0
		ORDER BY created DESC, id DESC LIMIT 1`, key, channel, rule).Scan(&id, &items)
	if errors.Is(err, pgx.ErrNoRows) {
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
	var last, sent pgtype.Timestamptz
	err := scan(append([]any{&n.ID, &n.Account, &n.Rule, &n.Channel, &n.Kind, &n.Subject, &state, &n.Created, &n.Due, &n.Attempts,
		&last, &sent, &n.Note}, more...)...)
	n.State = store.NotificationState(state)
	n.Created, n.Due, n.LastAttempt, n.Sent = n.Created.UTC(), n.Due.UTC(), fromTS(last), fromTS(sent)
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
	rows, err := s.pool.Query(ctx, `SELECT `+notificationCols+`,
			(SELECT array_agg(i.item ORDER BY i.position) FROM notification_items i WHERE i.notification_id = n.id)
		FROM notifications n JOIN accounts a ON a.key = n.account_id
		WHERE n.`+live+` AND n.due <= $1 ORDER BY n.due, n.id LIMIT $2`, now, notificationLimit(limit))
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Notification, error) {
		var items [][]byte
		n, err := scanNotification(row.Scan, &items)
		if len(items) > 0 {
			n.Items, n.ItemCount = items, len(items)
		}
		return n, err
	})
}

// NextDue returns the earliest due time of the notifications waiting or
// pending; ok is false when there are none.
func (s *Store) NextDue(ctx context.Context) (time.Time, bool, error) {
	var due time.Time
	err := s.pool.QueryRow(ctx, `SELECT due FROM notifications WHERE `+live+` ORDER BY due LIMIT 1`).Scan(&due)
	if errors.Is(err, pgx.ErrNoRows) {
		return time.Time{}, false, nil
	}
	if err != nil {
		return time.Time{}, false, err
	}
	return due.UTC(), true, nil
}

// NotificationLog returns the latest notifications of the account's
// channel, newest first (then by id, descending), at most limit of them,
// with how many items each has but not the items.
func (s *Store) NotificationLog(ctx context.Context, account, channel string, limit int) ([]store.Notification, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `SELECT `+notificationCols+`,
			(SELECT count(*) FROM notification_items i WHERE i.notification_id = n.id)
		FROM notifications n JOIN accounts a ON a.key = n.account_id
		WHERE n.account_id = $1 AND n.channel = $2 ORDER BY n.created DESC, n.id DESC LIMIT $3`, key, channel, notificationLimit(limit))
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Notification, error) {
		var count int
		n, err := scanNotification(row.Scan, &count)
		n.ItemCount = count
		return n, err
	})
}

// PruneNotifications removes the finished notifications (neither waiting
// nor pending) created before before, and their items, in one statement;
// it returns how many notifications it removed.
func (s *Store) PruneNotifications(ctx context.Context, before time.Time) (int, error) {
	var n int
	err := s.pool.QueryRow(ctx, `WITH gone AS (
			DELETE FROM notifications WHERE state NOT IN ('waiting', 'pending') AND created < $1 RETURNING id),
		items AS (DELETE FROM notification_items WHERE notification_id IN (SELECT id FROM gone))
		SELECT count(*) FROM gone`, before).Scan(&n)
	return n, err
}
