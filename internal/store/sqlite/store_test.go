package sqlite

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/store/sqlstore"
	"washboard/internal/store/storetest"
)

func openTest(t testing.TB) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "washboard.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func TestOpenMigratesOnceAndReopens(t *testing.T) {
	s, path := openTest(t)
	ctx := context.Background()
	if _, err := s.ReplaceLayout(ctx, storetest.TestLayout("a")); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s2, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("reopening: %v", err)
	}
	defer s2.Close()
	if ok, err := s2.Migrated(ctx); err != nil || !ok {
		t.Errorf("Migrated = %v, %v; want true", ok, err)
	}
	if a, err := s2.Account(ctx, "a"); err != nil || a.Name != "Account a" {
		t.Errorf("after reopening, account = %+v, %v", a, err)
	}
}

// TestNewDatabaseHasLargePagesAndWAL: a new cache gets the page size the
// DSN asks for, although the driver sets WAL mode, which fixes it, after
// its other pragmas.
// TestUnchangedRefreshWritesNothing: a refresh of the layout, the devices
// or the alerts that changes nothing does not grow the WAL.
func TestUnchangedRefreshWritesNothing(t *testing.T) {
	s, path := openTest(t)
	l := storetest.TestLayout("a")
	devices := []domain.Device{storetest.Device("0000000000A1", "a-1", 80), storetest.Device("0000000000A3", "a-3", 0)}
	alerts := []domain.Alert{storetest.Alert("x1", "a-1", time.Date(2026, 11, 10, 8, 0, 0, 0, time.UTC), true, true)}
	refresh := func() {
		t.Helper()
		storetest.RefreshAll(t, s, l, devices, alerts, time.Time{})
	}
	refresh()
	walBefore := fileSize(t, path+"-wal")
	refresh()
	if after := fileSize(t, path+"-wal"); after != walBefore {
		t.Errorf("refreshes with no change grew the WAL from %d to %d bytes", walBefore, after)
	}
	devices[1].Compartments[0].Level = 100
	refresh()
	if after := fileSize(t, path+"-wal"); after == walBefore {
		t.Error("a refresh with a change left the WAL as it was: the check cannot see a write")
	}
}

func TestNewDatabaseHasLargePagesAndWAL(t *testing.T) {
	s, _ := openTest(t)
	var size int
	var mode string
	if err := s.write.QueryRow(`PRAGMA page_size`).Scan(&size); err != nil {
		t.Fatal(err)
	}
	if err := s.write.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil {
		t.Fatal(err)
	}
	if size != 16384 || mode != "wal" {
		t.Errorf("page size %d, journal mode %q; want 16384 and wal", size, mode)
	}
}

func fileSize(t testing.TB, path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// TestFactsMigrationKeepsBaselines: an account refreshed before facts
// were recorded has its baselines once the cache migrates: its next
// refreshes record facts; an account never refreshed has none.
func TestFactsMigrationKeepsBaselines(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "washboard.db")
	t0 := time.Date(2026, 11, 10, 8, 0, 0, 0, time.UTC).UnixMilli()
	// The cache as it was before migration 7: a has alerts and devices
	// cached; b's alerts refreshed, none open; c's devices refreshed and
	// failed.
	old, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		t.Fatal(err)
	}
	if err := sqlstore.Migrate(ctx, conn{db: old}, schema, 6); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO accounts (key, id, name, updated_ms) VALUES (1, 'a', '', 0), (2, 'b', '', 0), (3, 'c', '', 0)`,
		`INSERT INTO alerts (account_id, id, location_id, macs, status, type, created_ms, resolution, overdue, refill_count, hash)
			VALUES (1, 'x1', '1', '', 'OPEN', 'consumable_out', ?1, '', 0, 1, 1)`,
		`INSERT INTO devices (account_id, mac, location_id, position, generation, compartments, battery, battery_state, faults, offline, last_seen_ms, health, hash)
			VALUES (1, '0000000000A1', '1', 'main', '2.0', '[]', 80, 'normal', '[]', 0, ?1, 0, 1)`,
		`INSERT INTO sync_status (account_id, resource, last_attempt_ms, last_success_ms, duration_ms, added, changed, removed, skipped, last_error)
			VALUES (2, 'alerts', ?1, ?1, 0, 0, 0, 0, 0, ''), (3, 'devices', ?1, 0, 0, 0, 0, 0, 0, 'the service did not answer')`,
	} {
		if _, err := old.ExecContext(ctx, q, t0); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	old.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	at := time.UnixMilli(t0).UTC()
	// What the cache held is read as it was written, in the columns the
	// later migrations renamed.
	if got, err := s.FindAlerts(ctx, store.AlertFilter{Account: "a"}); err != nil || len(got) != 1 || got[0].ID != "x1" || !got[0].Created.Equal(at) {
		t.Fatalf("after the migrations, a's alerts are %+v, %v; want x1 created at %s", got, err, at)
	}
	storetest.BaselinesKeptByMigration(t, s, at)
}

// TestTypedClaimsKeptByMigration: a claim made before claims belonged to
// people keeps the name typed once the cache migrates.
func TestTypedClaimsKeptByMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "washboard.db")
	t0 := time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC).UnixMilli()
	// The cache as it was before migration 13: a's open alert x1 claimed
	// by the name Maria.
	old, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		t.Fatal(err)
	}
	if err := sqlstore.Migrate(ctx, conn{db: old}, schema, 12); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO accounts (key, id, name, updated) VALUES (1, 'a', '', 0)`,
		`INSERT INTO alerts (account_id, id, location_id, macs, status, type, created, resolution, overdue, refill_count, hash)
			VALUES (1, 'x1', '1', '', 'OPEN', 'consumable_out', ?1, '', 0, 1, 1)`,
		`INSERT INTO claims (account_id, alert_id, name, note, claimed) VALUES (1, 'x1', 'Maria', 'rolls', ?1)`,
	} {
		if _, err := old.ExecContext(ctx, q, t0); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	old.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.TypedClaimsKeptByMigration(t, s, time.UnixMilli(t0).UTC())
}
