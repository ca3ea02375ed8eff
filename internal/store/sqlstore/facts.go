package sqlstore

import (
	"context"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/store/outbox"
)

// FactsAfter returns at most limit facts with a seq above after, by seq,
// or outbox.Limit when limit <= 0. A reader that has read up to a seq
// misses nothing committed later: facts are given their seqs and commit
// one write after the other (Tx.LockFacts).
func (s *Store) FactsAfter(ctx context.Context, after int64, limit int) ([]store.Fact, error) {
	if limit <= 0 {
		limit = outbox.Limit
	}
	var out []store.Fact
	var f store.Fact
	var kind, typ string
	err := each(ctx, s.read, `SELECT f.seq, a.id, f.kind, f.alert_id, f.alert_type, f.mac, f.location_id, f.at
		FROM facts f JOIN accounts a ON a.key = f.account_id
		WHERE f.seq > ? ORDER BY f.seq LIMIT ?`, []any{after, limit},
		[]any{&f.Seq, &f.Account, &kind, &f.AlertID, &typ, &f.MAC, &f.LocationID, s.d.ScanTime(&f.At)},
		func() error {
			f.Kind, f.AlertType = store.FactKind(kind), domain.AlertType(typ)
			out = append(out, f)
			return nil
		})
	return out, err
}

// PruneFacts removes the facts with a seq up to through.
func (s *Store) PruneFacts(ctx context.Context, through int64) error {
	_, err := s.write.Exec(ctx, `DELETE FROM facts WHERE seq <= ?`, through)
	return err
}

// baselineCols are the columns of accounts that hold when the baseline of
// each resource was made (see store.Facts).
var baselineCols = map[domain.Resource]string{
	domain.ResourceAlerts:  "alerts_baseline",
	domain.ResourceDevices: "devices_baseline",
}

// setBaseline records that the account's resource has its baseline, made
// at at, in the transaction of the refresh that makes it. A zero time is
// kept as the first millisecond of 1970: the zero time says there is none.
func (s *Store) setBaseline(ctx context.Context, tx Tx, account int64, res domain.Resource, at time.Time) error {
	if at.IsZero() {
		at = time.UnixMilli(1)
	}
	_, err := tx.Exec(ctx, `UPDATE accounts SET `+baselineCols[res]+` = ? WHERE key = ?`, s.d.TimeOrNever(at), account)
	return err
}

// factsInsert is the statement that records facts.
var factsInsert = &Insert{Table: "facts", Columns: []Column{
	{"account_id", Int}, {"kind", Text}, {"alert_id", Text}, {"alert_type", Text}, {"mac", Text}, {"location_id", Text}, {"at", Time},
}}

// recordFacts records facts in the transaction of the write they are of,
// in their order, at its end: from the facts lock on, until it commits,
// the writes that record facts wait for it.
func (s *Store) recordFacts(ctx context.Context, tx Tx, account int64, facts []store.Fact) error {
	if len(facts) == 0 {
		return nil
	}
	if err := tx.LockFacts(ctx); err != nil {
		return err
	}
	rows := make([][]any, len(facts))
	for i, f := range facts {
		rows[i] = []any{account, string(f.Kind), f.AlertID, string(f.AlertType), f.MAC, f.LocationID, s.d.Time(f.At)}
	}
	return tx.Insert(ctx, factsInsert, rows, nil)
}
