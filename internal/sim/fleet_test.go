package sim

import (
	"fmt"
	"hash/fnv"
	"regexp"
	"strconv"
	"testing"
	"time"
)

var testNow = time.Date(2026, 11, 18, 9, 30, 0, 0, time.UTC) // a Wednesday

func newTestWorld(t testing.TB, locations, accounts int, history time.Duration) (*World, *ManualClock) {
	t.Helper()
	clock := NewManualClock(testNow)
	w := New(Config{Seed: 42, Locations: locations, Accounts: accounts, History: history, Clock: clock, Zone: time.UTC})
	return w, clock
}

// findDevice returns the first device of the account that satisfies ok.
func findDevice(t testing.TB, a *Account, ok func(*Device) bool) *Device {
	t.Helper()
	for _, l := range a.Locations {
		for _, d := range l.Devices {
			if ok(d) {
				return d
			}
		}
	}
	t.Fatal("no device in the fleet matches")
	return nil
}

func isFourRoll(d *Device) bool { return d.Location.Type == Tissue && len(d.compartments) == 4 }

// quiet clears a device's open alerts and state so a test can set up its own.
func quiet(a *Account, d *Device) {
	for _, typ := range alertOrder {
		if al := d.open[typ]; al != nil {
			a.resolve(al, ResolvedByDevice, a.now)
		}
	}
	d.visits = nil
	d.timers = deviceTimers{}
	d.faults = 0
	d.silentSince, d.frozen, d.offline = time.Time{}, nil, false
	d.refill()
	d.replaceBatteries()
}

func setLevels(d *Device, levels ...float64) {
	for i := range d.compartments {
		d.compartments[i].level = levels[i]
	}
}

func TestConsumableRefillCount(t *testing.T) {
	t.Parallel()
	w, _ := newTestWorld(t, 300, 2, 0)
	out, low := w.accounts[0], w.accounts[1]
	if out.Preference != PreferOut || low.Preference != PreferLow {
		t.Fatalf("preferences = %s, %s; want out, low", out.Preference, low.Preference)
	}
	tests := []struct {
		name    string
		account *Account
		device  func(*Device) bool
		levels  []float64
		want    int // 0: no alert
	}{
		{"four-roll, all four out", out, isFourRoll, []float64{0, 0, 0, 0}, 4},
		{"four-roll, two out", out, isFourRoll, []float64{0, 0, 60, 80}, 2},
		{"four-roll, one out", out, isFourRoll, []float64{0, 60, 70, 80}, 1},
		{"four-roll, low is not out under preference out", out, isFourRoll, []float64{10, 10, 10, 10}, 0},
		{"four-roll, all four low under preference low", low, isFourRoll, []float64{10, 12, 5, 3}, 4},
		{"four-roll, one out and one low under preference low", low, isFourRoll, []float64{0, 12, 50, 90}, 2},
		{"four-roll, one low under preference low", low, isFourRoll, []float64{14, 50, 50, 90}, 1},
		{"towel out", out, func(d *Device) bool { return d.Location.Type == Towel }, []float64{0}, 1},
		{"soap low under preference low", low, func(d *Device) bool { return d.Location.Type == Soap }, []float64{9}, 1},
		{"soap full", low, func(d *Device) bool { return d.Location.Type == Soap }, []float64{100}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := tt.account
			d := findDevice(t, a, tt.device)
			quiet(a, d)
			setLevels(d, tt.levels...)
			a.reconcile(d, a.now)
			al := d.open[AlertConsumableOut]
			if tt.want == 0 {
				if al != nil {
					t.Fatalf("consumable_out raised with refill_count %d; want no alert", al.RefillCount)
				}
				return
			}
			if al == nil {
				t.Fatalf("no consumable_out alert; want refill_count %d", tt.want)
			}
			if al.RefillCount != tt.want {
				t.Errorf("refill_count = %d, want %d", al.RefillCount, tt.want)
			}
		})
	}
}

func TestConsumableRefillCountGrowsWhileOpen(t *testing.T) {
	t.Parallel()
	w, _ := newTestWorld(t, 300, 1, 0)
	a := w.accounts[0]
	d := findDevice(t, a, isFourRoll)
	quiet(a, d)
	setLevels(d, 0, 50, 50, 50)
	a.reconcile(d, a.now)
	al := d.open[AlertConsumableOut]
	setLevels(d, 0, 0, 0, 50)
	a.reconcile(d, a.now)
	if d.open[AlertConsumableOut] != al {
		t.Fatal("a second alert was raised for the same device; want the open one updated")
	}
	if al.RefillCount != 3 {
		t.Errorf("refill_count = %d after a third roll ran out, want 3", al.RefillCount)
	}
	d.refill()
	a.reconcile(d, a.now)
	if al.Open() || al.Resolution != ResolvedByDevice {
		t.Errorf("after the refill the alert is open=%v resolution=%q; want closed RESOLVED", al.Open(), al.Resolution)
	}
}

func TestBatteryRefillCount(t *testing.T) {
	t.Parallel()
	w, _ := newTestWorld(t, 300, 1, 0)
	a := w.accounts[0]
	tests := []struct {
		name   string
		device func(*Device) bool
		levels []float64
		want   int
	}{
		{"four-roll, both sets depleted", isFourRoll, []float64{2, 4}, 2},
		{"four-roll, one set depleted", isFourRoll, []float64{3, 60}, 1},
		{"four-roll, both sets low", isFourRoll, []float64{15, 18}, 0},
		{"vertical tissue", func(d *Device) bool { return d.Location.Type == Tissue && len(d.compartments) == 1 }, []float64{1}, 1},
		{"towel", func(d *Device) bool { return d.Location.Type == Towel }, []float64{0}, 1},
		{"sanitizer", func(d *Device) bool { return d.Location.Type == Sanitizer }, []float64{5}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := findDevice(t, a, tt.device)
			quiet(a, d)
			for i := range d.batteries {
				d.batteries[i].level = tt.levels[i]
			}
			a.reconcile(d, a.now)
			al := d.open[AlertBatteryOut]
			switch {
			case tt.want == 0 && al != nil:
				t.Fatalf("battery_out raised with refill_count %d; want none", al.RefillCount)
			case tt.want > 0 && al == nil:
				t.Fatalf("no battery_out alert; want refill_count %d", tt.want)
			case tt.want > 0 && al.RefillCount != tt.want:
				t.Errorf("refill_count = %d, want %d", al.RefillCount, tt.want)
			}
		})
	}
}

func TestRefillCountZeroForOtherTypes(t *testing.T) {
	t.Parallel()
	w, _ := newTestWorld(t, 2000, 1, 60*24*time.Hour)
	a := w.accounts[0]
	seen := map[AlertType]bool{}
	for _, al := range a.alerts {
		seen[al.Type] = true
		switch al.Type {
		case AlertConsumableOut, AlertBatteryOut:
			if al.RefillCount < 1 {
				t.Errorf("%s alert %s has refill_count %d; want at least 1", al.Type, al.ID, al.RefillCount)
			}
		default:
			if al.RefillCount != 0 {
				t.Errorf("%s alert %s has refill_count %d; want 0", al.Type, al.ID, al.RefillCount)
			}
		}
	}
	for _, typ := range alertOrder {
		if !seen[typ] {
			t.Errorf("60 days of 2000 locations raised no %s alert", typ)
		}
	}
}

func TestFaultFieldsByGeneration(t *testing.T) {
	t.Parallel()
	w, _ := newTestWorld(t, 300, 1, 0)
	a := w.accounts[0]
	gen1 := findDevice(t, a, func(d *Device) bool { return d.Generation == Gen1 && d.Location.Type == Towel })
	gen2 := findDevice(t, a, func(d *Device) bool { return d.Generation == Gen2 && d.Location.Type == Towel })
	quiet(a, gen1)
	quiet(a, gen2)

	gen1.faults.set(faultTearBar)
	gen2.faults.set(faultJam)
	a.reconcile(gen1, a.now)
	a.reconcile(gen2, a.now)

	s1, s2 := a.stateOf(gen1, a.now), a.stateOf(gen2, a.now)
	if len(s1.Faults) != 12 {
		t.Errorf("generation 1 reports %d fault keys, want the 12 of the spec", len(s1.Faults))
	}
	if got := s1.Faults["jam_fault"]; len(got) != 2 {
		t.Errorf("generation 1 jam_fault = %v, want two jam conditions", got)
	}
	if got := s1.Faults["tear_bar_fault"]; len(got) != 1 || !got[0] {
		t.Errorf("generation 1 tear_bar_fault = %v, want [true]", got)
	}
	want2 := map[string]bool{"jam_fault": true, "sensor_fault": true, "system_fault": true}
	if len(s2.Faults) != len(want2) {
		t.Errorf("generation 2 reports keys %v, want only jam_fault, sensor_fault, system_fault", keys(s2.Faults))
	}
	for k := range s2.Faults {
		if !want2[k] {
			t.Errorf("generation 2 reports %s, which it merges or drops", k)
		}
	}
	if got := s2.Faults["jam_fault"]; len(got) != 1 || !got[0] {
		t.Errorf("generation 2 jam_fault = %v, want [true]", got)
	}
	// The same physical problem raises the same alert type in both generations.
	for _, d := range []*Device{gen1, gen2} {
		if d.open[AlertJam] == nil {
			t.Errorf("generation %s towel with a jam has no open jam_fault alert", d.Generation)
		}
	}
}

func keys(m map[string][]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestFaultAlertsFollowTheSpecTable(t *testing.T) {
	t.Parallel()
	w, _ := newTestWorld(t, 2000, 1, 60*24*time.Hour)
	allowed := map[AlertType]map[DeviceType]bool{
		AlertJam:               {Towel: true, Soap: true, Sanitizer: true},
		AlertSensor:            {Towel: true, Soap: true, Sanitizer: true},
		AlertIncorrectlyLoaded: {Towel: true, Soap: true, Sanitizer: true},
		AlertSystem:            {Tissue: true, Towel: true, Soap: true, Sanitizer: true},
		AlertBatteryOut:        {Tissue: true, Towel: true, Soap: true, Sanitizer: true},
		AlertConsumableOut:     {Tissue: true, Towel: true, Soap: true, Sanitizer: true},
		AlertDeviceOff:         {Tissue: true, Towel: true, Soap: true, Sanitizer: true, Collector: true},
	}
	for _, al := range w.accounts[0].alerts {
		typ := al.Device.Location.Type
		if !allowed[al.Type][typ] {
			t.Errorf("alert %s of type %s on a %s dispenser, which the spec's table does not allow", al.ID, al.Type, typ)
		}
		if al.Type == AlertIncorrectlyLoaded && al.Device.Generation != Gen1 {
			t.Errorf("incorrectly_loaded alert on a generation %s device; generation 2 reports it as a sensor fault", al.Device.Generation)
		}
	}
}

func TestOfflineAfter24Hours(t *testing.T) {
	t.Parallel()
	w, clock := newTestWorld(t, 300, 1, 0)
	a := w.accounts[0]
	d := findDevice(t, a, func(d *Device) bool { return d.Location.Type == Soap })
	a.mu.Lock()
	quiet(a, d)
	setLevels(d, 0) // an open consumable_out alert that going offline will close
	a.reconcile(d, a.now)
	consumable := d.open[AlertConsumableOut]
	d.timers.silence = a.now.Add(time.Minute)
	a.schedule(d)
	a.wakeups.fix(d)
	a.mu.Unlock()

	advance := func(by time.Duration) deviceStateJSON {
		clock.Add(by)
		a.mu.Lock()
		defer a.mu.Unlock()
		a.advance(clock.Now())
		return a.stateOf(d, clock.Now())
	}
	s := advance(2 * time.Minute)
	silentSince := s.LastSeen
	if s.DeviceOff {
		t.Fatal("device_off right after the device fell silent; want false until 24 hours pass")
	}
	s = advance(23 * time.Hour)
	if s.DeviceOff {
		t.Error("device_off after 23 hours of silence; want false")
	}
	if s.LastSeen != silentSince {
		t.Errorf("last_seen moved from %s to %s while the device was silent", silentSince, s.LastSeen)
	}
	s = advance(time.Hour)
	if !s.DeviceOff {
		t.Fatal("device_off false after 24 hours of silence; want true")
	}
	if s.LastSeen != silentSince {
		t.Errorf("last_seen = %s, want it frozen at %s", s.LastSeen, silentSince)
	}
	off := d.open[AlertDeviceOff]
	if off == nil {
		t.Fatal("no device_off alert for an offline device")
	}
	if consumable.Open() || consumable.Resolution != ResolvedByOffline {
		t.Errorf("consumable_out alert open=%v resolution=%q; want RESOLVED_BY_OFFLINE", consumable.Open(), consumable.Resolution)
	}

	// Staff eventually attend to the device_off alert and bring the device back.
	s = advance(20 * 24 * time.Hour)
	if s.DeviceOff {
		t.Error("device still offline 20 days later; staff should have restored it")
	}
	if off.Open() || off.Resolution == ResolvedByOffline {
		t.Errorf("device_off alert open=%v resolution=%q; want closed when the device is back", off.Open(), off.Resolution)
	}
}

func TestOverdue(t *testing.T) {
	t.Parallel()
	created := testNow
	for typ, deadline := range Deadlines {
		open := &Alert{Type: typ, Created: created}
		if open.Overdue(created.Add(deadline)) {
			t.Errorf("%s open exactly at its deadline is overdue; want not yet", typ)
		}
		if !open.Overdue(created.Add(deadline + time.Second)) {
			t.Errorf("%s open past its deadline of %s is not overdue", typ, deadline)
		}
		late := &Alert{Type: typ, Created: created, Resolved: created.Add(deadline + time.Minute), Resolution: ResolvedByDevice}
		if !late.Overdue(created.Add(30 * 24 * time.Hour)) {
			t.Errorf("%s resolved after its deadline: overdue = false, want it kept true", typ)
		}
		early := &Alert{Type: typ, Created: created, Resolved: created.Add(deadline / 2), Resolution: ResolvedByDevice}
		if early.Overdue(created.Add(30 * 24 * time.Hour)) {
			t.Errorf("%s resolved in time: overdue = true, want false", typ)
		}
	}
}

func TestHistoryHasOpenOverdueAndClosedAlerts(t *testing.T) {
	t.Parallel()
	w, clock := newTestWorld(t, 2000, 1, 30*24*time.Hour)
	a := w.accounts[0]
	var open, overdue int
	resolutions := map[Resolution]int{}
	for _, al := range a.alerts {
		if al.Open() {
			open++
			if al.Overdue(clock.Now()) {
				overdue++
			}
		} else {
			resolutions[al.Resolution]++
		}
	}
	if open == 0 || overdue == 0 {
		t.Errorf("after 30 days of history: %d open, %d overdue; want some of each", open, overdue)
	}
	for _, r := range []Resolution{ResolvedByDevice, ResolvedByOffline, ResolvedByUser} {
		if resolutions[r] == 0 {
			t.Errorf("no alert resolved as %s in 30 days of history", r)
		}
	}
	if first := a.alerts[0].Created; first.Before(clock.Now().Add(-30 * 24 * time.Hour)) {
		t.Errorf("first alert created %s, before the start of the history", first)
	}
}

func TestAlertsAreSorted(t *testing.T) {
	t.Parallel()
	w, _ := newTestWorld(t, 1000, 1, 30*24*time.Hour)
	a := w.accounts[0]
	for i := 1; i < len(a.alerts); i++ {
		p, c := a.alerts[i-1], a.alerts[i]
		if c.Created.Before(p.Created) || c.seq <= p.seq {
			t.Fatalf("alerts %d and %d out of creation order", i-1, i)
		}
	}
	for i := 1; i < len(a.resolved); i++ {
		p, c := a.resolved[i-1], a.resolved[i]
		if c.Resolved.Before(p.Resolved) || c.resolvedSeq <= p.resolvedSeq {
			t.Fatalf("resolved alerts %d and %d out of resolution order", i-1, i)
		}
		if c.Resolved.Before(c.Created) {
			t.Fatalf("alert %s resolved before it was created", c.ID)
		}
	}
}

func TestConsumptionFollowsTimeOfDay(t *testing.T) {
	t.Parallel()
	u := newUsage(0)
	day := func(h int) time.Time { return time.Date(2026, 11, 18, h, 0, 0, 0, time.UTC) } // Wednesday
	night := u.at(day(5)) - u.at(day(2))
	noon := u.at(day(14)) - u.at(day(11))
	if noon < 10*night {
		t.Errorf("usage 11:00-14:00 = %.2f, 02:00-05:00 = %.2f; want the day far busier than the night", noon, night)
	}
	weekday := u.at(day(24)) - u.at(day(0))
	saturday := u.at(day(24+72)) - u.at(day(72))
	if saturday >= weekday/2 {
		t.Errorf("Saturday usage %.2f, Wednesday %.2f; want weekends much quieter", saturday, weekday)
	}

	// The alerts of a month follow: far more products run out by day.
	w, _ := newTestWorld(t, 2000, 1, 30*24*time.Hour)
	byHour := [24]int{}
	for _, al := range w.accounts[0].alerts {
		if al.Type == AlertConsumableOut {
			byHour[al.Created.Hour()]++
		}
	}
	if byHour[12] < 5*byHour[3] {
		t.Errorf("consumable_out alerts raised 12:00-13:00: %d, 03:00-04:00: %d; want far more at midday", byHour[12], byHour[3])
	}
}

func TestUsageInverse(t *testing.T) {
	t.Parallel()
	u := newUsage(-5 * time.Hour)
	for _, tt := range []time.Time{
		testNow, testNow.Add(17*time.Hour + 3*time.Minute), time.Date(2026, 3, 29, 23, 59, 59, 0, time.UTC),
	} {
		back := u.timeAt(u.at(tt))
		if d := back.Sub(tt); d > time.Microsecond || d < -time.Microsecond {
			t.Errorf("timeAt(at(%s)) = %s", tt, back)
		}
	}
	if a, b := u.at(testNow), u.at(testNow.Add(time.Minute)); !(b > a) {
		t.Error("usage does not increase with time")
	}
}

func TestSameSeedSameWorld(t *testing.T) {
	t.Parallel()
	digest := func(seed uint64) uint64 {
		clock := NewManualClock(testNow)
		w := New(Config{Seed: seed, Locations: 500, History: 20 * 24 * time.Hour, Clock: clock, Zone: time.UTC})
		a := w.accounts[0]
		h := fnv.New64a()
		fmt.Fprint(h, a.ID, len(a.alerts), len(a.resolved))
		for _, al := range a.alerts {
			fmt.Fprint(h, al.ID, al.Created.UnixMilli(), al.Resolution, al.RefillCount)
		}
		for _, l := range a.Locations {
			fmt.Fprint(h, a.deviceJSON(l, clock.Now()))
		}
		return h.Sum64()
	}
	if first, again := digest(42), digest(42); first != again {
		t.Error("the same seed gave two different worlds")
	}
	if digest(42) == digest(43) {
		t.Error("two seeds gave the same world")
	}
}

var (
	buildingName = regexp.MustCompile(`^[A-Z][a-z]+ (Tower|House|Hall|Wing|Centre|Plaza|Court|Pavilion|Building|Annex)( \d+)?$`)
	floorName    = regexp.MustCompile(`^(Ground Floor|Level [1-9]\d*)$`)
	roomName     = regexp.MustCompile(`^(Men's Restroom|Women's Restroom|Accessible Restroom|All-Gender Restroom|Staff Kitchen|Cleaner's Cupboard) (G|\d+)\.\d{2}$`)
)

func TestLayout(t *testing.T) {
	t.Parallel()
	for _, n := range []int{1, 57, 2000} {
		w, _ := newTestWorld(t, n, 1, 0)
		a := w.accounts[0]
		if len(a.Locations) != n {
			t.Errorf("--devices %d made %d device locations", n, len(a.Locations))
		}
		types := map[DeviceType]int{}
		var last int64
		for _, l := range a.Locations {
			if l.ID <= last {
				t.Fatalf("location ids not ascending: %d after %d", l.ID, last)
			}
			last = l.ID
			types[l.Type]++
			for _, d := range l.Devices {
				if !regexp.MustCompile(`^[0-9A-F]{12}$`).MatchString(d.MAC) {
					t.Errorf("MAC %q is not 12 hexadecimal digits", d.MAC)
				}
			}
		}
		for _, b := range a.Buildings {
			if !buildingName.MatchString(b.Name) {
				t.Errorf("building name %q", b.Name)
			}
			for _, f := range b.Floors {
				if !floorName.MatchString(f.Name) {
					t.Errorf("floor name %q", f.Name)
				}
				for _, r := range f.Rooms {
					if !roomName.MatchString(r.Name) {
						t.Errorf("room name %q", r.Name)
					}
					seen := map[string]bool{}
					for _, l := range r.Locations {
						if seen[l.Name] {
							t.Errorf("room %q has two locations named %q", r.Name, l.Name)
						}
						seen[l.Name] = true
					}
				}
			}
		}
		if n == 2000 {
			for _, typ := range []DeviceType{Tissue, Towel, Soap, Sanitizer, Collector} {
				if types[typ] == 0 {
					t.Errorf("no %s in a fleet of 2000", typ)
				}
			}
			gens, fourRoll, vertical, pairs := map[Generation]int{}, 0, 0, 0
			for _, d := range a.devices {
				gens[d.Generation]++
				if isFourRoll(d) {
					fourRoll++
					if len(d.batteries) != 2 {
						t.Errorf("four-roll tissue %s has %d battery sets, want 2", d.MAC, len(d.batteries))
					}
				} else if d.Location.Type == Tissue {
					vertical++
				}
			}
			for _, l := range a.Locations {
				if len(l.Devices) == 2 {
					pairs++
				}
			}
			if gens[Gen1] == 0 || gens[Gen2] == 0 || fourRoll == 0 || vertical == 0 || pairs == 0 {
				t.Errorf("generations %v, four-roll %d, vertical %d, two-device locations %d; want some of each", gens, fourRoll, vertical, pairs)
			}
		}
	}
}

func TestScaledClock(t *testing.T) {
	t.Parallel()
	wall := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := &ScaledClock{wallStart: wall, simStart: wall, speed: 60, wall: func() time.Time { return wall.Add(time.Minute) }}
	if got := c.Now().Sub(wall); got != time.Hour {
		t.Errorf("one real minute at speed 60 moved the clock %s, want 1h", got)
	}
}

func TestLevelsStayWithinBounds(t *testing.T) {
	t.Parallel()
	w, clock := newTestWorld(t, 1000, 1, 30*24*time.Hour)
	a := w.accounts[0]
	for _, l := range a.Locations {
		for _, s := range a.deviceJSON(l, clock.Now()).DeviceState {
			for i, p := range s.Status.Product {
				if p < 0 || p > 100 {
					t.Errorf("%s product[%d] = %d", s.DeviceMacID, i, p)
				}
				if s.Status.ProductOut[i] != (p == 0) {
					t.Errorf("%s product[%d] = %d but product_out = %v", s.DeviceMacID, i, p, s.Status.ProductOut[i])
				}
			}
			if b, err := strconv.Atoi(s.Status.BatteryLevel); err != nil || b < 0 || b > 100 {
				t.Errorf("%s battery_level = %q, want a number from 0 to 100", s.DeviceMacID, s.Status.BatteryLevel)
			}
		}
	}
}

func TestEmptyShowsAtOnce(t *testing.T) {
	t.Parallel()
	w, _ := newTestWorld(t, 100, 1, 0)
	a := w.accounts[0]
	d := findDevice(t, a, func(d *Device) bool { return d.Location.Type == Towel && d.offline == false })
	if !w.Empty(d.MAC) {
		t.Fatal("Empty did not find the device")
	}
	s := a.stateOf(d, w.Now())
	if s.Status.Product[0] != 0 || !s.Status.ProductOut[0] {
		t.Errorf("after Empty the device reports %v, out %v", s.Status.Product, s.Status.ProductOut)
	}
	if d.open[AlertConsumableOut] == nil {
		t.Error("no consumable_out alert after Empty")
	}
	if w.Empty("000000000000") {
		t.Error("Empty found a device that does not exist")
	}
}
