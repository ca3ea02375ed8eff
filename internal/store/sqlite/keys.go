package sqlite

import (
	"context"
	"washboard/internal/store"
)

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
