// Package sqlitetest opens SQLite caches for tests.
//
// Applying every migration to a new database is most of the time a test's
// cache takes to open: a second under the race detector, where SQLite's
// parser runs with every pointer checked. Here the migrations run once per
// test binary, on a template, and each test's cache is a copy of it.
package sqlitetest

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"washboard/internal/store/sqlite"
)

// migrated is the template: an empty cache with every migration applied.
var migrated = sync.OnceValues(func() ([]byte, error) {
	dir, err := os.MkdirTemp("", "washboard-sqlitetest")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "washboard.db")
	st, err := sqlite.Open(context.Background(), path)
	if err != nil {
		return nil, err
	}
	// Closing the last connection checkpoints the write-ahead log into the
	// database file and removes it: the file is the whole cache.
	if err := st.Close(); err != nil {
		return nil, err
	}
	return os.ReadFile(path)
})

// Copy writes an empty, migrated cache to path, for a test that opens it
// itself.
func Copy(tb testing.TB, path string) {
	tb.Helper()
	db, err := migrated()
	if err == nil {
		err = os.WriteFile(path, db, 0o600)
	}
	if err != nil {
		tb.Fatalf("copying the migrated cache: %v", err)
	}
}

// Open opens an empty cache in the test's temporary directory, closed when
// the test ends, and says where it is.
func Open(tb testing.TB) (*sqlite.Store, string) {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "washboard.db")
	Copy(tb, path)
	st, err := sqlite.Open(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return st, path
}
