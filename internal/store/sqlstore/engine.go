package sqlstore

import (
	"context"
	"time"
)

// Engine is what an engine package gives the store: its connections, the
// transactions and bulk writes it does in its own way, and its Dialect.
type Engine interface {
	Dialect
	// Read is where pages read from; its transactions are read-only, and
	// see one state of the database from their first read to their end.
	Read() DB
	// Write is where writes go, and the reads that must see a write just
	// made; its transactions are the refreshes'.
	Write() DB
	// Sessions is where the sessions are read and written.
	Sessions() DB
	// Shared reports whether other processes write the database too
	// (replicas of one another): the store then keeps in memory nothing
	// of what it reads but what never changes.
	Shared() bool
}

// DB is a pool of connections, or one.
type DB interface {
	Querier
	Begin(ctx context.Context) (Tx, error)
}

// Querier runs statements, written with ? for their parameters (or ?1,
// ?2, ... to name one twice, never both in one statement).
type Querier interface {
	// Exec runs a statement and returns how many rows it changed.
	Exec(ctx context.Context, query string, args ...any) (int64, error)
	Query(ctx context.Context, query string, args ...any) (Rows, error)
	// QueryRow runs a query of one row: Scan answers sql.ErrNoRows (in
	// errors.Is) when there is none.
	QueryRow(ctx context.Context, query string, args ...any) Scanner
}

// Rows are the rows of a query, read with Next and Scan; Close frees them
// and may be called more than once.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close()
}

// Scanner is the row of a query of one row.
type Scanner interface {
	Scan(dest ...any) error
}

// Tx is a transaction. Its writes of many rows go the engine's fastest
// way: as many rows a statement as it takes, or copied in.
type Tx interface {
	Querier
	Commit(ctx context.Context) error
	// Rollback abandons the transaction, if it is still open; it does not
	// wait on a context the caller may have cancelled.
	Rollback()

	// Insert writes rows with ins. When ins has a RETURNING clause, each
	// row it returns is passed to returned, as its Scan.
	Insert(ctx context.Context, ins *Insert, rows [][]any, returned func(scan func(dest ...any) error) error) error
	// Delete deletes the account's rows of the table whose key columns
	// hold one of keys (each a row of the columns' values), and returns
	// how many it deleted.
	Delete(ctx context.Context, table string, account int64, cols []Column, keys [][]any) (int64, error)
	// Batch runs the statements in order, each checked by its Check, as
	// few round trips as the engine can.
	Batch(ctx context.Context, stmts []Statement) error
	// Rows starts writing the rows a TableWriter of the table decides to
	// write, for the account.
	Rows(t *Table, account int64) RowWriter

	// LockFacts makes the transactions that record facts, of every
	// process, take their seqs and commit one after the other, from now
	// until it ends (see store.Facts).
	LockFacts(ctx context.Context) error
	// LockLimits makes the transactions that count the account's rows
	// against a limit before they insert, of every process, run one after
	// the other, from now until it ends. Key 0 is no account's: the
	// writes of people take it (see people.go).
	LockLimits(ctx context.Context, account int64) error
}

// Insert is a statement that writes rows: INSERT INTO Table (Columns),
// the rows, then Then (ON CONFLICT ..., RETURNING ..., or nothing).
type Insert struct {
	Table   string
	Columns []Column
	Then    string
}

// Column is a column of the rows a statement writes, with the type of its
// values, as Dialect encodes them.
type Column struct {
	Name string
	Type Type
}

// Type is the type of a column's values.
type Type int

// The types of columns.
const (
	Text  Type = iota // string
	Int               // int, int64
	Bytes             // []byte
	Time              // Dialect.Time, TimeOrNever or NullTime
)

// Statement is a statement of a Batch. Check, when set, is given how
// many rows it changed; its error fails the batch.
type Statement struct {
	SQL   string
	Args  []any
	Check func(changed int64) error
}

// Dialect is how an engine's SQL and values differ. Statements are
// written once, with these where the engines differ.
type Dialect interface {
	// Time is a time as a parameter, for a column of times always set.
	Time(t time.Time) any
	// TimeOrNever is a time as a parameter, for a column where the engine
	// keeps "never" its own way (0 on SQLite, NULL on PostgreSQL): the
	// zero time is "never".
	TimeOrNever(t time.Time) any
	// NullTime is a time as a parameter, NULL for the zero time, for a
	// column that is NULL for "never" on every engine.
	NullTime(t time.Time) any
	// ScanTime is a destination of Scan for a column of times: NULL and
	// "never" read as the zero time, times in UTC.
	ScanTime(t *time.Time) any
	// ScanRaw is a destination of Scan for a column of text or bytes that
	// holds them only until the next row: a read of many rows copies only
	// what it keeps.
	ScanRaw(b *[]byte) any
	// Bool is a boolean as a parameter; BoolLiteral one written in a
	// statement, where a planner must see its value (a partial index's
	// condition).
	Bool(b bool) any
	BoolLiteral(b bool) string
	// List is a list of strings as a parameter, for a column of lists
	// (alerts.macs); ScanList reads one.
	List(l []string) any
	ScanList(l *[]string) any

	// IsNever is the condition that a column of times (TimeOrNever) holds
	// "never".
	IsNever(col string) string
	// In is the condition that an expression is one of vals, without the
	// expression, with its arguments: "IN (?, ?)" or "= ANY(?)". At most
	// MaxList values a condition.
	In(vals []string) (string, []any)
	MaxList() int
	// Strings is a query of the strings of list, in a column named value,
	// and its argument.
	Strings(list []string) (string, any)
	// Erase is how the engine overwrites what a transaction deletes,
	// rather than only freeing its space: the statements that turn that
	// on and off within the transaction, and the one that, after it,
	// empties the engine's log of what the rows were ("" where the
	// engine has none of them).
	Erase() (on, off, after string)
	// ForUpdate is what a SELECT ends with to lock the rows it reads until
	// the transaction ends.
	ForUpdate() string
	// IndexedBy is what follows a table's name in a FROM clause to read it
	// through the named index, for an engine that would not choose it.
	IndexedBy(index string) string
	// JoinInOrder is the JOIN (with ON) that reads its left side first,
	// for an engine that would not choose to.
	JoinInOrder() string
	// Arrival is the column, of the table named as alias, that orders its
	// rows in the order they were first written: of alerts only.
	Arrival(alias string) string

	// SessionExpiry is a session's expiry as a parameter; ScanSessionExpiry
	// reads one; SessionNow is the database's clock, compared with them.
	// Sessions are kept as the engine's scs store keeps them.
	SessionExpiry(t time.Time) any
	ScanSessionExpiry(t *time.Time) any
	SessionNow() string
}
