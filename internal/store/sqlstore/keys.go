package sqlstore

import (
	"context"
	"database/sql"
	"errors"
)

// KeyCheck returns the check value of the secret key that sealed what the
// database holds; "" when none is recorded. It reads the writer's view.
func (s *Store) KeyCheck(ctx context.Context) (string, error) {
	var v string
	err := s.write.QueryRow(ctx, `SELECT value FROM settings WHERE name = 'key_check'`).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, err
}

// SetKeyCheck records the check value of the secret key.
func (s *Store) SetKeyCheck(ctx context.Context, value string) error {
	_, err := s.write.Exec(ctx, `INSERT INTO settings (name, value) VALUES ('key_check', ?)
		ON CONFLICT (name) DO UPDATE SET value = excluded.value`, value)
	return err
}
