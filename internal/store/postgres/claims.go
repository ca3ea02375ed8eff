package postgres

import (
	"context"
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
func endClaimsOfClosedAlerts(ctx context.Context, tx *txn, account int64, seen, now time.Time) error {
	_, err := tx.Exec(ctx, `UPDATE claims c SET ended_by = $1,
			ended = greatest(c.claimed, coalesce($2::timestamptz, (SELECT a.resolved FROM alerts a WHERE a.account_id = c.account_id AND a.id = c.alert_id), $3))
		WHERE c.account_id = $4 AND c.ended IS NULL
			AND NOT EXISTS (SELECT 1 FROM alerts a WHERE a.account_id = c.account_id AND a.id = c.alert_id AND a.status = 'OPEN')`,
		string(domain.ClaimClosed), ts(seen), now, account)
	return err
}
