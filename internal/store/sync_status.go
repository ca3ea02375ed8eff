package store

import (
	"context"
	"time"
)

// Resource is one of the service's resources that the sync refreshes.
type Resource string

// The resources.
const (
	ResourceMetadata Resource = "metadata"
	ResourceDevices  Resource = "devices"
	ResourceAlerts   Resource = "alerts"
)

// SyncStatus is the record of an account's refreshes of one resource.
type SyncStatus struct {
	Resource    Resource
	LastAttempt time.Time
	LastSuccess time.Time // zero: never
	Duration    time.Duration
	Change      Change
	Skipped     int    // malformed records the service sent, skipped
	LastError   string // "" when the last attempt succeeded
}

// RecordSync writes the outcome of a refresh attempt. A failed attempt
// keeps the last success and its counts.
func (s *Store) RecordSync(ctx context.Context, account string, st SyncStatus) error {
	key, err := s.accountKey(ctx, account, true)
	if err != nil {
		return err
	}
	if st.LastError != "" {
		_, err := s.write.ExecContext(ctx, `INSERT INTO sync_status
			(account_id, resource, last_attempt_ms, last_success_ms, duration_ms, added, changed, removed, skipped, last_error)
			VALUES (?, ?, ?, 0, ?, 0, 0, 0, 0, ?)
			ON CONFLICT (account_id, resource) DO UPDATE SET last_attempt_ms = excluded.last_attempt_ms,
				duration_ms = excluded.duration_ms, last_error = excluded.last_error`,
			key, string(st.Resource), ms(st.LastAttempt), st.Duration.Milliseconds(), st.LastError)
		return err
	}
	_, err = s.write.ExecContext(ctx, `INSERT INTO sync_status
		(account_id, resource, last_attempt_ms, last_success_ms, duration_ms, added, changed, removed, skipped, last_error)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '')
		ON CONFLICT (account_id, resource) DO UPDATE SET last_attempt_ms = excluded.last_attempt_ms,
			last_success_ms = excluded.last_success_ms, duration_ms = excluded.duration_ms, added = excluded.added,
			changed = excluded.changed, removed = excluded.removed, skipped = excluded.skipped, last_error = ''`,
		key, string(st.Resource), ms(st.LastAttempt), ms(st.LastSuccess), st.Duration.Milliseconds(),
		st.Change.Added, st.Change.Changed, st.Change.Removed, st.Skipped)
	return err
}

// SyncStatuses reads the refresh records of an account, by resource.
func (s *Store) SyncStatuses(ctx context.Context, account string) (map[Resource]SyncStatus, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	rows, err := s.read.QueryContext(ctx, `SELECT resource, last_attempt_ms, last_success_ms, duration_ms,
		added, changed, removed, skipped, last_error FROM sync_status WHERE account_id = ?`, key)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[Resource]SyncStatus{}
	for rows.Next() {
		var st SyncStatus
		var res string
		var attempt, success, dur int64
		if err := rows.Scan(&res, &attempt, &success, &dur, &st.Change.Added, &st.Change.Changed,
			&st.Change.Removed, &st.Skipped, &st.LastError); err != nil {
			return nil, err
		}
		st.Resource = Resource(res)
		st.LastAttempt, st.LastSuccess = fromMS(attempt), fromMS(success)
		st.Duration = time.Duration(dur) * time.Millisecond
		out[st.Resource] = st
	}
	return out, rows.Err()
}
