package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"washboard/internal/domain"
)

// Portfolio screens: wall screens of an organisation's clients (see
// domain.Screen). Their writes that count run under peopleLock, as the
// organisation's other writes do.

const portfolioScreenCols = `id, organisation_id, maker_id, name, accounts, page_seconds, dim_from, dim_to, contact, language, created, last_seen, revoked`

// CreatePortfolioScreen stores a new portfolio screen with the hash of its
// link's token, unless its organisation has max screens already (<= 0:
// no bound): domain.ErrLimit.
func (s *Store) CreatePortfolioScreen(ctx context.Context, sc domain.Screen, tokenHash []byte, max int) error {
	if max <= 0 {
		max = int(^uint32(0) >> 1)
	}
	never := s.d.TimeOrNever(time.Time{})
	return s.inTx(ctx, func(tx Tx) error {
		if err := tx.LockLimits(ctx, peopleLock); err != nil {
			return err
		}
		n, err := tx.Exec(ctx, `INSERT INTO portfolio_screens (id, organisation_id, maker_id, name, accounts, page_seconds, dim_from, dim_to,
			contact, language, token_hash, created, last_seen, revoked)
			SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
			WHERE (SELECT count(*) FROM portfolio_screens WHERE organisation_id = ?) < ?`,
			sc.ID, sc.Organisation, sc.Maker, sc.Name, buildingsJSON(sc.Accounts), sc.PageSeconds, sc.DimFrom, sc.DimTo,
			sc.Contact, sc.Language, tokenHash, s.d.Time(sc.Created), never, never, sc.Organisation, max)
		if err == nil && n != 1 {
			err = domain.ErrLimit
		}
		return err
	})
}

// UpdatePortfolioScreen changes a portfolio screen's name, accounts,
// settings (its language among them) and maker; domain.ErrNotFound when its organisation has no
// screen of the id.
func (s *Store) UpdatePortfolioScreen(ctx context.Context, sc domain.Screen) error {
	n, err := s.write.Exec(ctx, `UPDATE portfolio_screens SET name = ?, accounts = ?, page_seconds = ?, dim_from = ?, dim_to = ?,
		contact = ?, language = ?, maker_id = ? WHERE organisation_id = ? AND id = ?`,
		sc.Name, buildingsJSON(sc.Accounts), sc.PageSeconds, sc.DimFrom, sc.DimTo, sc.Contact, sc.Language, sc.Maker, sc.Organisation, sc.ID)
	return oneRow(n, err, "portfolio screen", sc.ID)
}

// RelinkPortfolioScreen gives a portfolio screen a new link token and
// maker; the old link and the browser opened with it stop working. A
// revoked screen becomes active again.
func (s *Store) RelinkPortfolioScreen(ctx context.Context, org, id, maker string, tokenHash []byte) error {
	never := s.d.TimeOrNever(time.Time{})
	n, err := s.write.Exec(ctx, `UPDATE portfolio_screens SET token_hash = ?, maker_id = ?, revoked = ?, last_seen = ?
		WHERE organisation_id = ? AND id = ?`, tokenHash, maker, never, never, org, id)
	return oneRow(n, err, "portfolio screen", id)
}

// RevokePortfolioScreen unlinks a portfolio screen: its link and its
// browser stop working. A screen revoked already keeps the time it was
// first revoked.
func (s *Store) RevokePortfolioScreen(ctx context.Context, org, id string, at time.Time) error {
	return s.inTx(ctx, func(tx Tx) error {
		n, err := tx.Exec(ctx, `UPDATE portfolio_screens SET revoked = ? WHERE organisation_id = ? AND id = ? AND `+s.d.IsNever("revoked"),
			s.d.TimeOrNever(at), org, id)
		if err != nil || n > 0 {
			return err
		}
		var one int
		return notFound(tx.QueryRow(ctx, `SELECT 1 FROM portfolio_screens WHERE organisation_id = ? AND id = ?`, org, id).Scan(&one), "portfolio screen", id)
	})
}

// RemovePortfolioScreen removes a revoked portfolio screen for good;
// domain.ErrScreenLinked when it is not revoked.
func (s *Store) RemovePortfolioScreen(ctx context.Context, org, id string) error {
	return s.inTx(ctx, func(tx Tx) error {
		n, err := tx.Exec(ctx, `DELETE FROM portfolio_screens WHERE organisation_id = ? AND id = ? AND NOT `+s.d.IsNever("revoked"), org, id)
		if err != nil || n > 0 {
			return err
		}
		var one int
		if err := tx.QueryRow(ctx, `SELECT 1 FROM portfolio_screens WHERE organisation_id = ? AND id = ?`, org, id).Scan(&one); err != nil {
			return notFound(err, "portfolio screen", id)
		}
		return fmt.Errorf("portfolio screen %q: %w", id, domain.ErrScreenLinked)
	})
}

// TouchPortfolioScreen records that a portfolio screen checked in.
func (s *Store) TouchPortfolioScreen(ctx context.Context, id string, at time.Time) error {
	_, err := s.write.Exec(ctx, `UPDATE portfolio_screens SET last_seen = ? WHERE id = ?`, s.d.TimeOrNever(at), id)
	return err
}

// PortfolioScreens lists an organisation's screens, newest first.
func (s *Store) PortfolioScreens(ctx context.Context, org string) ([]domain.Screen, error) {
	return listOf(ctx, s.read, s.scanPortfolioScreen, `SELECT `+portfolioScreenCols+` FROM portfolio_screens
		WHERE organisation_id = ? ORDER BY created DESC, id`, org)
}

// PortfolioScreen returns one screen of an organisation.
func (s *Store) PortfolioScreen(ctx context.Context, org, id string) (domain.Screen, error) {
	sc, err := s.scanPortfolioScreen(s.write.QueryRow(ctx, `SELECT `+portfolioScreenCols+` FROM portfolio_screens
		WHERE organisation_id = ? AND id = ?`, org, id).Scan)
	return sc, notFound(err, "portfolio screen", id)
}

// PortfolioScreenByToken finds the portfolio screen whose link token has
// the hash. It reads the writer's view, so that a revocation just made is
// seen at once.
func (s *Store) PortfolioScreenByToken(ctx context.Context, tokenHash []byte) (domain.Screen, error) {
	sc, err := s.scanPortfolioScreen(s.write.QueryRow(ctx, `SELECT `+portfolioScreenCols+` FROM portfolio_screens WHERE token_hash = ?`, tokenHash).Scan)
	return sc, notFound(err, "portfolio screen", "by token")
}

func (s *Store) scanPortfolioScreen(scan func(...any) error) (domain.Screen, error) {
	sc := domain.Screen{Scope: domain.ScreenScope{Kind: domain.ScreenOrganisation}}
	var accounts string
	if err := scan(&sc.ID, &sc.Organisation, &sc.Maker, &sc.Name, &accounts, &sc.PageSeconds, &sc.DimFrom, &sc.DimTo, &sc.Contact, &sc.Language,
		s.d.ScanTime(&sc.Created), s.d.ScanTime(&sc.LastSeen), s.d.ScanTime(&sc.Revoked)); err != nil {
		return sc, err
	}
	if err := json.Unmarshal([]byte(accounts), &sc.Accounts); err != nil {
		return sc, fmt.Errorf("portfolio screen %s's accounts: %w", sc.ID, err)
	}
	if len(sc.Accounts) == 0 {
		sc.Accounts = nil
	}
	sc.Scope.ID = sc.Organisation
	return sc, nil
}
