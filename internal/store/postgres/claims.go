package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"washboard/internal/domain"
)

// claimsLimit is the most claims ClaimsDuring returns when its caller
// sets no limit (limit <= 0): a report of one span of time reads a
// bounded number, never the whole history.
const claimsLimit = 1000

// ClaimAlert records c as the active claim of the account's alert, in one
// transaction: the alert must be open in the cache (domain.ErrNotFound
// otherwise), and the claim active before, if any, ends as handed over at
// c.At. No claim ends before it was made. Lengths are the caller's to
// check; the table holds what it is given.
//
// The alert's row stays locked until the claim commits: a refresh that
// closes or removes the alert meanwhile waits, then ends the claim; one
// that did first leaves no open alert to claim; and two claims of one
// alert, from any replicas, follow one another.
func (s *Store) ClaimAlert(ctx context.Context, account string, c domain.Claim) error {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var one int
		err := tx.QueryRow(ctx, `SELECT 1 FROM alerts WHERE account_id = $1 AND id = $2 AND status = 'OPEN' FOR UPDATE`,
			key, c.AlertID).Scan(&one)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("open alert %q: %w", c.AlertID, domain.ErrNotFound)
		}
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE claims SET ended = greatest(claimed, $1), ended_by = $2
			WHERE account_id = $3 AND alert_id = $4 AND ended IS NULL`, c.At, string(domain.ClaimHanded), key, c.AlertID); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO claims (account_id, alert_id, name, note, claimed) VALUES ($1, $2, $3, $4, $5)`,
			key, c.AlertID, c.Name, c.Note, c.At)
		return err
	})
}

// ReleaseClaim ends the active claim of the account's alert, if there is
// one, as released at at (or when it was made, if that was later).
func (s *Store) ReleaseClaim(ctx context.Context, account, alertID string, at time.Time) error {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	_, err = s.pool.Exec(ctx, `UPDATE claims SET ended = greatest(claimed, $1), ended_by = $2
		WHERE account_id = $3 AND alert_id = $4 AND ended IS NULL`, at, string(domain.ClaimReleased), key, alertID)
	return err
}

// ActiveClaims returns the account's active claims by alert id: one per
// open alert at most.
func (s *Store) ActiveClaims(ctx context.Context, account string) (map[string]domain.Claim, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `SELECT `+claimCols+` FROM claims WHERE account_id = $1 AND ended IS NULL`, key)
	if err != nil {
		return nil, err
	}
	claims, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (domain.Claim, error) { return scanClaim(row.Scan) })
	if err != nil {
		return nil, err
	}
	out := make(map[string]domain.Claim, len(claims))
	for _, c := range claims {
		out[c.AlertID] = c
	}
	return out, nil
}

// ClaimsDuring returns the account's claims active at any moment of
// [from, to): made before to, and active or ended after from. They come
// in the order they were made, then by alert id, at most limit of them,
// or claimsLimit when limit <= 0. A claim that ended the moment it was
// made was never active.
func (s *Store) ClaimsDuring(ctx context.Context, account string, from, to time.Time, limit int) ([]domain.Claim, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = claimsLimit
	}
	// The active claims, and those ended after from, each read from an
	// index: a recent span reads recent claims, not the whole history.
	rows, err := s.pool.Query(ctx, `SELECT `+claimCols+` FROM claims WHERE account_id = $1 AND ended IS NULL AND claimed < $3
		UNION ALL
		SELECT `+claimCols+` FROM claims WHERE account_id = $1 AND ended > $2 AND claimed < $3
		ORDER BY claimed, alert_id, id LIMIT $4`, key, from, to, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (domain.Claim, error) { return scanClaim(row.Scan) })
}

// claimCols are the columns scanClaim reads; the last, the claim's id,
// orders claims made at the same time on the same alert.
const claimCols = `alert_id, name, note, claimed, ended, coalesce(ended_by, ''), id`

func scanClaim(scan func(...any) error) (domain.Claim, error) {
	var c domain.Claim
	var ended pgtype.Timestamptz
	var endedBy string
	var id int64
	if err := scan(&c.AlertID, &c.Name, &c.Note, &c.At, &ended, &endedBy, &id); err != nil {
		return c, err
	}
	c.At, c.Ended, c.EndedBy = c.At.UTC(), fromTS(ended), domain.ClaimEnd(endedBy)
	return c, nil
}

// endClaimsOfClosedAlerts ends, as closed, the account's active claims
// whose alert the cache no longer holds open, within the transaction of
// the refresh that closed or removed it, in one statement that reads the
// active claims only. They end at seen, when the refresh saw the service;
// a refresh that does not say (an AlertWrite without SeenAt) ends them
// when the alert was resolved, if the cache still holds it, or else at
// now. No claim ends before it was made.
func endClaimsOfClosedAlerts(ctx context.Context, tx *txn, account int64, seen, now time.Time) error {
	_, err := tx.Exec(ctx, `UPDATE claims c SET ended_by = $1,
			ended = greatest(c.claimed, coalesce($2::timestamptz, (SELECT a.resolved FROM alerts a WHERE a.account_id = c.account_id AND a.id = c.alert_id), $3))
		WHERE c.account_id = $4 AND c.ended IS NULL
			AND NOT EXISTS (SELECT 1 FROM alerts a WHERE a.account_id = c.account_id AND a.id = c.alert_id AND a.status = 'OPEN')`,
		string(domain.ClaimClosed), ts(seen), now, account)
	return err
}
