package storetest

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"washboard/internal/domain"
	"washboard/internal/store"
)

func testMigrated(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	if ok, err := s.Migrated(t.Context()); err != nil || !ok {
		t.Errorf("Migrated = %v, %v; want true", ok, err)
	}
}

// testNotFound: what the cache does not hold, or holds for another
// account, is domain.ErrNotFound.
func testNotFound(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	for _, acc := range []string{"b", "c"} {
		if _, err := s.ReplaceLayout(ctx, testLayout(acc, acc == "c")); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CreateScreen(ctx, domain.Screen{ID: "scr", Account: "a", Name: "Lobby", Created: t0}, []byte("h"), []byte("s"), 0); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateReceiver(ctx, store.Receiver{ID: "rcv", Account: "a", Secret: []byte("s"), Created: t0}, 0); err != nil {
		t.Fatal(err)
	}
	// Account d has a screen and no layout yet.
	if err := s.CreateScreen(ctx, domain.Screen{ID: "scr-d", Account: "d", Name: "Lobby", Created: t0}, []byte("hd"), []byte("s"), 0); err != nil {
		t.Fatal(err)
	}
	for name, call := range map[string]func() error{
		"an unknown account":                          func() error { _, err := s.Account(ctx, "nobody"); return err },
		"the layout of an unknown account":            func() error { _, err := s.Layout(ctx, "nobody"); return err },
		"an unknown building":                         func() error { _, err := s.Building(ctx, "a", "a-b9"); return err },
		"another account's building":                  func() error { _, err := s.Building(ctx, "b", "a-b1"); return err },
		"a building of an unknown account":            func() error { _, err := s.Building(ctx, "nobody", "a-b1"); return err },
		"an unknown floor":                            func() error { _, err := s.Floor(ctx, "a", "a-f9"); return err },
		"another account's floor":                     func() error { _, err := s.Floor(ctx, "b", "a-f1"); return err },
		"an unknown room":                             func() error { _, err := s.Room(ctx, "a", "a-r9"); return err },
		"another account's room":                      func() error { _, err := s.Room(ctx, "c", "a-r1"); return err },
		"an unknown location":                         func() error { _, err := s.Location(ctx, "a", "a-9"); return err },
		"another account's location":                  func() error { _, err := s.Location(ctx, "b", "a-1"); return err },
		"an unknown screen":                           func() error { _, err := s.Screen(ctx, "a", "nope"); return err },
		"another account's screen":                    func() error { _, err := s.Screen(ctx, "b", "scr"); return err },
		"a screen by an unknown token":                func() error { _, _, err := s.ScreenByToken(ctx, []byte("nope")); return err },
		"updating another account's screen":           func() error { return s.UpdateScreen(ctx, domain.Screen{ID: "scr", Account: "b"}) },
		"updating a screen of an unknown account":     func() error { return s.UpdateScreen(ctx, domain.Screen{ID: "scr", Account: "nobody"}) },
		"relinking an unknown screen":                 func() error { return s.RelinkScreen(ctx, "a", "nope", []byte("h2"), []byte("s")) },
		"revoking an unknown screen":                  func() error { return s.RevokeScreen(ctx, "a", "nope", t0) },
		"an unknown receiver":                         func() error { _, err := s.Receiver(ctx, "nope"); return err },
		"rotating another account's receiver":         func() error { return s.RotateReceiver(ctx, "b", "rcv", []byte("x"), t0, t0) },
		"removing another account's receiver":         func() error { return s.RemoveReceiver(ctx, "b", "rcv") },
		"removing a receiver of an unknown account":   func() error { return s.RemoveReceiver(ctx, "nobody", "rcv") },
		"rotating a receiver of an unknown account":   func() error { return s.RotateReceiver(ctx, "nobody", "rcv", []byte("x"), t0, t0) },
		"relinking a screen of an unknown account":    func() error { return s.RelinkScreen(ctx, "nobody", "scr", []byte("h3"), []byte("s")) },
		"revoking a screen of another account":        func() error { return s.RevokeScreen(ctx, "b", "scr", t0) },
		"the account of a screen without its layout":  func() error { _, err := s.Account(ctx, "d"); return err },
		"a location of an account without its layout": func() error { _, err := s.Location(ctx, "d", "1"); return err },
	} {
		if err := call(); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("%s: err = %v, want ErrNotFound", name, err)
		}
	}
	// What was found is still there.
	if _, err := s.Screen(ctx, "a", "scr"); err != nil {
		t.Errorf("account a's screen: %v", err)
	}
	if _, err := s.Receiver(ctx, "rcv"); err != nil {
		t.Errorf("account a's receiver: %v", err)
	}
}

func testKeyCheck(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	if v, err := s.KeyCheck(ctx); err != nil || v != "" {
		t.Fatalf("a new store's key check = %q, %v; want none", v, err)
	}
	for _, v := range []string{"check-1", "check-2"} {
		if err := s.SetKeyCheck(ctx, v); err != nil {
			t.Fatal(err)
		}
		if got, err := s.KeyCheck(ctx); err != nil || got != v {
			t.Errorf("key check = %q, %v; want %q", got, err, v)
		}
	}
}

func testLayoutRefreshWritesOnlyChanges(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	l := testLayout("a", false)
	if c := mustReplaceLayout(t, s, l); c != (domain.Change{Added: 1 + 1 + 2 + 2 + 4}) {
		t.Errorf("the first refresh reported %+v; want the account and 9 parts added", c)
	}
	if c := mustReplaceLayout(t, s, l); !c.Empty() {
		t.Errorf("a refresh with no change reported %+v", c)
	}

	l.Rooms[1].Name = "Accessible Restroom 2.04"
	l.Locations = l.Locations[:3] // Stall 2 removed upstream
	if c := mustReplaceLayout(t, s, l); c != (domain.Change{Changed: 1, Removed: 1}) {
		t.Errorf("renaming a room and removing a location reported %+v", c)
	}
	locs, err := s.Locations(ctx, "a", "a-r2")
	if err != nil || len(locs) != 1 || locs[0].Name != "Towel" {
		t.Errorf("room r2 now has %+v, %v", locs, err)
	}
	rooms, err := s.Rooms(ctx, "a", "a-f2")
	if err != nil || len(rooms) != 1 || rooms[0].Name != "Accessible Restroom 2.04" {
		t.Errorf("floor f2 rooms = %+v, %v", rooms, err)
	}

	l.Account.Name = "Account A, renamed"
	l.Buildings = append(l.Buildings, domain.Building{ID: "a-b2", Name: "Annex"})
	if c := mustReplaceLayout(t, s, l); c != (domain.Change{Added: 1, Changed: 1}) {
		t.Errorf("renaming the account and adding a building reported %+v", c)
	}
	if a, err := s.Account(ctx, "a"); err != nil || a.Name != "Account A, renamed" {
		t.Errorf("account = %+v, %v", a, err)
	}
	got, err := s.Layout(ctx, "a")
	if err != nil || !reflect.DeepEqual(got, l) {
		t.Errorf("layout reads\n%+v, %v\nwant\n%+v", got, err, l)
	}
}

// testLayoutInParts: a layout written as the service's pages list it, each
// page with what it lists next, is cached as the same layout written
// whole: order runs on from part to part, and a room or location finds its
// floor and building from an earlier part.
func testLayoutInParts(t *testing.T, open func(*testing.T) store.Store) {
	ctx := t.Context()
	l := testLayout("a", false)
	l.Locations = append(l.Locations, domain.Location{ID: "a-5", RoomID: "a-r1", Name: "Sink Right", Type: domain.Soap})
	parts := []domain.Layout{
		{Account: l.Account, Buildings: l.Buildings, Floors: l.Floors[:1], Rooms: l.Rooms[:1], Locations: l.Locations[:2]},
		{Account: l.Account, Floors: l.Floors[1:], Rooms: l.Rooms[1:], Locations: l.Locations[2:]},
	}
	whole := open(t)
	mustReplaceLayout(t, whole, l)
	inParts := open(t)
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
	if c, err := r.Commit(ctx); err != nil || c != (domain.Change{Added: 1 + 1 + 2 + 2 + 5}) {
		t.Fatalf("Commit = %+v, %v; want every row added", c, err)
	}
	want, _ := whole.Layout(ctx, "a")
	got, err := inParts.Layout(ctx, "a")
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("the layout written in parts reads %+v, %v; written whole, %+v", got, err, want)
	}
	if !reflect.DeepEqual(want, l) {
		t.Errorf("the layout written whole reads %+v; want %+v", want, l)
	}
	for _, scope := range []domain.Scope{domain.ScopeAccount, domain.ScopeBuilding, domain.ScopeFloor, domain.ScopeRoom} {
		w, _ := whole.Rollups(ctx, "a", scope)
		g, err := inParts.Rollups(ctx, "a", scope)
		if err != nil || !reflect.DeepEqual(g, w) {
			t.Errorf("%s rollups: %+v, %v written in parts, %+v whole", scope, g, err, w)
		}
	}
	// Written in parts again, unchanged: nothing to report.
	r, err = inParts.BeginLayout(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Rollback()
	for _, p := range parts {
		if err := r.Write(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if c, err := r.Commit(ctx); err != nil || !c.Empty() {
		t.Errorf("the same parts again: %+v, %v; want no change", c, err)
	}
}

// testLayoutReads reads the layout by part, by identifier, by search and
// by path.
func testLayoutReads(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	l := testLayout("a", false)
	l.Buildings = append(l.Buildings, domain.Building{ID: "a-b2", Name: "Annex"})
	l.Floors = append(l.Floors, domain.Floor{ID: "a-f3", BuildingID: "a-b2", Name: "Ground"})
	l.Rooms = append(l.Rooms, domain.Room{ID: "a-r3", FloorID: "a-f3", Name: "Café 100% Restroom"})
	l.Locations = append(l.Locations, domain.Location{ID: "a-5", RoomID: "a-r3", Name: "Soap_1", Type: domain.Soap})
	mustReplaceLayout(t, s, l)
	mustReplaceLayout(t, s, testLayout("b", false))
	mustReplaceDevices(t, s, "a", []domain.Device{device("001122AABB01", "a-3", 80)})

	ids := func(v any) string {
		rv := reflect.ValueOf(v)
		var out []string
		for i := 0; i < rv.Len(); i++ {
			out = append(out, rv.Index(i).FieldByName("ID").String())
		}
		return fmt.Sprint(out)
	}
	check := func(what string, got any, err error, want string) {
		t.Helper()
		if err != nil {
			t.Errorf("%s: %v", what, err)
		} else if g := ids(got); g != want {
			t.Errorf("%s = %s, want %s", what, g, want)
		}
	}
	bs, err := s.Buildings(ctx, "a")
	check("buildings", bs, err, "[a-b1 a-b2]")
	fs, err := s.Floors(ctx, "a", "")
	check("floors", fs, err, "[a-f1 a-f2 a-f3]")
	fs, err = s.Floors(ctx, "a", "a-b2")
	check("floors of b2", fs, err, "[a-f3]")
	rs, err := s.Rooms(ctx, "a", "")
	check("rooms", rs, err, "[a-r1 a-r2 a-r3]")
	rs, err = s.Rooms(ctx, "a", "a-f2")
	check("rooms of f2", rs, err, "[a-r2]")
	ls, err := s.Locations(ctx, "a", "")
	check("locations", ls, err, "[a-1 a-2 a-3 a-4 a-5]")
	ls, err = s.Locations(ctx, "a", "a-r1")
	check("locations of r1", ls, err, "[a-1 a-2]")
	ls, err = s.LocationsIn(ctx, "a", "a-b1", "", "")
	check("locations of b1", ls, err, "[a-1 a-2 a-3 a-4]")
	ls, err = s.LocationsIn(ctx, "a", "a-b1", "a-f2", "")
	check("locations of f2", ls, err, "[a-3 a-4]")
	ls, err = s.LocationsIn(ctx, "a", "", "a-f2", "a-r3")
	check("locations of r3, the first given being the room", ls, err, "[a-5]")
	ls, err = s.LocationsIn(ctx, "a", "", "", "")
	check("locations of the account", ls, err, "[a-1 a-2 a-3 a-4 a-5]")
	ls, err = s.LocationsIn(ctx, "a", "b-b1", "", "")
	check("locations of another account's building", ls, err, "[]")
	bs, err = s.Buildings(ctx, "nobody")
	check("buildings of an unknown account", bs, err, "[]")

	for _, c := range []struct {
		query string
		limit int
		want  string
	}{
		{"stall", 10, "[a-2 a-4]"},         // location names, in any case
		{"MEN'S", 10, "[a-1 a-2 a-3 a-4]"}, // room names: Men's and Women's
		{"men's", 1, "[a-1]"},              // at most limit
		{"aa:bb", 10, "[a-3]"},             // a device's MAC, written with colons
		{"aabb01", 10, "[a-3]"},            // or without
		{"100%", 10, "[a-5]"},              // % is no wildcard
		{"p_1", 10, "[a-5]"},               // nor is _
		{"_", 10, "[a-5]"},
		{"nothing like it", 10, "[]"},
	} {
		got, err := s.SearchLocations(ctx, "a", c.query, nil, c.limit)
		check(fmt.Sprintf("search %q limit %d", c.query, c.limit), got, err, c.want)
	}
	if got, err := s.SearchLocations(ctx, "b", "sink", nil, 10); err != nil || ids(got) != "[b-1]" {
		t.Errorf("account b's search = %+v, %v; want its own location only", got, err)
	}

	b, err := s.Building(ctx, "a", "a-b2")
	if err != nil || b != l.Buildings[1] {
		t.Errorf("building = %+v, %v", b, err)
	}
	f, err := s.Floor(ctx, "a", "a-f3")
	if err != nil || f != l.Floors[2] {
		t.Errorf("floor = %+v, %v", f, err)
	}
	r, err := s.Room(ctx, "a", "a-r3")
	if err != nil || r != l.Rooms[2] {
		t.Errorf("room = %+v, %v", r, err)
	}
	loc, err := s.Location(ctx, "a", "a-5")
	if err != nil || loc != l.Locations[4] {
		t.Errorf("location = %+v, %v", loc, err)
	}

	// Paths: identifiers the account does not have are left out, and a
	// long list is read whole.
	ask := []string{"a-5", "a-1", "b-1", "nowhere"}
	for i := 0; i < 1200; i++ {
		ask = append(ask, fmt.Sprint("missing-", i))
	}
	ask = append(ask, "a-3")
	paths, err := s.Paths(ctx, "a", ask)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]store.Path{
		"a-5": {Location: l.Locations[4], Room: l.Rooms[2], Floor: l.Floors[2], Building: l.Buildings[1]},
		"a-1": {Location: l.Locations[0], Room: l.Rooms[0], Floor: l.Floors[0], Building: l.Buildings[0]},
		"a-3": {Location: l.Locations[2], Room: l.Rooms[1], Floor: l.Floors[1], Building: l.Buildings[0]},
	}
	if !reflect.DeepEqual(paths, want) {
		t.Errorf("paths = %+v\nwant %+v", paths, want)
	}
}

// testRoomsMove: a room that moves to another floor of another building
// takes its locations, their devices and alerts, and their counts along.
func testRoomsMove(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	l := testLayout("a", false)
	l.Buildings = append(l.Buildings, domain.Building{ID: "a-b2", Name: "Annex"})
	l.Floors = append(l.Floors, domain.Floor{ID: "a-f3", BuildingID: "a-b2", Name: "Ground"})
	mustReplaceLayout(t, s, l)
	mustReplaceDevices(t, s, "a", []domain.Device{device("0000000000A1", "a-1", 0), device("0000000000A3", "a-3", 80)})
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{alert("x1", "a-1", t0, true, true)}})

	l.Rooms[0].FloorID = "a-f3" // room 1 moves to the annex
	mustReplaceLayout(t, s, l)
	ls, err := s.LocationsIn(ctx, "a", "a-b2", "", "")
	if err != nil || len(ls) != 2 || ls[0].ID != "a-1" || ls[1].ID != "a-2" {
		t.Errorf("the annex's locations = %+v, %v; want room 1's", ls, err)
	}
	if ls, _ := s.LocationsIn(ctx, "a", "", "a-f1", ""); len(ls) != 0 {
		t.Errorf("floor 1 still has %+v", ls)
	}
	if rs, _ := s.Rooms(ctx, "a", "a-f3"); len(rs) != 1 || rs[0].ID != "a-r1" {
		t.Errorf("the annex's ground floor has rooms %+v", rs)
	}
	devs, err := s.FindDevices(ctx, store.DeviceFilter{Account: "a", BuildingID: "a-b2"})
	if err != nil || len(devs) != 1 || devs[0].MAC != "0000000000A1" {
		t.Errorf("the annex's devices = %+v, %v", devs, err)
	}
	als, err := s.FindAlerts(ctx, store.AlertFilter{Account: "a", FloorID: "a-f3", Status: domain.AlertOpen})
	if err != nil || len(als) != 1 {
		t.Errorf("the annex's open alerts = %+v, %v", als, err)
	}
	paths, _ := s.Paths(ctx, "a", []string{"a-2"})
	if p := paths["a-2"]; p.Floor.ID != "a-f3" || p.Building.ID != "a-b2" {
		t.Errorf("path of a-2 = %+v", p)
	}
	want := domain.Rollup{Counts: domain.Counts{Action: 1, Offline: 1}, OpenAlerts: 1, OverdueAlerts: 1}
	for _, k := range []struct {
		scope domain.Scope
		id    string
	}{{domain.ScopeBuilding, "a-b2"}, {domain.ScopeFloor, "a-f3"}, {domain.ScopeRoom, "a-r1"}} {
		if r, err := s.Rollup(ctx, "a", k.scope, k.id); err != nil || r != want {
			t.Errorf("%s %s rollup = %+v, %v; want %+v", k.scope, k.id, r, err, want)
		}
	}
	if r, _ := s.Rollup(ctx, "a", domain.ScopeFloor, "a-f1"); r != (domain.Rollup{}) {
		t.Errorf("floor 1, now empty, counts %+v", r)
	}
	if r, _ := s.Rollup(ctx, "a", domain.ScopeBuilding, "a-b1"); r != (domain.Rollup{Counts: domain.Counts{OK: 1, Offline: 1}}) {
		t.Errorf("building 1 counts %+v; want floor 2's locations only", r)
	}
}

// testLocationsGo: parts the service no longer lists go, with their counts.
func testLocationsGo(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	l := testLayout("a", false)
	l.Buildings = append(l.Buildings, domain.Building{ID: "a-b2", Name: "Annex"})
	l.Floors = append(l.Floors, domain.Floor{ID: "a-f3", BuildingID: "a-b2", Name: "Ground"})
	l.Rooms = append(l.Rooms, domain.Room{ID: "a-r3", FloorID: "a-f3", Name: "Lobby"})
	l.Locations = append(l.Locations, domain.Location{ID: "a-5", RoomID: "a-r3", Name: "Soap", Type: domain.Soap})
	mustReplaceLayout(t, s, l)
	if r, _ := s.Rollup(ctx, "a", domain.ScopeBuilding, "a-b2"); r.Offline != 1 {
		t.Fatalf("the annex counts %+v; want one location offline", r)
	}
	if c := mustReplaceLayout(t, s, testLayout("a", false)); c != (domain.Change{Removed: 4}) {
		t.Errorf("removing the annex reported %+v; want its building, floor, room and location removed", c)
	}
	if _, err := s.Building(ctx, "a", "a-b2"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("the annex after it went: %v", err)
	}
	if _, err := s.Location(ctx, "a", "a-5"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("its location after it went: %v", err)
	}
	for _, scope := range []domain.Scope{domain.ScopeBuilding, domain.ScopeFloor, domain.ScopeRoom} {
		rs, err := s.Rollups(ctx, "a", scope)
		if err != nil {
			t.Fatal(err)
		}
		for id := range rs {
			if id == "a-b2" || id == "a-f3" || id == "a-r3" {
				t.Errorf("%s %s still has counts %+v", scope, id, rs[id])
			}
		}
	}
	if r, _ := s.Rollup(ctx, "a", domain.ScopeAccount, "a"); r.Offline != 4 {
		t.Errorf("the account counts %+v; want its 4 remaining locations", r)
	}
}

func testAccountsAreIsolated(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	// Two accounts whose identifiers collide: neither may see the other's rows.
	for _, acc := range []string{"a", "b"} {
		l := testLayout(acc, true)
		if acc == "b" {
			l.Buildings[0].Name = "South Tower"
			l.Locations = l.Locations[:3]
		}
		mustReplaceLayout(t, s, l)
	}
	mustReplaceDevices(t, s, "a", []domain.Device{device("AAAAAAAAAAAA", "1", 0)})
	mustReplaceDevices(t, s, "b", []domain.Device{device("BBBBBBBBBBBB", "1", 90)})
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{alert("xa", "1", t0, true, true)}})
	mustApplyAlerts(t, s, "b", store.AlertWrite{Upserts: []domain.Alert{alert("xb", "1", t0, true, false)}})
	for acc, want := range map[string]string{"a": "North Tower", "b": "South Tower"} {
		bs, err := s.Buildings(ctx, acc)
		if err != nil || len(bs) != 1 || bs[0].Name != want {
			t.Errorf("account %s buildings = %+v, %v; want only %s", acc, bs, err, want)
		}
	}
	if ls, _ := s.Locations(ctx, "b", ""); len(ls) != 3 {
		t.Errorf("account b has %d locations, want 3", len(ls))
	}
	devs, _ := s.FindDevices(ctx, store.DeviceFilter{Account: "b", LocationID: "1"})
	if len(devs) != 1 || devs[0].MAC != "BBBBBBBBBBBB" {
		t.Errorf("account b's devices at location 1 = %+v", devs)
	}
	als, _ := s.FindAlerts(ctx, store.AlertFilter{Account: "b", BuildingID: "b1"})
	if fmt.Sprint(alertIDs(als)) != "[xb]" {
		t.Errorf("account b's alerts in building b1 = %v", alertIDs(als))
	}
	ra, _ := s.Rollup(ctx, "a", domain.ScopeBuilding, "b1")
	rb, _ := s.Rollup(ctx, "b", domain.ScopeBuilding, "b1")
	if ra != (domain.Rollup{Counts: domain.Counts{Action: 1, Offline: 3}, OpenAlerts: 1, OverdueAlerts: 1}) {
		t.Errorf("account a's building b1 counts %+v", ra)
	}
	if rb != (domain.Rollup{Counts: domain.Counts{OK: 1, Offline: 2}, OpenAlerts: 1}) {
		t.Errorf("account b's building b1 counts %+v", rb)
	}
	// A refresh of one account leaves the other's rows alone.
	mustReplaceDevices(t, s, "a", nil)
	if devs, _ := s.FindDevices(ctx, store.DeviceFilter{Account: "b"}); len(devs) != 1 {
		t.Errorf("account b's devices after a's went: %+v", devs)
	}
	if _, err := s.Account(ctx, "c"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("unknown account: err = %v, want ErrNotFound", err)
	}
}
