package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// Sign-in links (store.People): one-time links sent by e-mail, by the hash
// of their token. The table holds the last hour's links (and the last
// Window's, if longer): each new link removes those older.

// CreateSignInLink stores a one-time sign-in link, within the limits.
func (s *Store) CreateSignInLink(ctx context.Context, l store.SignInLink, lim store.SignInLimits) error {
	return s.inTx(ctx, func(tx Tx) error {
		if err := tx.LockLimits(ctx, peopleLock); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM signin_links WHERE created < ?`, s.d.Time(l.Created.Add(-max(time.Hour, lim.Window)))); err != nil {
			return err
		}
		for _, c := range []struct {
			max     int
			within  time.Duration
			address bool
		}{{lim.PerAddress, lim.Window, true}, {lim.Total, time.Hour, false}} {
			if c.max <= 0 {
				continue
			}
			cond, args := `created > ?`, []any{s.d.Time(l.Created.Add(-c.within))}
			if c.address {
				cond, args = cond+` AND email_key = ?`, append(args, emailKey(l.Email))
			}
			var n int
			var oldest time.Time
			if err := tx.QueryRow(ctx, `SELECT count(*), min(created) FROM signin_links WHERE `+cond, args...).Scan(&n, s.d.ScanTime(&oldest)); err != nil {
				return err
			}
			if n >= c.max {
				return &domain.TooSoonError{Address: c.address, Wait: oldest.Add(c.within).Sub(l.Created)}
			}
		}
		_, err := tx.Exec(ctx, `INSERT INTO signin_links (token_hash, email_key, person_id, created, expires, used) VALUES (?, ?, ?, ?, ?, ?)`,
			l.TokenHash, emailKey(l.Email), l.Person, s.d.Time(l.Created), s.d.Time(l.Expires), s.d.TimeOrNever(time.Time{}))
		return err
	})
}

// UseSignInLink uses the link whose token has the hash, once, and returns
// its person, whom it records as seen at at.
func (s *Store) UseSignInLink(ctx context.Context, tokenHash []byte, at time.Time) (domain.Person, error) {
	var p domain.Person
	err := s.inTx(ctx, func(tx Tx) error {
		n, err := tx.Exec(ctx, `UPDATE signin_links SET used = ? WHERE token_hash = ? AND person_id != '' AND `+
			s.d.IsNever("used")+` AND expires > ?`, s.d.TimeOrNever(at), tokenHash, s.d.Time(at))
		if err != nil {
			return err
		}
		var person string
		var used time.Time
		switch err := tx.QueryRow(ctx, `SELECT person_id, used FROM signin_links WHERE token_hash = ?`, tokenHash).Scan(&person, s.d.ScanTime(&used)); {
		case errors.Is(err, sql.ErrNoRows) || (err == nil && person == ""):
			return domain.ErrSignInLinkUnknown
		case err != nil:
			return err
		case n == 0 && !used.IsZero():
			return domain.ErrSignInLinkUsed
		case n == 0:
			return domain.ErrSignInLinkExpired
		}
		if _, err := tx.Exec(ctx, `UPDATE people SET last_seen = ? WHERE id = ?`, s.d.TimeOrNever(at), person); err != nil {
			return err
		}
		p, err = s.findPerson(ctx, tx, `p.id = ?`, person)
		return err
	})
	return p, err
}
