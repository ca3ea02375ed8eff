package postgres

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"washboard/internal/domain"
)

const screenCols = `s.id, a.id, s.name, s.scope, s.scope_id, s.healths, s.page_seconds, s.dim_from, s.dim_to, s.contact,
	s.created, s.last_seen, s.revoked`

// CreateScreen stores a new screen with the hash of its link's token and
// its sealed credentials, unless its account has max screens already
// (see insertWithinLimit).
func (s *Store) CreateScreen(ctx context.Context, sc domain.Screen, tokenHash, sealed []byte, max int) error {
	key, err := s.accountKey(ctx, sc.Account, true)
	if err != nil {
		return err
	}
	return s.insertWithinLimit(ctx, key, `INSERT INTO screens (id, account_id, name, scope, scope_id, healths, page_seconds,
		dim_from, dim_to, contact, token_hash, credentials, created)
		SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13
		WHERE $14::int <= 0 OR (SELECT count(*) FROM screens WHERE account_id = $2) < $14::int`,
		sc.ID, key, sc.Name, sc.Scope.Kind, sc.Scope.ID, joinHealths(sc.Healths), sc.PageSeconds,
		sc.DimFrom, sc.DimTo, sc.Contact, tokenHash, sealed, sc.Created, max)
}

// UpdateScreen changes a screen's name, scope and settings.
func (s *Store) UpdateScreen(ctx context.Context, sc domain.Screen) error {
	key, err := s.accountKey(ctx, sc.Account, false)
	if err != nil {
		return err
	}
	tag, err := s.pool.Exec(ctx, `UPDATE screens SET name = $1, scope = $2, scope_id = $3, healths = $4, page_seconds = $5,
		dim_from = $6, dim_to = $7, contact = $8 WHERE account_id = $9 AND id = $10`,
		sc.Name, sc.Scope.Kind, sc.Scope.ID, joinHealths(sc.Healths), sc.PageSeconds, sc.DimFrom, sc.DimTo, sc.Contact, key, sc.ID)
	return oneRow(tag.RowsAffected(), err, "screen", sc.ID)
}

// RelinkScreen gives a screen a new link token and the credentials of the
// user who asked; the old link and the browser opened with it stop
// working. A revoked screen becomes active again.
func (s *Store) RelinkScreen(ctx context.Context, account, id string, tokenHash, sealed []byte) error {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	tag, err := s.pool.Exec(ctx, `UPDATE screens SET token_hash = $1, credentials = $2, revoked = NULL, last_seen = NULL
		WHERE account_id = $3 AND id = $4`, tokenHash, sealed, key, id)
	return oneRow(tag.RowsAffected(), err, "screen", id)
}

// RevokeScreen unlinks a screen: its link and its browser stop working. A
// screen revoked already keeps the time it was first revoked.
func (s *Store) RevokeScreen(ctx context.Context, account, id string, at time.Time) error {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	var found bool
	err = s.pool.QueryRow(ctx, `WITH revoked AS (
			UPDATE screens SET revoked = $1 WHERE account_id = $2 AND id = $3 AND revoked IS NULL RETURNING 1)
		SELECT EXISTS (SELECT 1 FROM revoked) OR EXISTS (SELECT 1 FROM screens WHERE account_id = $2 AND id = $3)`,
		at, key, id).Scan(&found)
	if err == nil && !found {
		return fmt.Errorf("screen %q: %w", id, domain.ErrNotFound)
	}
	return err
}

// RemoveScreen removes a revoked screen of the account for good, with its
// sealed credentials; domain.ErrScreenLinked when the screen is not
// revoked, so that a screen in use is never removed. The statement's
// second look sees the screens as they were before the removal.
func (s *Store) RemoveScreen(ctx context.Context, account, id string) error {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	var removed, found bool
	err = s.pool.QueryRow(ctx, `WITH removed AS (
			DELETE FROM screens WHERE account_id = $1 AND id = $2 AND revoked IS NOT NULL RETURNING 1)
		SELECT EXISTS (SELECT 1 FROM removed), EXISTS (SELECT 1 FROM screens WHERE account_id = $1 AND id = $2)`,
		key, id).Scan(&removed, &found)
	switch {
	case err != nil || removed:
		return err
	case !found:
		return fmt.Errorf("screen %q: %w", id, domain.ErrNotFound)
	}
	return fmt.Errorf("screen %q: %w", id, domain.ErrScreenLinked)
}

// TouchScreen records that a screen checked in.
func (s *Store) TouchScreen(ctx context.Context, id string, at time.Time) error {
	_, err := s.pool.Exec(ctx, `UPDATE screens SET last_seen = $1 WHERE id = $2`, ts(at), id)
	return err
}

// Screens lists an account's screens, newest first.
func (s *Store) Screens(ctx context.Context, account string) ([]domain.Screen, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `SELECT `+screenCols+` FROM screens s JOIN accounts a ON a.key = s.account_id
		WHERE s.account_id = $1 ORDER BY s.created DESC, s.id`, key)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (domain.Screen, error) { return scanScreen(row.Scan) })
}

// Screen returns one screen of an account.
func (s *Store) Screen(ctx context.Context, account, id string) (domain.Screen, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return domain.Screen{}, err
	}
	sc, err := scanScreen(s.pool.QueryRow(ctx, `SELECT `+screenCols+` FROM screens s JOIN accounts a ON a.key = s.account_id
		WHERE s.account_id = $1 AND s.id = $2`, key, id).Scan)
	return sc, notFound(err, "screen", id)
}

// ScreenByToken finds the screen whose link token has the hash, with its
// sealed credentials.
func (s *Store) ScreenByToken(ctx context.Context, tokenHash []byte) (domain.Screen, []byte, error) {
	var sealed []byte
	sc, err := scanScreen(func(dest ...any) error {
		return s.pool.QueryRow(ctx, `SELECT `+screenCols+`, s.credentials FROM screens s JOIN accounts a ON a.key = s.account_id
			WHERE s.token_hash = $1`, tokenHash).Scan(append(dest, &sealed)...)
	})
	return sc, sealed, notFound(err, "screen", "by token")
}

func scanScreen(scan func(...any) error) (domain.Screen, error) {
	var sc domain.Screen
	var healths string
	var pageSeconds, dimFrom, dimTo int32
	var created, seen, revoked pgtype.Timestamptz
	if err := scan(&sc.ID, &sc.Account, &sc.Name, &sc.Scope.Kind, &sc.Scope.ID, &healths, &pageSeconds,
		&dimFrom, &dimTo, &sc.Contact, &created, &seen, &revoked); err != nil {
		return sc, err
	}
	for _, h := range strings.Split(healths, ",") {
		if v, ok := domain.ParseHealth(h); ok {
			sc.Healths = append(sc.Healths, v)
		}
	}
	sc.PageSeconds, sc.DimFrom, sc.DimTo = int(pageSeconds), int(dimFrom), int(dimTo)
	sc.Created, sc.LastSeen, sc.Revoked = fromTS(created), fromTS(seen), fromTS(revoked)
	return sc, nil
}

func joinHealths(hs []domain.Health) string {
	parts := make([]string, len(hs))
	for i, h := range hs {
		parts[i] = h.String()
	}
	return strings.Join(parts, ",")
}

// oneRow is the error of a statement that should have changed one row: n
// rows changed, or err.
func oneRow(n int64, err error, what, id string) error {
	if err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("%s %q: %w", what, id, domain.ErrNotFound)
	}
	return nil
}

// CountActiveScreens counts the linked screens of every account that
// checked in since the given time.
func (s *Store) CountActiveScreens(ctx context.Context, since time.Time) (int, error) {
	var n int
	err := s.pool.QueryRow(ctx, `SELECT count(*) FROM screens WHERE revoked IS NULL AND last_seen >= $1`, since).Scan(&n)
	return n, err
}
