package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"washboard/internal/domain"
)

// limitsLock is the first key of the advisory lock an insert takes while
// it counts what its account keeps against a limit: inserts of one account,
// of every replica, count and insert one after the other, so that two
// cannot both pass the limit. The second key is the account's, with the
// schema's name (see lockKeys); keys of other accounts that hash alike
// only wait for each other.
const limitsLock = 0x6c69_6d74 // "limt"

// insertWithinLimit runs insert, an INSERT … SELECT … WHERE that inserts
// its row only while the account has fewer rows than its limit, in a
// transaction holding the account's limitsLock: domain.ErrLimit when it
// inserted nothing.
func (s *Store) insertWithinLimit(ctx context.Context, account int64, insert string, args ...any) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1::int, hashtext(coalesce(current_schema(), '') || '/' || $2::bigint::text))`,
			limitsLock, account); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, insert, args...)
		return insertedOne(tag, err)
	})
}

func insertedOne(tag pgconn.CommandTag, err error) error {
	if err != nil || tag.RowsAffected() == 1 {
		return err
	}
	return domain.ErrLimit
}
