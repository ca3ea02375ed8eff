package sqlstore

import (
	"context"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// Push subscriptions, and the settings kept once for every replica (the
// server's push keys).

const pushSubscriptionCols = `id, person_id, endpoint_hash, sealed, device, created`

// AddPushSubscription keeps a subscription, replacing the person's one of
// the same endpoint, unless the person has max others (<= 0: no bound):
// domain.ErrLimit. It runs under peopleLock, as the other writes of
// people that count do.
func (s *Store) AddPushSubscription(ctx context.Context, sub store.PushSubscription, max int) error {
	if max <= 0 {
		max = int(^uint32(0) >> 1)
	}
	return s.inTx(ctx, func(tx Tx) error {
		if err := tx.LockLimits(ctx, peopleLock); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM push_subscriptions WHERE person_id = ? AND endpoint_hash = ?`,
			sub.PersonID, sub.EndpointHash); err != nil {
			return err
		}
		n, err := tx.Exec(ctx, `INSERT INTO push_subscriptions (`+pushSubscriptionCols+`)
			SELECT ?, ?, ?, ?, ?, ?
			WHERE (SELECT count(*) FROM push_subscriptions WHERE person_id = ?) < ?`,
			sub.ID, sub.PersonID, sub.EndpointHash, sub.Sealed, sub.Device, s.d.Time(sub.Created), sub.PersonID, max)
		if err == nil && n != 1 {
			err = domain.ErrLimit
		}
		return err
	})
}

// PushSubscriptions lists the people's subscriptions, by person and then
// oldest first, each with its person's language. It reads the writer's view, so that a device removed just
// now is sent nothing.
func (s *Store) PushSubscriptions(ctx context.Context, people []string) ([]store.PushSubscription, error) {
	var out []store.PushSubscription
	err := chunks(people, s.d.MaxList(), func(part []string) error {
		in, args := s.d.In(part)
		subs, err := listOf(ctx, s.write, s.scanPushSubscription, `SELECT s.id, s.person_id, s.endpoint_hash, s.sealed, s.device, s.created,
			COALESCE(p.language, '') FROM push_subscriptions s LEFT JOIN people p ON p.id = s.person_id
			WHERE s.person_id `+in+` ORDER BY s.person_id, s.created, s.id`, args...)
		out = append(out, subs...)
		return err
	})
	return out, err
}

func (s *Store) scanPushSubscription(scan func(...any) error) (store.PushSubscription, error) {
	var sub store.PushSubscription
	err := scan(&sub.ID, &sub.PersonID, &sub.EndpointHash, &sub.Sealed, &sub.Device, s.d.ScanTime(&sub.Created), &sub.Language)
	return sub, err
}

// RemovePushSubscription removes a person's subscription.
func (s *Store) RemovePushSubscription(ctx context.Context, person, id string) error {
	n, err := s.write.Exec(ctx, `DELETE FROM push_subscriptions WHERE person_id = ? AND id = ?`, person, id)
	return oneRow(n, err, "push subscription", id)
}

// KeepSetting keeps value under name unless one is kept there, and
// returns the one kept. The insert that loses a race does nothing, and
// the read after it sees the winner's.
func (s *Store) KeepSetting(ctx context.Context, name, value string) (string, error) {
	if _, err := s.write.Exec(ctx, `INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`, name, value); err != nil {
		return "", err
	}
	var kept string
	err := s.write.QueryRow(ctx, `SELECT value FROM settings WHERE name = ?`, name).Scan(&kept)
	return kept, err
}

// PushSubscriptionSecrets returns every subscription's sealed part, by id.
func (s *Store) PushSubscriptionSecrets(ctx context.Context) (map[string][]byte, error) {
	out := map[string][]byte{}
	var (
		id     string
		sealed []byte
	)
	err := each(ctx, s.write, `SELECT id, sealed FROM push_subscriptions`, nil, []any{&id, &sealed}, func() error {
		out[id] = sealed
		return nil
	})
	return out, err
}

// ResealPushSubscriptions replaces subscriptions' sealed parts, by id,
// where they are still what was read.
func (s *Store) ResealPushSubscriptions(ctx context.Context, byID map[string]store.Reseal) (int, error) {
	return s.reseal(ctx, `UPDATE push_subscriptions SET sealed = ? WHERE id = ? AND sealed = ?`, byID)
}

// ReplaceSetting replaces a setting's value if it is still old.
func (s *Store) ReplaceSetting(ctx context.Context, name, old, value string) (bool, error) {
	n, err := s.write.Exec(ctx, `UPDATE settings SET value = ? WHERE name = ? AND value = ?`, value, name, old)
	return n == 1, err
}
