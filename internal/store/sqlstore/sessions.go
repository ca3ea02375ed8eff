package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"washboard/internal/domain"
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

// DeleteSession deletes a session, and the record of whose it was:
// signed out, or its token renewed.
func (s *Store) DeleteSession(ctx context.Context, token string) error {
	return s.inSessionsTx(ctx, func(tx Tx) error {
		return tx.Batch(ctx, []Statement{
			{SQL: `DELETE FROM sessions WHERE token = ?`, Args: []any{token}},
			{SQL: `DELETE FROM session_people WHERE token = ?`, Args: []any{token}},
		})
	})
}

// DeleteExpiredSessions removes the sessions past their expiry, and the
// records of whose they were.
func (s *Store) DeleteExpiredSessions(ctx context.Context) error {
	return s.inSessionsTx(ctx, func(tx Tx) error {
		return tx.Batch(ctx, []Statement{
			{SQL: `DELETE FROM sessions WHERE expiry < ` + s.d.SessionNow()},
			{SQL: `DELETE FROM session_people WHERE NOT EXISTS (SELECT 1 FROM sessions WHERE sessions.token = session_people.token)`},
		})
	})
}

// inSessionsTx runs f in a transaction of the sessions' connections, and
// commits unless f fails.
func (s *Store) inSessionsTx(ctx context.Context, f func(tx Tx) error) error {
	return inTxOf(ctx, s.sessions, f)
}

// RecordSessionPerson records whose a session is.
func (s *Store) RecordSessionPerson(ctx context.Context, token, person, account string) error {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	if key == noAccount {
		return fmt.Errorf("account %q: %w", account, domain.ErrNotFound)
	}
	_, err = s.sessions.Exec(ctx, `INSERT INTO session_people (token, person_id, account_id) VALUES (?, ?, ?)
		ON CONFLICT (token) DO UPDATE SET person_id = excluded.person_id, account_id = excluded.account_id`, token, person, key)
	return err
}

// RecordSessionDevice records the enrolled device a recorded session is
// signed in by.
func (s *Store) RecordSessionDevice(ctx context.Context, token, device string) error {
	n, err := s.sessions.Exec(ctx, `UPDATE session_people SET device_id = ? WHERE token = ?`, device, token)
	return oneRow(n, err, "recorded session", "of the token")
}

// EndSessions deletes every session of a person, or of a person in one
// account, and returns their token hashes.
func (s *Store) EndSessions(ctx context.Context, person, account string) ([]string, error) {
	cond, args := `person_id = ?`, []any{person}
	if account != "" {
		key, err := s.accountKey(ctx, account, false)
		if err != nil {
			return nil, err
		}
		cond, args = cond+` AND account_id = ?`, append(args, key)
	}
	var ended []string
	err := s.inSessionsTx(ctx, func(tx Tx) error {
		var err error
		ended, err = s.endSessions(ctx, tx, cond, args...)
		return err
	})
	return ended, err
}

// endSessions deletes the sessions whose records match cond, with the
// records, and returns their token hashes.
func (s *Store) endSessions(ctx context.Context, tx Tx, cond string, args ...any) ([]string, error) {
	var tokens []string
	var token string
	if err := each(ctx, tx, `SELECT token FROM session_people WHERE `+cond+` ORDER BY token`, args, []any{&token}, func() error {
		tokens = append(tokens, token)
		return nil
	}); err != nil {
		return nil, err
	}
	err := chunks(tokens, s.d.MaxList(), func(part []string) error {
		in, args := s.d.In(part)
		return tx.Batch(ctx, []Statement{
			{SQL: `DELETE FROM sessions WHERE token ` + in, Args: args},
			{SQL: `DELETE FROM session_people WHERE token ` + in, Args: args},
		})
	})
	return tokens, err
}

// ReadSessions passes the sealed data of every unexpired session to f.
func (s *Store) ReadSessions(ctx context.Context, f func(data []byte) error) error {
	var data []byte
	return each(ctx, s.sessions, `SELECT data FROM sessions WHERE `+s.d.SessionNow()+` < expiry`, nil, []any{&data}, func() error {
		return f(data)
	})
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
	n := 0
	err := s.inSessionsTx(ctx, func(tx Tx) error {
		var stmts []Statement
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
			return err
		}
		return tx.Batch(ctx, stmts)
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}
