package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

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
// check; the table holds what it is given. Like every write, it waits for
// a refresh under way: one that closes or removes the alert either leaves
// nothing to claim or ends the claim.
func (s *Store) ClaimAlert(ctx context.Context, account string, c domain.Claim) error {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var open bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM alerts WHERE account_id = ? AND id = ? AND status = 'OPEN')`,
		key, c.AlertID).Scan(&open); err != nil {
		return err
	}
	if !open {
		return fmt.Errorf("open alert %q: %w", c.AlertID, domain.ErrNotFound)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE claims SET ended = max(claimed, ?), ended_by = ?
		WHERE account_id = ? AND alert_id = ? AND ended IS NULL`, ms(c.At), string(domain.ClaimHanded), key, c.AlertID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO claims (account_id, alert_id, name, note, claimed) VALUES (?, ?, ?, ?, ?)`,
		key, c.AlertID, c.Name, c.Note, ms(c.At)); err != nil {
		return err
	}
	return tx.Commit()
}

// ReleaseClaim ends the active claim of the account's alert, if there is
// one, as released at at (or when it was made, if that was later).
func (s *Store) ReleaseClaim(ctx context.Context, account, alertID string, at time.Time) error {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	_, err = s.write.ExecContext(ctx, `UPDATE claims SET ended = max(claimed, ?), ended_by = ?
		WHERE account_id = ? AND alert_id = ? AND ended IS NULL`, ms(at), string(domain.ClaimReleased), key, alertID)
	return err
}

// ActiveClaims returns the account's active claims by alert id: one per
// open alert at most.
func (s *Store) ActiveClaims(ctx context.Context, account string) (map[string]domain.Claim, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	rows, err := s.read.QueryContext(ctx, `SELECT `+claimCols+` FROM claims WHERE account_id = ? AND ended IS NULL`, key)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]domain.Claim{}
	for rows.Next() {
		c, err := scanClaim(rows.Scan)
		if err != nil {
			return nil, err
		}
		out[c.AlertID] = c
	}
	return out, rows.Err()
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
	rows, err := s.read.QueryContext(ctx, `SELECT `+claimCols+` FROM claims WHERE account_id = ? AND ended IS NULL AND claimed < ?
		UNION ALL
		SELECT `+claimCols+` FROM claims WHERE account_id = ? AND ended > ? AND claimed < ?
		ORDER BY claimed, alert_id, id LIMIT ?`, key, ms(to), key, ms(from), ms(to), limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []domain.Claim
	for rows.Next() {
		c, err := scanClaim(rows.Scan)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// claimCols are the columns scanClaim reads; the last, the claim's row id,
// orders claims made at the same time on the same alert.
const claimCols = `alert_id, name, note, claimed, ended, coalesce(ended_by, ''), id`

func scanClaim(scan func(...any) error) (domain.Claim, error) {
	var c domain.Claim
	var claimed, id int64
	var ended sql.NullInt64
	var endedBy string
	if err := scan(&c.AlertID, &c.Name, &c.Note, &claimed, &ended, &endedBy, &id); err != nil {
		return c, err
	}
	c.At, c.EndedBy = fromMS(claimed), domain.ClaimEnd(endedBy)
	if ended.Valid {
		c.Ended = fromMS(ended.Int64)
	}
	return c, nil
}

// endClaimsOfClosedAlerts ends, as closed, the account's active claims
// whose alert the cache no longer holds open, within the transaction of
// the refresh that closed or removed it, in one statement that reads the
// active claims only. They end at seen, when the refresh saw the service;
// a refresh that does not say (an AlertWrite without SeenAt) ends them
// when the alert was resolved, if the cache still holds it, or else at
// now. No claim ends before it was made.
func endClaimsOfClosedAlerts(ctx context.Context, tx *sql.Tx, account int64, seen, now time.Time) error {
	var at any
	if !seen.IsZero() {
		at = ms(seen)
	}
	_, err := tx.ExecContext(ctx, `UPDATE claims SET ended_by = ?,
			ended = max(claimed, coalesce(?, (SELECT a.resolved FROM alerts a WHERE a.account_id = claims.account_id AND a.id = claims.alert_id), ?))
		WHERE account_id = ? AND ended IS NULL
			AND NOT EXISTS (SELECT 1 FROM alerts a WHERE a.account_id = claims.account_id AND a.id = claims.alert_id AND a.status = 'OPEN')`,
		string(domain.ClaimClosed), at, ms(now), account)
	return err
}
