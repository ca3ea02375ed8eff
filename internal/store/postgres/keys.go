package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"washboard/internal/store"
)

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
