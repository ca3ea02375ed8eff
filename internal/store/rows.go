package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"
)

// Change counts what a refresh did to the cache.
type Change struct {
	Added, Changed, Removed int
}

// Empty reports whether the refresh changed nothing.
func (c Change) Empty() bool { return c.Added == 0 && c.Changed == 0 && c.Removed == 0 }

// Plus adds two changes.
func (c Change) Plus(o Change) Change {
	return Change{c.Added + o.Added, c.Changed + o.Changed, c.Removed + o.Removed}
}

// table describes a cached table keyed by (account_id, key column).
type table struct {
	name string
	key  string
	cols []string // the other columns written by a refresh, in row order
}

// batchRows is how many rows one INSERT statement writes.
const batchRows = 64

// insert returns the statement that writes n rows, replacing the content
// of rows whose key exists.
func (t *table) insert(n int) string {
	cols := append([]string{"account_id", t.key}, t.cols...)
	cols = append(cols, "hash")
	sets := make([]string, 0, len(t.cols)+1)
	for _, c := range append(append([]string{}, t.cols...), "hash") {
		sets = append(sets, c+" = excluded."+c)
	}
	one := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + ")"
	return fmt.Sprintf("INSERT INTO %s (%s) VALUES %s ON CONFLICT (account_id, %s) DO UPDATE SET %s",
		t.name, strings.Join(cols, ", "), strings.TrimSuffix(strings.Repeat(one+", ", n), ", "),
		t.key, strings.Join(sets, ", "))
}

// row is one row of a refresh: its key and its other columns.
type row struct {
	key  string
	vals []any
}

// hashRow hashes a row's content. Equal content gives an equal hash.
func hashRow(r row) int64 {
	h := fnv.New64a()
	var buf [8]byte
	for _, v := range r.vals {
		switch v := v.(type) {
		case nil:
			h.Write([]byte{0})
		case string:
			h.Write([]byte{1})
			h.Write([]byte(v))
			h.Write([]byte{0})
		case int64:
			binary.LittleEndian.PutUint64(buf[:], uint64(v))
			h.Write([]byte{2})
			h.Write(buf[:])
		case int:
			binary.LittleEndian.PutUint64(buf[:], uint64(v))
			h.Write([]byte{2})
			h.Write(buf[:])
		case bool:
			if v {
				h.Write([]byte{3, 1})
			} else {
				h.Write([]byte{3, 0})
			}
		case float64:
			binary.LittleEndian.PutUint64(buf[:], math.Float64bits(v))
			h.Write([]byte{4})
			h.Write(buf[:])
		default:
			panic(fmt.Sprintf("store: cannot hash %T", v))
		}
	}
	return int64(h.Sum64())
}

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
type tableWriter struct {
	tx       *sql.Tx
	t        *table
	account  int64
	existing map[string]int64 // the cache's hashes of the keys the refresh may touch
	seen     map[string]int64 // hash of each key this refresh wrote or confirmed
	batch    *sql.Stmt        // writes batchRows rows
	single   *sql.Stmt        // writes one row
	change   Change
}

func newTableWriter(tx *sql.Tx, t *table, account int64, existing map[string]int64) *tableWriter {
	if existing == nil {
		existing = map[string]int64{}
	}
	return &tableWriter{tx: tx, t: t, account: account, existing: existing, seen: map[string]int64{}}
}

func (w *tableWriter) write(ctx context.Context, rows []row) error {
	// Writing in key order keeps the b-tree's pages in cache.
	rows = slices.Clone(rows)
	slices.SortStableFunc(rows, func(a, b row) int { return strings.Compare(a.key, b.key) })
	var pending []any
	pendingRows := 0
	for _, r := range rows {
		h := hashRow(r)
		prev, again := w.seen[r.key]
		old, cached := w.existing[r.key]
		switch {
		case again && prev == h, !again && cached && old == h:
			w.seen[r.key] = h
			continue
		case !again && cached:
			w.change.Changed++
		case !again:
			w.change.Added++
		}
		w.seen[r.key] = h
		if again {
			// Written earlier in this refresh: flush what is pending first,
			// so that the later version lands last.
			if err := w.flush(ctx, pending, pendingRows); err != nil {
				return err
			}
			pending, pendingRows = pending[:0], 0
		}
		pending = append(pending, w.account, r.key)
		pending = append(pending, r.vals...)
		pending = append(pending, h)
		pendingRows++
		if pendingRows == batchRows {
			if err := w.flush(ctx, pending, pendingRows); err != nil {
				return err
			}
			pending, pendingRows = pending[:0], 0
		}
	}
	return w.flush(ctx, pending, pendingRows)
}

// flush writes n rows whose values are in args.
func (w *tableWriter) flush(ctx context.Context, args []any, n int) error {
	if n == 0 {
		return nil
	}
	var err error
	if n == batchRows {
		if w.batch == nil {
			if w.batch, err = w.tx.PrepareContext(ctx, w.t.insert(batchRows)); err != nil {
				return err
			}
		}
		if _, err = w.batch.ExecContext(ctx, args...); err != nil {
			return fmt.Errorf("writing %d rows of %s: %w", n, w.t.name, err)
		}
		return nil
	}
	if w.single == nil {
		if w.single, err = w.tx.PrepareContext(ctx, w.t.insert(1)); err != nil {
			return err
		}
	}
	per := len(args) / n
	for i := 0; i < n; i++ {
		if _, err = w.single.ExecContext(ctx, args[i*per:(i+1)*per]...); err != nil {
			return fmt.Errorf("writing %s %v: %w", w.t.name, args[i*per+1], err)
		}
	}
	return nil
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
	for _, st := range []**sql.Stmt{&w.batch, &w.single} {
		if *st != nil {
			(*st).Close()
			*st = nil
		}
	}
}

// upsert writes one whole refresh of a table: the rows whose content
// differs from the cache, and, when remove is true, the removal of the
// cached rows in existing that the refresh did not list.
func upsert(ctx context.Context, tx *sql.Tx, t *table, account int64, rows []row, existing map[string]int64, remove bool) (Change, error) {
	w := newTableWriter(tx, t, account, existing)
	defer w.close()
	if err := w.write(ctx, rows); err != nil {
		return w.change, err
	}
	if remove {
		if err := w.removeUnseen(ctx); err != nil {
			return w.change, err
		}
	}
	return w.change, nil
}

// inTx runs fn in a write transaction.
func (s *Store) inTx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
