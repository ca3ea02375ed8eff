package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"math"
	"time"
)

// Sessions are kept in the sessions table, sealed by the caller, by the
// hash of their token; expiries are Julian days, as SQLite's julianday()
// gives them.

// FindSession returns a session that has not expired, and when it expires.
func (s *Store) FindSession(ctx context.Context, token string) ([]byte, time.Time, bool, error) {
	var data []byte
	var expiry float64
	err := s.sessions.QueryRowContext(ctx, `SELECT data, expiry FROM sessions WHERE token = ? AND julianday('now') < expiry`, token).Scan(&data, &expiry)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, time.Time{}, false, nil
	}
	if err != nil {
		return nil, time.Time{}, false, err
	}
	return data, fromJulianDay(expiry), true, nil
}

// CommitSession writes a session.
func (s *Store) CommitSession(ctx context.Context, token string, data []byte, expiry time.Time) error {
	_, err := s.sessions.ExecContext(ctx, `INSERT INTO sessions (token, data, expiry) VALUES (?, ?, julianday(?))
		ON CONFLICT (token) DO UPDATE SET data = excluded.data, expiry = excluded.expiry`,
		token, data, expiry.UTC().Format("2006-01-02T15:04:05.999"))
	return err
}

// DeleteSession deletes a session: signed out, or its token renewed.
func (s *Store) DeleteSession(ctx context.Context, token string) error {
	_, err := s.sessions.ExecContext(ctx, `DELETE FROM sessions WHERE token = ?`, token)
	return err
}

// DeleteExpiredSessions removes the sessions past their expiry.
func (s *Store) DeleteExpiredSessions(ctx context.Context) error {
	_, err := s.sessions.ExecContext(ctx, `DELETE FROM sessions WHERE expiry < julianday('now')`)
	return err
}

// CountSessions counts the sessions that have not expired.
func (s *Store) CountSessions(ctx context.Context) (int, error) {
	var n int
	err := s.sessions.QueryRowContext(ctx, `SELECT count(*) FROM sessions WHERE expiry > julianday('now')`).Scan(&n)
	return n, err
}

// ResealSessions passes the data of every unexpired session through
// reseal, and writes back what it changed, in one transaction. It returns
// how many sessions it rewrote; a session reseal cannot open is left as
// it is.
func (s *Store) ResealSessions(ctx context.Context, reseal func([]byte) ([]byte, bool, error)) (int, error) {
	tx, err := s.sessions.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT token, data FROM sessions WHERE expiry > julianday('now')`)
	if err != nil {
		return 0, err
	}
	changed := map[string][]byte{}
	for rows.Next() {
		var token string
		var data []byte
		if err := rows.Scan(&token, &data); err != nil {
			rows.Close()
			return 0, err
		}
		if b, ok, err := reseal(data); err == nil && ok {
			changed[token] = b
		}
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return 0, err
	}
	for token, data := range changed {
		if _, err := tx.ExecContext(ctx, `UPDATE sessions SET data = ? WHERE token = ?`, data, token); err != nil {
			return 0, err
		}
	}
	return len(changed), tx.Commit()
}

// fromJulianDay converts a Julian day, as SQLite's julianday() gives it, to
// a time. Expiries are written to the millisecond, which a float64 Julian
// day holds to about 0.05 ms: rounding gives that millisecond back.
func fromJulianDay(jd float64) time.Time {
	const unixEpoch = 2440587.5 // 1970-01-01T00:00:00Z
	return time.UnixMilli(int64(math.Round((jd - unixEpoch) * 86_400_000))).UTC()
}
