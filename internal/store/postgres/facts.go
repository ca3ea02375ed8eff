package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// baselineCols are the columns of accounts that hold when the baseline of
// each resource was made (see store.Facts).
var baselineCols = map[domain.Resource]string{
	domain.ResourceAlerts:  "alerts_baseline",
	domain.ResourceDevices: "devices_baseline",
}

// setBaseline records that the account's resource has its baseline, made
// at at, in the transaction of the refresh that makes it.
func setBaseline(ctx context.Context, tx *txn, account int64, res domain.Resource, at time.Time) error {
	_, err := tx.Exec(ctx, `UPDATE accounts SET `+baselineCols[res]+` = $2 WHERE key = $1`, account, at)
	return err
}

// factCols are the columns recordFacts writes.
var factCols = []string{"account_id", "kind", "alert_id", "alert_type", "mac", "location_id", "at"}

// recordFacts records facts in the transaction of the write they are of,
// in their order, at its end: it takes factsLock, which the transaction
// holds until it commits or rolls back, then copies the facts in.
func recordFacts(ctx context.Context, tx *txn, account int64, facts []store.Fact) error {
	if len(facts) == 0 {
		return nil
	}
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(`+lockKeys+`)`, factsLock); err != nil {
		return err
	}
	rows := make([][]any, len(facts))
	for i, f := range facts {
		rows[i] = []any{account, string(f.Kind), f.AlertID, string(f.AlertType), f.MAC, f.LocationID, f.At}
	}
	_, err := tx.CopyFrom(ctx, pgx.Identifier{"facts"}, factCols, pgx.CopyFromRows(rows))
	return err
}
