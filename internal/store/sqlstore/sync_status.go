package sqlstore

import (
	"context"
	"maps"
	"sync"
	"time"

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
	defer s.statuses.forget(key)
	if st.LastError != "" {
		_, err := s.write.Exec(ctx, `INSERT INTO sync_status
			(account_id, resource, last_attempt, last_success, duration_ms, added, changed, removed, skipped, last_error)
			VALUES (?, ?, ?, ?, ?, 0, 0, 0, 0, ?)
			ON CONFLICT (account_id, resource) DO UPDATE SET last_attempt = excluded.last_attempt,
				duration_ms = excluded.duration_ms, last_error = excluded.last_error`,
			key, string(st.Resource), s.d.Time(st.LastAttempt), s.d.TimeOrNever(time.Time{}), st.Duration.Milliseconds(), st.LastError)
		return err
	}
	_, err = s.write.Exec(ctx, `INSERT INTO sync_status
		(account_id, resource, last_attempt, last_success, duration_ms, added, changed, removed, skipped, last_error)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '')
		ON CONFLICT (account_id, resource) DO UPDATE SET last_attempt = excluded.last_attempt,
			last_success = excluded.last_success, duration_ms = excluded.duration_ms, added = excluded.added,
			changed = excluded.changed, removed = excluded.removed, skipped = excluded.skipped, last_error = ''`,
		key, string(st.Resource), s.d.Time(st.LastAttempt), s.d.TimeOrNever(st.LastSuccess), st.Duration.Milliseconds(),
		st.Change.Added, st.Change.Changed, st.Change.Removed, st.Skipped)
	return err
}

// SyncStatuses reads the refresh records of an account, by resource. Every
// page reads them and only RecordSync changes them, so they are kept in
// memory between two records, unless other processes write them too; the
// caller gets its own copy.
func (s *Store) SyncStatuses(ctx context.Context, account string) (map[domain.Resource]store.SyncStatus, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	if s.shared {
		return s.readSyncStatuses(ctx, key)
	}
	if out, ok := s.statuses.get(key); ok {
		return out, nil
	}
	gen := s.statuses.generation()
	out, err := s.readSyncStatuses(ctx, key)
	if err != nil {
		return nil, err
	}
	s.statuses.put(key, gen, out)
	return out, nil
}

func (s *Store) readSyncStatuses(ctx context.Context, key int64) (map[domain.Resource]store.SyncStatus, error) {
	out := map[domain.Resource]store.SyncStatus{}
	var st store.SyncStatus
	var res string
	var dur int64
	err := each(ctx, s.read, `SELECT resource, last_attempt, last_success, duration_ms,
		added, changed, removed, skipped, last_error FROM sync_status WHERE account_id = ?`, []any{key},
		[]any{&res, s.d.ScanTime(&st.LastAttempt), s.d.ScanTime(&st.LastSuccess), &dur, &st.Change.Added, &st.Change.Changed,
			&st.Change.Removed, &st.Skipped, &st.LastError},
		func() error {
			st.Resource = domain.Resource(res)
			st.Duration = time.Duration(dur) * time.Millisecond
			out[st.Resource] = st
			return nil
		})
	return out, err
}

// statusCache holds the refresh records of accounts, by account key. A
// record written while a read was under way moves the generation, so that
// the read, which may predate the write, is not kept.
type statusCache struct {
	mu        sync.Mutex
	gen       uint64
	byAccount map[int64]map[domain.Resource]store.SyncStatus
}

func (c *statusCache) get(key int64) (map[domain.Resource]store.SyncStatus, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m, ok := c.byAccount[key]
	if !ok {
		return nil, false
	}
	return maps.Clone(m), true
}

func (c *statusCache) generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// put keeps what was read under generation gen, unless a record was
// written since.
func (c *statusCache) put(key int64, gen uint64, m map[domain.Resource]store.SyncStatus) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen || key == noAccount {
		return
	}
	if c.byAccount == nil {
		c.byAccount = map[int64]map[domain.Resource]store.SyncStatus{}
	}
	c.byAccount[key] = maps.Clone(m)
}

// forget drops an account's records after a write, whether or not it
// succeeded.
func (c *statusCache) forget(key int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	delete(c.byAccount, key)
}
