package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/store/outbox"
)

// FactsAfter returns at most limit facts with a seq above after, by seq,
// or outbox.Limit when limit <= 0. A reader that has read up to a seq
// misses nothing committed later: facts are given their seqs and commit
// under factsLock, one write after the other.
func (s *Store) FactsAfter(ctx context.Context, after int64, limit int) ([]store.Fact, error) {
	if limit <= 0 {
		limit = outbox.Limit
	}
	rows, err := s.pool.Query(ctx, `SELECT f.seq, a.id, f.kind, f.alert_id, f.alert_type, f.mac, f.location_id, f.at
		FROM facts f JOIN accounts a ON a.key = f.account_id
		WHERE f.seq > $1 ORDER BY f.seq LIMIT $2`, after, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Fact, error) {
		var f store.Fact
		var kind, typ string
		err := row.Scan(&f.Seq, &f.Account, &kind, &f.AlertID, &typ, &f.MAC, &f.LocationID, &f.At)
		f.Kind, f.AlertType, f.At = store.FactKind(kind), domain.AlertType(typ), f.At.UTC()
		return f, err
	})
}

// PruneFacts removes the facts with a seq up to through.
func (s *Store) PruneFacts(ctx context.Context, through int64) error {
	_, err := s.pool.Exec(ctx, `DELETE FROM facts WHERE seq <= $1`, through)
	return err
}

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

// devicesByMAC reads the given devices of an account within a transaction.
func devicesByMAC(ctx context.Context, tx *txn, account int64, macs []string) (map[string]domain.Device, error) {
	out := make(map[string]domain.Device, len(macs))
	for start := 0; start < len(macs); start += chunk {
		rows, err := tx.Query(ctx, `SELECT `+deviceCols+` FROM devices d WHERE d.account_id = $1 AND d.mac = ANY($2)`,
			account, macs[start:min(start+chunk, len(macs))])
		if err != nil {
			return nil, err
		}
		devices, err := pgx.CollectRows(rows, scanDevice)
		if err != nil {
			return nil, err
		}
		for _, d := range devices {
			out[d.MAC] = d
		}
	}
	return out, nil
}
