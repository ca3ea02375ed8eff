package storetest

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// testHistoryRecordsChanges: the first refresh of an account's devices
// records a reading of each; later writes record a reading of each device
// whose levels, battery percent, battery state or offline state changed,
// each alone enough, and of a device new to the cache, in its last version
// in the refresh; a write of what the cache holds, one that changes only
// last-seen times or faults, a device changed and changed back within a
// refresh, and a device removed record nothing.
func testHistoryRecordsChanges(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	mustReplaceLayout(t, s, testLayout("a", false))
	h := &historyReader{t: t, s: s, account: "a", macs: []string{"0000000000A1", "0000000000A2", "0000000000A3", "0000000000A4", "0000000000A5"}}
	a1 := device("0000000000A1", "a-1", 80)
	a1.Compartments = []domain.Compartment{{Level: 80}, {Level: 60}}
	a2 := device("0000000000A2", "a-2", 70)
	a2.Battery = nil
	a3 := device("0000000000A3", "a-3", 50)
	a4 := device("0000000000A4", "a-4", 0)
	a4.Offline, a4.BatteryState, a4.LastSeen = true, domain.BatteryLow, time.Time{}
	at := t0
	writeDevices(t, s, "a", at, []domain.Device{a1, a2, a3, a4})
	h.expect("the first refresh", reading(a1, at), reading(a2, at), reading(a3, at), reading(a4, at))
	writeDevices(t, s, "a", at.Add(time.Minute), []domain.Device{a1, a2, a3, a4})
	h.expect("the same write again")

	next := func(d *domain.Device) { d.LastSeen = d.LastSeen.Add(15 * time.Minute) }
	next(&a1)
	next(&a2)
	a3.Faults = []domain.Fault{{Kind: "jam", Key: "jammed"}}
	writeDevices(t, s, "a", at.Add(2*time.Minute), []domain.Device{a1, a2, a3, a4})
	h.expect("new last-seen times and a fault")

	for _, c := range []struct {
		name   string
		change func()
		d      *domain.Device
	}{
		{"a level", func() { a1.Compartments[1].Level = 59 }, &a1},
		{"a level's low and out flags alone", func() { a3.Compartments[0].Low = true }, nil},
		{"a battery percent", func() { a1.Battery = intp(79) }, &a1},
		{"a battery reported", func() { a2.Battery = intp(100) }, &a2},
		{"a battery state", func() { a3.BatteryState = domain.BatteryShutdown }, &a3},
		{"a battery state the service adds", func() { a3.BatteryState = "Charging" }, &a3},
		{"offline", func() { a2.Offline = true }, &a2},
		{"online again", func() { a4.Offline = false; a4.LastSeen = t0.Add(time.Hour) }, &a4},
		{"a compartment more", func() { a3.Compartments = append(a3.Compartments, domain.Compartment{Level: 100}) }, &a3},
	} {
		at = at.Add(5 * time.Minute)
		c.change()
		writeDevices(t, s, "a", at, []domain.Device{a1, a2, a3, a4})
		if c.d == nil {
			h.expect(c.name)
		} else {
			h.expect(c.name, reading(*c.d, at))
		}
	}

	// A page changes a1 and a2; the next one lists a1 as the cache holds
	// it and a2 changed again. a5 is new, a4 removed.
	at = at.Add(5 * time.Minute)
	a1changed, a2changed := a1, a2
	a1changed.Compartments = []domain.Compartment{{Level: 10}, {Level: 10}}
	a2changed.Battery = intp(50)
	a2.Battery, a2.Offline = intp(40), false
	a5 := device("0000000000A5", "a-4", 100)
	writeDevices(t, s, "a", at, []domain.Device{a1changed, a2changed, a3, a5}, []domain.Device{a1, a2})
	h.expect("a device changed and back, one changed twice, one new and one removed", reading(a2, at), reading(a5, at))

	// ReplaceDevices: the store's clock, to the second.
	a5.Compartments[0].Level = 99
	before := time.Now().Truncate(time.Second)
	mustReplaceDevices(t, s, "a", []domain.Device{a1, a2, a3, a5})
	after := time.Now()
	got := h.next()
	if len(got) != 1 || got[0].MAC != a5.MAC || got[0].At.Before(before) || got[0].At.After(after) || !got[0].At.Equal(got[0].At.Truncate(time.Second)) {
		t.Errorf("ReplaceDevices between %s and %s recorded\n%s\nwant a reading of %s then, to the second",
			before.Format(time.RFC3339Nano), after.Format(time.RFC3339Nano), readingLines(got), a5.MAC)
	}
}

// testHistoryAcrossDays: readings of several UTC days come back in time
// order; from a time, DeviceHistory returns those at or after it and the
// last before it, however long before, which tells the state at that
// time; a device silent since then returns that one alone.
func testHistoryAcrossDays(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	mustReplaceLayout(t, s, testLayout("a", false))
	a1 := device("0000000000A1", "a-1", 90)
	a2 := device("0000000000A2", "a-2", 90)
	var want1, want2 []deviceReading
	// a1 changes every six hours for four days, 23:00 and 05:00 included;
	// a2 on its first day only.
	start := time.Date(2026, 11, 17, 23, 0, 0, 0, time.UTC)
	for i := range 16 {
		at := start.Add(time.Duration(i) * 6 * time.Hour)
		a1.Compartments[0].Level = 90 - i
		a1.LastSeen = at.Add(-time.Minute)
		if i < 3 {
			a2.Compartments[0].Level = 90 - i
		}
		writeDevices(t, s, "a", at, []domain.Device{a1, a2})
		want1 = append(want1, reading(a1, at))
		if i < 3 {
			want2 = append(want2, reading(a2, at))
		}
	}
	for _, c := range []struct {
		name         string
		from         time.Time
		want1, want2 []deviceReading
	}{
		{"from before the first", start.Add(-48 * time.Hour), want1, want2},
		{"from the first", start, want1, want2},
		{"from just after the first", start.Add(time.Second), want1, want2},
		{"from midnight, a day later", time.Date(2026, 11, 19, 0, 0, 0, 0, time.UTC), want1[4:], want2[2:]},
		{"from a reading's time", time.Date(2026, 11, 19, 5, 0, 0, 0, time.UTC), want1[4:], want2[2:]},
		{"from between two, days later", time.Date(2026, 11, 20, 6, 0, 1, 0, time.UTC), want1[9:], want2[2:]},
		{"from after the last", time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), want1[15:], want2[2:]},
	} {
		got := deviceHistory(t, s, "a", nil, c.from)
		want := append(slices.Clone(c.want1), c.want2...)
		if !sameReadings(got, want) {
			t.Errorf("%s (%s):\n%s\nwant\n%s", c.name, c.from.Format(time.RFC3339), readingLines(got), readingLines(want))
		}
	}
}

// testHistoryOfSomeDevices: DeviceHistory returns the devices asked for,
// removed ones too, or every device the cache holds; never another
// account's, whose MACs may be the same.
func testHistoryOfSomeDevices(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	mustReplaceLayout(t, s, testLayout("a", false))
	mustReplaceLayout(t, s, testLayout("b", true))
	a1 := device("0000000000A1", "a-1", 90)
	a2 := device("0000000000A2", "a-2", 80)
	a3 := device("0000000000A3", "a-3", 70)
	b1 := device("0000000000A1", "1", 10) // a1's MAC, in account b
	writeDevices(t, s, "a", t0, []domain.Device{a1, a2, a3})
	writeDevices(t, s, "b", t0, []domain.Device{b1})
	a1.Offline = true
	writeDevices(t, s, "a", t0.Add(time.Hour), []domain.Device{a1, a2}) // a3 removed
	r1 := []deviceReading{reading(device("0000000000A1", "a-1", 90), t0), reading(a1, t0.Add(time.Hour))}
	r2, r3 := reading(a2, t0), reading(a3, t0)
	for _, c := range []struct {
		name    string
		account string
		macs    []string
		want    []deviceReading
	}{
		{"every device the cache holds", "a", nil, append(slices.Clone(r1), r2)},
		{"two of them", "a", []string{a1.MAC, a3.MAC}, append(slices.Clone(r1), r3)},
		{"one twice, one unknown", "a", []string{a2.MAC, "FFFFFFFFFFFF", a2.MAC}, []deviceReading{r2}},
		{"the other account's", "b", nil, []deviceReading{reading(b1, t0)}},
		{"the other account's, by MAC", "b", []string{a1.MAC, a2.MAC}, []deviceReading{reading(b1, t0)}},
		{"an account the cache does not hold", "c", []string{a1.MAC}, nil},
	} {
		got := deviceHistory(t, s, c.account, c.macs, t0.Add(-time.Hour))
		if !sameReadings(got, c.want) {
			t.Errorf("%s:\n%s\nwant\n%s", c.name, readingLines(got), readingLines(c.want))
		}
	}
}

// testDeviceStates: DeviceStates lists the account's devices, only its
// own, each with its location, whether it is a dispenser and its last-seen
// time as FindDevices has them, and a sum that changes with its levels,
// battery or offline state, whether or not the store keeps readings, and
// not with its last-seen time or faults; equal states have equal sums.
func testDeviceStates(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	mustReplaceLayout(t, s, testLayout("b", true))
	a1 := device("0000000000A1", "a-1", 90)
	a2 := device("0000000000A2", "a-2", 90)
	a3 := device("0000000000A3", "a-3", 0)
	a3.Compartments = nil // a device without compartments
	b1 := device("0000000000A1", "1", 10)
	writeDevices(t, s, "a", t0, []domain.Device{a1, a2, a3})
	writeDevices(t, s, "b", t0, []domain.Device{b1})

	states := func(account string) map[string]store.DeviceState {
		t.Helper()
		list, err := s.DeviceStates(ctx, account)
		if err != nil {
			t.Fatalf("DeviceStates(%q): %v", account, err)
		}
		devices, err := s.FindDevices(ctx, store.DeviceFilter{Account: account})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]store.DeviceState{}
		for _, d := range list {
			out[d.MAC] = d
		}
		if len(out) != len(list) || len(list) != len(devices) {
			t.Fatalf("DeviceStates(%q) lists %d devices (%d MACs); the cache holds %d", account, len(list), len(out), len(devices))
		}
		for _, d := range devices {
			st, ok := out[d.MAC]
			if !ok || st.LocationID != d.LocationID || st.Dispenser != (len(d.Compartments) > 0) || !st.LastSeen.Equal(d.LastSeen) {
				t.Errorf("DeviceStates(%q) has %s as %+v; FindDevices at %s, %d compartments, last seen %s",
					account, d.MAC, st, d.LocationID, len(d.Compartments), d.LastSeen)
			}
		}
		return out
	}
	first := states("a")
	if first[a1.MAC].Sum != first[a2.MAC].Sum || first[a1.MAC].Sum == first[a3.MAC].Sum {
		t.Errorf("sums %d, %d and %d: two devices in the same state must have the same, one in another state another",
			first[a1.MAC].Sum, first[a2.MAC].Sum, first[a3.MAC].Sum)
	}
	if b := states("b"); len(b) != 1 || b[b1.MAC].LocationID != "1" || b[b1.MAC].Sum == first[a1.MAC].Sum {
		t.Errorf("account b's states: %+v; want its one device, in its own state", b)
	}
	if c := states("c"); len(c) != 0 {
		t.Errorf("an account the cache does not hold has states %+v", c)
	}

	a1.LastSeen = a1.LastSeen.Add(15 * time.Minute)
	a1.Faults = []domain.Fault{{Kind: "jam", Key: "jammed"}}
	a2.Compartments[0].Level = 89
	writeDevices(t, s, "a", t0.Add(time.Hour), []domain.Device{a1, a2, a3})
	second := states("a")
	if second[a1.MAC].Sum != first[a1.MAC].Sum {
		t.Errorf("a new last-seen time and a fault changed the sum")
	}
	if second[a2.MAC].Sum == first[a2.MAC].Sum {
		t.Errorf("a level's change left the sum as it was")
	}

	s.KeepHistory(false)
	for _, c := range []struct {
		name   string
		change func()
	}{
		{"offline", func() { a1.Offline = true }},
		{"a battery percent", func() { a1.Battery = intp(79) }},
		{"a battery state", func() { a1.BatteryState = domain.BatteryLow }},
	} {
		before := states("a")[a1.MAC].Sum
		c.change()
		writeDevices(t, s, "a", t0.Add(2*time.Hour), []domain.Device{a1, a2, a3})
		if states("a")[a1.MAC].Sum == before {
			t.Errorf("%s, the store keeping no readings, left the sum as it was", c.name)
		}
	}
	a1.Offline, a1.Battery, a1.BatteryState = false, intp(80), domain.BatteryNormal
	writeDevices(t, s, "a", t0.Add(3*time.Hour), []domain.Device{a1, a2, a3})
	if got := states("a")[a1.MAC].Sum; got != first[a1.MAC].Sum {
		t.Errorf("a device back in its first state has the sum %d; it had %d", got, first[a1.MAC].Sum)
	}
}

// testSeedHistory: readings seeded before the first write of an
// account's devices, given in any order, are its devices' history, which
// the writes then go on from; seeding again leaves the days a device has
// readings of as they were, and other accounts' history alone.
func testSeedHistory(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	a1, a2 := device("0000000000A1", "a-1", 90), device("0000000000A2", "a-2", 80)
	seeded := func(d domain.Device, at time.Time, level int) deviceReading {
		return deviceReading{MAC: d.MAC, Reading: store.Reading{At: at, Levels: []int{level}, Battery: 80, BatteryState: domain.BatteryNormal, LastSeen: at}}
	}
	r1 := []deviceReading{seeded(a1, t0.Add(-50*time.Hour), 100), seeded(a1, t0.Add(-26*time.Hour), 95), seeded(a1, t0.Add(-2*time.Hour), 92)}
	r2 := []deviceReading{seeded(a2, t0.Add(-3*time.Hour), 85)}
	history := func(rs ...deviceReading) map[string][]store.Reading {
		out := map[string][]store.Reading{}
		for _, r := range rs {
			out[r.MAC] = append(out[r.MAC], r.Reading)
		}
		return out
	}
	if err := s.SeedHistory(ctx, "a", history(r1[2], r1[0], r1[1], r2[0])); err != nil {
		t.Fatal(err)
	}
	a1.Battery, a2.Battery = intp(80), intp(80)
	writeDevices(t, s, "a", t0, []domain.Device{a1, a2})
	w1, w2 := reading(a1, t0), reading(a2, t0)
	w1.Battery, w2.Battery = 80, 80
	want := append(append(slices.Clone(r1), w1), r2[0], w2)
	if got := deviceHistory(t, s, "a", nil, time.Time{}); !sameReadings(got, want) {
		t.Errorf("seeded, then written:\n%s\nwant\n%s", readingLines(got), readingLines(want))
	}

	earlier := seeded(a1, t0.Add(-5*24*time.Hour), 100)
	if err := s.SeedHistory(ctx, "a", history(earlier, seeded(a1, t0.Add(-time.Hour), 91), seeded(a2, t0.Add(-50*time.Hour), 70))); err != nil {
		t.Fatal(err)
	}
	want = append(append([]deviceReading{earlier}, r1...), w1, r2[0], w2)
	want = slices.Insert(want, 5, seeded(a2, t0.Add(-50*time.Hour), 70))
	if got := deviceHistory(t, s, "a", nil, time.Time{}); !sameReadings(got, want) {
		t.Errorf("seeded again, over days held and not:\n%s\nwant\n%s", readingLines(got), readingLines(want))
	}
	if got := deviceHistory(t, s, "b", nil, time.Time{}); len(got) != 0 {
		t.Errorf("another account has the history\n%s", readingLines(got))
	}
}

// testPruneHistory: pruning removes the readings of the days before the
// given time's, but each device's last day of readings before it, so that
// the state of every device at that time stays known.
func testPruneHistory(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	mustReplaceLayout(t, s, testLayout("b", true))
	a1 := device("0000000000A1", "a-1", 90) // changes every day at noon, a second time on day 3
	a2 := device("0000000000A2", "a-2", 90) // changes on day 0 only
	b1 := device("0000000000B1", "1", 90)   // account b: changes on days 0 and 1
	day := func(n int) time.Time { return time.Date(2026, 11, 10+n, 12, 0, 0, 0, time.UTC) }
	var r1, r2, rb []deviceReading
	for n := range 6 {
		a1.Compartments[0].Level = 90 - n
		if n == 0 {
			a2.Compartments[0].Level = 50
		}
		writeDevices(t, s, "a", day(n), []domain.Device{a1, a2})
		r1 = append(r1, reading(a1, day(n)))
		if n == 0 {
			r2 = append(r2, reading(a2, day(n)))
		}
		if n == 3 {
			a1.Compartments[0].Level = 10
			writeDevices(t, s, "a", day(n).Add(time.Hour), []domain.Device{a1, a2})
			r1 = append(r1, reading(a1, day(n).Add(time.Hour)))
		}
		if n < 2 {
			b1.Compartments[0].Level = 90 - n
			writeDevices(t, s, "b", day(n), []domain.Device{b1})
			rb = append(rb, reading(b1, day(n)))
		}
	}
	// r1: days 0, 1, 2, 3, 3, 4, 5.
	all := func(account string) []deviceReading { return deviceHistory(t, s, account, nil, day(-10)) }
	if got, want := all("a"), append(slices.Clone(r1), r2...); !sameReadings(got, want) {
		t.Fatalf("before pruning:\n%s\nwant\n%s", readingLines(got), readingLines(want))
	}
	prune := func(before time.Time) {
		t.Helper()
		if err := s.PruneHistory(ctx, before); err != nil {
			t.Fatal(err)
		}
	}
	prune(day(3).Add(-time.Minute)) // 11:59 on day 3
	if got, want := all("a"), append(slices.Clone(r1[2:]), r2...); !sameReadings(got, want) {
		t.Errorf("pruned before day 3:\n%s\nwant days 2 to 5 of a1, and a2's one day\n%s", readingLines(got), readingLines(want))
	}
	if got := all("b"); !sameReadings(got, rb[1:]) {
		t.Errorf("pruned before day 3, account b:\n%s\nwant its last day\n%s", readingLines(got), readingLines(rb[1:]))
	}
	if got, want := deviceHistory(t, s, "a", nil, day(3)), append(slices.Clone(r1[2:]), r2...); !sameReadings(got, want) {
		t.Errorf("from the time pruned to:\n%s\nwant\n%s", readingLines(got), readingLines(want))
	}
	prune(day(3).Add(-time.Minute)) // again: nothing more
	prune(day(5).Add(time.Hour))
	if got, want := all("a"), append(slices.Clone(r1[5:]), r2...); !sameReadings(got, want) {
		t.Errorf("pruned before day 5:\n%s\nwant\n%s", readingLines(got), readingLines(want))
	}
}

// testKeepHistory: writes that begin while the store keeps no history
// record nothing, a refresh under way when it is turned off included;
// once it keeps it again, writes record what changed since the cache was
// last written.
func testKeepHistory(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	h := &historyReader{t: t, s: s, account: "a"}
	a1 := device("0000000000A1", "a-1", 90)
	a2 := device("0000000000A2", "a-2", 90)
	s.KeepHistory(false)
	writeDevices(t, s, "a", t0, []domain.Device{a1, a2})
	a1.Compartments[0].Level = 80
	writeDevices(t, s, "a", t0.Add(time.Minute), []domain.Device{a1, a2})
	h.expect("writes while no history is kept")

	s.KeepHistory(true)
	a2.Compartments[0].Level = 70
	writeDevices(t, s, "a", t0.Add(2*time.Minute), []domain.Device{a1, a2})
	h.expect("a write once it is kept again", reading(a2, t0.Add(2*time.Minute)))

	r, err := s.BeginDevices(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Rollback()
	r.SeenAt(t0.Add(3 * time.Minute))
	a1.Compartments[0].Level = 60
	if err := r.Write(ctx, []domain.Device{a1, a2}); err != nil {
		t.Fatal(err)
	}
	s.KeepHistory(false)
	if _, err := r.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	s.KeepHistory(true)
	h.expect("a refresh that began while history was kept, committed after it stopped", reading(a1, t0.Add(3*time.Minute)))
}

// testHistoryOfAFailedRefresh: a refresh that rolls back, or whose commit
// fails, records no readings.
func testHistoryOfAFailedRefresh(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	h := &historyReader{t: t, s: s, account: "a"}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	a1 := device("0000000000A1", "a-1", 90)
	fail := func(at time.Time, devices ...domain.Device) {
		t.Helper()
		for _, commit := range []bool{false, true} {
			r, err := s.BeginDevices(ctx, "a")
			if err != nil {
				t.Fatal(err)
			}
			r.SeenAt(at)
			if err := r.Write(ctx, devices); err != nil {
				t.Fatal(err)
			}
			if commit {
				if _, err := r.Commit(cancelled); err == nil {
					t.Error("a refresh of devices committed with a cancelled context succeeded")
				}
			}
			r.Rollback()
		}
	}
	fail(t0, a1)
	h.expect("a first refresh that failed")
	writeDevices(t, s, "a", t0.Add(time.Minute), []domain.Device{a1})
	h.expect("the first refresh that commits", reading(a1, t0.Add(time.Minute)))
	a1.Compartments[0].Level = 80
	fail(t0.Add(2*time.Minute), a1)
	h.expect("a change that failed")
	writeDevices(t, s, "a", t0.Add(3*time.Minute), []domain.Device{a1})
	h.expect("the change committed", reading(a1, t0.Add(3*time.Minute)))
}

// writeDevices writes an account's devices as the service was seen at
// seen, a page at a time, and commits.
func writeDevices(t *testing.T, s store.Store, account string, seen time.Time, pages ...[]domain.Device) {
	t.Helper()
	ctx := t.Context()
	r, err := s.BeginDevices(ctx, account)
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
	if _, err := r.Commit(ctx); err != nil {
		t.Fatal(err)
	}
}

// deviceReading is a reading of one device.
type deviceReading struct {
	MAC string
	store.Reading
}

// reading is the reading a write that saw the service at at records of d.
func reading(d domain.Device, at time.Time) deviceReading {
	r := deviceReading{MAC: d.MAC, Reading: store.Reading{
		At: at, Battery: -1, BatteryState: d.BatteryState, Offline: d.Offline, LastSeen: d.LastSeen,
	}}
	for _, c := range d.Compartments {
		r.Levels = append(r.Levels, c.Level)
	}
	if d.Battery != nil {
		r.Battery = *d.Battery
	}
	return r
}

// deviceHistory returns an account's history from from, by MAC then time.
func deviceHistory(t *testing.T, s store.Store, account string, macs []string, from time.Time) []deviceReading {
	t.Helper()
	got, err := s.DeviceHistory(t.Context(), account, macs, from)
	if err != nil {
		t.Fatalf("DeviceHistory(%s, %v, %s): %v", account, macs, from.Format(time.RFC3339), err)
	}
	var out []deviceReading
	for _, mac := range slices.Sorted(maps.Keys(got)) {
		if len(got[mac]) == 0 {
			t.Errorf("DeviceHistory(%s) lists %s without readings", account, mac)
		}
		for _, r := range got[mac] {
			out = append(out, deviceReading{mac, r})
		}
	}
	return out
}

// historyReader reads the readings an account's writes record, of the
// devices of the given MACs (those the cache holds when there are none):
// each next returns those recorded since the last, by MAC then time.
type historyReader struct {
	t       *testing.T
	s       store.Store
	account string
	macs    []string
	read    map[string]int // how many of each reading were read, by its line
}

func (h *historyReader) next() []deviceReading {
	h.t.Helper()
	all := deviceHistory(h.t, h.s, h.account, h.macs, time.Time{})
	left := maps.Clone(h.read)
	h.read = map[string]int{}
	var got []deviceReading
	for _, r := range all {
		line := readingLines([]deviceReading{r})
		h.read[line]++
		if left[line] > 0 {
			left[line]--
		} else {
			got = append(got, r)
		}
	}
	for line, n := range left {
		if n > 0 {
			h.t.Errorf("a reading read before is gone:%s", line)
		}
	}
	return got
}

// expect checks the readings recorded since the last read.
func (h *historyReader) expect(step string, want ...deviceReading) {
	h.t.Helper()
	if got := h.next(); !sameReadings(got, want) {
		h.t.Errorf("%s recorded\n%s\nwant\n%s", step, readingLines(got), readingLines(want))
	}
}

// sameReadings compares readings, their times by instant.
func sameReadings(got, want []deviceReading) bool {
	return slices.EqualFunc(got, want, func(g, w deviceReading) bool {
		return g.MAC == w.MAC && g.At.Equal(w.At) && slices.Equal(g.Levels, w.Levels) && g.Battery == w.Battery &&
			g.BatteryState == w.BatteryState && g.Offline == w.Offline && g.LastSeen.Equal(w.LastSeen)
	})
}

func readingLines(rs []deviceReading) string {
	if len(rs) == 0 {
		return "  (none)"
	}
	var b strings.Builder
	for i, r := range rs {
		if i > 0 {
			b.WriteByte('\n')
		}
		seen := "never"
		if !r.LastSeen.IsZero() {
			seen = r.LastSeen.UTC().Format(time.RFC3339)
		}
		fmt.Fprintf(&b, "  %s at %s levels %v battery %d %q offline %t seen %s",
			r.MAC, r.At.UTC().Format(time.RFC3339), r.Levels, r.Battery, r.BatteryState, r.Offline, seen)
	}
	return b.String()
}

// testEachDeviceHistory: a span's readings of an account's devices come
// one device at a time, in order of MAC, each with the last reading
// before the span and none taken at or after its end, and with where the
// device is; the same readings DeviceHistory reads. Dispensers only, or
// some buildings only, when the filter says so; another account's never;
// the first error of the reader stops the read.
func testEachDeviceHistory(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	l := testLayout("a", false)
	l.Buildings = append(l.Buildings, domain.Building{ID: "a-b2", Name: "Annex"})
	l.Floors = append(l.Floors, domain.Floor{ID: "a-f3", BuildingID: "a-b2", Name: "Ground"})
	l.Rooms = append(l.Rooms, domain.Room{ID: "a-r3", FloorID: "a-f3", Name: "Lobby"})
	l.Locations = append(l.Locations, domain.Location{ID: "a-5", RoomID: "a-r3", Name: "Soap", Type: domain.Soap})
	mustReplaceLayout(t, s, l)
	mustReplaceLayout(t, s, testLayout("b", false))
	a1, a2, a3 := device("0000000000A1", "a-1", 90), device("0000000000A2", "a-5", 50), device("0000000000A3", "a-2", 40)
	a3.Compartments = nil // a sensor, not a dispenser
	from, to := t0.Add(-10*24*time.Hour), t0.Add(-2*24*time.Hour)
	seeded := func(mac string, at time.Time, level int) store.Reading {
		return store.Reading{At: at, Levels: []int{level}, Battery: 80, BatteryState: domain.BatteryNormal, LastSeen: at}
	}
	history := map[string][]store.Reading{
		a1.MAC: {seeded(a1.MAC, from.Add(-3*24*time.Hour), 100), seeded(a1.MAC, from.Add(-time.Hour), 60), seeded(a1.MAC, from.Add(time.Hour), 0),
			seeded(a1.MAC, from.Add(26*time.Hour), 100), seeded(a1.MAC, to.Add(-time.Second), 0), seeded(a1.MAC, to, 100)},
		a2.MAC: {seeded(a2.MAC, from.Add(2*24*time.Hour), 30), seeded(a2.MAC, from.Add(5*24*time.Hour+7*time.Hour), 0)},
		a3.MAC: {{At: from.Add(time.Hour), Battery: 50, BatteryState: domain.BatteryNormal}},
		// A device the cache does not hold: its readings are not read.
		"0000000000A9": {seeded("0000000000A9", from.Add(time.Hour), 0)},
	}
	if err := s.SeedHistory(ctx, "a", history); err != nil {
		t.Fatal(err)
	}
	if err := s.SeedHistory(ctx, "b", map[string][]store.Reading{"0000000000B1": {seeded("0000000000B1", from.Add(time.Hour), 0)}}); err != nil {
		t.Fatal(err)
	}
	writeDevices(t, s, "a", t0, []domain.Device{a1, a2, a3})
	writeDevices(t, s, "b", t0, []domain.Device{device("0000000000B1", "b-1", 0)})

	type got struct {
		MAC, Location, Building string
		Readings                []deviceReading
	}
	read := func(f store.HistoryFilter) []got {
		t.Helper()
		var out []got
		err := s.EachDeviceHistory(ctx, f, func(d store.DeviceReadings) error {
			g := got{MAC: d.MAC, Location: d.LocationID, Building: d.BuildingID}
			for _, r := range d.Readings {
				r.Levels = slices.Clone(r.Levels) // the reader's only during the call
				g.Readings = append(g.Readings, deviceReading{d.MAC, r})
			}
			out = append(out, g)
			return nil
		})
		if err != nil {
			t.Fatalf("EachDeviceHistory(%+v): %v", f, err)
		}
		return out
	}
	macs := func(gs []got) string {
		var out []string
		for _, g := range gs {
			out = append(out, g.MAC+"@"+g.Location+"/"+g.Building)
		}
		return strings.Join(out, " ")
	}

	all := read(store.HistoryFilter{Account: "a", From: from, To: to})
	if m := macs(all); m != "0000000000A1@a-1/a-b1 0000000000A2@a-5/a-b2 0000000000A3@a-2/a-b1" {
		t.Fatalf("the devices read: %s", m)
	}
	a1Want := []deviceReading{{a1.MAC, history[a1.MAC][1]}, {a1.MAC, history[a1.MAC][2]}, {a1.MAC, history[a1.MAC][3]}, {a1.MAC, history[a1.MAC][4]}}
	if !sameReadings(all[0].Readings, a1Want) {
		t.Errorf("A1's readings of the span:\n%s\nwant the last before it and none from its end:\n%s", readingLines(all[0].Readings), readingLines(a1Want))
	}
	// The same as DeviceHistory's, cut at the span's end.
	for _, g := range all {
		var want []deviceReading
		for _, r := range deviceHistory(t, s, "a", []string{g.MAC}, from) {
			if r.At.Before(to) {
				want = append(want, r)
			}
		}
		if !sameReadings(g.Readings, want) {
			t.Errorf("%s read one device at a time:\n%s\nwant as DeviceHistory reads it:\n%s", g.MAC, readingLines(g.Readings), readingLines(want))
		}
	}
	if m := macs(read(store.HistoryFilter{Account: "a", From: from, To: to, Dispensers: true})); m != "0000000000A1@a-1/a-b1 0000000000A2@a-5/a-b2" {
		t.Errorf("the dispensers read: %s", m)
	}
	if m := macs(read(store.HistoryFilter{Account: "a", From: from, To: to, Buildings: []string{"a-b2"}})); m != "0000000000A2@a-5/a-b2" {
		t.Errorf("the devices of building a-b2 read: %s", m)
	}
	if m := macs(read(store.HistoryFilter{Account: "a", From: from, To: to, Buildings: []string{}})); m != "" {
		t.Errorf("no building's devices read: %s", m)
	}
	if m := macs(read(store.HistoryFilter{Account: "a", From: to.Add(3 * 24 * time.Hour)})); m != "0000000000A1@a-1/a-b1 0000000000A2@a-5/a-b2 0000000000A3@a-2/a-b1" {
		t.Errorf("from after every seeded reading, open-ended: %s; want each device's state from its last reading", m)
	}
	if m := macs(read(store.HistoryFilter{Account: "a", From: from.Add(-30 * 24 * time.Hour), To: from.Add(-20 * 24 * time.Hour)})); m != "" {
		t.Errorf("a span before every reading: %s", m)
	}
	if m := macs(read(store.HistoryFilter{Account: "b", From: from, To: to})); m != "0000000000B1@b-1/b-b1" {
		t.Errorf("account b's devices read: %s", m)
	}
	// Many devices, read in parts by some engines: each once, in order.
	many := []domain.Device{a1, a2, a3}
	seeds := map[string][]store.Reading{}
	for i := range 450 {
		d := device(fmt.Sprintf("0000000001%02X", i), "a-3", 50)
		if i >= 256 {
			d.MAC = fmt.Sprintf("0000000002%02X", i-256)
		}
		many = append(many, d)
		if i%3 > 0 { // a third without readings
			seeds[d.MAC] = []store.Reading{seeded(d.MAC, from.Add(time.Duration(i)*time.Minute), i%2*50)}
		}
	}
	if err := s.SeedHistory(ctx, "a", seeds); err != nil {
		t.Fatal(err)
	}
	writeDevices(t, s, "a", t0, many)
	var seen []string
	for _, g := range read(store.HistoryFilter{Account: "a", From: from, To: to, Dispensers: true}) {
		seen = append(seen, g.MAC)
		if want, ok := seeds[g.MAC]; ok && (len(g.Readings) != 1 || !g.Readings[0].At.Equal(want[0].At) || !slices.Equal(g.Readings[0].Levels, want[0].Levels)) {
			t.Errorf("%s's readings: %s; want %s", g.MAC, readingLines(g.Readings), readingLines([]deviceReading{{g.MAC, want[0]}}))
		}
	}
	if len(seen) != 2+len(seeds) || !slices.IsSorted(seen) || len(slices.Compact(slices.Clone(seen))) != len(seen) {
		t.Errorf("of %d dispensers with readings, %d read, in order: %t", 2+len(seeds), len(seen), slices.IsSorted(seen))
	}

	stop := fmt.Errorf("enough")
	n := 0
	err := s.EachDeviceHistory(ctx, store.HistoryFilter{Account: "a", From: from, To: to}, func(store.DeviceReadings) error { n++; return stop })
	if err != stop || n != 1 {
		t.Errorf("a reader's error: %v after %d devices; want it returned after the first", err, n)
	}
}
