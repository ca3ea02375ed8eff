package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
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

// testLayout is a small account: one building, two floors, a room on each,
// two locations per room. Identifiers carry the account's prefix unless
// shared is set, which gives two accounts the same identifiers.
func testLayout(account string, shared bool) domain.Layout {
	p := account + "-"
	if shared {
		p = ""
	}
	return domain.Layout{
		Account:   domain.Account{ID: account, Name: "Account " + account},
		Buildings: []domain.Building{{ID: p + "b1", Name: "North Tower"}},
		Floors:    []domain.Floor{{ID: p + "f1", BuildingID: p + "b1", Name: "Level 1"}, {ID: p + "f2", BuildingID: p + "b1", Name: "Level 2"}},
		Rooms:     []domain.Room{{ID: p + "r1", FloorID: p + "f1", Name: "Men's Restroom 1.02"}, {ID: p + "r2", FloorID: p + "f2", Name: "Women's Restroom 2.04"}},
		Locations: []domain.Location{
			{ID: p + "1", RoomID: p + "r1", Name: "Sink Left", Type: domain.Soap},
			{ID: p + "2", RoomID: p + "r1", Name: "Stall 1", Type: domain.Tissue},
			{ID: p + "3", RoomID: p + "r2", Name: "Towel", Type: domain.Towel},
			{ID: p + "4", RoomID: p + "r2", Name: "Stall 2", Type: domain.Tissue},
		},
	}
}

func intp(v int) *int { return &v }

func device(mac, loc string, level int) domain.Device {
	return domain.Device{
		MAC: mac, LocationID: loc, Position: "main", Generation: "2.0",
		Compartments: []domain.Compartment{{Level: level, Low: level <= 15, Out: level == 0}},
		Battery:      intp(80), BatteryState: domain.BatteryNormal,
		LastSeen: time.Date(2026, 11, 18, 9, 0, 0, 0, time.UTC),
	}
}

func TestOpenMigratesOnceAndReopens(t *testing.T) {
	s, path := openTest(t)
	ctx := context.Background()
	if _, err := s.ReplaceLayout(ctx, testLayout("a", false)); err != nil {
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

func TestLayoutRefreshWritesOnlyChanges(t *testing.T) {
	s, path := openTest(t)
	ctx := context.Background()
	l := testLayout("a", false)
	c, err := s.ReplaceLayout(ctx, l)
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 + 1 + 2 + 2 + 4; c.Added != want {
		t.Errorf("first refresh added %d rows, want %d", c.Added, want)
	}

	walBefore := fileSize(t, path+"-wal")
	c, err = s.ReplaceLayout(ctx, l)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Empty() {
		t.Errorf("a refresh with no change reported %+v", c)
	}
	if after := fileSize(t, path+"-wal"); after != walBefore {
		t.Errorf("a refresh with no change grew the WAL from %d to %d bytes", walBefore, after)
	}

	l.Rooms[1].Name = "Accessible Restroom 2.04"
	l.Locations = l.Locations[:3] // Stall 2 removed upstream
	c, err = s.ReplaceLayout(ctx, l)
	if err != nil {
		t.Fatal(err)
	}
	if c != (domain.Change{Changed: 1, Removed: 1}) {
		t.Errorf("renaming a room and removing a location reported %+v", c)
	}
	locs, _ := s.Locations(ctx, "a", "a-r2")
	if len(locs) != 1 || locs[0].Name != "Towel" {
		t.Errorf("room r2 now has %+v", locs)
	}
	rooms, _ := s.Rooms(ctx, "a", "a-f2")
	if len(rooms) != 1 || rooms[0].Name != "Accessible Restroom 2.04" {
		t.Errorf("floor f2 rooms = %+v", rooms)
	}
}

// TestLayoutInPartsIsTheWholeLayout: a layout written as the service's
// pages list it, each page with what it lists first, is cached as the same
// layout written whole: positions run on from part to part, and a room or
// location finds its floor and building from an earlier part.
func TestLayoutInPartsIsTheWholeLayout(t *testing.T) {
	ctx := context.Background()
	l := testLayout("a", false)
	l.Locations = append(l.Locations, domain.Location{ID: "a-5", RoomID: "a-r1", Name: "Sink Right", Type: domain.Soap})
	parts := []domain.Layout{
		{Account: l.Account, Buildings: l.Buildings, Floors: l.Floors[:1], Rooms: l.Rooms[:1], Locations: l.Locations[:2]},
		{Account: l.Account, Floors: l.Floors[1:], Rooms: l.Rooms[1:], Locations: l.Locations[2:]},
	}
	whole, _ := openTest(t)
	if _, err := whole.ReplaceLayout(ctx, l); err != nil {
		t.Fatal(err)
	}
	inParts, _ := openTest(t)
	r, err := inParts.BeginLayout(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Rollback()
	for _, p := range parts {
		if err := r.Write(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if c, err := r.Commit(ctx); err != nil || c.Added != 1+1+2+2+5 {
		t.Fatalf("Commit = %+v, %v; want every row added", c, err)
	}
	want, _ := whole.Layout(ctx, "a")
	got, err := inParts.Layout(ctx, "a")
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("the layout written in parts reads %+v, %v; written whole, %+v", got, err, want)
	}
	for _, f := range []string{"a-f1", "a-f2"} {
		w, _ := whole.Rollup(ctx, "a", domain.ScopeFloor, f)
		g, _ := inParts.Rollup(ctx, "a", domain.ScopeFloor, f)
		if g != w {
			t.Errorf("floor %s: rollup %+v written in parts, %+v whole", f, g, w)
		}
	}
}

// TestNewDatabaseHasLargePagesAndWAL: a new cache gets the page size the
// DSN asks for, although the driver sets WAL mode, which fixes it, after
// its other pragmas.
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

func TestAccountsAreIsolated(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	// Two accounts whose identifiers collide: neither may see the other's rows.
	for _, acc := range []string{"a", "b"} {
		l := testLayout(acc, true)
		if acc == "b" {
			l.Buildings[0].Name = "South Tower"
		}
		if _, err := s.ReplaceLayout(ctx, l); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.ReplaceDevices(ctx, "a", []domain.Device{device("AAAAAAAAAAAA", "1", 0)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReplaceDevices(ctx, "b", []domain.Device{device("BBBBBBBBBBBB", "1", 90)}); err != nil {
		t.Fatal(err)
	}
	for acc, want := range map[string]string{"a": "North Tower", "b": "South Tower"} {
		bs, err := s.Buildings(ctx, acc)
		if err != nil || len(bs) != 1 || bs[0].Name != want {
			t.Errorf("account %s buildings = %+v, %v; want only %s", acc, bs, err, want)
		}
	}
	devs, _ := s.FindDevices(ctx, store.DeviceFilter{Account: "b", LocationID: "1"})
	if len(devs) != 1 || devs[0].MAC != "BBBBBBBBBBBB" {
		t.Errorf("account b's devices at location 1 = %+v", devs)
	}
	ra, _ := s.Rollup(ctx, "a", domain.ScopeBuilding, "b1")
	rb, _ := s.Rollup(ctx, "b", domain.ScopeBuilding, "b1")
	if ra.Action != 1 || rb.Action != 0 || rb.OK != 1 {
		t.Errorf("rollups of building b1: account a %+v, account b %+v", ra, rb)
	}
	if _, err := s.Account(ctx, "c"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("unknown account: err = %v, want ErrNotFound", err)
	}
}

func TestDevicesRoundTripAndRollups(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	if _, err := s.ReplaceLayout(ctx, testLayout("a", false)); err != nil {
		t.Fatal(err)
	}
	four := domain.Device{
		MAC: "0000000000A2", LocationID: "a-2", Position: "main", Generation: "1.0",
		Compartments: []domain.Compartment{{Level: 0, Low: true, Out: true}, {Level: 50}, {Level: 12, Low: true}, {Level: 100}},
		BatteryState: domain.BatteryLow,
		Faults:       []domain.Fault{{Kind: domain.FaultJam, Key: "tear_bar_fault"}},
		LastSeen:     time.Date(2026, 11, 18, 8, 15, 0, 0, time.UTC),
	}
	devices := []domain.Device{
		device("0000000000A1", "a-1", 90), // ok
		four,                              // action (out, fault)
		device("0000000000A3", "a-3", 10), // attention (low)
		{MAC: "0000000000A4", LocationID: "a-4", Offline: true, Generation: "2.0", LastSeen: time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC)},
	}
	c, err := s.ReplaceDevices(ctx, "a", devices)
	if err != nil {
		t.Fatal(err)
	}
	if c.Added != 4 {
		t.Errorf("added %d devices, want 4", c.Added)
	}
	got, err := s.FindDevices(ctx, store.DeviceFilter{Account: "a", LocationID: "a-2"})
	if err != nil || len(got) != 1 {
		t.Fatalf("FindDevices = %v, %v", got, err)
	}
	d := got[0]
	if len(d.Compartments) != 4 || !d.Compartments[0].Out || !d.Compartments[2].Low || d.Compartments[1].Level != 50 {
		t.Errorf("compartments came back as %+v", d.Compartments)
	}
	if d.Battery != nil || d.BatteryState != domain.BatteryLow || len(d.Faults) != 1 || d.Faults[0].Key != "tear_bar_fault" {
		t.Errorf("battery %v %q, faults %+v", d.Battery, d.BatteryState, d.Faults)
	}
	if !d.LastSeen.Equal(four.LastSeen) || d.Generation != "1.0" {
		t.Errorf("last seen %s generation %q", d.LastSeen, d.Generation)
	}

	acc, _ := s.Rollup(ctx, "a", domain.ScopeAccount, "a")
	if acc.Counts != (domain.Counts{OK: 1, Attention: 1, Action: 1, Offline: 1}) {
		t.Errorf("account rollup = %+v", acc.Counts)
	}
	f1, _ := s.Rollup(ctx, "a", domain.ScopeFloor, "a-f1")
	if f1.Counts != (domain.Counts{OK: 1, Action: 1}) {
		t.Errorf("floor 1 rollup = %+v", f1.Counts)
	}

	// The stall is refilled and repaired: the rollups follow.
	four.Compartments = []domain.Compartment{{Level: 100}, {Level: 100}, {Level: 100}, {Level: 100}}
	four.Faults, four.BatteryState = nil, domain.BatteryNormal
	devices[1] = four
	if c, err = s.ReplaceDevices(ctx, "a", devices); err != nil || c != (domain.Change{Changed: 1}) {
		t.Fatalf("refresh after refill: %+v, %v; want one change", c, err)
	}
	f1, _ = s.Rollup(ctx, "a", domain.ScopeFloor, "a-f1")
	if f1.Counts != (domain.Counts{OK: 2}) {
		t.Errorf("floor 1 rollup after the refill = %+v, want 2 ok", f1.Counts)
	}
}

// TestRollupsMatchARecount: the rollups each refresh leaves, which it
// partly works out from what it listed, are those a recount of the cache
// gives, through devices that move or are listed twice, open alerts, and a
// layout whose rooms move and whose locations go.
func TestRollupsMatchARecount(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	check := func(step string) {
		t.Helper()
		key, err := s.accountKey(ctx, "a", false)
		if err != nil {
			t.Fatal(err)
		}
		read := func(q interface {
			QueryContext(context.Context, string, ...any) (*sql.Rows, error)
		}) map[string]domain.Rollup {
			rows, err := q.QueryContext(ctx, `SELECT scope || ' ' || scope_id, ok, attention, action, offline, open_alerts, overdue_alerts
				FROM rollups WHERE account_id = ?`, key)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			out := map[string]domain.Rollup{}
			for rows.Next() {
				var k string
				var r domain.Rollup
				if err := rows.Scan(&k, &r.OK, &r.Attention, &r.Action, &r.Offline, &r.OpenAlerts, &r.OverdueAlerts); err != nil {
					t.Fatal(err)
				}
				out[k] = r
			}
			return out
		}
		kept := read(s.write)
		tx, err := s.write.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		if err := recomputeRollups(ctx, tx, key, "a", rollupInputs{}); err != nil {
			t.Fatal(err)
		}
		if recount := read(tx); !maps.Equal(kept, recount) {
			t.Errorf("after %s the rollups are %v; a recount gives %v", step, kept, recount)
		}
	}
	l := testLayout("a", false)
	if _, err := s.ReplaceLayout(ctx, l); err != nil {
		t.Fatal(err)
	}
	check("the layout")
	devices := []domain.Device{
		device("0000000000A1", "a-1", 90),
		device("0000000000A2", "a-1", 0),  // moves on: listed again below
		device("0000000000A3", "a-3", 10), // attention
		device("0000000000A2", "a-2", 90), // the later listing counts
	}
	if _, err := s.ReplaceDevices(ctx, "a", devices); err != nil {
		t.Fatal(err)
	}
	check("the devices")
	t0 := time.Date(2026, 11, 10, 8, 0, 0, 0, time.UTC)
	alerts := []domain.Alert{alert("x1", "a-1", t0, true, true), alert("x2", "a-3", t0, true, false), alert("x3", "a-9", t0, true, true)}
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
	closedX1 := alert("x1", "a-1", t0, false, true)
	for _, ev := range []struct {
		step   string
		alerts []domain.Alert
	}{
		{"an event opening an alert", []domain.Alert{alert("e1", "a-2", t1, true, false)}},
		{"an event making it overdue", []domain.Alert{alert("e1", "a-2", t1, true, true)}},
		{"an event closing an overdue alert", []domain.Alert{closedX1}},
		{"a late event that changes nothing", []domain.Alert{alert("x1", "a-1", t0, true, true)}},
		{"events at a location the layout does not list", []domain.Alert{alert("e2", "a-9", t1, true, true), alert("e3", "a-9", t1, true, false)}},
		{"events at several locations at once", []domain.Alert{alert("e4", "a-3", t1, true, true), alert("e2", "a-9", t1, false, true), alert("e1", "a-2", t1, false, true)}},
	} {
		if _, err := s.ApplyAlertEvents(ctx, "a", ev.alerts, t1); err != nil {
			t.Fatal(err)
		}
		check(ev.step)
	}
}

func alert(id, loc string, created time.Time, open, overdue bool) domain.Alert {
	a := domain.Alert{ID: id, LocationID: loc, MACs: []string{"0000000000A1"}, Status: domain.AlertOpen,
		Type: domain.AlertConsumableOut, Created: created, Overdue: overdue, RefillCount: 1}
	if !open {
		a.Status, a.Resolved, a.Resolution = domain.AlertClosed, created.Add(time.Hour), domain.ResolvedByDevice
	}
	return a
}

func TestAlerts(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	if _, err := s.ReplaceLayout(ctx, testLayout("a", false)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReplaceDevices(ctx, "a", []domain.Device{device("0000000000A1", "a-1", 80), device("0000000000A3", "a-3", 80)}); err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 10, 8, 0, 0, 0, time.UTC)
	alerts := []domain.Alert{
		alert("x1", "a-1", t0, true, false),
		alert("x2", "a-1", t0.Add(-time.Hour), true, true), // older and overdue
		alert("x3", "a-3", t0.Add(time.Hour), true, false),
		alert("x4", "a-3", t0.Add(-100*24*time.Hour), false, false), // beyond a 90-day history
		alert("x5", "a-3", t0.Add(-2*24*time.Hour), false, false),
	}
	c, err := s.ApplyAlerts(ctx, "a", store.AlertWrite{Upserts: alerts})
	if err != nil || c.Added != 5 {
		t.Fatalf("ApplyAlerts = %+v, %v", c, err)
	}
	open, err := s.FindAlerts(ctx, store.AlertFilter{Account: "a", Status: domain.AlertOpen})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, a := range open {
		ids = append(ids, a.ID)
	}
	if fmt.Sprint(ids) != "[x2 x1 x3]" {
		t.Errorf("open alerts in order %v, want overdue first then oldest first: [x2 x1 x3]", ids)
	}
	f1, _ := s.FindAlerts(ctx, store.AlertFilter{Account: "a", FloorID: "a-f2"})
	if len(f1) != 3 {
		t.Errorf("floor 2 has %d alerts, want 3", len(f1))
	}
	closed, _ := s.FindAlerts(ctx, store.AlertFilter{Account: "a", Status: domain.AlertClosed, From: t0.Add(-3 * 24 * time.Hour)})
	if len(closed) != 1 || closed[0].ID != "x5" || closed[0].Resolution != domain.ResolvedByDevice || closed[0].TimeToResolve() != time.Hour {
		t.Errorf("closed since 3 days before = %+v", closed)
	}
	r, _ := s.Rollup(ctx, "a", domain.ScopeAccount, "a")
	if r.OpenAlerts != 3 || r.OverdueAlerts != 1 || r.Action != 1 {
		t.Errorf("account rollup = %+v, want 3 open, 1 overdue, the overdue alert's location needing action", r)
	}

	// Same content again: nothing written.
	if c, err = s.ApplyAlerts(ctx, "a", store.AlertWrite{Upserts: alerts}); err != nil || !c.Empty() {
		t.Errorf("unchanged alerts: %+v, %v", c, err)
	}

	// x1 closes, x3 vanished upstream, and history beyond 90 days is pruned.
	alerts[0].Status, alerts[0].Resolved, alerts[0].Resolution = domain.AlertClosed, t0.Add(30*time.Minute), domain.ResolvedByOffline
	c, err = s.ApplyAlerts(ctx, "a", store.AlertWrite{Upserts: alerts[:1], Remove: []string{"x3"}, PruneBefore: t0.Add(-90 * 24 * time.Hour)})
	if err != nil || c != (domain.Change{Changed: 1, Removed: 2}) {
		t.Fatalf("closing, removing and pruning: %+v, %v", c, err)
	}
	n, _ := s.CountAlerts(ctx, store.AlertFilter{Account: "a"})
	if n != 3 {
		t.Errorf("%d alerts left, want 3", n)
	}
	stillOpen, _ := s.FindAlerts(ctx, store.AlertFilter{Account: "a", Status: domain.AlertOpen, From: t0.Add(-24 * time.Hour)})
	if len(stillOpen) != 1 || stillOpen[0].ID != "x2" {
		t.Errorf("open alerts of the last day = %+v, want only x2", stillOpen)
	}
}

func TestFailedRefreshLeavesTheCacheWhole(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	if _, err := s.ReplaceLayout(ctx, testLayout("a", false)); err != nil {
		t.Fatal(err)
	}
	devices := []domain.Device{device("0000000000A1", "a-1", 80), device("0000000000A3", "a-3", 80)}
	if _, err := s.ReplaceDevices(ctx, "a", devices); err != nil {
		t.Fatal(err)
	}
	// A refresh that fails half-way, after writing one row.
	r, err := s.beginDevices(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Write(ctx, []domain.Device{device("0000000000A1", "a-1", 0)}); err != nil {
		t.Fatal(err)
	}
	if err := r.w.flush(ctx); err != nil { // written, not only queued
		t.Fatal(err)
	}
	r.Rollback()
	got, _ := s.FindDevices(ctx, store.DeviceFilter{Account: "a"})
	if len(got) != 2 || got[0].Compartments[0].Level != 80 {
		t.Errorf("after a failed refresh the cache holds %+v; want both devices as before", got)
	}
}

// TestAlertsOverdueSinceAndOpenDuring: the cache remembers when it first saw
// an alert overdue (no later than its resolution) and keeps that time, and
// finds the alerts open at some moment of a period, as a shift report needs.
func TestAlertsOverdueSinceAndOpenDuring(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	if _, err := s.ReplaceLayout(ctx, testLayout("a", false)); err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 10, 8, 0, 0, 0, time.UTC)
	late := alert("late", "a-1", t0.Add(-6*time.Hour), true, true)        // open and overdue
	fixed := alert("fixed", "a-1", t0.Add(-30*time.Hour), false, true)    // overdue, resolved an hour later
	fine := alert("fine", "a-3", t0.Add(-time.Hour), true, false)         // open, not overdue
	before := alert("before", "a-3", t0.Add(-50*time.Hour), false, false) // resolved before the period
	seen := t0.Add(time.Minute)
	if _, err := s.ApplyAlerts(ctx, "a", store.AlertWrite{Upserts: []domain.Alert{late, fixed, fine, before}, SeenAt: seen}); err != nil {
		t.Fatal(err)
	}
	// Later fine turns overdue, and late is read again.
	fine.Overdue = true
	if _, err := s.ApplyAlerts(ctx, "a", store.AlertWrite{Upserts: []domain.Alert{late, fine}, SeenAt: seen.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	all, err := s.FindAlerts(ctx, store.AlertFilter{Account: "a", OpenFrom: t0.Add(-48 * time.Hour), OpenTo: t0})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]time.Time{}
	for _, a := range all {
		got[a.ID] = a.OverdueSince
	}
	want := map[string]time.Time{
		"late":  seen,                // first seen overdue, not moved by the second read
		"fixed": fixed.Resolved,      // resolved before it was seen: no later than that
		"fine":  seen.Add(time.Hour), // overdue from the second read
	}
	if len(got) != 3 {
		t.Errorf("alerts open during the two days before t0: %v; want late, fixed and fine, not the one resolved before", got)
	}
	for id, w := range want {
		if !got[id].Equal(w) {
			t.Errorf("%s: overdue since %v, want %v", id, got[id], w)
		}
	}
}

// TestAlertReadTwiceIsOverdueFromItsLastVersion: an alert a refresh reads
// open and overdue, then closed, is overdue since its resolution when that
// came before the read, as if it had been read closed only; a page of its
// own for each version, or both on one page, alike.
func TestAlertReadTwiceIsOverdueFromItsLastVersion(t *testing.T) {
	t0 := time.Date(2026, 11, 10, 8, 0, 0, 0, time.UTC)
	open := alert("x", "a-1", t0.Add(-3*time.Hour), true, true)
	closed := alert("x", "a-1", t0.Add(-3*time.Hour), false, true) // resolved at t0-2h
	seen := t0
	for name, pages := range map[string][][]domain.Alert{
		"two pages": {{open}, {closed}},
		"one page":  {{open, closed}},
	} {
		t.Run(name, func(t *testing.T) {
			s, _ := openTest(t)
			ctx := context.Background()
			if _, err := s.ReplaceLayout(ctx, testLayout("a", false)); err != nil {
				t.Fatal(err)
			}
			r, err := s.BeginAlerts(ctx, "a")
			if err != nil {
				t.Fatal(err)
			}
			defer r.Rollback()
			r.SeenAt(seen)
			for _, p := range pages {
				if err := r.Write(ctx, p); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := r.Commit(ctx, nil, time.Time{}); err != nil {
				t.Fatal(err)
			}
			got, err := s.FindAlerts(ctx, store.AlertFilter{Account: "a"})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].Status != domain.AlertClosed || !got[0].OverdueSince.Equal(closed.Resolved) {
				t.Errorf("alerts = %+v; want x closed, overdue since its resolution %v", got, closed.Resolved)
			}
		})
	}
}

// TestReportSettings: an account without settings has none (the defaults
// apply); saved ones come back and can be changed; accounts keep their own.
func TestReportSettings(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	if _, ok, err := s.ReportSettings(ctx, "a"); ok || err != nil {
		t.Fatalf("settings of a new account: ok %v, err %v; want none", ok, err)
	}
	at := time.Date(2026, 11, 10, 8, 0, 0, 0, time.UTC)
	for _, rs := range []store.ReportSettings{
		{Shifts: "Day 07:00-19:00, Night 19:00-07:00", Zone: "Europe/Berlin", Updated: at},
		{Shifts: "Day 08:00-16:00", Zone: "America/Chicago", Updated: at.Add(time.Hour)},
	} {
		if err := s.SaveReportSettings(ctx, "a", rs); err != nil {
			t.Fatal(err)
		}
		got, ok, err := s.ReportSettings(ctx, "a")
		if err != nil || !ok || got.Shifts != rs.Shifts || got.Zone != rs.Zone || !got.Updated.Equal(rs.Updated) {
			t.Errorf("settings = %+v, %v, %v; want %+v", got, ok, err, rs)
		}
	}
	if _, ok, _ := s.ReportSettings(ctx, "b"); ok {
		t.Error("account b sees account a's settings")
	}
}

// TestRefillTotals: the open consumable_out and battery_out alerts add up
// per floor and kind; closed ones, other types and other floors' do not
// count when a floor is chosen.
func TestRefillTotals(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	if _, err := s.ReplaceLayout(ctx, testLayout("a", false)); err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 10, 8, 0, 0, 0, time.UTC)
	mk := func(id, loc string, typ domain.AlertType, n int, open bool) domain.Alert {
		x := alert(id, loc, t0, open, false)
		x.Type, x.RefillCount = typ, n
		return x
	}
	alerts := []domain.Alert{
		mk("r1", "a-2", domain.AlertConsumableOut, 2, true), // tissue on level 1
		mk("r2", "a-2", domain.AlertConsumableOut, 1, true),
		mk("r3", "a-1", domain.AlertBatteryOut, 1, true),     // soap's batteries on level 1
		mk("r4", "a-3", domain.AlertConsumableOut, 3, true),  // towel on level 2
		mk("r5", "a-4", domain.AlertConsumableOut, 5, false), // closed
		mk("r6", "a-4", domain.AlertJam, 1, true),            // not a refill
	}
	if _, err := s.ApplyAlerts(ctx, "a", store.AlertWrite{Upserts: alerts}); err != nil {
		t.Fatal(err)
	}
	got, err := s.RefillTotals(ctx, store.AlertFilter{Account: "a"})
	if err != nil {
		t.Fatal(err)
	}
	want := "[{North Tower Level 1 battery 1} {North Tower Level 1 tissue 3} {North Tower Level 2 towel 3}]"
	if fmt.Sprint(got) != want {
		t.Errorf("totals %v, want %s", got, want)
	}
	got, _ = s.RefillTotals(ctx, store.AlertFilter{Account: "a", FloorID: "a-f2"})
	if fmt.Sprint(got) != "[{North Tower Level 2 towel 3}]" {
		t.Errorf("level 2's totals %v", got)
	}
}
