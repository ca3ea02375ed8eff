package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"washboard/internal/domain"
)

const screenCols = `s.id, a.id, s.name, s.scope, s.scope_id, s.healths, s.page_seconds, s.dim_from, s.dim_to, s.contact,
	s.created, s.last_seen, s.revoked`

// CreateScreen stores a new screen with the hash of its link's token and
// its sealed credentials, unless its account has max screens already. One
// statement counts and inserts, on the one writer connection: two
// creations cannot both pass max.
func (s *Store) CreateScreen(ctx context.Context, sc domain.Screen, tokenHash, sealed []byte, max int) error {
	key, err := s.accountKey(ctx, sc.Account, true)
	if err != nil {
		return err
	}
	res, err := s.write.ExecContext(ctx, `INSERT INTO screens (id, account_id, name, scope, scope_id, healths, page_seconds,
		dim_from, dim_to, contact, token_hash, credentials, created, last_seen, revoked)
		SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0
		WHERE ? <= 0 OR (SELECT count(*) FROM screens WHERE account_id = ?) < ?`,
		sc.ID, key, sc.Name, sc.Scope.Kind, sc.Scope.ID, joinHealths(sc.Healths), sc.PageSeconds,
		sc.DimFrom, sc.DimTo, sc.Contact, tokenHash, sealed, ms(sc.Created), max, key, max)
	return insertedOne(res, err)
}

// UpdateScreen changes a screen's name, scope and settings.
func (s *Store) UpdateScreen(ctx context.Context, sc domain.Screen) error {
	key, err := s.accountKey(ctx, sc.Account, false)
	if err != nil {
		return err
	}
	res, err := s.write.ExecContext(ctx, `UPDATE screens SET name = ?, scope = ?, scope_id = ?, healths = ?, page_seconds = ?,
		dim_from = ?, dim_to = ?, contact = ? WHERE account_id = ? AND id = ?`,
		sc.Name, sc.Scope.Kind, sc.Scope.ID, joinHealths(sc.Healths), sc.PageSeconds, sc.DimFrom, sc.DimTo, sc.Contact, key, sc.ID)
	return oneRow(res, err, "screen", sc.ID)
}

// RelinkScreen gives a screen a new link token and the credentials of the
// user who asked; the old link and the browser opened with it stop
// working. A revoked screen becomes active again.
func (s *Store) RelinkScreen(ctx context.Context, account, id string, tokenHash, sealed []byte) error {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	res, err := s.write.ExecContext(ctx, `UPDATE screens SET token_hash = ?, credentials = ?, revoked = 0, last_seen = 0
		WHERE account_id = ? AND id = ?`, tokenHash, sealed, key, id)
	return oneRow(res, err, "screen", id)
}

// RevokeScreen unlinks a screen: its link and its browser stop working.
func (s *Store) RevokeScreen(ctx context.Context, account, id string, at time.Time) error {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	res, err := s.write.ExecContext(ctx, `UPDATE screens SET revoked = ? WHERE account_id = ? AND id = ? AND revoked = 0`,
		ms(at), key, id)
	if n, _ := rowsAffected(res, err); n == 0 && err == nil {
		if _, gerr := s.Screen(ctx, account, id); gerr != nil {
			return gerr
		}
		return nil // already revoked
	}
	return err
}

// RemoveScreen removes a revoked screen of the account for good, with its
// sealed credentials; domain.ErrScreenLinked when the screen is not
// revoked, so that a screen in use is never removed.
func (s *Store) RemoveScreen(ctx context.Context, account, id string) error {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	res, err := s.write.ExecContext(ctx, `DELETE FROM screens WHERE account_id = ? AND id = ? AND revoked <> 0`, key, id)
	if n, err := rowsAffected(res, err); err != nil || n > 0 {
		return err
	}
	if _, err := s.Screen(ctx, account, id); err != nil {
		return err
	}
	return fmt.Errorf("screen %q: %w", id, domain.ErrScreenLinked)
}

// TouchScreen records that a screen checked in.
func (s *Store) TouchScreen(ctx context.Context, id string, at time.Time) error {
	_, err := s.write.ExecContext(ctx, `UPDATE screens SET last_seen = ? WHERE id = ?`, ms(at), id)
	return err
}

// Screens lists an account's screens, newest first.
func (s *Store) Screens(ctx context.Context, account string) ([]domain.Screen, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	rows, err := s.read.QueryContext(ctx, `SELECT `+screenCols+` FROM screens s JOIN accounts a ON a.key = s.account_id
		WHERE s.account_id = ? ORDER BY s.created DESC, s.id`, key)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []domain.Screen
	for rows.Next() {
		sc, err := scanScreen(rows.Scan)
		if err != nil {
			return nil, err
		}
		out = append(out, sc)
	}
	return out, rows.Err()
}

// Screen returns one screen of an account.
func (s *Store) Screen(ctx context.Context, account, id string) (domain.Screen, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return domain.Screen{}, err
	}
	sc, err := scanScreen(s.read.QueryRowContext(ctx, `SELECT `+screenCols+` FROM screens s JOIN accounts a ON a.key = s.account_id
		WHERE s.account_id = ? AND s.id = ?`, key, id).Scan)
	return sc, notFound(err, "screen", id)
}

// ScreenByToken finds the screen whose link token has the hash, with its
// sealed credentials. It reads the writer's view, so that a revocation
// just made is seen at once.
func (s *Store) ScreenByToken(ctx context.Context, tokenHash []byte) (domain.Screen, []byte, error) {
	var sealed []byte
	sc, err := scanScreen(func(dest ...any) error {
		return s.write.QueryRowContext(ctx, `SELECT `+screenCols+`, s.credentials FROM screens s JOIN accounts a ON a.key = s.account_id
			WHERE s.token_hash = ?`, tokenHash).Scan(append(dest, &sealed)...)
	})
	return sc, sealed, notFound(err, "screen", "by token")
}

func scanScreen(scan func(...any) error) (domain.Screen, error) {
	var sc domain.Screen
	var healths string
	var created, seen, revoked int64
	if err := scan(&sc.ID, &sc.Account, &sc.Name, &sc.Scope.Kind, &sc.Scope.ID, &healths, &sc.PageSeconds,
		&sc.DimFrom, &sc.DimTo, &sc.Contact, &created, &seen, &revoked); err != nil {
		return sc, err
	}
	for _, h := range strings.Split(healths, ",") {
		if v, ok := domain.ParseHealth(h); ok {
			sc.Healths = append(sc.Healths, v)
		}
	}
	sc.Created, sc.LastSeen, sc.Revoked = fromMS(created), fromMS(seen), fromMS(revoked)
	return sc, nil
}

func joinHealths(hs []domain.Health) string {
	parts := make([]string, len(hs))
	for i, h := range hs {
		parts[i] = h.String()
	}
	return strings.Join(parts, ",")
}

func rowsAffected(res sql.Result, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func oneRow(res sql.Result, err error, what, id string) error {
	n, err := rowsAffected(res, err)
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
	err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM screens WHERE revoked = 0 AND last_seen >= ?`, ms(since)).Scan(&n)
	return n, err
}
