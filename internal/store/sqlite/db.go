// Package sqlite is Washboard's cache on SQLite, the embedded default:
// the store of store/sqlstore on a database file, through the pure-Go
// driver. This package opens and configures the database, applies its
// migrations, and gives the store its Engine (engine.go): how SQLite is
// written to and what its SQL and values do differently.
//
// One writer connection serialises writes; a pool of read-only connections
// serves pages. Each refresh of a resource is one transaction, so a reader
// sees a refresh whole or not at all.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net/url"
	"path/filepath"
	"runtime"

	"washboard/internal/store"
	"washboard/internal/store/sqlstore"

	_ "modernc.org/sqlite" // the pure-Go driver, registered as "sqlite"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Store is the cache: the store, on the database's connections.
type Store struct {
	*sqlstore.Store
	write    *sql.DB // one connection: every write goes through it
	read     *sql.DB // read-only pool
	sessions *sql.DB // sessions, on a pool of their own: a sign-in does not queue behind a refresh

	readStmts, writeStmts, sessionStmts stmts // the queries each pool has prepared
}

// dsn builds a connection string with the pragmas in it, so that every
// pooled connection gets them.
func dsn(path string, readOnly bool) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(5000)")
	// The driver runs the _pragma values in alphabetical order and the
	// _journal_mode key after them: the page size must be set before WAL
	// mode creates the database file, and cannot change after.
	q.Add("_pragma", "page_size(16384)") // for a new database; larger pages make bulk writes cheaper
	q.Set("_journal_mode", "WAL")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(ON)")
	if readOnly {
		q.Add("_pragma", "query_only(1)")
	} else {
		q.Add("_pragma", "cache_size(-65536)") // 64 MiB: a first refresh of a large account stays in memory
		// Statement journals, which let SQLite undo one statement of a
		// refresh, in memory rather than in temporary files.
		q.Add("_pragma", "temp_store(MEMORY)")
		q.Set("_txlock", "immediate")
	}
	return "file:" + filepath.ToSlash(path) + "?" + q.Encode()
}

// Open opens (creating if needed) the database at path and applies the
// migrations it has not seen yet.
func Open(ctx context.Context, path string) (*Store, error) {
	write, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	write.SetMaxOpenConns(1)
	write.SetConnMaxIdleTime(0)
	if err := migrate(ctx, write); err != nil {
		write.Close()
		return nil, fmt.Errorf("migrating %s: %w", path, err)
	}
	read, err := sql.Open("sqlite", dsn(path, true))
	if err != nil {
		write.Close()
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	read.SetMaxOpenConns(max(4, runtime.GOMAXPROCS(0)*2))
	// SQLite still serialises the sessions' writes with the refreshes'.
	sessions, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		write.Close()
		read.Close()
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	sessions.SetMaxOpenConns(4)
	s := &Store{write: write, read: read, sessions: sessions}
	s.Store = sqlstore.New(engine{read: conn{read, &s.readStmts}, write: conn{write, &s.writeStmts}, sessions: conn{sessions, &s.sessionStmts}}, schema)
	return s, nil
}

var _ store.Store = (*Store)(nil)

// Close closes the database.
func (s *Store) Close() error {
	return errors.Join(s.sessionStmts.close(), s.readStmts.close(), s.writeStmts.close(),
		s.sessions.Close(), s.read.Close(), s.write.Close())
}

// schema are the migrations of the cache's schema.
var schema = sqlstore.Migrations{
	Files:  must(fs.Sub(migrations, "migrations")),
	Table:  `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_ms INTEGER NOT NULL)`,
	Record: `INSERT INTO schema_migrations (version, applied_ms) VALUES (?, CAST(unixepoch('subsec') * 1000 AS INTEGER))`,
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// migrate applies the migrations the database has not seen yet, on the
// writer connection.
func migrate(ctx context.Context, db *sql.DB) error {
	return sqlstore.Migrate(ctx, conn{db: db}, schema, math.MaxInt)
}
