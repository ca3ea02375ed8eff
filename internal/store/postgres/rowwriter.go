package postgres

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"washboard/internal/store/sqlstore"
)

// flushRows is how many rows a refresh keeps waiting before it writes
// them: enough that a COPY is worth its round trips.
const flushRows = 4096

// rowWriter writes the rows of one refresh of a table. Rows wait until
// flushRows of them do, or Flush is called: new rows are then copied into
// the table, in the background, changed rows into a temporary table that
// updates the table in one statement.
type rowWriter struct {
	tx      *txn
	t       *sqlstore.Table
	account int64
	// The rows waiting: those whose keys the cache does not hold, those
	// whose keys it holds, and those this refresh added and writes again.
	added, changed, rewritten pending
	staged                    bool // the temporary table exists
}

// pending are rows waiting to be written, with where each key is.
type pending struct {
	rows [][]any
	at   map[string]int
}

// put queues a row, or replaces the one of the same key still waiting.
func (p *pending) put(key string, vals []any) {
	if i, ok := p.at[key]; ok {
		p.rows[i] = vals
		return
	}
	if p.at == nil {
		p.at = map[string]int{}
	}
	p.at[key] = len(p.rows)
	p.rows = append(p.rows, vals)
}

func (p *pending) reset() {
	p.rows, p.at = nil, nil
}

// Order leaves rows as they come.
func (w *rowWriter) Order([]sqlstore.Row) {}

// Put queues a row; one whose key waits to be added is added as it is
// now.
func (w *rowWriter) Put(ctx context.Context, how sqlstore.Write, again bool, r sqlstore.Row, hash int64) error {
	vals := make([]any, 0, 3+len(r.Vals)+len(r.OnInsert))
	vals = append(append(append(vals, w.account, r.Key), r.Vals...), hash)
	vals = append(vals, r.OnInsert...)
	switch _, waiting := w.added.at[r.Key]; {
	case waiting || how == sqlstore.Add:
		w.added.put(r.Key, vals)
	case how == sqlstore.Rewrite:
		w.rewritten.put(r.Key, vals)
	default:
		// Changed, or changed again: put replaces the row waiting.
		w.changed.put(r.Key, vals)
	}
	if len(w.added.rows)+len(w.changed.rows)+len(w.rewritten.rows) >= flushRows {
		return w.Flush(ctx)
	}
	return nil
}

// Flush writes the rows waiting.
func (w *rowWriter) Flush(ctx context.Context) error {
	if len(w.added.rows) > 0 {
		// Copied while the refresh reads and prepares what comes next.
		if err := w.tx.copyInBackground(ctx, w.t.Name, w.t.Columns(), w.added.rows); err != nil {
			return err
		}
		w.added.reset()
	}
	if err := w.update(ctx, &w.changed, w.t.Cols); err != nil {
		return err
	}
	return w.update(ctx, &w.rewritten, append(append([]string{}, w.t.Cols...), w.t.OnInsert...))
}

// update writes the rows of p over those of their keys: the columns set,
// and the hash. The rows go through a temporary table, dropped with the
// refresh's transaction.
func (w *rowWriter) update(ctx context.Context, p *pending, set []string) error {
	if len(p.rows) == 0 {
		return nil
	}
	stage := "stage_" + w.t.Name
	if !w.staged {
		if _, err := w.tx.Exec(ctx, fmt.Sprintf(`CREATE TEMPORARY TABLE %s ON COMMIT DROP AS SELECT %s FROM %s WITH NO DATA`,
			stage, strings.Join(w.t.Columns(), ", "), w.t.Name)); err != nil {
			return err
		}
		w.staged = true
	}
	if _, err := w.tx.CopyFrom(ctx, pgx.Identifier{stage}, w.t.Columns(), pgx.CopyFromRows(p.rows)); err != nil {
		return fmt.Errorf("writing %d rows of %s: %w", len(p.rows), w.t.Name, err)
	}
	sets := make([]string, 0, len(set)+1)
	for _, c := range set {
		sets = append(sets, c+" = s."+c)
	}
	sets = append(sets, "hash = s.hash")
	if _, err := w.tx.Exec(ctx, fmt.Sprintf(`UPDATE %s t SET %s FROM %s s WHERE t.account_id = s.account_id AND t.%s = s.%s`,
		w.t.Name, strings.Join(sets, ", "), stage, w.t.Key, w.t.Key)); err != nil {
		return fmt.Errorf("writing %d rows of %s: %w", len(p.rows), w.t.Name, err)
	}
	if _, err := w.tx.Exec(ctx, `TRUNCATE `+stage); err != nil {
		return err
	}
	p.reset()
	return nil
}

// Close does nothing: what the writer made goes with the transaction.
func (w *rowWriter) Close() {}
