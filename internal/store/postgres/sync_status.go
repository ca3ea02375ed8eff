package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// RecordSync writes the outcome of a refresh attempt. A failed attempt
// keeps the last success and its counts.
func (s *Store) RecordSync(ctx context.Context, account string, st store.SyncStatus) error {
	key, err := s.accountKey(ctx, account, true)
	if err != nil {
		return err
	}
	if st.LastError != "" {
		_, err := s.pool.Exec(ctx, `INSERT INTO sync_status
			(account_id, resource, last_attempt, last_success, duration_ms, added, changed, removed, skipped, last_error)
			VALUES ($1, $2, $3, NULL, $4, 0, 0, 0, 0, $5)
			ON CONFLICT (account_id, resource) DO UPDATE SET last_attempt = excluded.last_attempt,
				duration_ms = excluded.duration_ms, last_error = excluded.last_error`,
			key, string(st.Resource), st.LastAttempt, st.Duration.Milliseconds(), st.LastError)
		return err
	}
	_, err = s.pool.Exec(ctx, `INSERT INTO sync_status
		(account_id, resource, last_attempt, last_success, duration_ms, added, changed, removed, skipped, last_error)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, '')
		ON CONFLICT (account_id, resource) DO UPDATE SET last_attempt = excluded.last_attempt,
			last_success = excluded.last_success, duration_ms = excluded.duration_ms, added = excluded.added,
			changed = excluded.changed, removed = excluded.removed, skipped = excluded.skipped, last_error = ''`,
		key, string(st.Resource), st.LastAttempt, ts(st.LastSuccess), st.Duration.Milliseconds(),
		st.Change.Added, st.Change.Changed, st.Change.Removed, st.Skipped)
	return err
}

// SyncStatuses reads the refresh records of an account, by resource. They
// are read each time, not kept in memory: another replica may have
// written them.
func (s *Store) SyncStatuses(ctx context.Context, account string) (map[domain.Resource]store.SyncStatus, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `SELECT resource, last_attempt, last_success, duration_ms,
		added, changed, removed, skipped, last_error FROM sync_status WHERE account_id = $1`, key)
	if err != nil {
		return nil, err
	}
	out := map[domain.Resource]store.SyncStatus{}
	var st store.SyncStatus
	var res string
	var attempt time.Time
	var success pgtype.Timestamptz
	var dur int64
	var added, changed, removed, skipped int32
	_, err = pgx.ForEachRow(rows, []any{&res, &attempt, &success, &dur, &added, &changed, &removed, &skipped, &st.LastError}, func() error {
		st.Resource = domain.Resource(res)
		st.LastAttempt, st.LastSuccess = attempt.UTC(), fromTS(success)
		st.Duration = time.Duration(dur) * time.Millisecond
		st.Change = domain.Change{Added: int(added), Changed: int(changed), Removed: int(removed)}
		st.Skipped = int(skipped)
		out[st.Resource] = st
		return nil
	})
	return out, err
}
