package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
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
	name   string
	key    string
	cols   []string // the other columns written by a refresh, in row order
	insert string   // built by prepare
}

func (t *table) prepare() *table {
	cols := append([]string{"account_id", t.key}, t.cols...)
	cols = append(cols, "hash")
	sets := make([]string, 0, len(t.cols)+1)
	for _, c := range append(append([]string{}, t.cols...), "hash") {
		sets = append(sets, c+" = excluded."+c)
	}
	t.insert = fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s) ON CONFLICT (account_id, %s) DO UPDATE SET %s",
		t.name, strings.Join(cols, ", "), strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", "),
		t.key, strings.Join(sets, ", "))
	return t
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
func existingHashes(ctx context.Context, tx *sql.Tx, t *table, account, where string, args ...any) (map[string]int64, error) {
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

// upsert writes the rows whose content differs from the cache, and removes
// the rows in existing that the refresh did not list when remove is true.
// existing is the cache's current key→hash of the rows the refresh covers.
func upsert(ctx context.Context, tx *sql.Tx, t *table, account string, rows []row, existing map[string]int64, remove bool) (Change, error) {
	var c Change
	var stmt *sql.Stmt
	seen := make(map[string]bool, len(rows))
	for _, r := range rows {
		if seen[r.key] {
			continue // the first of duplicates wins
		}
		seen[r.key] = true
		h := hashRow(r)
		old, ok := existing[r.key]
		if ok && old == h {
			continue
		}
		if stmt == nil {
			var err error
			if stmt, err = tx.PrepareContext(ctx, t.insert); err != nil {
				return c, err
			}
			defer stmt.Close()
		}
		args := make([]any, 0, len(r.vals)+3)
		args = append(args, account, r.key)
		args = append(args, r.vals...)
		args = append(args, h)
		if _, err := stmt.ExecContext(ctx, args...); err != nil {
			return c, fmt.Errorf("writing %s %s: %w", t.name, r.key, err)
		}
		if ok {
			c.Changed++
		} else {
			c.Added++
		}
	}
	if !remove {
		return c, nil
	}
	var del *sql.Stmt
	for k := range existing {
		if seen[k] {
			continue
		}
		if del == nil {
			var err error
			if del, err = tx.PrepareContext(ctx, fmt.Sprintf("DELETE FROM %s WHERE account_id = ? AND %s = ?", t.name, t.key)); err != nil {
				return c, err
			}
			defer del.Close()
		}
		if _, err := del.ExecContext(ctx, account, k); err != nil {
			return c, err
		}
		c.Removed++
	}
	return c, nil
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
