package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"washboard/internal/store/sqlstore"
)

// rowWriter writes the rows of one refresh of a table in batches of
// batchRows rows, each statement prepared once. Rows wait in their batch
// until it is full or Flush is called.
type rowWriter struct {
	t         *sqlstore.Table
	account   int64
	added     *batch // rows whose keys the cache does not hold
	changed   *batch // rows whose keys it holds
	rewritten *batch // rows this refresh added, written again
	vals      []any  // the values of the row being queued
}

func newRowWriter(tx *sql.Tx, t *sqlstore.Table, account int64) *rowWriter {
	cols := t.Columns()
	return &rowWriter{
		t: t, account: account,
		// A conflict fails rather than aborts: either way the refresh fails
		// and its transaction is rolled back, and a statement that cannot
		// abort needs no statement journal, the copy SQLite otherwise keeps
		// of every page the statement changes so as to undo it alone.
		added: newBatch(tx, t.Name, func(n int) string {
			return fmt.Sprintf("INSERT OR FAIL INTO %s (%s) VALUES %s", t.Name, strings.Join(cols, ", "), placeholders(len(cols), n))
		}),
		changed:   newBatch(tx, t.Name, replacing(t, append(append([]string{}, t.Cols...), "hash"))),
		rewritten: newBatch(tx, t.Name, replacing(t, append(append(append([]string{}, t.Cols...), "hash"), t.OnInsert...))),
	}
}

// replacing returns the statement that writes n rows, replacing the given
// columns of rows whose key exists.
func replacing(t *sqlstore.Table, replace []string) func(n int) string {
	cols := t.Columns()
	sets := make([]string, 0, len(replace))
	for _, c := range replace {
		sets = append(sets, c+" = excluded."+c)
	}
	return func(n int) string {
		return fmt.Sprintf("INSERT INTO %s (%s) VALUES %s ON CONFLICT (account_id, %s) DO UPDATE SET %s",
			t.Name, strings.Join(cols, ", "), placeholders(len(cols), n), t.Key, strings.Join(sets, ", "))
	}
}

// Order sorts rows by key, in place, unless the table takes them in the
// order they come: a table kept in key order takes rows best in that
// order, the pages they go to staying in cache.
func (w *rowWriter) Order(rows []sqlstore.Row) {
	if !w.t.InArrivalOrder {
		slices.SortStableFunc(rows, func(a, b sqlstore.Row) int { return strings.Compare(a.Key, b.Key) })
	}
}

func (w *rowWriter) Put(ctx context.Context, how sqlstore.Write, again bool, r sqlstore.Row, hash int64) error {
	b := w.changed
	switch how {
	case sqlstore.Add:
		b = w.added
	case sqlstore.Rewrite:
		b = w.rewritten
	}
	if again {
		// Written earlier in this refresh: what is pending goes first, so
		// that the later version lands last.
		if err := w.Flush(ctx); err != nil {
			return err
		}
	}
	w.vals = append(append(append(w.vals[:0], w.account, r.Key), r.Vals...), hash)
	w.vals = append(w.vals, r.OnInsert...)
	return b.add(ctx, w.vals...)
}

func (w *rowWriter) Flush(ctx context.Context) error {
	for _, b := range []*batch{w.added, w.changed, w.rewritten} {
		if err := b.flush(ctx); err != nil {
			return err
		}
	}
	return nil
}

func (w *rowWriter) Close() {
	w.added.close()
	w.changed.close()
	w.rewritten.close()
}

// batchRows is how many rows one INSERT statement writes.
const batchRows = 64

// placeholders returns n parenthesised lists of cols placeholders each.
func placeholders(cols, n int) string {
	one := "(" + strings.TrimSuffix(strings.Repeat("?, ", cols), ", ") + ")"
	return strings.TrimSuffix(strings.Repeat(one+", ", n), ", ")
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
