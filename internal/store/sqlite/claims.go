package sqlite

import (
	"context"
	"database/sql"
	"time"

	"washboard/internal/domain"
)

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
