package sqlstore

import (
	"context"
	"fmt"
	"strings"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

const screenCols = `s.id, a.id, s.name, s.scope, s.scope_id, s.healths, s.page_seconds, s.dim_from, s.dim_to, s.contact,
	s.language, s.created, s.last_seen, s.revoked, CASE WHEN s.show_rounds THEN 1 ELSE 0 END, s.show_plans`

// CreateScreen stores a new screen with the hash of its link's token and
// its sealed credentials, unless its account has max screens already
// (see insertWithinLimit).
func (s *Store) CreateScreen(ctx context.Context, sc domain.Screen, tokenHash, sealed []byte, max int) error {
	key, err := s.accountKey(ctx, sc.Account, true)
	if err != nil {
		return err
	}
	never := s.d.TimeOrNever(time.Time{})
	return s.insertWithinLimit(ctx, key, max, `INSERT INTO screens (id, account_id, name, scope, scope_id, healths, page_seconds,
		dim_from, dim_to, contact, language, token_hash, credentials, created, last_seen, revoked, show_rounds, show_plans)
		SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
		WHERE (SELECT count(*) FROM screens WHERE account_id = ?) < ?`,
		sc.ID, key, sc.Name, sc.Scope.Kind, sc.Scope.ID, joinHealths(sc.Healths), sc.PageSeconds,
		sc.DimFrom, sc.DimTo, sc.Contact, sc.Language, tokenHash, sealed, s.d.Time(sc.Created), never, never, s.d.Bool(sc.Rounds), sc.Plans)
}

// insertWithinLimit runs insert, an INSERT … SELECT … WHERE whose last
// two parameters, the account's key and max, make it insert its row only
// while the account has fewer rows than max (or always, when max <= 0),
// in a transaction holding the account's limits lock: domain.ErrLimit
// when it inserted nothing. Two inserts at once cannot both pass max.
func (s *Store) insertWithinLimit(ctx context.Context, account int64, max int, insert string, args ...any) error {
	return s.inTx(ctx, func(tx Tx) error { return insertWithinLimitTx(ctx, tx, account, max, insert, args...) })
}

// insertWithinLimitTx is insertWithinLimit in a transaction of the
// caller's, which it makes take the account's limits lock.
func insertWithinLimitTx(ctx context.Context, tx Tx, account int64, max int, insert string, args ...any) error {
	if max <= 0 {
		max = int(^uint32(0) >> 1)
	}
	if err := tx.LockLimits(ctx, account); err != nil {
		return err
	}
	n, err := tx.Exec(ctx, insert, append(args, account, max)...)
	if err == nil && n != 1 {
		err = domain.ErrLimit
	}
	return err
}

// UpdateScreen changes a screen's name, scope and settings, its language
// among them.
func (s *Store) UpdateScreen(ctx context.Context, sc domain.Screen) error {
	key, err := s.accountKey(ctx, sc.Account, false)
	if err != nil {
		return err
	}
	n, err := s.write.Exec(ctx, `UPDATE screens SET name = ?, scope = ?, scope_id = ?, healths = ?, page_seconds = ?,
		dim_from = ?, dim_to = ?, contact = ?, language = ?, show_rounds = ?, show_plans = ? WHERE account_id = ? AND id = ?`,
		sc.Name, sc.Scope.Kind, sc.Scope.ID, joinHealths(sc.Healths), sc.PageSeconds, sc.DimFrom, sc.DimTo, sc.Contact, sc.Language,
		s.d.Bool(sc.Rounds), sc.Plans, key, sc.ID)
	return oneRow(n, err, "screen", sc.ID)
}

// RelinkScreen gives a screen a new link token and the credentials of the
// user who asked; the old link and the browser opened with it stop
// working. A revoked screen becomes active again.
func (s *Store) RelinkScreen(ctx context.Context, account, id string, tokenHash, sealed []byte) error {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	never := s.d.TimeOrNever(time.Time{})
	n, err := s.write.Exec(ctx, `UPDATE screens SET token_hash = ?, credentials = ?, revoked = ?, last_seen = ?
		WHERE account_id = ? AND id = ?`, tokenHash, sealed, never, never, key, id)
	return oneRow(n, err, "screen", id)
}

// RevokeScreen unlinks a screen: its link and its browser stop working. A
// screen revoked already keeps the time it was first revoked.
func (s *Store) RevokeScreen(ctx context.Context, account, id string, at time.Time) error {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	return s.inTx(ctx, func(tx Tx) error {
		n, err := tx.Exec(ctx, `UPDATE screens SET revoked = ? WHERE account_id = ? AND id = ? AND `+s.d.IsNever("revoked"),
			s.d.TimeOrNever(at), key, id)
		if err != nil || n > 0 {
			return err
		}
		var one int
		return notFound(tx.QueryRow(ctx, `SELECT 1 FROM screens WHERE account_id = ? AND id = ?`, key, id).Scan(&one), "screen", id)
	})
}

// RemoveScreen removes a revoked screen of the account for good, with its
// sealed credentials; domain.ErrScreenLinked when the screen is not
// revoked, so that a screen in use is never removed.
func (s *Store) RemoveScreen(ctx context.Context, account, id string) error {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	return s.inTx(ctx, func(tx Tx) error {
		n, err := tx.Exec(ctx, `DELETE FROM screens WHERE account_id = ? AND id = ? AND NOT `+s.d.IsNever("revoked"), key, id)
		if err != nil || n > 0 {
			return err
		}
		var one int
		if err := tx.QueryRow(ctx, `SELECT 1 FROM screens WHERE account_id = ? AND id = ?`, key, id).Scan(&one); err != nil {
			return notFound(err, "screen", id)
		}
		return fmt.Errorf("screen %q: %w", id, domain.ErrScreenLinked)
	})
}

// TouchScreen records that a screen checked in.
func (s *Store) TouchScreen(ctx context.Context, id string, at time.Time) error {
	_, err := s.write.Exec(ctx, `UPDATE screens SET last_seen = ? WHERE id = ?`, s.d.TimeOrNever(at), id)
	return err
}

// Screens lists an account's screens, newest first.
func (s *Store) Screens(ctx context.Context, account string) ([]domain.Screen, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	return listOf(ctx, s.read, s.scanScreen, `SELECT `+screenCols+` FROM screens s JOIN accounts a ON a.key = s.account_id
		WHERE s.account_id = ? ORDER BY s.created DESC, s.id`, key)
}

// Screen returns one screen of an account.
func (s *Store) Screen(ctx context.Context, account, id string) (domain.Screen, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return domain.Screen{}, err
	}
	sc, err := s.scanScreen(s.read.QueryRow(ctx, `SELECT `+screenCols+` FROM screens s JOIN accounts a ON a.key = s.account_id
		WHERE s.account_id = ? AND s.id = ?`, key, id).Scan)
	return sc, notFound(err, "screen", id)
}

// ScreenByToken finds the screen whose link token has the hash, with its
// sealed credentials. It reads the writer's view, so that a revocation
// just made is seen at once.
func (s *Store) ScreenByToken(ctx context.Context, tokenHash []byte) (domain.Screen, []byte, error) {
	var sealed []byte
	sc, err := s.scanScreen(func(dest ...any) error {
		return s.write.QueryRow(ctx, `SELECT `+screenCols+`, s.credentials FROM screens s JOIN accounts a ON a.key = s.account_id
			WHERE s.token_hash = ?`, tokenHash).Scan(append(dest, &sealed)...)
	})
	return sc, sealed, notFound(err, "screen", "by token")
}

func (s *Store) scanScreen(scan func(...any) error) (domain.Screen, error) {
	var sc domain.Screen
	var healths string
	var rounds int
	if err := scan(&sc.ID, &sc.Account, &sc.Name, &sc.Scope.Kind, &sc.Scope.ID, &healths, &sc.PageSeconds,
		&sc.DimFrom, &sc.DimTo, &sc.Contact, &sc.Language, s.d.ScanTime(&sc.Created), s.d.ScanTime(&sc.LastSeen), s.d.ScanTime(&sc.Revoked), &rounds, &sc.Plans); err != nil {
		return sc, err
	}
	sc.Rounds = rounds == 1
	for _, h := range strings.Split(healths, ",") {
		if v, ok := domain.ParseHealth(h); ok {
			sc.Healths = append(sc.Healths, v)
		}
	}
	return sc, nil
}

func joinHealths(hs []domain.Health) string {
	parts := make([]string, len(hs))
	for i, h := range hs {
		parts[i] = h.String()
	}
	return strings.Join(parts, ",")
}

// CountActiveScreens counts the linked screens of every account that
// checked in since the given time.
func (s *Store) CountActiveScreens(ctx context.Context, since time.Time) (int, error) {
	var n int
	err := s.read.QueryRow(ctx, `SELECT count(*) FROM screens WHERE `+s.d.IsNever("revoked")+` AND last_seen >= ?`,
		s.d.Time(since)).Scan(&n)
	return n, err
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
	return s.sealedByID(ctx, `SELECT id, credentials FROM screens WHERE account_id = ?`, key)
}

// ResealScreenCredentials replaces screens' sealed credentials, by screen
// id, in one transaction; a screen whose credentials changed since they
// were read (relinked meanwhile) keeps its new ones. It returns how many
// it replaced.
func (s *Store) ResealScreenCredentials(ctx context.Context, byID map[string]store.Reseal) (int, error) {
	return s.reseal(ctx, `UPDATE screens SET credentials = ? WHERE id = ? AND credentials = ?`, byID)
}

// sealedByID reads ids and sealed values.
func (s *Store) sealedByID(ctx context.Context, q string, args ...any) (map[string][]byte, error) {
	out := map[string][]byte{}
	var id string
	var sealed []byte
	err := each(ctx, s.read, q, args, []any{&id, &sealed}, func() error {
		out[id] = sealed
		return nil
	})
	return out, err
}

// reseal runs q (new value, id, old value) for each of byID in one
// transaction, and counts the rows it changed.
func (s *Store) reseal(ctx context.Context, q string, byID map[string]store.Reseal) (int, error) {
	n := 0
	stmts := make([]Statement, 0, len(byID))
	for id, r := range byID {
		stmts = append(stmts, Statement{SQL: q, Args: []any{r.New, id, r.Old}, Check: func(c int64) error {
			n += int(c)
			return nil
		}})
	}
	err := s.inTx(ctx, func(tx Tx) error { return tx.Batch(ctx, stmts) })
	if err != nil {
		return 0, err
	}
	return n, nil
}
