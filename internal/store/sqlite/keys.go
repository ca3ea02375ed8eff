package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"washboard/internal/store"
)

// KeyCheck returns the check value of the secret key that sealed what the
// database holds; "" when none is recorded.
func (s *Store) KeyCheck(ctx context.Context) (string, error) {
	var v string
	err := s.write.QueryRowContext(ctx, `SELECT value FROM settings WHERE name = 'key_check'`).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, err
}

// SetKeyCheck records the check value of the secret key.
func (s *Store) SetKeyCheck(ctx context.Context, value string) error {
	_, err := s.write.ExecContext(ctx, `INSERT INTO settings (name, value) VALUES ('key_check', ?)
		ON CONFLICT (name) DO UPDATE SET value = excluded.value`, value)
	return err
}

// ScreenCredentials returns the sealed credentials of an account's
// screens ("" for every account's), by screen id.
func (s *Store) ScreenCredentials(ctx context.Context, account string) (map[string][]byte, error) {
	q, args := `SELECT id, credentials FROM screens`, []any{}
	if account != "" {
		key, err := s.accountKey(ctx, account, false)
		if err != nil {
			return nil, err
		}
		q, args = q+` WHERE account_id = ?`, append(args, key)
	}
	rows, err := s.read.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]byte{}
	for rows.Next() {
		var id string
		var sealed []byte
		if err := rows.Scan(&id, &sealed); err != nil {
			return nil, err
		}
		out[id] = sealed
	}
	return out, rows.Err()
}

// ResealScreenCredentials replaces screens' sealed credentials, by screen
// id, in one transaction; a screen whose credentials changed since they
// were read (relinked meanwhile) keeps its new ones. It returns how many
// it replaced.
func (s *Store) ResealScreenCredentials(ctx context.Context, byID map[string]store.Reseal) (int, error) {
	return s.reseal(ctx, `UPDATE screens SET credentials = ? WHERE id = ? AND credentials = ?`, byID)
}

// reseal runs q (new value, id, old value) for each of byID in one
// transaction, and counts the rows it changed.
func (s *Store) reseal(ctx context.Context, q string, byID map[string]store.Reseal) (int, error) {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	n := 0
	for id, r := range byID {
		res, err := tx.ExecContext(ctx, q, r.New, id, r.Old)
		c, err := rowsAffected(res, err)
		if err != nil {
			return 0, err
		}
		n += int(c)
	}
	return n, tx.Commit()
}
