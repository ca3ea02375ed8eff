package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
)

// Sessions are kept in the sessions table of scs's PostgreSQL store,
// sealed by the caller, by the hash of their token. pgxstore writes and
// deletes them; it takes no context, so these check theirs first. Expiry
// is compared with the database's clock.

// FindSession returns a session that has not expired, and when it expires.
func (s *Store) FindSession(ctx context.Context, token string) ([]byte, time.Time, bool, error) {
	var data []byte
	var expiry time.Time
	err := s.pool.QueryRow(ctx, `SELECT data, expiry FROM sessions WHERE token = $1 AND current_timestamp < expiry`, token).Scan(&data, &expiry)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, time.Time{}, false, nil
	}
	if err != nil {
		return nil, time.Time{}, false, err
	}
	return data, expiry.UTC(), true, nil
}

// CommitSession writes a session.
func (s *Store) CommitSession(ctx context.Context, token string, data []byte, expiry time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.sessions.Commit(token, data, expiry)
}

// DeleteSession deletes a session: signed out, or its token renewed.
func (s *Store) DeleteSession(ctx context.Context, token string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.sessions.Delete(token)
}

// DeleteExpiredSessions removes the sessions past their expiry.
func (s *Store) DeleteExpiredSessions(ctx context.Context) error {
	_, err := s.pool.Exec(ctx, `DELETE FROM sessions WHERE expiry < current_timestamp`)
	return err
}

// CountSessions counts the sessions that have not expired.
func (s *Store) CountSessions(ctx context.Context) (int, error) {
	var n int
	err := s.pool.QueryRow(ctx, `SELECT count(*) FROM sessions WHERE current_timestamp < expiry`).Scan(&n)
	return n, err
}

// ResealSessions passes the data of every unexpired session through
// reseal, and writes back what it changed, in one transaction. It returns
// how many sessions it rewrote; a session reseal cannot open is left as
// it is, and one written meanwhile keeps what was written.
func (s *Store) ResealSessions(ctx context.Context, reseal func([]byte) ([]byte, bool, error)) (int, error) {
	n := 0
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT token, data FROM sessions WHERE current_timestamp < expiry`)
		if err != nil {
			return err
		}
		var tokens []string
		var olds, news [][]byte
		var token string
		var data []byte
		if _, err := pgx.ForEachRow(rows, []any{&token, &data}, func() error {
			if b, ok, err := reseal(data); err == nil && ok {
				tokens = append(tokens, token)
				olds = append(olds, append([]byte(nil), data...))
				news = append(news, b)
			}
			return nil
		}); err != nil {
			return err
		}
		for start := 0; start < len(tokens); start += chunk {
			end := min(start+chunk, len(tokens))
			tag, err := tx.Exec(ctx, `UPDATE sessions s SET data = r.new FROM unnest($1::text[], $2::bytea[], $3::bytea[]) AS r(token, old, new)
				WHERE s.token = r.token AND s.data = r.old`, tokens[start:end], olds[start:end], news[start:end])
			if err != nil {
				return err
			}
			n += int(tag.RowsAffected())
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}
