package postgres

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/store/postgres/pgtest"
	"washboard/internal/store/sqlite"
	"washboard/internal/store/storetest"
)

func serverURL(tb testing.TB) string { return pgtest.ServerURL(tb) }

func newSchema(tb testing.TB) (name, url string, drop func() error) { return pgtest.NewSchema(tb) }

// openTest opens a store in a schema of its own.
func openTest(tb testing.TB) *Store {
	tb.Helper()
	_, u, _ := newSchema(tb)
	s, err := Open(context.Background(), u)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

func TestContract(t *testing.T) {
	serverURL(t)
	storetest.Run(t, func(t *testing.T) store.Store { return openTest(t) })
}

// TestMigrationsRunOnce: replicas that start together against a new
// database all open it, and each migration is applied once.
func TestMigrationsRunOnce(t *testing.T) {
	_, u, _ := newSchema(t)
	ctx := t.Context()
	const replicas = 3
	var wg sync.WaitGroup
	errs := make([]error, replicas)
	start := make(chan struct{})
	for i := range replicas {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			s, err := Open(ctx, u)
			if err == nil {
				s.Close()
			}
			errs[i] = err
		}()
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("replica %d: %v", i, err)
		}
	}
	s, err := Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	names, _ := fs.Glob(migrations, "migrations/*.sql")
	var n, distinct int
	if err := s.pool.QueryRow(ctx, `SELECT count(*), count(DISTINCT applied) FROM schema_migrations`).Scan(&n, &distinct); err != nil {
		t.Fatal(err)
	}
	if n != len(names) {
		t.Errorf("%d migrations recorded, want %d", n, len(names))
	}
	if ok, err := s.Migrated(ctx); err != nil || !ok {
		t.Errorf("Migrated = %v, %v", ok, err)
	}
}

// TestMigrationWaitsForTheLock: a replica that finds another migrating
// (holding the advisory lock) waits, creating nothing, until the other is
// done.
func TestMigrationWaitsForTheLock(t *testing.T) {
	schema, u, _ := newSchema(t)
	ctx := t.Context()
	holder, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close(context.Background())
	var key2 int32
	if err := holder.QueryRow(ctx, `SELECT hashtext(current_schema())`).Scan(&key2); err != nil {
		t.Fatal(err)
	}
	if _, err := holder.Exec(ctx, `SELECT pg_advisory_lock($1::int, $2::int)`, migrationLock, key2); err != nil {
		t.Fatal(err)
	}

	opened := make(chan error, 1)
	go func() {
		s, err := Open(ctx, u)
		if err == nil {
			s.Close()
		}
		opened <- err
	}()
	// Wait until Open asks for the lock.
	deadline := time.Now().Add(10 * time.Second)
	for {
		var waiting int
		if err := holder.QueryRow(ctx, `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
			AND classid = $1::bigint::oid AND objid = $2::bigint::oid AND objsubid = 2`, migrationLock, int64(uint32(key2))).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("Open did not ask for the migration lock within 10 seconds")
		}
		time.Sleep(10 * time.Millisecond)
	}
	select {
	case err := <-opened:
		t.Fatalf("Open returned (%v) while another held the migration lock", err)
	default:
	}
	var tables int
	if err := holder.QueryRow(ctx, `SELECT count(*) FROM information_schema.tables WHERE table_schema = $1`, schema).Scan(&tables); err != nil {
		t.Fatal(err)
	}
	if tables != 0 {
		t.Errorf("%d tables created while another held the migration lock", tables)
	}
	if _, err := holder.Exec(ctx, `SELECT pg_advisory_unlock($1::int, $2::int)`, migrationLock, key2); err != nil {
		t.Fatal(err)
	}
	if err := <-opened; err != nil {
		t.Fatalf("Open after the lock was released: %v", err)
	}
}

// TestUnchangedRefreshWritesNothing: refreshes that change nothing leave
// every row of the cache unwritten (its xmin, the transaction that wrote
// it, stays); a change writes its own row and the counts it moves, no
// other.
func TestUnchangedRefreshWritesNothing(t *testing.T) {
	s := openTest(t)
	ctx := t.Context()
	l := domain.Layout{
		Account:   domain.Account{ID: "a", Name: "A"},
		Buildings: []domain.Building{{ID: "b1", Name: "North"}},
		Floors:    []domain.Floor{{ID: "f1", BuildingID: "b1", Name: "Level 1"}},
		Rooms:     []domain.Room{{ID: "r1", FloorID: "f1", Name: "Restroom 1"}, {ID: "r2", FloorID: "f1", Name: "Restroom 2"}},
		Locations: []domain.Location{{ID: "1", RoomID: "r1", Name: "Soap", Type: domain.Soap}, {ID: "2", RoomID: "r2", Name: "Towel", Type: domain.Towel}},
	}
	seen := time.Date(2026, 11, 18, 9, 0, 0, 0, time.UTC)
	battery := 80
	devices := []domain.Device{
		{MAC: "0000000000A1", LocationID: "1", Compartments: []domain.Compartment{{Level: 80}}, Battery: &battery, LastSeen: seen},
		{MAC: "0000000000A2", LocationID: "2", Compartments: []domain.Compartment{{Level: 80}}, LastSeen: seen},
	}
	alerts := []domain.Alert{
		{ID: "x1", LocationID: "1", MACs: []string{"0000000000A1"}, Status: domain.AlertOpen, Type: domain.AlertJam, Created: seen, Overdue: true},
		{ID: "x2", LocationID: "2", Status: domain.AlertClosed, Type: domain.AlertJam, Created: seen, Resolved: seen.Add(time.Hour), Resolution: domain.ResolvedByDevice},
	}
	refresh := func() {
		t.Helper()
		storetest.RefreshAll(t, s, l, devices, alerts, seen)
	}
	versions := func() map[string]string {
		t.Helper()
		out := map[string]string{}
		for table, key := range map[string]string{
			"accounts": "id", "buildings": "id", "floors": "id", "rooms": "id", "locations": "id",
			"devices": "mac", "alerts": "id", "rollups": "scope || ' ' || scope_id",
		} {
			rows, err := s.pool.Query(ctx, `SELECT `+key+`, xmin::text FROM `+table)
			if err != nil {
				t.Fatal(err)
			}
			var k, xmin string
			if _, err := pgx.ForEachRow(rows, []any{&k, &xmin}, func() error {
				out[table+" "+k] = xmin
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		}
		return out
	}
	refresh()
	before := versions()
	refresh()
	if after := versions(); !maps.Equal(after, before) {
		t.Errorf("refreshes with no change rewrote rows: %v, before %v", after, before)
	}
	devices[1].Compartments[0] = domain.Compartment{Level: 10, Low: true} // needs attention
	refresh()
	var written []string
	for k, xmin := range versions() {
		if before[k] != xmin {
			written = append(written, k)
		}
	}
	slices.Sort(written)
	want := []string{"devices 0000000000A2", "rollups account a", "rollups building b1", "rollups floor f1", "rollups room r2"}
	if !slices.Equal(written, want) {
		t.Errorf("a device's change wrote %v, want %v", written, want)
	}
}

// TestRefreshesOfOneAccountWait: a refresh holds its account until it
// ends; another refresh of the account, as of another replica, waits for
// it and then counts what it committed.
func TestRefreshesOfOneAccountWait(t *testing.T) {
	_, u, _ := newSchema(t)
	ctx := t.Context()
	a, err := Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	first, err := a.BeginAlerts(ctx, "acc")
	if err != nil {
		t.Fatal(err)
	}
	defer first.Rollback()
	if err := first.Write(ctx, nil); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := b.ApplyAlerts(ctx, "acc", store.AlertWrite{})
		done <- err
	}()
	// The second refresh waits on the account's row lock.
	deadline := time.Now().Add(10 * time.Second)
	for {
		var waiting int
		if err := a.pool.QueryRow(ctx, `SELECT count(*) FROM pg_locks l JOIN pg_stat_activity p ON p.pid = l.pid
			WHERE NOT l.granted AND p.application_name = 'washboard'`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the second refresh did not wait for the first")
		}
		time.Sleep(10 * time.Millisecond)
	}
	select {
	case err := <-done:
		t.Fatalf("the second refresh ended (%v) while the first held the account", err)
	default:
	}
	if _, err := first.Commit(ctx, nil, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// BenchmarkFirstRefresh runs the first sync of a large account on SQLite
// and on PostgreSQL in turn and reports the time each took, and the ratio:
//
//	go test ./internal/store/postgres -run '^$' -bench FirstRefresh -benchtime 5x
func BenchmarkFirstRefresh(b *testing.B) {
	serverURL(b)
	storetest.CompareFirstRefresh(b,
		storetest.Engine{Name: "sqlite", Open: func(b *testing.B) store.Store {
			s, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "washboard.db"))
			if err != nil {
				b.Fatal(err)
			}
			return s
		}},
		storetest.Engine{Name: "postgres", Open: func(b *testing.B) store.Store {
			_, u, drop := newSchema(b)
			s, err := Open(context.Background(), u)
			if err != nil {
				b.Fatal(err)
			}
			// Gone once measured: the server does not vacuum it while
			// the next op runs.
			return droppedOnClose{s, drop}
		}})
}

// droppedOnClose is a store whose schema Close drops.
type droppedOnClose struct {
	*Store
	drop func() error
}

func (s droppedOnClose) Close() error {
	return errors.Join(s.Store.Close(), s.drop())
}

// TestClaimWaitsForTheRefreshClosingItsAlert: a claim of an alert that a
// refresh under way has closed, as of another replica, waits for the
// refresh and then finds no open alert to claim; no claim stays active on
// a closed alert.
func TestClaimWaitsForTheRefreshClosingItsAlert(t *testing.T) {
	_, u, _ := newSchema(t)
	ctx := t.Context()
	a, err := Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	t0 := time.Date(2026, 11, 18, 9, 0, 0, 0, time.UTC)
	x1 := domain.Alert{ID: "x1", LocationID: "1", Status: domain.AlertOpen, Type: domain.AlertJam, Created: t0}
	if _, err := a.ApplyAlerts(ctx, "acc", store.AlertWrite{Upserts: []domain.Alert{x1}, SeenAt: t0}); err != nil {
		t.Fatal(err)
	}
	r, err := a.BeginAlerts(ctx, "acc")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Rollback()
	r.SeenAt(t0.Add(time.Hour))
	// Enough alerts that the refresh writes them, x1 closed, before it
	// commits.
	closed := x1
	closed.Status, closed.Resolved, closed.Resolution = domain.AlertClosed, t0.Add(30*time.Minute), domain.ResolvedByUser
	page := []domain.Alert{closed}
	for i := range flushRows {
		page = append(page, domain.Alert{ID: fmt.Sprint("y", i), LocationID: "1", Status: domain.AlertOpen, Type: domain.AlertJam, Created: t0})
	}
	if err := r.Write(ctx, page); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		done <- b.ClaimAlert(ctx, "acc", domain.Claim{AlertID: "x1", Name: "Ana", At: t0.Add(40 * time.Minute)})
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var waiting int
		if err := a.pool.QueryRow(ctx, `SELECT count(*) FROM pg_locks l JOIN pg_stat_activity p ON p.pid = l.pid
			WHERE NOT l.granted AND p.application_name = 'washboard'`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the claim did not wait for the refresh")
		}
		time.Sleep(10 * time.Millisecond)
	}
	select {
	case err := <-done:
		t.Fatalf("the claim ended (%v) while the refresh held its alert", err)
	default:
	}
	if _, err := r.Commit(ctx, nil, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("the claim after the refresh closed its alert: %v; want ErrNotFound", err)
	}
	if got, err := a.ActiveClaims(ctx, "acc"); err != nil || len(got) != 0 {
		t.Errorf("active claims = %+v, %v; want none", got, err)
	}
}

// TestFactsWaitForAWriteGivenAnEarlierSeq: a write that records facts
// while another, given an earlier seq, has not committed waits for it,
// so that a reader never sees the later seq first and reads past the
// earlier one.
func TestFactsWaitForAWriteGivenAnEarlierSeq(t *testing.T) {
	_, u, _ := newSchema(t)
	ctx := t.Context()
	s, err := Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	t0 := time.Date(2026, 11, 18, 9, 0, 0, 0, time.UTC)
	for _, account := range []string{"a", "b"} {
		if _, err := s.ApplyAlerts(ctx, account, store.AlertWrite{SeenAt: t0}); err != nil {
			t.Fatal(err)
		}
	}
	var aKey int64
	if err := s.pool.QueryRow(ctx, `SELECT key FROM accounts WHERE id = 'a'`).Scan(&aKey); err != nil {
		t.Fatal(err)
	}

	// A write of account a, as of another replica, given its seq and not
	// yet committed.
	early, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer early.Close(context.Background())
	tx, err := early.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(context.Background())
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(`+lockKeys+`)`, factsLock); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO facts (account_id, kind, alert_id, alert_type, mac, location_id, at)
		VALUES ($1, 'alert.opened', 'x1', 'jam_fault', '', '1', $2)`, aKey, t0); err != nil {
		t.Fatal(err)
	}

	done := make(chan error, 1)
	go func() {
		_, err := s.ApplyAlerts(ctx, "b", store.AlertWrite{Upserts: []domain.Alert{
			{ID: "y1", LocationID: "1", Status: domain.AlertOpen, Type: domain.AlertJam, Created: t0},
		}, SeenAt: t0})
		done <- err
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var waiting int
		if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM pg_locks l JOIN pg_stat_activity p ON p.pid = l.pid
			WHERE NOT l.granted AND l.locktype = 'advisory' AND p.application_name = 'washboard'`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting > 0 {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("the write of b committed (%v) while a's, given an earlier seq, had not", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("the write of b did not wait for a's")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got, err := s.FactsAfter(ctx, 0, 0); err != nil || len(got) != 0 {
		t.Errorf("while a's write is under way, facts = %+v, %v; want none", got, err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	got, err := s.FactsAfter(ctx, 0, 0)
	if err != nil || len(got) != 2 || got[0].Account != "a" || got[1].Account != "b" || got[0].Seq >= got[1].Seq {
		t.Errorf("facts = %+v, %v; want a's, then b's", got, err)
	}
}

// TestFactsReadWhileWritten: writers of several accounts, on replicas of
// their own, record facts while a reader reads them as a notifier does,
// from the last seq it read: it reads every fact recorded.
func TestFactsReadWhileWritten(t *testing.T) {
	_, u, _ := newSchema(t)
	ctx := t.Context()
	const writers, writes = 6, 40
	t0 := time.Date(2026, 11, 18, 9, 0, 0, 0, time.UTC)
	stores := make([]*Store, writers)
	for i := range stores {
		s, err := Open(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		stores[i] = s
		if _, err := s.ApplyAlerts(ctx, fmt.Sprint("acc", i), store.AlertWrite{SeenAt: t0}); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for i, s := range stores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var alerts []domain.Alert
			for n := range writes {
				alerts = append(alerts, domain.Alert{ID: fmt.Sprintf("x%d-%d", i, n), LocationID: "1", Status: domain.AlertOpen,
					Type: domain.AlertJam, Created: t0.Add(time.Duration(n) * time.Minute)})
				if _, err := s.ApplyAlerts(ctx, fmt.Sprint("acc", i), store.AlertWrite{Upserts: alerts, SeenAt: t0}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	written := make(chan struct{})
	go func() {
		wg.Wait()
		close(written)
	}()

	reader := stores[0]
	read := map[int64]bool{}
	var after int64
	for last := false; !last; {
		select {
		case <-written:
			last = true // one more read, after the last write
		default:
		}
		facts, err := reader.FactsAfter(ctx, after, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range facts {
			read[f.Seq] = true
			after = f.Seq
		}
	}
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	all, err := reader.FactsAfter(ctx, 0, 2*writers*writes)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != writers*writes {
		t.Fatalf("%d facts recorded, want %d", len(all), writers*writes)
	}
	var missed []int64
	for _, f := range all {
		if !read[f.Seq] {
			missed = append(missed, f.Seq)
		}
	}
	if len(missed) > 0 {
		t.Errorf("the reader read past %d facts, seqs %v", len(missed), missed)
	}
}

// TestFactsMigrationKeepsBaselines: an account refreshed before facts
// were recorded has its baselines once the schema migrates: its next
// refreshes record facts; an account never refreshed has none.
func TestFactsMigrationKeepsBaselines(t *testing.T) {
	_, u, _ := newSchema(t)
	ctx := t.Context()
	s, err := Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	t0 := time.Date(2026, 11, 18, 9, 0, 0, 0, time.UTC)
	open := func(id string) domain.Alert {
		return domain.Alert{ID: id, LocationID: "1", Status: domain.AlertOpen, Type: domain.AlertJam, Created: t0}
	}
	// a has alerts and devices cached; b's alerts refreshed, none open;
	// c's devices refreshed and failed.
	if _, err := s.ApplyAlerts(ctx, "a", store.AlertWrite{Upserts: []domain.Alert{open("x1")}, SeenAt: t0}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReplaceDevices(ctx, "a", []domain.Device{{MAC: "0000000000A0", LocationID: "1", LastSeen: t0}}); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordSync(ctx, "b", store.SyncStatus{Resource: domain.ResourceAlerts, LastAttempt: t0, LastSuccess: t0}); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordSync(ctx, "c", store.SyncStatus{Resource: domain.ResourceDevices, LastAttempt: t0, LastError: "the service did not answer"}); err != nil {
		t.Fatal(err)
	}
	// The schema as it was before migration 3.
	if _, err := s.pool.Exec(ctx, `DROP TABLE facts;
		ALTER TABLE accounts DROP COLUMN alerts_baseline, DROP COLUMN devices_baseline;
		DELETE FROM schema_migrations WHERE version = 3`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	storetest.BaselinesKeptByMigration(t, s, t0)
}

// TestTypedClaimsKeptByMigration: a claim made before claims belonged to
// people keeps the name typed once the schema migrates.
func TestTypedClaimsKeptByMigration(t *testing.T) {
	_, u, _ := newSchema(t)
	ctx := t.Context()
	s, err := Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	t0 := time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)
	x1 := domain.Alert{ID: "x1", LocationID: "1", Status: domain.AlertOpen, Type: domain.AlertConsumableOut, Created: t0}
	if _, err := s.ApplyAlerts(ctx, "a", store.AlertWrite{Upserts: []domain.Alert{x1}, SeenAt: t0}); err != nil {
		t.Fatal(err)
	}
	// The schema as it was before migration 8, a's open alert x1 claimed
	// by the name Maria.
	if _, err := s.pool.Exec(ctx, `ALTER TABLE claims DROP COLUMN person_id;
		DELETE FROM schema_migrations WHERE version = 8`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.pool.Exec(ctx, `INSERT INTO claims (account_id, alert_id, name, note, claimed)
		SELECT key, 'x1', 'Maria', 'rolls', $1 FROM accounts WHERE id = 'a'`, t0); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.TypedClaimsKeptByMigration(t, s, t0)
}
