package postgres

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"washboard/internal/store/sqlstore"
)

// engine is the store's PostgreSQL: one pool, which several replicas
// share.
type engine struct {
	dialect
	pool *pgxpool.Pool
}

func (e engine) Read() sqlstore.DB     { return reader{writer{e.pool}} }
func (e engine) Write() sqlstore.DB    { return writer{e.pool} }
func (e engine) Sessions() sqlstore.DB { return writer{e.pool} }

// Shared is true: replicas write the database side by side.
func (e engine) Shared() bool { return true }

// writer is the pool, whose transactions are the refreshes'.
type writer struct{ pool *pgxpool.Pool }

func (w writer) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	return changed(w.pool.Exec(ctx, numbered(query), args...))
}

func (w writer) Query(ctx context.Context, query string, args ...any) (sqlstore.Rows, error) {
	return w.pool.Query(ctx, numbered(query), args...)
}

func (w writer) QueryRow(ctx context.Context, query string, args ...any) sqlstore.Scanner {
	return w.pool.QueryRow(ctx, numbered(query), args...)
}

func (w writer) Begin(ctx context.Context) (sqlstore.Tx, error) {
	t, err := beginTxn(ctx, w.pool.Begin)
	if err != nil {
		return nil, err
	}
	return tx{t}, nil
}

// reader is the pool, whose transactions read one snapshot.
type reader struct{ writer }

func (r reader) Begin(ctx context.Context) (sqlstore.Tx, error) {
	t, err := beginTxn(ctx, func(ctx context.Context) (pgx.Tx, error) {
		return r.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	})
	if err != nil {
		return nil, err
	}
	return tx{t}, nil
}

// single is one connection, which migrates the schema.
type single struct{ conn *pgx.Conn }

func (c single) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	return changed(c.conn.Exec(ctx, numbered(query), args...))
}

func (c single) Query(ctx context.Context, query string, args ...any) (sqlstore.Rows, error) {
	return c.conn.Query(ctx, numbered(query), args...)
}

func (c single) QueryRow(ctx context.Context, query string, args ...any) sqlstore.Scanner {
	return c.conn.QueryRow(ctx, numbered(query), args...)
}

func (c single) Begin(ctx context.Context) (sqlstore.Tx, error) {
	t, err := beginTxn(ctx, c.conn.Begin)
	if err != nil {
		return nil, err
	}
	return tx{t}, nil
}

// changed is how many rows a statement changed.
func changed(tag pgconn.CommandTag, err error) (int64, error) {
	return tag.RowsAffected(), err
}

// numbered is a statement written with ? (or ?1, ?2, ...) for its
// parameters with PostgreSQL's $1, $2, ... instead. A ? in a string, a
// quoted name or a comment stays.
func numbered(q string) string {
	if strings.IndexByte(q, '?') < 0 {
		return q
	}
	var b strings.Builder
	b.Grow(len(q) + 16)
	n := 0
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '\'' || c == '"':
			end := strings.IndexByte(q[i+1:], c)
			if end < 0 {
				end = len(q) - i - 1
			}
			b.WriteString(q[i : i+end+2])
			i += end + 1
		case c == '-' && i+1 < len(q) && q[i+1] == '-':
			end := strings.IndexByte(q[i:], '\n')
			if end < 0 {
				end = len(q) - i
			}
			b.WriteString(q[i : i+end])
			i += end - 1
		case c == '?':
			j := i + 1
			for j < len(q) && q[j] >= '0' && q[j] <= '9' {
				j++
			}
			b.WriteByte('$')
			if j > i+1 {
				b.WriteString(q[i+1 : j])
			} else {
				n++
				b.WriteString(strconv.Itoa(n))
			}
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// tx is a transaction of the store: a refresh's, which copies rows in
// the background (txn), or one that reads.
type tx struct{ t *txn }

func (t tx) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	return changed(t.t.Exec(ctx, numbered(query), args...))
}

func (t tx) Query(ctx context.Context, query string, args ...any) (sqlstore.Rows, error) {
	return t.t.Query(ctx, numbered(query), args...)
}

func (t tx) QueryRow(ctx context.Context, query string, args ...any) sqlstore.Scanner {
	return t.t.QueryRow(ctx, numbered(query), args...)
}

func (t tx) Commit(ctx context.Context) error { return t.t.Commit(ctx) }

// Rollback ends the transaction if it is still open. It does not wait on
// a context the caller may have cancelled: the connection goes back to
// the pool either way.
func (t tx) Rollback() { rollback(t.t) }

// The first keys of the advisory locks a transaction takes (see lockKeys).
const (
	// factsLock is taken just before a write records facts, until it
	// commits: the writes that record facts, of every account and replica,
	// are given their seqs and commit one after the other, so that seqs
	// become visible in order. It is held for the insert of the facts and
	// the commit alone.
	factsLock = 0x6661_6374 // "fact"
	// limitsLock is taken by an insert while it counts what its account
	// keeps against a limit: inserts of one account, of every replica,
	// count and insert one after the other, so that two cannot both pass
	// the limit. Its second key is the account's, with the schema's name;
	// keys of other accounts that hash alike only wait for each other.
	limitsLock = 0x6c69_6d74 // "limt"
)

func (t tx) LockFacts(ctx context.Context) error {
	_, err := t.t.Exec(ctx, `SELECT pg_advisory_xact_lock(`+lockKeys+`)`, factsLock)
	return err
}

func (t tx) LockLimits(ctx context.Context, account int64) error {
	_, err := t.t.Exec(ctx, `SELECT pg_advisory_xact_lock($1::int, hashtext(coalesce(current_schema(), '') || '/' || $2::bigint::text))`,
		limitsLock, account)
	return err
}

// chunk is the most rows a statement writes or deletes, each column an
// array parameter.
const chunk = 1000

// Insert writes the rows chunk at a time, each column of a chunk an array
// that unnest makes rows of again.
func (t tx) Insert(ctx context.Context, ins *sqlstore.Insert, rows [][]any, returned func(scan func(dest ...any) error) error) error {
	names := make([]string, len(ins.Columns))
	for i, c := range ins.Columns {
		names[i] = c.Name
	}
	q := fmt.Sprintf("INSERT INTO %s (%s) SELECT * FROM %s %s", ins.Table, strings.Join(names, ", "), unnest(ins.Columns), ins.Then)
	for start := 0; start < len(rows); start += chunk {
		args, err := arrays(ins.Columns, rows[start:min(start+chunk, len(rows))])
		if err != nil {
			return fmt.Errorf("writing rows of %s: %w", ins.Table, err)
		}
		if returned == nil {
			if _, err := t.Exec(ctx, q, args...); err != nil {
				return fmt.Errorf("writing %d rows of %s: %w", len(rows), ins.Table, err)
			}
			continue
		}
		r, err := t.Query(ctx, q, args...)
		if err != nil {
			return err
		}
		for r.Next() {
			if err := returned(r.Scan); err != nil {
				r.Close()
				return err
			}
		}
		r.Close()
		if err := r.Err(); err != nil {
			return err
		}
	}
	return nil
}

// Delete deletes chunk keys at a time, joined with their arrays.
func (t tx) Delete(ctx context.Context, table string, account int64, cols []sqlstore.Column, keys [][]any) (int64, error) {
	names := make([]string, len(cols))
	conds := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
		conds[i] = fmt.Sprintf("t.%s = u.%s", c.Name, c.Name)
	}
	q := fmt.Sprintf("DELETE FROM %s t USING %s AS u(%s) WHERE t.account_id = ? AND %s",
		table, unnest(cols), strings.Join(names, ", "), strings.Join(conds, " AND "))
	var n int64
	for start := 0; start < len(keys); start += chunk {
		args, err := arrays(cols, keys[start:min(start+chunk, len(keys))])
		if err != nil {
			return n, fmt.Errorf("deleting rows of %s: %w", table, err)
		}
		c, err := t.Exec(ctx, q, append(args, account)...)
		n += c
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// unnest is the rows of a column-array parameter each.
func unnest(cols []sqlstore.Column) string {
	params := make([]string, len(cols))
	for i, c := range cols {
		params[i] = "?::" + arrayTypes[c.Type]
	}
	return "unnest(" + strings.Join(params, ", ") + ")"
}

var arrayTypes = map[sqlstore.Type]string{
	sqlstore.Text: "text[]", sqlstore.Int: "int8[]", sqlstore.Bytes: "bytea[]", sqlstore.Time: "timestamptz[]",
}

// arrays turns rows into an array of each column's values.
func arrays(cols []sqlstore.Column, rows [][]any) ([]any, error) {
	out := make([]any, len(cols))
	for i, c := range cols {
		var err error
		switch c.Type {
		case sqlstore.Text:
			out[i], err = column(rows, i, func(v any) (string, bool) { s, ok := v.(string); return s, ok })
		case sqlstore.Int:
			out[i], err = column(rows, i, func(v any) (int64, bool) {
				switch v := v.(type) {
				case int64:
					return v, true
				case int:
					return int64(v), true
				}
				return 0, false
			})
		case sqlstore.Bytes:
			out[i], err = column(rows, i, func(v any) ([]byte, bool) { b, ok := v.([]byte); return b, ok })
		case sqlstore.Time:
			out[i], err = column(rows, i, func(v any) (pgtype.Timestamptz, bool) {
				switch v := v.(type) {
				case nil:
					return pgtype.Timestamptz{}, true
				case time.Time:
					return pgtype.Timestamptz{Time: v, Valid: true}, true
				}
				return pgtype.Timestamptz{}, false
			})
		}
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", c.Name, err)
		}
	}
	return out, nil
}

func column[T any](rows [][]any, i int, as func(any) (T, bool)) ([]T, error) {
	out := make([]T, len(rows))
	for j, r := range rows {
		v, ok := as(r[i])
		if !ok {
			return nil, fmt.Errorf("a value of %T", r[i])
		}
		out[j] = v
	}
	return out, nil
}

// Batch sends the statements in one round trip.
func (t tx) Batch(ctx context.Context, stmts []sqlstore.Statement) error {
	if len(stmts) == 0 {
		return nil
	}
	b := &pgx.Batch{}
	for _, s := range stmts {
		q := b.Queue(numbered(s.SQL), s.Args...)
		if check := s.Check; check != nil {
			q.Exec(func(tag pgconn.CommandTag) error { return check(tag.RowsAffected()) })
		}
	}
	return t.t.SendBatch(ctx, b)
}

func (t tx) Rows(tb *sqlstore.Table, account int64) sqlstore.RowWriter {
	return &rowWriter{tx: t.t, t: tb, account: account}
}

// dialect is PostgreSQL's: times are timestamptz, NULL for "never";
// booleans, lists and arrays are its own; a statement takes a list in
// one array parameter; its planner chooses indexes and joins itself.
type dialect struct{}

func (dialect) Time(t time.Time) any        { return t }
func (dialect) TimeOrNever(t time.Time) any { return ts(t) }
func (dialect) NullTime(t time.Time) any    { return ts(t) }
func (dialect) ScanTime(t *time.Time) any   { return timestamptz{t} }
func (dialect) ScanRaw(b *[]byte) any       { return (*pgtype.DriverBytes)(b) }
func (dialect) Bool(b bool) any             { return b }
func (dialect) ScanList(l *[]string) any    { return l }
func (dialect) IsNever(col string) string   { return col + " IS NULL" }
func (dialect) MaxList() int                { return chunk }
func (dialect) ForUpdate() string           { return " FOR UPDATE" }
func (dialect) IndexedBy(string) string     { return "" }
func (dialect) JoinInOrder() string         { return "JOIN" }
func (dialect) Arrival(alias string) string { return alias + ".seq" }
func (dialect) In(vals []string) (string, []any) {
	return "= ANY(?)", []any{vals}
}

func (dialect) BoolLiteral(b bool) string {
	if b {
		return "TRUE"
	}
	return "FALSE"
}

func (dialect) List(l []string) any {
	if l == nil {
		return []string{}
	}
	return l
}

func (dialect) Strings(list []string) (string, any) {
	return `SELECT unnest(?::text[]) AS value`, list
}

// Sessions' expiries are timestamptz, in the layout of scs's PostgreSQL
// store.
func (d dialect) SessionExpiry(t time.Time) any      { return t }
func (d dialect) ScanSessionExpiry(t *time.Time) any { return timestamptz{t} }
func (dialect) SessionNow() string                   { return "current_timestamp" }

// ts is a time as a timestamptz parameter: NULL for the zero time.
func ts(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t
}

// timestamptz scans a timestamptz into a time, in UTC: NULL is the zero
// time.
type timestamptz struct{ t *time.Time }

func (s timestamptz) ScanTimestamptz(v pgtype.Timestamptz) error {
	*s.t = time.Time{}
	if v.Valid {
		*s.t = v.Time.UTC()
	}
	return nil
}

// Erase: PostgreSQL has no way to overwrite rows as it deletes them; their
// space is reused after the next vacuum.
func (dialect) Erase() (on, off, after string) { return "", "", "" }
