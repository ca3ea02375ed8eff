package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// Sessions are kept in the sessions table, in the layout of the engine's
// scs store, sealed by the caller, by the hash of their token. Expiries
// are compared with the database's clock.

// FindSession returns a session that has not expired, and when it expires.
func (s *Store) FindSession(ctx context.Context, token string) ([]byte, time.Time, bool, error) {
	var data []byte
	var expiry time.Time
	err := s.sessions.QueryRow(ctx, `SELECT data, expiry FROM sessions WHERE token = ? AND `+s.d.SessionNow()+` < expiry`, token).
		Scan(&data, s.d.ScanSessionExpiry(&expiry))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, time.Time{}, false, nil
	}
	if err != nil {
		return nil, time.Time{}, false, err
	}
	return data, expiry, true, nil
}

// CommitSession writes a session.
func (s *Store) CommitSession(ctx context.Context, token string, data []byte, expiry time.Time) error {
	_, err := s.sessions.Exec(ctx, `INSERT INTO sessions (token, data, expiry) VALUES (?, ?, ?)
		ON CONFLICT (token) DO UPDATE SET data = excluded.data, expiry = excluded.expiry`,
		token, data, s.d.SessionExpiry(expiry))
	return err
}

// DeleteSession deletes a session: signed out, or its token renewed.
func (s *Store) DeleteSession(ctx context.Context, token string) error {
	_, err := s.sessions.Exec(ctx, `DELETE FROM sessions WHERE token = ?`, token)
	return err
}

// DeleteExpiredSessions removes the sessions past their expiry.
func (s *Store) DeleteExpiredSessions(ctx context.Context) error {
	_, err := s.sessions.Exec(ctx, `DELETE FROM sessions WHERE expiry < `+s.d.SessionNow())
	return err
}

// CountSessions counts the sessions that have not expired.
func (s *Store) CountSessions(ctx context.Context) (int, error) {
	var n int
	err := s.sessions.QueryRow(ctx, `SELECT count(*) FROM sessions WHERE `+s.d.SessionNow()+` < expiry`).Scan(&n)
	return n, err
}

// ResealSessions passes the data of every unexpired session through
// reseal, and writes back what it changed, in one transaction. It returns
// how many sessions it rewrote; a session reseal cannot open is left as
// it is, and one written meanwhile keeps what was written.
func (s *Store) ResealSessions(ctx context.Context, reseal func([]byte) ([]byte, bool, error)) (int, error) {
	tx, err := s.sessions.Begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var stmts []Statement
	n := 0
	var token string
	var data []byte
	if err := each(ctx, tx, `SELECT token, data FROM sessions WHERE `+s.d.SessionNow()+` < expiry`, nil, []any{&token, &data}, func() error {
		if b, ok, err := reseal(data); err == nil && ok {
			stmts = append(stmts, Statement{SQL: `UPDATE sessions SET data = ? WHERE token = ? AND data = ?`, Args: []any{b, token, data},
				Check: func(c int64) error {
					n += int(c)
					return nil
				}})
		}
		return nil
	}); err != nil {
		return 0, err
	}
	if err := tx.Batch(ctx, stmts); err != nil {
		return 0, err
	}
	return n, tx.Commit(ctx)
}
