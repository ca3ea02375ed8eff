package sqlstore

import (
	"context"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
)

// Migrations are an engine's migrations of its schema: the files of
// Files named NNN_what.sql, NNN their version, applied in the order of
// their versions, each once, in a transaction that also records it. A
// migration applied is never edited: a change is a new one.
type Migrations struct {
	Files fs.FS
	// Table makes the table of the migrations applied, if there is none.
	Table string
	// Record records that the migration of version ? was applied.
	Record string
}

// migration is a migration's version and file.
type migration struct {
	version int
	name    string
}

// list lists the migrations in the order of their versions.
func (m Migrations) list() ([]migration, error) {
	names, err := fs.Glob(m.Files, "*.sql")
	if err != nil {
		return nil, err
	}
	out := make([]migration, 0, len(names))
	for _, name := range names {
		version, err := strconv.Atoi(strings.SplitN(name, "_", 2)[0])
		if err != nil {
			return nil, fmt.Errorf("migration %s: name must start with its number", name)
		}
		out = append(out, migration{version, name})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	return out, nil
}

// Migrate applies, on db, the migrations up to version last that the
// database has not seen yet.
func Migrate(ctx context.Context, db DB, m Migrations, last int) error {
	all, err := m.list()
	if err != nil {
		return err
	}
	if _, err := db.Exec(ctx, m.Table); err != nil {
		return err
	}
	for _, mg := range all {
		if mg.version > last {
			break
		}
		if err := apply(ctx, db, m, mg); err != nil {
			return fmt.Errorf("migration %s: %w", mg.name, err)
		}
	}
	return nil
}

func apply(ctx context.Context, db DB, m Migrations, mg migration) error {
	tx, err := db.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var done int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM schema_migrations WHERE version = ?`, mg.version).Scan(&done); err != nil {
		return err
	}
	if done > 0 {
		return nil
	}
	body, err := fs.ReadFile(m.Files, mg.name)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, string(body)); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, m.Record, mg.version); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// Migrated reports whether every migration of the engine has been
// applied.
func (s *Store) Migrated(ctx context.Context) (bool, error) {
	all, err := s.migrations.list()
	if err != nil {
		return false, err
	}
	var n int
	if err := s.read.QueryRow(ctx, `SELECT count(*) FROM schema_migrations`).Scan(&n); err != nil {
		return false, err
	}
	return n == len(all), nil
}
