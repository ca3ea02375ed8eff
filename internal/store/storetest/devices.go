package storetest

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

func testDevicesRoundTrip(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
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
	if c := mustReplaceDevices(t, s, "a", devices); c != (domain.Change{Added: 4}) {
		t.Errorf("the first refresh reported %+v; want 4 added", c)
	}
	got, err := s.FindDevices(ctx, store.DeviceFilter{Account: "a"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(devices) {
		t.Fatalf("FindDevices = %+v", got)
	}
	for i, d := range got {
		if !sameDevice(d, devices[i]) {
			t.Errorf("device %d came back as\n%+v\nwant\n%+v", i, d, devices[i])
		}
	}

	if r, _ := s.Rollup(ctx, "a", domain.ScopeAccount, "a"); r.Counts != (domain.Counts{OK: 1, Attention: 1, Action: 1, Offline: 1}) {
		t.Errorf("account rollup = %+v", r.Counts)
	}
	if r, _ := s.Rollup(ctx, "a", domain.ScopeFloor, "a-f1"); r.Counts != (domain.Counts{OK: 1, Action: 1}) {
		t.Errorf("floor 1 rollup = %+v", r.Counts)
	}

	if c := mustReplaceDevices(t, s, "a", devices); !c.Empty() {
		t.Errorf("the same devices again reported %+v", c)
	}
	// The stall is refilled and repaired; the towel goes.
	four.Compartments = []domain.Compartment{{Level: 100}, {Level: 100}, {Level: 100}, {Level: 100}}
	four.Faults, four.BatteryState, four.Battery = nil, domain.BatteryNormal, intp(100)
	devices = []domain.Device{devices[0], four, devices[3]}
	if c := mustReplaceDevices(t, s, "a", devices); c != (domain.Change{Changed: 1, Removed: 1}) {
		t.Fatalf("refresh after the refill reported %+v; want one changed, one removed", c)
	}
	if r, _ := s.Rollup(ctx, "a", domain.ScopeFloor, "a-f1"); r.Counts != (domain.Counts{OK: 2}) {
		t.Errorf("floor 1 rollup after the refill = %+v, want 2 ok", r.Counts)
	}
	if r, _ := s.Rollup(ctx, "a", domain.ScopeFloor, "a-f2"); r.Counts != (domain.Counts{Offline: 2}) {
		t.Errorf("floor 2 rollup without the towel's device = %+v, want 2 offline", r.Counts)
	}
	got, _ = s.FindDevices(ctx, store.DeviceFilter{Account: "a", LocationID: "a-2"})
	if len(got) != 1 || !sameDevice(got[0], four) {
		t.Errorf("the stall's device after the refill = %+v", got)
	}
}

// sameDevice compares devices, their times by instant and their empty and
// nil slices alike.
func sameDevice(a, b domain.Device) bool {
	if !a.LastSeen.Equal(b.LastSeen) || len(a.Compartments) != len(b.Compartments) || len(a.Faults) != len(b.Faults) {
		return false
	}
	if (a.Battery == nil) != (b.Battery == nil) || a.Battery != nil && *a.Battery != *b.Battery {
		return false
	}
	for i := range a.Compartments {
		if a.Compartments[i] != b.Compartments[i] {
			return false
		}
	}
	for i := range a.Faults {
		if a.Faults[i] != b.Faults[i] {
			return false
		}
	}
	a.LastSeen, b.LastSeen = time.Time{}, time.Time{}
	a.Compartments, b.Compartments, a.Faults, b.Faults, a.Battery, b.Battery = nil, nil, nil, nil, nil, nil
	return reflect.DeepEqual(a, b)
}

// testFindDevices: devices by part of the layout, in the order of their
// locations, then their positions, then their MACs.
func testFindDevices(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	mustReplaceLayout(t, s, testLayout("b", false))
	top := func(mac, loc string) domain.Device {
		d := device(mac, loc, 50)
		d.Position = "top"
		return d
	}
	mustReplaceDevices(t, s, "a", []domain.Device{
		device("0000000000A4", "a-4", 50),
		top("0000000000B2", "a-2"),
		device("0000000000C2", "a-2", 50),
		device("0000000000A2", "a-2", 50),
		device("0000000000A1", "a-1", 50),
		device("0000000000A9", "a-9", 50), // a location the layout does not list
	})
	mustReplaceDevices(t, s, "b", []domain.Device{device("0000000000F1", "b-1", 50)})
	for _, c := range []struct {
		f    store.DeviceFilter
		want string
	}{
		{store.DeviceFilter{Account: "a", LocationID: "a-2"}, "[0000000000A2 0000000000C2 0000000000B2]"},
		{store.DeviceFilter{Account: "a", RoomID: "a-r1"}, "[0000000000A1 0000000000A2 0000000000C2 0000000000B2]"},
		{store.DeviceFilter{Account: "a", FloorID: "a-f2"}, "[0000000000A4]"},
		{store.DeviceFilter{Account: "a", BuildingID: "a-b1"}, "[0000000000A1 0000000000A2 0000000000C2 0000000000B2 0000000000A4]"},
		{store.DeviceFilter{Account: "a", LocationID: "a-9"}, "[0000000000A9]"},
		{store.DeviceFilter{Account: "a", BuildingID: "b-b1"}, "[]"},
		{store.DeviceFilter{Account: "b"}, "[0000000000F1]"},
		{store.DeviceFilter{Account: "nobody"}, "[]"},
	} {
		got, err := s.FindDevices(ctx, c.f)
		var macs []string
		for _, d := range got {
			macs = append(macs, d.MAC)
		}
		if err != nil || fmt.Sprint(macs) != c.want {
			t.Errorf("FindDevices(%+v) = %v, %v; want %s", c.f, macs, err, c.want)
		}
	}
	// Every device of the account: those of listed locations in order,
	// the one at a location the layout does not list too.
	all, err := s.FindDevices(ctx, store.DeviceFilter{Account: "a"})
	if err != nil || len(all) != 6 {
		t.Fatalf("the account's devices = %+v, %v", all, err)
	}
	var listed []string
	for _, d := range all {
		if d.LocationID != "a-9" {
			listed = append(listed, d.MAC)
		}
	}
	if fmt.Sprint(listed) != "[0000000000A1 0000000000A2 0000000000C2 0000000000B2 0000000000A4]" {
		t.Errorf("the account's devices in order: %v", listed)
	}
}
