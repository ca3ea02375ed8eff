// Package postgres is Washboard's cache on PostgreSQL, for several
// replicas sharing one database: the store of store/sqlstore on a pgx
// connection pool. This package opens the pool, applies its migrations
// under a lock, and gives the store its Engine (engine.go): how
// PostgreSQL is written to and what its SQL and values do differently.
//
// Each refresh of a resource is one transaction, so a reader sees a
// refresh whole or not at all. A refresh locks its account's row first:
// refreshes of one account, from any replica, follow one another, and
// those of different accounts run side by side.
package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"runtime"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5/pgxpool"

	"washboard/internal/store"
	"washboard/internal/store/sqlstore"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Store is the cache: the store, on the pool.
type Store struct {
	*sqlstore.Store
	pool  *pgxpool.Pool
	close sync.Once
}

var _ store.Store = (*Store)(nil)

// migrationLock is the first key of the advisory lock held while the
// schema is migrated (see lockKeys).
const migrationLock = 0x7761_7368 // "wash"

// lockKeys are the keys of an advisory lock of the schema: the first, $1,
// says which lock; the second is the hash of the schema's name, so that
// databases with one schema per tenant or per test lock apart.
const lockKeys = `$1::int, hashtext(coalesce(current_schema(), ''))`

// Open connects to the database at url, a PostgreSQL URL or key=value
// connection string, and applies the migrations it has not seen yet. The
// pool holds at most pool_max_conns connections when the URL says so, and
// otherwise twice as many as the processors Go uses, and no fewer than 8:
// each refresh holds one for its length, pages and sessions take the rest.
func Open(ctx context.Context, url string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	if !strings.Contains(url, "pool_max_conns") {
		cfg.MaxConns = int32(max(8, 2*runtime.GOMAXPROCS(0)))
	}
	if _, ok := cfg.ConnConfig.RuntimeParams["application_name"]; !ok {
		cfg.ConnConfig.RuntimeParams["application_name"] = "washboard"
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: migrating: %w", err)
	}
	return &Store{Store: sqlstore.New(engine{pool: pool}, schema), pool: pool}, nil
}

// Close closes the pool, once; it waits for the connections in use.
func (s *Store) Close() error {
	s.close.Do(s.pool.Close)
	return nil
}

// migrate applies the embedded migrations in order, each in a transaction
// that also records it, holding an advisory lock all along: of several
// replicas that start together, one migrates and the others wait, then
// find nothing left to do.
func migrate(ctx context.Context, pool *pgxpool.Pool) (err error) {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock(`+lockKeys+`)`, migrationLock); err != nil {
		return fmt.Errorf("waiting for the migration lock: %w", err)
	}
	defer func() {
		// The lock belongs to the connection: one that cannot say unlock
		// is closed, which releases it.
		if _, uerr := conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock(`+lockKeys+`)`, migrationLock); uerr != nil {
			conn.Conn().Close(context.WithoutCancel(ctx))
			err = errors.Join(err, uerr)
		}
	}()
	return sqlstore.Migrate(ctx, single{conn.Conn()}, schema, math.MaxInt)
}

// schema are the migrations of the cache's schema.
var schema = sqlstore.Migrations{
	Files: must(fs.Sub(migrations, "migrations")),
	Table: `CREATE TABLE IF NOT EXISTS schema_migrations (
		version integer PRIMARY KEY, applied timestamptz NOT NULL DEFAULT now())`,
	Record: `INSERT INTO schema_migrations (version) VALUES (?)`,
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
