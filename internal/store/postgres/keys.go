package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"washboard/internal/store"
)

// KeyCheck returns the check value of the secret key that sealed what the
// database holds; "" when none is recorded.
func (s *Store) KeyCheck(ctx context.Context) (string, error) {
	var v string
	err := s.pool.QueryRow(ctx, `SELECT value FROM settings WHERE name = 'key_check'`).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	return v, err
}

// SetKeyCheck records the check value of the secret key.
func (s *Store) SetKeyCheck(ctx context.Context, value string) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO settings (name, value) VALUES ('key_check', $1)
		ON CONFLICT (name) DO UPDATE SET value = excluded.value`, value)
	return err
}

// ScreenCredentials returns the sealed credentials of an account's
// screens ("" for every account's), by screen id.
func (s *Store) ScreenCredentials(ctx context.Context, account string) (map[string][]byte, error) {
	if account == "" {
		return s.sealedByID(ctx, `SELECT id, credentials FROM screens`)
	}
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	return s.sealedByID(ctx, `SELECT id, credentials FROM screens WHERE account_id = $1`, key)
}

// sealedByID reads ids and sealed values.
func (s *Store) sealedByID(ctx context.Context, q string, args ...any) (map[string][]byte, error) {
	rows, err := s.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	var id string
	var sealed []byte
	_, err = pgx.ForEachRow(rows, []any{&id, &sealed}, func() error {
		out[id] = append([]byte(nil), sealed...)
		return nil
	})
	return out, err
}

// ResealScreenCredentials replaces screens' sealed credentials, by screen
// id, in one statement; a screen whose credentials changed since they were
// read (relinked meanwhile) keeps its new ones. It returns how many it
// replaced.
func (s *Store) ResealScreenCredentials(ctx context.Context, byID map[string]store.Reseal) (int, error) {
	return s.reseal(ctx, "screens", "credentials", byID)
}

// reseal replaces the sealed values of a table's column, by id, where they
// are still the old ones, in chunks of one statement each within one
// transaction, and counts the rows it changed.
func (s *Store) reseal(ctx context.Context, table, col string, byID map[string]store.Reseal) (int, error) {
	return s.resealWith(ctx, fmt.Sprintf(`UPDATE %[1]s t SET %[2]s = r.new FROM unnest($1::text[], $2::bytea[], $3::bytea[]) AS r(id, old, new)
		WHERE t.id = r.id AND t.%[2]s = r.old`, table, col), byID)
}

// resealWith runs q, which replaces sealed values given the arrays of their
// ids ($1), old values ($2) and new values ($3), where they are still the
// old ones, in chunks within one transaction, and counts the rows it
// changed.
func (s *Store) resealWith(ctx context.Context, q string, byID map[string]store.Reseal) (int, error) {
	ids := make([]string, 0, len(byID))
	olds := make([][]byte, 0, len(byID))
	news := make([][]byte, 0, len(byID))
	for id, r := range byID {
		ids, olds, news = append(ids, id), append(olds, r.Old), append(news, r.New)
	}
	n := 0
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		for start := 0; start < len(ids); start += chunk {
			end := min(start+chunk, len(ids))
			tag, err := tx.Exec(ctx, q, ids[start:end], olds[start:end], news[start:end])
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
