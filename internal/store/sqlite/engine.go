package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"washboard/internal/store/sqlstore"
)

// engine is the store's SQLite: a writer connection for the writes, a
// read-only pool for pages, a pool of its own for the sessions.
type engine struct {
	dialect
	read, write, sessions conn
}

func (e engine) Read() sqlstore.DB     { return e.read }
func (e engine) Write() sqlstore.DB    { return e.write }
func (e engine) Sessions() sqlstore.DB { return e.sessions }

// Shared is false: one process writes the database, through its one
// writer connection.
func (e engine) Shared() bool { return false }

// conn is a pool of database/sql connections as the store uses them, with
// the queries it has prepared (none kept when stmts is nil).
type conn struct {
	db    *sql.DB
	stmts *stmts
}

func (c conn) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	return changed(c.db.ExecContext(ctx, query, args...))
}

func (c conn) Query(ctx context.Context, q string, args ...any) (sqlstore.Rows, error) {
	if st, err := c.stmts.prepared(ctx, c.db, q); err != nil || st != nil {
		if err != nil {
			return nil, err
		}
		return query(st.QueryContext(ctx, args...))
	}
	return query(c.db.QueryContext(ctx, q, args...))
}

func (c conn) QueryRow(ctx context.Context, query string, args ...any) sqlstore.Scanner {
	if st, err := c.stmts.prepared(ctx, c.db, query); err != nil || st != nil {
		if err != nil {
			return failedRow{err}
		}
		return st.QueryRowContext(ctx, args...)
	}
	return c.db.QueryRowContext(ctx, query, args...)
}

// stmts are the queries a pool has prepared, by their text. Pages ask
// the same few dozen queries again and again, and SQLite would otherwise
// parse each one every time: for a page of a few rows, parsing is much of
// the work. Queries beyond maxStmts different ones (lists of ids of each
// length, say) are not kept.
type stmts struct {
	mu   sync.Mutex
	kept map[string]*sql.Stmt
}

// maxStmts bounds the statements a pool keeps.
const maxStmts = 512

// prepared is the statement of query, prepared once; nil when no more are
// kept, or when c keeps none.
func (s *stmts) prepared(ctx context.Context, db *sql.DB, query string) (*sql.Stmt, error) {
	if s == nil {
		return nil, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.kept[query]; ok {
		return st, nil
	}
	if len(s.kept) >= maxStmts {
		return nil, nil
	}
	st, err := db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if s.kept == nil {
		s.kept = map[string]*sql.Stmt{}
	}
	s.kept[query] = st
	return st, nil
}

// close closes the statements kept.
func (s *stmts) close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for _, st := range s.kept {
		errs = append(errs, st.Close())
	}
	s.kept = nil
	return errors.Join(errs...)
}

// failedRow is a row whose query could not be prepared.
type failedRow struct{ err error }

func (r failedRow) Scan(...any) error { return r.err }

// Begin starts a transaction: on the writer, an immediate one (the DSN's
// _txlock), which takes the write lock at once; on the read pool, one
// that reads a snapshot.
func (c conn) Begin(ctx context.Context) (sqlstore.Tx, error) {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	return &txn{tx: tx}, nil
}

// changed is how many rows a statement changed.
func changed(res sql.Result, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// rows are database/sql rows as the store reads them.
type rows struct{ *sql.Rows }

func (r rows) Close() { r.Rows.Close() }

func query(r *sql.Rows, err error) (sqlstore.Rows, error) {
	if err != nil {
		return nil, err
	}
	return rows{r}, nil
}

// txn is a transaction, which writes many rows in statements of batchRows
// rows each, prepared once.
type txn struct{ tx *sql.Tx }

func (t *txn) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	return changed(t.tx.ExecContext(ctx, query, args...))
}

func (t *txn) Query(ctx context.Context, q string, args ...any) (sqlstore.Rows, error) {
	return query(t.tx.QueryContext(ctx, q, args...))
}

func (t *txn) QueryRow(ctx context.Context, query string, args ...any) sqlstore.Scanner {
	return t.tx.QueryRowContext(ctx, query, args...)
}

func (t *txn) Commit(context.Context) error { return t.tx.Commit() }
func (t *txn) Rollback()                    { t.tx.Rollback() }

// LockFacts does nothing: the one writer connection commits in the order
// it gives seqs.
func (t *txn) LockFacts(context.Context) error { return nil }

// LockLimits does nothing: the one writer connection runs one transaction
// at a time.
func (t *txn) LockLimits(context.Context, int64) error { return nil }

func (t *txn) Insert(ctx context.Context, ins *sqlstore.Insert, rows [][]any, returned func(scan func(dest ...any) error) error) error {
	names := make([]string, len(ins.Columns))
	for i, c := range ins.Columns {
		names[i] = c.Name
	}
	b := newBatch(t.tx, ins.Table, func(n int) string {
		return fmt.Sprintf("INSERT INTO %s (%s) VALUES %s %s", ins.Table, strings.Join(names, ", "), placeholders(len(names), n), ins.Then)
	})
	b.returned = returned
	defer b.close()
	for _, r := range rows {
		if err := b.add(ctx, r...); err != nil {
			return err
		}
	}
	return b.flush(ctx)
}

func (t *txn) Delete(ctx context.Context, table string, account int64, cols []sqlstore.Column, keys [][]any) (int64, error) {
	conds := make([]string, len(cols))
	for i, c := range cols {
		conds[i] = c.Name + " = ?"
	}
	del, err := t.tx.PrepareContext(ctx, fmt.Sprintf("DELETE FROM %s WHERE account_id = ? AND %s", table, strings.Join(conds, " AND ")))
	if err != nil {
		return 0, err
	}
	defer del.Close()
	var n int64
	args := make([]any, 0, 1+len(cols))
	for _, k := range keys {
		c, err := changed(del.ExecContext(ctx, append(append(args[:0], account), k...)...))
		if err != nil {
			return n, err
		}
		n += c
	}
	return n, nil
}

// Batch runs the statements one by one, each prepared once.
func (t *txn) Batch(ctx context.Context, stmts []sqlstore.Statement) error {
	prepared := map[string]*sql.Stmt{}
	defer func() {
		for _, st := range prepared {
			st.Close()
		}
	}()
	for _, s := range stmts {
		st, ok := prepared[s.SQL]
		if !ok {
			var err error
			if st, err = t.tx.PrepareContext(ctx, s.SQL); err != nil {
				return err
			}
			prepared[s.SQL] = st
		}
		n, err := changed(st.ExecContext(ctx, s.Args...))
		if err == nil && s.Check != nil {
			err = s.Check(n)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (t *txn) Rows(tb *sqlstore.Table, account int64) sqlstore.RowWriter {
	return newRowWriter(t.tx, tb, account)
}

// dialect is SQLite's: times are INTEGER Unix milliseconds in UTC (0 for
// "never" in the columns that are NOT NULL), booleans 0 and 1, lists
// joined with ';'; a statement lists its values in IN (...); the planner,
// without statistics, is told which index to read and which side of a
// join to read first; rows lock the whole database, not themselves.
type dialect struct{}

func (dialect) Time(t time.Time) any        { return ms(t) }
func (dialect) TimeOrNever(t time.Time) any { return ms(t) }

func (dialect) NullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return ms(t)
}

func (dialect) ScanTime(t *time.Time) any { return msTime{t} }
func (dialect) ScanRaw(b *[]byte) any     { return (*sql.RawBytes)(b) }

func (dialect) Bool(b bool) any {
	if b {
		return int64(1)
	}
	return int64(0)
}

func (dialect) BoolLiteral(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

func (dialect) List(l []string) any        { return strings.Join(l, ";") }
func (dialect) ScanList(l *[]string) any   { return joined{l} }
func (dialect) IsNever(col string) string  { return col + " = 0" }
func (dialect) MaxList() int               { return 500 }
func (dialect) ForUpdate() string          { return "" }
func (dialect) IndexedBy(ix string) string { return " INDEXED BY " + ix }
func (dialect) JoinInOrder() string        { return "CROSS JOIN" } // SQLite reads CROSS JOIN's left side first
func (dialect) Arrival(alias string) string {
	return alias + ".rowid"
}

func (dialect) In(vals []string) (string, []any) {
	args := make([]any, len(vals))
	for i, v := range vals {
		args[i] = v
	}
	return "IN (" + strings.TrimSuffix(strings.Repeat("?,", len(vals)), ",") + ")", args
}

func (dialect) Strings(list []string) (string, any) {
	j, _ := json.Marshal(list) // strings always encode
	return `SELECT value FROM json_each(?)`, string(j)
}

// Sessions' expiries are Julian days, as SQLite's julianday() gives them,
// in the layout of scs's SQLite store.
func (dialect) SessionExpiry(t time.Time) any      { return julianDay(t) }
func (dialect) ScanSessionExpiry(t *time.Time) any { return julian{t} }
func (dialect) SessionNow() string                 { return "julianday('now')" }

// ms converts a time to Unix milliseconds; the zero time is 0.
func ms(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// fromMS converts Unix milliseconds to a UTC time; 0 is the zero time.
func fromMS(v int64) time.Time {
	if v == 0 {
		return time.Time{}
	}
	return time.UnixMilli(v).UTC()
}

// msTime scans a column of Unix milliseconds into a time: NULL and 0 are
// the zero time.
type msTime struct{ t *time.Time }

func (m msTime) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*m.t = time.Time{}
	case int64:
		*m.t = fromMS(v)
	default:
		return fmt.Errorf("a time of %T", src)
	}
	return nil
}

// joined scans a list joined with ';'.
type joined struct{ l *[]string }

func (j joined) Scan(src any) error {
	var s string
	switch v := src.(type) {
	case string:
		s = v
	case []byte:
		s = string(v)
	case nil:
	default:
		return fmt.Errorf("a list of %T", src)
	}
	*j.l = nil
	if s != "" {
		*j.l = strings.Split(s, ";")
	}
	return nil
}

// unixEpoch is 1970-01-01T00:00:00Z as a Julian day.
const unixEpoch = 2440587.5

// julianDay is a time's Julian day, as SQLite's julianday() gives it of
// the time to the millisecond.
func julianDay(t time.Time) float64 {
	return float64(t.UnixMilli()+unixEpoch*86_400_000) / 86_400_000
}

// julian scans a Julian day. Expiries are written to the millisecond,
// which a float64 Julian day holds to about 0.05 ms: rounding gives that
// millisecond back.
type julian struct{ t *time.Time }

func (j julian) Scan(src any) error {
	jd, ok := src.(float64)
	if !ok {
		return fmt.Errorf("a Julian day of %T", src)
	}
	*j.t = time.UnixMilli(int64(math.Round((jd - unixEpoch) * 86_400_000))).UTC()
	return nil
}

// Erase zeroes the pages a transaction frees, and then empties the
// write-ahead log, which still holds them as they were.
func (dialect) Erase() (on, off, after string) {
	return "PRAGMA secure_delete = ON", "PRAGMA secure_delete = OFF", "PRAGMA wal_checkpoint(TRUNCATE)"
}
