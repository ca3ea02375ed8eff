package sqlstore_test

import (
	"context"
	"maps"
	"path/filepath"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/store/postgres"
	"washboard/internal/store/postgres/pgtest"
	"washboard/internal/store/sqlite"
	"washboard/internal/store/sqlstore"
	"washboard/internal/store/storetest"
)

// engine is an engine the store's tests run on.
type engine struct {
	name string
	// database makes a database of the test's own and returns how to
	// open a store on it, again and again.
	database func(t *testing.T) (open func() (*sqlstore.Store, func() error, error))
	// beforeHistory takes its schema back to before the migration that
	// keeps the devices' history.
	beforeHistory []string
	// accountTables lists the tables with a column account_id.
	accountTables string
}

// engines are SQLite, and PostgreSQL where a test server is named.
var engines = []engine{
	{
		name: "sqlite",
		database: func(t *testing.T) func() (*sqlstore.Store, func() error, error) {
			path := filepath.Join(t.TempDir(), "washboard.db")
			return func() (*sqlstore.Store, func() error, error) {
				s, err := sqlite.Open(t.Context(), path)
				if err != nil {
					return nil, nil, err
				}
				return s.Store, s.Close, nil
			}
		},
		beforeHistory: []string{
			`DROP TABLE device_history`,
			`ALTER TABLE devices DROP COLUMN reading`,
			`DELETE FROM schema_migrations WHERE version = 9`,
		},
		accountTables: `SELECT m.name FROM sqlite_master m JOIN pragma_table_info(m.name) c ON c.name = 'account_id' WHERE m.type = 'table' ORDER BY 1`,
	},
	{
		name: "postgres",
		database: func(t *testing.T) func() (*sqlstore.Store, func() error, error) {
			_, u, _ := pgtest.NewSchema(t)
			return func() (*sqlstore.Store, func() error, error) {
				s, err := postgres.Open(t.Context(), u)
				if err != nil {
					return nil, nil, err
				}
				return s.Store, s.Close, nil
			}
		},
		beforeHistory: []string{
			`DROP TABLE device_history`,
			`ALTER TABLE devices DROP COLUMN reading`,
			`DELETE FROM schema_migrations WHERE version = 5`,
		},
		accountTables: `SELECT table_name::text FROM information_schema.columns WHERE column_name = 'account_id' AND table_schema = current_schema() ORDER BY 1`,
	},
}

// onEngines runs test on each engine, with a new store of its own.
func onEngines(t *testing.T, test func(t *testing.T, e engine, s *sqlstore.Store)) {
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			s, closeStore, err := e.database(t)()
			if err != nil {
				t.Fatal(err)
			}
			defer func() { closeStore() }()
			test(t, e, s)
		})
	}
}

// TestRollupsMatchARecount: the rollups each refresh leaves, which it
// partly works out from what it listed, are those a recount of the cache
// gives, through devices that move or are listed twice, open alerts, and a
// layout whose rooms move and whose locations go.
func TestRollupsMatchARecount(t *testing.T) {
	onEngines(t, func(t *testing.T, _ engine, s *sqlstore.Store) { testRollupsMatchARecount(t, s) })
}

func testRollupsMatchARecount(t *testing.T, s *sqlstore.Store) {
	ctx := context.Background()
	check := func(step string) {
		t.Helper()
		kept, recount, err := s.RecountRollups(ctx, "a")
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(kept, recount) {
			t.Errorf("after %s the rollups are %v; a recount gives %v", step, kept, recount)
		}
	}
	l := storetest.TestLayout("a")
	if _, err := s.ReplaceLayout(ctx, l); err != nil {
		t.Fatal(err)
	}
	check("the layout")
	devices := []domain.Device{
		storetest.Device("0000000000A1", "a-1", 90),
		storetest.Device("0000000000A2", "a-1", 0),  // moves on: listed again below
		storetest.Device("0000000000A3", "a-3", 10), // attention
		storetest.Device("0000000000A2", "a-2", 90), // the later listing counts
	}
	if _, err := s.ReplaceDevices(ctx, "a", devices); err != nil {
		t.Fatal(err)
	}
	check("the devices")
	t0 := time.Date(2026, 11, 10, 8, 0, 0, 0, time.UTC)
	alerts := []domain.Alert{storetest.Alert("x1", "a-1", t0, true, true), storetest.Alert("x2", "a-3", t0, true, false), storetest.Alert("x3", "a-9", t0, true, true)}
	if _, err := s.ApplyAlerts(ctx, "a", store.AlertWrite{Upserts: alerts, SeenAt: t0}); err != nil {
		t.Fatal(err)
	}
	check("the alerts")
	l.Rooms[1].FloorID = "a-f1" // room 2 moves to the first floor
	l.Locations = l.Locations[:3]
	if _, err := s.ReplaceLayout(ctx, l); err != nil {
		t.Fatal(err)
	}
	check("a new layout")
	if _, err := s.ReplaceDevices(ctx, "a", devices[2:]); err != nil {
		t.Fatal(err)
	}
	check("devices gone")

	// The service's events adjust the rollups of the locations they
	// touch, and leave them as a recount would.
	t1 := t0.Add(2 * time.Hour)
	closedX1 := storetest.Alert("x1", "a-1", t0, false, true)
	for _, ev := range []struct {
		step   string
		alerts []domain.Alert
	}{
		{"an event opening an alert", []domain.Alert{storetest.Alert("e1", "a-2", t1, true, false)}},
		{"an event making it overdue", []domain.Alert{storetest.Alert("e1", "a-2", t1, true, true)}},
		{"an event closing an overdue alert", []domain.Alert{closedX1}},
		{"a late event that changes nothing", []domain.Alert{storetest.Alert("x1", "a-1", t0, true, true)}},
		{"events at a location the layout does not list", []domain.Alert{storetest.Alert("e2", "a-9", t1, true, true), storetest.Alert("e3", "a-9", t1, true, false)}},
		{"events at several locations at once", []domain.Alert{storetest.Alert("e4", "a-3", t1, true, true), storetest.Alert("e2", "a-9", t1, false, true), storetest.Alert("e1", "a-2", t1, false, true)}},
	} {
		if _, err := s.ApplyAlertEvents(ctx, "a", ev.alerts, t1); err != nil {
			t.Fatal(err)
		}
		check(ev.step)
	}
}

// TestHistoryStartsWithTheMigration: devices cached before the history
// was kept each get a reading at the next write, which rewrites them once
// (their rows hold the reading's sum); the write after it records
// nothing.
func TestHistoryStartsWithTheMigration(t *testing.T) {
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			ctx := t.Context()
			open := e.database(t)
			s, closeStore, err := open()
			if err != nil {
				t.Fatal(err)
			}
			devices := []domain.Device{storetest.Device("0000000000A1", "1", 80), storetest.Device("0000000000A2", "2", 0)}
			if _, err := s.ReplaceDevices(ctx, "a", devices); err != nil {
				t.Fatal(err)
			}
			// The cache as it was before the migration.
			for _, q := range e.beforeHistory {
				if err := sqlstore.Exec(ctx, s, q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			closeStore()
			if s, closeStore, err = open(); err != nil {
				t.Fatal(err)
			}
			defer closeStore()

			for i, want := range []struct {
				changed, readings int
			}{{2, 2}, {0, 2}} {
				c, err := s.ReplaceDevices(ctx, "a", devices)
				if err != nil {
					t.Fatal(err)
				}
				h, err := s.DeviceHistory(ctx, "a", nil, time.Time{})
				if err != nil {
					t.Fatal(err)
				}
				if c.Changed != want.changed || len(h["0000000000A1"])+len(h["0000000000A2"]) != want.readings {
					t.Errorf("write %d after the migration changed %d devices, the history holds %v; want %d changed, %d readings",
						i+1, c.Changed, h, want.changed, want.readings)
				}
			}
		})
	}
}

// TestDisconnectLeavesNoRowOfTheAccount: disconnecting an account leaves
// no row of it in any table that names accounts, a table added later
// included, and the other account's rows as they were.
func TestDisconnectLeavesNoRowOfTheAccount(t *testing.T) {
	onEngines(t, func(t *testing.T, e engine, s *sqlstore.Store) {
		ctx := t.Context()
		storetest.FillAccount(t, s, "a")
		storetest.FillAccount(t, s, "b")
		var tables []string
		var table string
		rows, err := s.Writer().Query(ctx, e.accountTables)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			if err := rows.Scan(&table); err != nil {
				t.Fatal(err)
			}
			tables = append(tables, table)
		}
		rows.Close()
		if len(tables) < 20 {
			t.Fatalf("tables naming accounts: %v", tables)
		}
		count := func(account string) map[string]int {
			key, err := s.Key(ctx, account)
			if err != nil {
				t.Fatal(err)
			}
			out := map[string]int{}
			for _, table := range tables {
				var n int
				if err := s.Writer().QueryRow(ctx, `SELECT count(*) FROM `+table+` WHERE account_id = ?`, key).Scan(&n); err != nil {
					t.Fatal(err)
				}
				if n > 0 {
					out[table] = n
				}
			}
			return out
		}
		before := count("b")
		if a := count("a"); len(a) < 15 {
			t.Fatalf("account a fills only %v", a)
		}
		if _, err := s.DisconnectAccount(ctx, "a"); err != nil {
			t.Fatal(err)
		}
		if left := count("a"); len(left) != 0 {
			t.Errorf("rows of a left after its disconnection: %v", left)
		}
		if after := count("b"); !maps.Equal(after, before) {
			t.Errorf("b's rows: %v; were %v", after, before)
		}
	})
}
