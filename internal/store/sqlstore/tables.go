package sqlstore

import (
	"context"

	"washboard/internal/domain"
	"washboard/internal/store/rowhash"
)

// Table is a cached table that refreshes write, keyed by (account_id,
// Key). Each row carries the hash of its content, so that a refresh
// writes only the rows whose content changed.
type Table struct {
	Name string
	Key  string
	Cols []string // the other columns a refresh writes, in a row's order
	// OnInsert are columns written with a row the table does not hold,
	// from the row's OnInsert values, and left alone when the row changes
	// (unless the refresh that added it writes it again). They are not
	// part of the row's content.
	OnInsert []string
	// InArrivalOrder says that rows are best written in the order they
	// come, not in key order: an engine that keeps the table in the
	// order rows arrive (a SQLite rowid table) then gives its indexes on
	// dates their entries in the service's order.
	InArrivalOrder bool
}

// Columns lists the columns a refresh writes, in the order of the values
// a RowWriter is given: account_id, the key, Cols, hash, OnInsert.
func (t *Table) Columns() []string {
	cols := append([]string{"account_id", t.Key}, t.Cols...)
	return append(append(cols, "hash"), t.OnInsert...)
}

// Row is one row of a refresh: its key, its other columns (as Dialect
// encodes them) and the values of the table's OnInsert columns.
type Row struct {
	Key      string
	Vals     []any
	OnInsert []any
}

// hash hashes a row's content: equal content gives an equal hash.
func (r Row) hash() int64 { return rowhash.Sum(r.Vals) }

// Write is what a TableWriter asks a RowWriter to do with a row.
type Write int

// The writes of a row.
const (
	// Add: the table does not hold the row's key.
	Add Write = iota
	// Change: the table holds the key; the row replaces its content and
	// leaves its OnInsert columns.
	Change
	// Rewrite: the refresh added the key and writes it again; the row
	// replaces its content and OnInsert columns.
	Rewrite
)

// RowWriter writes the rows of one refresh of a table, within its
// transaction, as a TableWriter decides: the engine's way of writing
// many rows.
type RowWriter interface {
	// Order puts a page of rows, before it is written, in the order the
	// engine writes best (see Table.InArrivalOrder).
	Order(rows []Row)
	// Put writes a row, or queues it until Flush. again says that the
	// refresh wrote the key before: the row must land after that write.
	// Its values are, in Table.Columns' order, account, r.Key, r.Vals,
	// hash and r.OnInsert; it does not keep r.
	Put(ctx context.Context, w Write, again bool, r Row, hash int64) error
	// Flush writes the rows queued.
	Flush(ctx context.Context) error
	// Close frees what the writer holds; it may be called more than once.
	Close()
}

// TableWriter writes the rows of one refresh of a table within the
// refresh's transaction. A row whose content equals the cache's is not
// written; a key written twice in one refresh keeps the later row.
type TableWriter struct {
	tx       Tx
	t        *Table
	account  int64
	rows     RowWriter
	existing map[string]int64   // the cache's hashes of the keys the refresh may touch
	seen     map[string]written // each key this refresh wrote or confirmed
	change   domain.Change
}

// written is what a refresh did with a key.
type written struct {
	hash  int64 // of the content written or confirmed last
	added bool  // the refresh added the row
}

func newTableWriter(tx Tx, t *Table, account int64, existing map[string]int64) *TableWriter {
	if existing == nil {
		existing = map[string]int64{}
	}
	return &TableWriter{tx: tx, t: t, account: account, rows: tx.Rows(t, account), existing: existing, seen: map[string]written{}}
}

// write writes the rows that differ from the cache, in the order the
// engine takes them best, which it may give rows in place.
func (w *TableWriter) write(ctx context.Context, rows []Row) error {
	w.rows.Order(rows)
	for _, r := range rows {
		h := r.hash()
		prev, again := w.seen[r.Key]
		old, cached := w.existing[r.Key]
		switch {
		case again && prev.hash == h:
			continue
		case !again && cached && old == h:
			w.seen[r.Key] = written{hash: h}
			continue
		case !again && cached:
			w.change.Changed++
		case !again:
			w.change.Added++
		}
		w.seen[r.Key] = written{hash: h, added: prev.added || !again && !cached}
		how := Change
		switch {
		case again && prev.added:
			how = Rewrite
		case !again && !cached:
			how = Add
		}
		if err := w.rows.Put(ctx, how, again, r, h); err != nil {
			return err
		}
	}
	return nil
}

// differs reports whether the cache holds the row's key with other
// content: whether writing the row would change it.
func (w *TableWriter) differs(r Row) bool {
	old, cached := w.existing[r.Key]
	return cached && old != r.hash()
}

// modified reports whether this refresh has written the key with content
// the cache did not hold: added it, or changed it and not back.
func (w *TableWriter) modified(key string) bool {
	s, ok := w.seen[key]
	if !ok {
		return false
	}
	old, cached := w.existing[key]
	return s.added || !cached || old != s.hash
}

// flush writes the rows still waiting.
func (w *TableWriter) flush(ctx context.Context) error { return w.rows.Flush(ctx) }

// removeUnseen removes the cached rows this refresh did not list.
func (w *TableWriter) removeUnseen(ctx context.Context) error {
	var gone [][]any
	for k := range w.existing {
		if _, ok := w.seen[k]; !ok {
			gone = append(gone, []any{k})
		}
	}
	n, err := w.remove(ctx, gone)
	w.change.Removed += int(n)
	return err
}

// remove removes the account's rows of the given keys, each a row of one
// value, and returns how many it removed.
func (w *TableWriter) remove(ctx context.Context, keys [][]any) (int64, error) {
	if len(keys) == 0 {
		return 0, nil
	}
	return w.tx.Delete(ctx, w.t.Name, w.account, []Column{{w.t.Key, Text}}, keys)
}

func (w *TableWriter) close() { w.rows.Close() }
