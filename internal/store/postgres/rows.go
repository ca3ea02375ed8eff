package postgres

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"washboard/internal/domain"
	"washboard/internal/store/rowhash"
)

// table describes a cached table keyed by (account_id, key column).
type table struct {
	name string
	key  string
	cols []string // the other columns written by a refresh, in row order
	// onInsert are columns written with a row the table does not hold,
	// from the row's onInsert values, and left alone when the row changes
	// (unless the refresh that added it writes it again). They are not part
	// of the row's content.
	onInsert []string
}

// columns lists the columns a refresh writes, in the order of a row's
// values.
func (t *table) columns() []string {
	cols := append([]string{"account_id", t.key}, t.cols...)
	return append(append(cols, "hash"), t.onInsert...)
}

// row is one row of a refresh: its key, its other columns and the values
// of the table's onInsert columns.
type row struct {
	key      string
	vals     []any
	onInsert []any
}

// hashRow hashes a row's content: equal content gives an equal hash.
func hashRow(r row) int64 { return rowhash.Sum(r.vals) }

// existingHashes reads the key and content hash of every row of the
// account in the table.
func existingHashes(ctx context.Context, tx *txn, t *table, account int64) (map[string]int64, error) {
	rows, err := tx.Query(ctx, fmt.Sprintf("SELECT %s, hash FROM %s WHERE account_id = $1", t.key, t.name), account)
	if err != nil {
		return nil, err
	}
	out := map[string]int64{}
	var k string
	var h int64
	_, err = pgx.ForEachRow(rows, []any{&k, &h}, func() error {
		out[k] = h
		return nil
	})
	return out, err
}

// tableWriter writes the rows of one refresh of a table within the
// refresh's transaction. A row whose content equals the cache's is not
// written; a key written twice in one refresh keeps the later row. Rows
// wait until flushRows of them do, or flush is called: new rows are then
// copied into the table, in the background, changed rows into a temporary
// table that updates the table in one statement.
type tableWriter struct {
	tx       *txn
	t        *table
	account  int64
	existing map[string]int64   // the cache's hashes of the keys the refresh may touch
	seen     map[string]written // each key this refresh wrote or confirmed
	// The rows waiting: those whose keys the cache does not hold, those
	// whose keys it holds, and those this refresh added and writes again.
	added, changed, rewritten pending
	staged                    bool // the temporary table exists
	change                    domain.Change
}

// written is what a refresh did with a key.
type written struct {
	hash  int64 // of the content written or confirmed last
	added bool  // the refresh added the row
}

func newTableWriter(tx *txn, t *table, account int64, existing map[string]int64) *tableWriter {
	if existing == nil {
		existing = map[string]int64{}
	}
	return &tableWriter{tx: tx, t: t, account: account, existing: existing, seen: map[string]written{}}
}

// write queues the rows that differ from the cache, and writes them once
// enough wait.
func (w *tableWriter) write(ctx context.Context, rows []row) error {
	for _, r := range rows {
		h := hashRow(r)
		prev, again := w.seen[r.key]
		old, cached := w.existing[r.key]
		switch {
		case again && prev.hash == h:
			continue
		case !again && cached && old == h:
			w.seen[r.key] = written{hash: h}
			continue
		case !again && cached:
			w.change.Changed++
		case !again:
			w.change.Added++
		}
		w.seen[r.key] = written{hash: h, added: prev.added || !again && !cached}
		vals := make([]any, 0, 3+len(r.vals)+len(r.onInsert))
		vals = append(append(append(vals, w.account, r.key), r.vals...), h)
		vals = append(vals, r.onInsert...)
		switch _, waiting := w.added.at[r.key]; {
		case waiting || !again && !cached:
			w.added.put(r.key, vals)
		case again && prev.added:
			w.rewritten.put(r.key, vals)
		default:
			// Changed, or changed again: put replaces the row waiting.
			w.changed.put(r.key, vals)
		}
	}
	if len(w.added.rows)+len(w.changed.rows)+len(w.rewritten.rows) >= flushRows {
		return w.flush(ctx)
	}
	return nil
}

// differs reports whether the cache holds the row's key with other
// content: whether writing the row would change it.
func (w *tableWriter) differs(r row) bool {
	old, cached := w.existing[r.key]
	return cached && old != hashRow(r)
}

// modified reports whether this refresh has written the key with content
// the cache did not hold: added it, or changed it and not back.
func (w *tableWriter) modified(key string) bool {
	s, ok := w.seen[key]
	if !ok {
		return false
	}
	old, cached := w.existing[key]
	return s.added || !cached || old != s.hash
}

// flush writes the rows waiting.
func (w *tableWriter) flush(ctx context.Context) error {
	if len(w.added.rows) > 0 {
		// Copied while the refresh reads and prepares what comes next.
		if err := w.tx.copyInBackground(ctx, w.t.name, w.t.columns(), w.added.rows); err != nil {
			return err
		}
		w.added.reset()
	}
	if err := w.update(ctx, &w.changed, w.t.cols); err != nil {
		return err
	}
	return w.update(ctx, &w.rewritten, append(append([]string{}, w.t.cols...), w.t.onInsert...))
}

// update writes the rows of p over those of their keys: the columns set,
// and the hash. The rows go through a temporary table, dropped with the
// refresh's transaction.
func (w *tableWriter) update(ctx context.Context, p *pending, set []string) error {
	if len(p.rows) == 0 {
		return nil
	}
	stage := "stage_" + w.t.name
	if !w.staged {
		if _, err := w.tx.Exec(ctx, fmt.Sprintf(`CREATE TEMPORARY TABLE %s ON COMMIT DROP AS SELECT %s FROM %s WITH NO DATA`,
			stage, strings.Join(w.t.columns(), ", "), w.t.name)); err != nil {
			return err
		}
		w.staged = true
	}
	if _, err := w.tx.CopyFrom(ctx, pgx.Identifier{stage}, w.t.columns(), pgx.CopyFromRows(p.rows)); err != nil {
		return fmt.Errorf("writing %d rows of %s: %w", len(p.rows), w.t.name, err)
	}
	sets := make([]string, 0, len(set)+1)
	for _, c := range set {
		sets = append(sets, c+" = s."+c)
	}
	sets = append(sets, "hash = s.hash")
	if _, err := w.tx.Exec(ctx, fmt.Sprintf(`UPDATE %s t SET %s FROM %s s WHERE t.account_id = s.account_id AND t.%s = s.%s`,
		w.t.name, strings.Join(sets, ", "), stage, w.t.key, w.t.key)); err != nil {
		return fmt.Errorf("writing %d rows of %s: %w", len(p.rows), w.t.name, err)
	}
	if _, err := w.tx.Exec(ctx, `TRUNCATE `+stage); err != nil {
		return err
	}
	p.reset()
	return nil
}

// removeUnseen removes the cached rows this refresh did not list.
func (w *tableWriter) removeUnseen(ctx context.Context) error {
	var gone []string
	for k := range w.existing {
		if _, ok := w.seen[k]; !ok {
			gone = append(gone, k)
		}
	}
	n, err := deleteKeys(ctx, w.tx, w.t.name, w.t.key, w.account, gone)
	w.change.Removed += int(n)
	return err
}

// deleteKeys deletes an account's rows of the given keys, in chunks, and
// returns how many it deleted.
func deleteKeys(ctx context.Context, tx *txn, table, key string, account int64, keys []string) (int64, error) {
	var n int64
	q := fmt.Sprintf("DELETE FROM %s WHERE account_id = $1 AND %s = ANY($2)", table, key)
	for start := 0; start < len(keys); start += chunk {
		tag, err := tx.Exec(ctx, q, account, keys[start:min(start+chunk, len(keys))])
		if err != nil {
			return n, err
		}
		n += tag.RowsAffected()
	}
	return n, nil
}
