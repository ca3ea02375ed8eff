// Package sqlstore is the cache (store.Store) on a SQL database, written
// once for every engine: the tables' reads and writes, the refreshes,
// the rollups, the facts, the history, the claims, the notifications and
// the rest. An engine package (store/sqlite, store/postgres) opens its
// database, applies its migrations, and gives the store an Engine: its
// connections, its transactions and writes of many rows, and the Dialect
// of what its SQL and values do differently.
//
// Each refresh of a resource is one transaction, so that a reader sees a
// refresh whole or not at all. A refresh locks its account's row first
// (where the engine locks rows): refreshes of one account follow one
// another, those of different accounts may run side by side.
package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// Store is the cache on an engine. An engine package embeds it, and adds
// what it opens and closes.
type Store struct {
	// Now is the store's clock: when accounts are made and layouts
	// written, and when a refresh that does not say when it saw the
	// service saw it.
	Now      func() time.Time
	d        Dialect
	read     DB
	write    DB
	sessions DB
	shared   bool
	keys     sync.Map // account id → its integer key
	// noHistory says that writes of devices record no readings
	// (KeepHistory).
	noHistory atomic.Bool
	// measurer measures the alerts writes see close (MeasureWith); none
	// until it is set.
	measurer   atomic.Pointer[store.Measurer]
	statuses   statusCache
	migrations Migrations
}

// New returns the store on an engine, whose schema the migrations make,
// with the system's clock.
func New(e Engine, m Migrations) *Store {
	return &Store{Now: time.Now, d: e, read: e.Read(), write: e.Write(), sessions: e.Sessions(), shared: e.Shared(), migrations: m}
}

// noAccount is the key used for an account the cache does not have: it
// matches no row.
const noAccount int64 = -1

// accountKey returns the integer key that the account's rows carry. An
// account the cache does not have gets noAccount, unless create is set, in
// which case its row is made (with an empty name until its layout
// arrives). Keys are made outside the refreshes' transactions, so that a
// key in memory always names a committed row; they never change, so they
// are kept in memory once read.
func (s *Store) accountKey(ctx context.Context, id string, create bool) (int64, error) {
	if k, ok := s.keys.Load(id); ok {
		return k.(int64), nil
	}
	const find = `SELECT key FROM accounts WHERE id = ?`
	var k int64
	err := s.read.QueryRow(ctx, find, id).Scan(&k)
	if errors.Is(err, sql.ErrNoRows) {
		if !create {
			return noAccount, nil
		}
		if _, err := s.write.Exec(ctx, `INSERT INTO accounts (id, name, updated) VALUES (?, '', ?) ON CONFLICT (id) DO NOTHING`,
			id, s.d.Time(s.Now())); err != nil {
			return 0, err
		}
		// Made now, here or by another process: the writer sees it.
		err = s.write.QueryRow(ctx, find, id).Scan(&k)
	}
	if err != nil {
		return 0, err
	}
	s.keys.Store(id, k)
	return k, nil
}

// heldAccount is the row of the account a refresh holds, as it read it.
type heldAccount struct {
	key  int64
	id   string
	name string
	// alertsBaseline and devicesBaseline say whether the account's alerts,
	// and its devices, have their baseline (see store.Facts).
	alertsBaseline, devicesBaseline bool
}

// beginRefresh starts the transaction of a refresh of the account, which
// it adds to the cache if the cache does not know it yet, and locks the
// account's row until the refresh ends (where the engine locks rows). It
// returns the account's row.
func (s *Store) beginRefresh(ctx context.Context, account string) (heldAccount, Tx, error) {
	a := heldAccount{id: account}
	var err error
	if a.key, err = s.accountKey(ctx, account, true); err != nil {
		return a, nil, err
	}
	tx, err := s.write.Begin(ctx)
	if err != nil {
		return a, nil, err
	}
	var alerts, devices time.Time
	if err := tx.QueryRow(ctx, `SELECT name, alerts_baseline, devices_baseline FROM accounts WHERE key = ?`+s.d.ForUpdate(), a.key).
		Scan(&a.name, s.d.ScanTime(&alerts), s.d.ScanTime(&devices)); err != nil {
		tx.Rollback()
		return a, nil, err
	}
	a.alertsBaseline, a.devicesBaseline = !alerts.IsZero(), !devices.IsZero()
	return a, tx, nil
}

// inTx runs f in a transaction of the writer, and commits unless f fails.
func (s *Store) inTx(ctx context.Context, f func(tx Tx) error) error { return inTxOf(ctx, s.write, f) }

// inTxOf runs f in a transaction of db, and commits unless f fails.
func inTxOf(ctx context.Context, db DB, f func(tx Tx) error) error {
	tx, err := db.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := f(tx); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// notFound turns "no rows" into domain.ErrNotFound, naming what was not
// found.
func notFound(err error, what, id string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%s %q: %w", what, id, domain.ErrNotFound)
	}
	return err
}

// oneRow is the error of a statement that should have changed one row: n
// rows changed, or err.
func oneRow(n int64, err error, what, id string) error {
	if err == nil && n == 0 {
		return fmt.Errorf("%s %q: %w", what, id, domain.ErrNotFound)
	}
	return err
}

// each runs a query and calls f after scanning each row into dest.
func each(ctx context.Context, q Querier, query string, args []any, dest []any, f func() error) error {
	rows, err := q.Query(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		if err := f(); err != nil {
			return err
		}
	}
	return rows.Err()
}

// listOf runs a query and returns its rows, each read by scan.
func listOf[T any](ctx context.Context, q Querier, scan func(scan func(...any) error) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows.Scan)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// chunks calls f with the parts of list of at most n elements, in order.
func chunks[T any](list []T, n int, f func(part []T) error) error {
	for start := 0; start < len(list); start += n {
		if err := f(list[start:min(start+n, len(list))]); err != nil {
			return err
		}
	}
	return nil
}
