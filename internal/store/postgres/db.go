// Package postgres is Washboard's cache on PostgreSQL, for several
// replicas sharing one database: the store.Store of store/sqlite, on a
// pgx connection pool.
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
	"path"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"washboard/internal/store"
	"washboard/internal/store/sqlstore"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Store is the cache.
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
	return &Store{Store: sqlstore.New(engine{pool: pool}), pool: pool}, nil
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
	names, err := migrationNames()
	if err != nil {
		return err
	}
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
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version integer PRIMARY KEY, applied timestamptz NOT NULL DEFAULT now())`); err != nil {
		return err
	}
	for _, name := range names {
		version, err := strconv.Atoi(strings.SplitN(path.Base(name), "_", 2)[0])
		if err != nil {
			return fmt.Errorf("migration %s: name must start with its number", name)
		}
		if err := applyMigration(ctx, conn.Conn(), version, name); err != nil {
			return fmt.Errorf("migration %s: %w", name, err)
		}
	}
	return nil
}

func migrationNames() ([]string, error) {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	sort.Strings(names)
	return names, err
}

func applyMigration(ctx context.Context, conn *pgx.Conn, version int, name string) error {
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		var done bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = $1)`, version).Scan(&done); err != nil {
			return err
		}
		if done {
			return nil
		}
		body, err := migrations.ReadFile(name)
		if err != nil {
			return err
		}
		// Without arguments, Exec runs the file's statements as one
		// simple query.
		if _, err := tx.Exec(ctx, string(body)); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO schema_migrations (version) VALUES ($1)`, version)
		return err
	})
}

// Migrated reports whether every embedded migration has been applied.
func (s *Store) Migrated(ctx context.Context) (bool, error) {
	names, err := migrationNames()
	if err != nil {
		return false, err
	}
	var n int
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM schema_migrations`).Scan(&n); err != nil {
		return false, err
	}
	return n == len(names), nil
}
