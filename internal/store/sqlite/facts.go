package sqlite

import (
	"context"
	"database/sql"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// baselineCols are the columns of accounts that hold when the baseline of
// each resource was made (see store.Facts).
var baselineCols = map[domain.Resource]string{
	domain.ResourceAlerts:  "alerts_baseline",
	domain.ResourceDevices: "devices_baseline",
}

// hasBaseline reports whether a refresh of the account's resource has
// committed before: whether the writes of it record facts.
func hasBaseline(ctx context.Context, tx *sql.Tx, account int64, res domain.Resource) (bool, error) {
	var at int64
	err := tx.QueryRowContext(ctx, `SELECT `+baselineCols[res]+` FROM accounts WHERE key = ?`, account).Scan(&at)
	return at != 0, err
}

// setBaseline records that the account's resource has its baseline, made
// at at, in the transaction of the refresh that makes it. The column holds
// 1 rather than 0 for a zero time: 0 says there is none.
func setBaseline(ctx context.Context, tx *sql.Tx, account int64, res domain.Resource, at time.Time) error {
	_, err := tx.ExecContext(ctx, `UPDATE accounts SET `+baselineCols[res]+` = ? WHERE key = ?`, max(ms(at), 1), account)
	return err
}

// recordFacts records facts in the transaction of the write they are of,
// in their order.
func recordFacts(ctx context.Context, tx *sql.Tx, account int64, facts []store.Fact) error {
	if len(facts) == 0 {
		return nil
	}
	b := newBatch(tx, "facts", func(n int) string {
		return `INSERT INTO facts (account_id, kind, alert_id, alert_type, mac, location_id, at) VALUES ` + placeholders(7, n)
	})
	defer b.close()
	for _, f := range facts {
		if err := b.add(ctx, account, string(f.Kind), f.AlertID, string(f.AlertType), f.MAC, f.LocationID, ms(f.At)); err != nil {
			return err
		}
	}
	return b.flush(ctx)
}
