package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"washboard/internal/domain"
	"washboard/internal/store/rowhash"
)

// table describes a cached table keyed by (account_id, key column).
type table struct {
	name string
	key  string
	cols []string // the other columns written by a refresh, in row order
	// rowid says the table is a rowid table and its key a unique index:
	// a refresh writes its rows as they come, not in key order, so that
	// they take their rowids, and the indexes on dates their entries, in
	// the service's order.
	rowid bool
	// onInsert are columns written with a row the table does not hold,
	// from the row's onInsert values, and left alone when the row changes
	// (unless the refresh that added it writes it again). They are not part
	// of the row's content.
	onInsert []string
}

// batchRows is how many rows one INSERT statement writes.
const batchRows = 64

// insertNew returns the statement that writes n rows whose keys the table
// does not hold. It fails rather than aborts on a conflict: either way the
// refresh fails and its transaction is rolled back, and a statement that
// cannot abort needs no statement journal, the copy SQLite otherwise keeps
// of every page the statement changes so as to undo it alone.
func (t *table) insertNew(n int) string {
	return fmt.Sprintf("INSERT OR FAIL INTO %s (%s) VALUES %s", t.name, strings.Join(t.columns(), ", "), placeholders(len(t.columns()), n))
}

// insertOrUpdate returns the statement that writes n rows, replacing the
// content of rows whose key exists and leaving their onInsert columns.
func (t *table) insertOrUpdate(n int) string {
	return t.insertReplacing(n, append(append([]string{}, t.cols...), "hash"))
}

// insertOrReplace returns the statement that writes n rows, replacing the
// content and the onInsert columns of rows whose key exists.
func (t *table) insertOrReplace(n int) string {
	return t.insertReplacing(n, append(append(append([]string{}, t.cols...), "hash"), t.onInsert...))
}

// insertReplacing returns the statement that writes n rows, replacing the
// given columns of rows whose key exists.
func (t *table) insertReplacing(n int, replace []string) string {
	sets := make([]string, 0, len(replace))
	for _, c := range replace {
		sets = append(sets, c+" = excluded."+c)
	}
	return fmt.Sprintf("INSERT INTO %s (%s) VALUES %s ON CONFLICT (account_id, %s) DO UPDATE SET %s",
		t.name, strings.Join(t.columns(), ", "), placeholders(len(t.columns()), n), t.key, strings.Join(sets, ", "))
}

// columns lists the columns a refresh writes, in the order of a row's
// values.
func (t *table) columns() []string {
	cols := append([]string{"account_id", t.key}, t.cols...)
	return append(append(cols, "hash"), t.onInsert...)
}

// placeholders returns n parenthesised lists of cols placeholders each.
func placeholders(cols, n int) string {
	one := "(" + strings.TrimSuffix(strings.Repeat("?, ", cols), ", ") + ")"
	return strings.TrimSuffix(strings.Repeat(one+", ", n), ", ")
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
// account in the table, or of those matching an extra condition.
func existingHashes(ctx context.Context, tx *sql.Tx, t *table, account int64, where string, args ...any) (map[string]int64, error) {
	q := fmt.Sprintf("SELECT %s, hash FROM %s WHERE account_id = ?", t.key, t.name)
	if where != "" {
		q += " AND " + where
	}
	rows, err := tx.QueryContext(ctx, q, append([]any{account}, args...)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var k string
		var h int64
		if err := rows.Scan(&k, &h); err != nil {
			return nil, err
		}
		out[k] = h
	}
	return out, rows.Err()
}

// tableWriter writes the rows of one refresh of a table, in batches,
// within the refresh's transaction. A row whose content equals the cache's
// is not written; a key written twice in one refresh keeps the later row.
// Rows wait in their batch until it is full or flush is called.
type tableWriter struct {
	tx        *sql.Tx
	t         *table
	account   int64
	existing  map[string]int64   // the cache's hashes of the keys the refresh may touch
	seen      map[string]written // each key this refresh wrote or confirmed
	added     *batch             // rows whose keys the cache does not hold
	changed   *batch             // rows whose keys it holds
	rewritten *batch             // rows this refresh added, written again
	vals      []any              // the values of the row being queued
	change    domain.Change
}

// written is what a refresh did with a key.
type written struct {
	hash  int64 // of the content written or confirmed last
	added bool  // the refresh added the row
}

func newTableWriter(tx *sql.Tx, t *table, account int64, existing map[string]int64) *tableWriter {
	if existing == nil {
		existing = map[string]int64{}
	}
	return &tableWriter{
		tx: tx, t: t, account: account, existing: existing, seen: map[string]written{},
		added:     newBatch(tx, t.name, t.insertNew),
		changed:   newBatch(tx, t.name, t.insertOrUpdate),
		rewritten: newBatch(tx, t.name, t.insertOrReplace),
	}
}

// write queues the rows that differ from the cache, writing each batch as
// it fills. Unless the table is a rowid table, it sorts rows by key, in
// place: a table kept in key order takes rows best in that order, the
// pages they go to staying in cache.
func (w *tableWriter) write(ctx context.Context, rows []row) error {
	if !w.t.rowid {
		slices.SortStableFunc(rows, func(a, b row) int { return strings.Compare(a.key, b.key) })
	}
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
		b := w.changed
		switch {
		case again:
			// Written earlier in this refresh: flush what is pending first,
			// so that the later version lands last.
			if err := w.flush(ctx); err != nil {
				return err
			}
			if prev.added {
				b = w.rewritten
			}
		case !cached:
			b = w.added
		}
		w.vals = append(append(append(w.vals[:0], w.account, r.key), r.vals...), h)
		w.vals = append(w.vals, r.onInsert...)
		if err := b.add(ctx, w.vals...); err != nil {
			return err
		}
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

// flush writes the rows still waiting in the batches.
func (w *tableWriter) flush(ctx context.Context) error {
	for _, b := range []*batch{w.added, w.changed, w.rewritten} {
		if err := b.flush(ctx); err != nil {
			return err
		}
	}
	return nil
}

// batch gathers the rows of one statement and writes them batchRows at a
// time, with statements prepared once per refresh. The second value of a
// row names it in errors.
type batch struct {
	tx    *sql.Tx
	table string
	query func(n int) string // the statement that writes n rows
	args  []any              // the values of the rows waiting
	n     int                // how many rows are waiting
	full  *sql.Stmt          // writes batchRows rows
	one   *sql.Stmt          // writes one row
	// returned, when set, is given the rows the statements return.
	returned func(scan func(dest ...any) error) error
}

func newBatch(tx *sql.Tx, table string, query func(n int) string) *batch {
	return &batch{tx: tx, table: table, query: query}
}

// add queues a row, and writes the batch when it is full.
func (b *batch) add(ctx context.Context, vals ...any) error {
	b.args = append(b.args, vals...)
	b.n++
	if b.n < batchRows {
		return nil
	}
	var err error
	if b.full == nil {
		if b.full, err = b.tx.PrepareContext(ctx, b.query(batchRows)); err != nil {
			return err
		}
	}
	if err := b.run(ctx, b.full, b.args); err != nil {
		return fmt.Errorf("writing %d rows of %s: %w", b.n, b.table, err)
	}
	b.reset()
	return nil
}

// run runs a statement of the batch, and passes the rows it returns to
// returned.
func (b *batch) run(ctx context.Context, st *sql.Stmt, args []any) error {
	if b.returned == nil {
		_, err := st.ExecContext(ctx, args...)
		return err
	}
	rows, err := st.QueryContext(ctx, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := b.returned(rows.Scan); err != nil {
			return err
		}
	}
	return rows.Err()
}

// flush writes the rows waiting, one at a time.
func (b *batch) flush(ctx context.Context) error {
	if b.n == 0 {
		return nil
	}
	var err error
	if b.one == nil {
		if b.one, err = b.tx.PrepareContext(ctx, b.query(1)); err != nil {
			return err
		}
	}
	per := len(b.args) / b.n
	for i := 0; i < b.n; i++ {
		if err = b.run(ctx, b.one, b.args[i*per:(i+1)*per]); err != nil {
			return fmt.Errorf("writing %s %v: %w", b.table, b.args[i*per+1], err)
		}
	}
	b.reset()
	return nil
}

func (b *batch) reset() {
	clear(b.args) // let the values go
	b.args, b.n = b.args[:0], 0
}

// close closes the batch's statements.
func (b *batch) close() {
	for _, st := range []**sql.Stmt{&b.full, &b.one} {
		if *st != nil {
			(*st).Close()
			*st = nil
		}
	}
}

// removeUnseen removes the cached rows this refresh did not list.
func (w *tableWriter) removeUnseen(ctx context.Context) error {
	var del *sql.Stmt
	for k := range w.existing {
		if _, ok := w.seen[k]; ok {
			continue
		}
		if del == nil {
			var err error
			if del, err = w.tx.PrepareContext(ctx, fmt.Sprintf("DELETE FROM %s WHERE account_id = ? AND %s = ?", w.t.name, w.t.key)); err != nil {
				return err
			}
			defer del.Close()
		}
		if _, err := del.ExecContext(ctx, w.account, k); err != nil {
			return err
		}
		w.change.Removed++
	}
	return nil
}

func (w *tableWriter) close() {
	w.added.close()
	w.changed.close()
	w.rewritten.close()
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
