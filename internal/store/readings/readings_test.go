package readings

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

var t0 = time.Date(2026, 11, 18, 9, 0, 0, 0, time.UTC)

func intp(v int) *int { return &v }

// same reports whether two readings are equal, as Decode gives them back.
func same(a, b store.Reading) bool {
	return a.At.Equal(b.At) && slices.Equal(a.Levels, b.Levels) && a.Battery == b.Battery &&
		a.BatteryState == b.BatteryState && a.Offline == b.Offline && a.LastSeen.Equal(b.LastSeen)
}

func sameAll(a, b []store.Reading) bool {
	return slices.EqualFunc(a, b, same)
}

func lines(rs []store.Reading) string {
	s := ""
	for _, r := range rs {
		s += fmt.Sprintf("\t%s %v battery %d %q offline %t seen %s\n", r.At.Format(time.RFC3339), r.Levels, r.Battery, r.BatteryState, r.Offline, r.LastSeen.Format(time.RFC3339))
	}
	return s
}

// TestRoundTrip: readings appended one at a time come back as they were,
// whatever changes from one to the next, at times to the second.
func TestRoundTrip(t *testing.T) {
	r := store.Reading{At: t0, Levels: []int{80, 60}, Battery: 90, BatteryState: domain.BatteryNormal, LastSeen: t0.Add(-2 * time.Minute)}
	next := func(minutes int, change func(r *store.Reading)) store.Reading {
		r.At = r.At.Add(time.Duration(minutes) * time.Minute)
		r.LastSeen = r.At.Add(-time.Minute)
		r.Levels = slices.Clone(r.Levels)
		change(&r)
		return r
	}
	day := []store.Reading{
		r,
		next(5, func(r *store.Reading) { r.Levels[0] = 79 }),
		next(5, func(r *store.Reading) { r.Battery = 89 }),
		next(5, func(r *store.Reading) { r.BatteryState = domain.BatteryLow }),
		next(5, func(r *store.Reading) { r.Offline = true; r.LastSeen = r.At.Add(-3 * time.Hour) }),
		next(5, func(r *store.Reading) { r.Offline = false }),
		next(0, func(r *store.Reading) { r.BatteryState = "Charging" }),
		next(1, func(r *store.Reading) { r.BatteryState = domain.BatteryShutdown; r.Battery = -1 }),
		next(1, func(r *store.Reading) { r.BatteryState = domain.BatteryUnknown; r.LastSeen = time.Time{} }),
		next(1, func(r *store.Reading) { r.Levels = []int{100, 100, 0, 127, 128, 1000} }),
		next(1, func(r *store.Reading) { r.Levels = nil }),
		next(1, func(r *store.Reading) { r.Levels = []int{-1, math.MaxInt, math.MinInt}; r.Battery = math.MaxInt }),
		next(-90, func(r *store.Reading) { r.Battery = math.MinInt }),        // the clock went back
		next(1, func(r *store.Reading) { r.LastSeen = r.At.Add(time.Hour) }), // a device's clock ahead
		next(24*60*400, func(r *store.Reading) {}),
	}
	var b []byte
	for i, r := range day {
		b = Append(b, r)
		got, err := Decode(b)
		if err != nil {
			t.Fatalf("after %d readings: %v", i+1, err)
		}
		if !sameAll(got, day[:i+1]) {
			t.Fatalf("after %d readings, decoded\n%swant\n%s", i+1, lines(got), lines(day[:i+1]))
		}
	}
	if e := Encode(day); !slices.Equal(e, b) {
		t.Errorf("Encode gives %x; appending one at a time %x", e, b)
	}

	fine := store.Reading{At: t0.Add(1500 * time.Millisecond), Battery: -1, LastSeen: t0.Add(999 * time.Millisecond)}
	got, _ := Decode(Append(nil, fine))
	if want := (store.Reading{At: t0.Add(time.Second), Battery: -1, LastSeen: t0}); len(got) != 1 || !same(got[0], want) {
		t.Errorf("a reading with fractions of seconds came back as\n%swant\n%s", lines(got), lines([]store.Reading{want}))
	}
}

// TestADayIsSmall: a day of a one-compartment dispenser whose level falls
// 40 times, and whose battery falls once, takes about 6 bytes a reading.
func TestADayIsSmall(t *testing.T) {
	var day []byte
	r := store.Reading{At: t0, Levels: []int{90}, Battery: 70, BatteryState: domain.BatteryNormal}
	for i := range 40 {
		r.At = t0.Add(time.Duration(i) * 17 * time.Minute)
		r.LastSeen = r.At.Add(-7 * time.Minute)
		r.Levels = []int{90 - i}
		if i == 20 {
			r.Battery = 69
		}
		day = Append(day, r)
	}
	if len(day) > 40*6+8 {
		t.Errorf("a day of 40 readings takes %d bytes, %.1f a reading", len(day), float64(len(day))/40)
	}
}

// TestAppendKeepsWhatDecodes: a day whose bytes end in a fault keeps the
// readings before it when the next reading is appended.
func TestAppendKeepsWhatDecodes(t *testing.T) {
	a := store.Reading{At: t0, Levels: []int{50}, Battery: -1}
	b := store.Reading{At: t0.Add(time.Minute), Levels: []int{49}, Battery: -1}
	c := store.Reading{At: t0.Add(2 * time.Minute), Levels: []int{48}, Battery: -1}
	for _, tc := range []struct {
		name string
		day  []byte
		want []store.Reading
	}{
		{"a fault after two readings", append(Encode([]store.Reading{a, b}), flagCount), []store.Reading{a, b, c}},
		{"a reading cut short", Encode([]store.Reading{a, b})[:len(Encode([]store.Reading{a, b}))-1], []store.Reading{a, c}},
		{"another format", []byte{9, 1, 2, 3}, []store.Reading{c}},
	} {
		got, err := Decode(Append(slices.Clone(tc.day), c))
		if err != nil || !sameAll(got, tc.want) {
			t.Errorf("%s: appended, decoded (%v)\n%swant\n%s", tc.name, err, lines(got), lines(tc.want))
		}
	}
}

// TestDecodeFaults: bytes that are not a day's readings say so, with the
// readings before the fault.
func TestDecodeFaults(t *testing.T) {
	a := store.Reading{At: t0, Levels: []int{50}, Battery: -1, LastSeen: t0}
	good := Encode([]store.Reading{a})
	for _, tc := range []struct {
		name string
		b    []byte
		n    int
	}{
		{"another format", []byte{2, 0, 0}, 0},
		{"a count of levels without levels", append(slices.Clone(good), flagCount, 0), 1},
		{"an unknown battery state", append(slices.Clone(good), 0x50, 0), 1},
		{"more levels than bytes", append(slices.Clone(good), flagLevels|flagCount, 0, 200, 1), 1},
		{"a battery state longer than the bytes", append(slices.Clone(good), stateOther<<stateShift, 0, 5, 'a'), 1},
		{"a varint that does not end", append(slices.Clone(good), 0, 0xff, 0xff), 1},
		{"a flags byte alone", append(slices.Clone(good), 0), 1},
	} {
		got, err := Decode(tc.b)
		if !errors.Is(err, ErrFormat) || len(got) != tc.n {
			t.Errorf("%s: %d readings, %v; want %d and ErrFormat", tc.name, len(got), err, tc.n)
		}
	}
	if got, err := Decode(nil); got != nil || err != nil {
		t.Errorf("no bytes: %v, %v; want nothing", got, err)
	}
}

// TestDay: days are UTC days since 1970-01-01, before it too.
func TestDay(t *testing.T) {
	for _, tc := range []struct {
		t    time.Time
		want int64
	}{
		{time.Unix(0, 0), 0},
		{time.Unix(86399, 999), 0},
		{time.Unix(86400, 0), 1},
		{time.Unix(-1, 0), -1},
		{time.Unix(-86400, 0), -1},
		{time.Unix(-86401, 0), -2},
		{time.Date(2026, 11, 18, 23, 59, 59, 0, time.FixedZone("east", 3600)), 20775},
	} {
		if got := Day(tc.t); got != tc.want {
			t.Errorf("Day(%s) = %d; want %d", tc.t, got, tc.want)
		}
		if d := Day(tc.t); DayStart(d).After(tc.t) || !DayStart(d+1).After(tc.t) {
			t.Errorf("%s is not in the day starting %s", tc.t, DayStart(d))
		}
	}
}

// TestFrom: readings from a time are those at or after it, with the last
// before it, in time order.
func TestFrom(t *testing.T) {
	at := func(minutes ...int) []store.Reading {
		var out []store.Reading
		for _, m := range minutes {
			out = append(out, store.Reading{At: t0.Add(time.Duration(m) * time.Minute), Battery: m})
		}
		return out
	}
	for _, tc := range []struct {
		name string
		in   []store.Reading
		from int
		want []store.Reading
	}{
		{"none", nil, 0, nil},
		{"all after", at(5, 10), 0, at(5, 10)},
		{"one at from", at(-5, 0, 5), 0, at(-5, 0, 5)},
		{"the last before", at(-10, -5, 5), 0, at(-5, 5)},
		{"all before", at(-10, -5), 0, at(-5)},
		{"out of order", at(5, -10, 10, -5), 0, at(-5, 5, 10)},
	} {
		if got := From(tc.in, t0.Add(time.Duration(tc.from)*time.Minute)); !sameAll(got, tc.want) {
			t.Errorf("%s: got\n%swant\n%s", tc.name, lines(got), lines(tc.want))
		}
	}
}

// TestJoin: each device's days are joined in the order added, a device
// added again after another keeps what it had, each device's readings
// are From the join's time, and a day that does not decode names its
// device and day.
func TestJoin(t *testing.T) {
	at := func(minutes ...int) []store.Reading {
		var out []store.Reading
		for _, m := range minutes {
			out = append(out, store.Reading{At: t0.Add(time.Duration(m) * time.Minute), Levels: []int{50 - m, m + 60}, Battery: m})
		}
		return out
	}
	day := Day(t0)
	j := NewJoin(t0)
	for _, d := range []struct {
		mac string
		rs  []store.Reading
	}{{"A", at(-20, -10)}, {"A", at(5)}, {"B", at(-5)}, {"A", at(15)}, {"C", at(1, 2)}} {
		if err := j.Add(d.mac, day, Encode(d.rs)); err != nil {
			t.Fatal(err)
		}
	}
	got, err := j.Done()
	if err != nil {
		t.Fatal(err)
	}
	for mac, want := range map[string][]store.Reading{"A": at(-10, 5, 15), "B": at(-5), "C": at(1, 2)} {
		if !sameAll(got[mac], want) {
			t.Errorf("%s: got\n%swant\n%s", mac, lines(got[mac]), lines(want))
		}
	}
	if len(got) != 3 {
		t.Errorf("%d devices; want 3", len(got))
	}
	// Readings' levels are their own: an append to one changes no other.
	a := got["A"]
	_ = append(a[0].Levels, 99)
	if !sameAll(a, at(-10, 5, 15)) {
		t.Errorf("an append to a reading's levels changed others:\n%s", lines(a))
	}

	j = NewJoin(t0)
	spoilt := Encode(at(1, 2))
	if err := j.Add("A", day, Encode(at(1))); err != nil {
		t.Fatal(err)
	}
	if err := j.Add("A", day+1, spoilt[:len(spoilt)-2]); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Done(); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "device A on "+DayStart(day+1).Format(time.DateOnly)) {
		t.Errorf("a spoilt day: %v; want ErrFormat naming device A and its day", err)
	}
}

// TestSum: a device's sum changes with its levels, battery percent and
// state and whether it is offline, and not with its last-seen time,
// faults or place.
func TestSum(t *testing.T) {
	base := domain.Device{MAC: "0000000000A1", LocationID: "1", Compartments: []domain.Compartment{{Level: 80}, {Level: 60}},
		Battery: intp(70), BatteryState: domain.BatteryNormal, LastSeen: t0}
	changed := map[string]func(d *domain.Device){
		"a level":         func(d *domain.Device) { d.Compartments[1].Level = 59 },
		"levels swapped":  func(d *domain.Device) { d.Compartments[0].Level, d.Compartments[1].Level = 60, 80 },
		"a compartment":   func(d *domain.Device) { d.Compartments = append(d.Compartments, domain.Compartment{}) },
		"no compartments": func(d *domain.Device) { d.Compartments = nil },
		"the battery":     func(d *domain.Device) { d.Battery = intp(69) },
		"no battery":      func(d *domain.Device) { d.Battery = nil },
		"battery state":   func(d *domain.Device) { d.BatteryState = domain.BatteryLow },
		"offline":         func(d *domain.Device) { d.Offline = true },
	}
	unchanged := map[string]func(d *domain.Device){
		"last seen": func(d *domain.Device) { d.LastSeen = t0.Add(time.Hour) },
		"faults":    func(d *domain.Device) { d.Faults = []domain.Fault{{Kind: "jam", Key: "k"}} },
		"low, out":  func(d *domain.Device) { d.Compartments[0].Low, d.Compartments[0].Out = true, true },
		"location":  func(d *domain.Device) { d.LocationID = "2" },
	}
	for name, change := range changed {
		d := base
		d.Compartments = slices.Clone(base.Compartments)
		change(&d)
		if Sum(d) == Sum(base) {
			t.Errorf("%s left the sum as it was", name)
		}
	}
	unreported, minusOne := base, base
	unreported.Battery, minusOne.Battery = nil, intp(-1)
	if Sum(unreported) != Sum(minusOne) {
		t.Error("a battery not reported and one of -1, which a reading does not tell apart, sum differently")
	}
	for name, change := range unchanged {
		d := base
		d.Compartments = slices.Clone(base.Compartments)
		change(&d)
		if Sum(d) != Sum(base) {
			t.Errorf("%s changed the sum", name)
		}
	}
}

// TestChanges: a write records the devices whose sums differ from the
// cache's, and those new to it, in their last version, by MAC.
func TestChanges(t *testing.T) {
	dev := func(mac string, level int) domain.Device {
		return domain.Device{MAC: mac, Compartments: []domain.Compartment{{Level: level}}, LastSeen: t0}
	}
	c := NewChanges(map[string]int64{"A": Sum(dev("A", 50)), "B": Sum(dev("B", 50)), "C": Sum(dev("C", 50)), "D": Sum(dev("D", 50))})
	for _, d := range []domain.Device{dev("D", 40), dev("A", 50), dev("B", 40), dev("C", 40), dev("E", 10)} {
		c.Listed(d, Sum(d))
	}
	for _, d := range []domain.Device{dev("C", 50), dev("B", 30), dev("F", 5)} { // a second page
		c.Listed(d, Sum(d))
	}
	macs, rs := c.Readings(t0)
	if want := []string{"B", "D", "E", "F"}; !slices.Equal(macs, want) {
		t.Fatalf("readings of %v; want %v", macs, want)
	}
	for i, want := range []int{30, 40, 10, 5} {
		if !slices.Equal(rs[i].Levels, []int{want}) || !rs[i].At.Equal(t0) {
			t.Errorf("%s: %+v; want level %d at %s", macs[i], rs[i], want, t0)
		}
	}
}

// FuzzDecode: Decode never panics; what decodes whole encodes again to
// the same readings; Append to any bytes keeps what decodes of them and
// adds the reading last.
func FuzzDecode(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{format})
	f.Add(Encode([]store.Reading{
		{At: t0, Levels: []int{80, 60}, Battery: 90, BatteryState: domain.BatteryNormal, LastSeen: t0},
		{At: t0.Add(time.Minute), Levels: []int{79, 60}, Battery: 90, BatteryState: "Charging", Offline: true},
	}))
	f.Add([]byte{format, stateOther << stateShift, 0, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Add([]byte{format, flagLevels, 0, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := Decode(b)
		if err == nil {
			again, err := Decode(Encode(got))
			if err != nil || !sameAll(again, got) {
				t.Fatalf("decoded\n%sencoded again and decoded (%v)\n%s", lines(got), err, lines(again))
			}
		}
		r := store.Reading{At: t0, Levels: []int{1}, Battery: -1}
		after, err := Decode(Append(slices.Clone(b), r))
		if err != nil || !sameAll(after, append(got, r)) {
			t.Fatalf("appended to\n%sdecoded (%v)\n%s", lines(got), err, lines(after))
		}
	})
}

// FuzzRoundTrip: readings of any values and times, to the second, come
// back as they were appended.
func FuzzRoundTrip(f *testing.F) {
	f.Add(int64(0), int64(60), int64(-30), []byte{80, 60}, int16(90), "Normal", true, false)
	f.Add(int64(1<<40), int64(-1<<40), int64(0), []byte{}, int16(-1), "", false, true)
	f.Fuzz(func(t *testing.T, at, step, seen int64, levels []byte, battery int16, state string, offline, noSeen bool) {
		var rs []store.Reading
		for i := range 3 {
			r := store.Reading{
				At: time.Unix(at+int64(i)*step, 0).UTC(), Battery: int(battery) + i, BatteryState: domain.BatteryState(state),
				Offline: offline != (i == 1), LastSeen: time.Unix(at-seen, 0).UTC(),
			}
			for j, l := range levels {
				r.Levels = append(r.Levels, int(int8(l))*(i+j+1))
			}
			if noSeen {
				r.LastSeen = time.Time{}
			}
			rs = append(rs, r)
		}
		var b []byte
		for _, r := range rs {
			b = Append(b, r)
		}
		got, err := Decode(b)
		if err != nil || !sameAll(got, rs) {
			t.Fatalf("appended\n%sdecoded (%v)\n%s", lines(rs), err, lines(got))
		}
	})
}
