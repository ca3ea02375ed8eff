package outbox

import (
	"fmt"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// TestDeviceFacts: the kinds a device records, from the cache's version
// of it (none: a device new to the cache) and the write's.
func TestDeviceFacts(t *testing.T) {
	seen := time.Date(2026, 11, 18, 9, 0, 0, 0, time.UTC)
	dev := func(state domain.BatteryState, offline bool, out ...bool) *domain.Device {
		d := &domain.Device{MAC: "0000000000A1", LocationID: "1", BatteryState: state, Offline: offline, LastSeen: seen.Add(-time.Hour)}
		for _, o := range out {
			d.Compartments = append(d.Compartments, domain.Compartment{Out: o})
		}
		return d
	}
	for _, c := range []struct {
		name          string
		before, after *domain.Device
		want          []store.FactKind
	}{
		{"unchanged and well", dev(domain.BatteryNormal, false, false), dev(domain.BatteryNormal, false, false), nil},
		{"out, low and offline at once", dev(domain.BatteryNormal, false, false, false), dev(domain.BatteryLow, true, true, true),
			[]store.FactKind{store.FactProductOut, store.FactBatteryLow, store.FactDeviceOffline}},
		{"out, low and offline still", dev(domain.BatteryLow, true, true), dev(domain.BatteryLow, true, true), nil},
		{"another compartment out", dev(domain.BatteryNormal, false, true, false), dev(domain.BatteryNormal, false, true, true), []store.FactKind{store.FactProductOut}},
		{"a compartment more, out", dev(domain.BatteryNormal, false, true), dev(domain.BatteryNormal, false, true, true), []store.FactKind{store.FactProductOut}},
		{"a compartment refilled, one out moved", dev(domain.BatteryNormal, false, true, false), dev(domain.BatteryNormal, false, false, true), []store.FactKind{store.FactProductOut}},
		{"low to shut down", dev(domain.BatteryLow, false), dev(domain.BatteryShutdown, false), nil},
		{"normal to shut down", dev(domain.BatteryNormal, false), dev(domain.BatteryShutdown, false), []store.FactKind{store.FactBatteryLow}},
		{"unknown to low", dev(domain.BatteryUnknown, false), dev(domain.BatteryLow, false), []store.FactKind{store.FactBatteryLow}},
		{"a state the service adds to low", dev("Charging", false), dev(domain.BatteryLow, false), []store.FactKind{store.FactBatteryLow}},
		{"low to a state the service adds", dev(domain.BatteryLow, false), dev("Charging", false), nil},
		{"new, well", nil, dev(domain.BatteryNormal, false, false), nil},
		{"new, shut down and offline", nil, dev(domain.BatteryShutdown, true, false), []store.FactKind{store.FactBatteryLow, store.FactDeviceOffline}},
	} {
		got := DeviceFacts("a", c.before, *c.after, seen)
		if len(got) != len(c.want) {
			t.Errorf("%s: %+v; want %v", c.name, got, c.want)
			continue
		}
		for i, f := range got {
			if f.Kind != c.want[i] || f.Account != "a" || f.MAC != "0000000000A1" || f.LocationID != "1" || !f.At.Equal(c.after.LastSeen) {
				t.Errorf("%s: fact %d = %+v; want %s at the device's last-seen time", c.name, i, f, c.want[i])
			}
		}
		if len(c.want) > 0 && !DeviceMayRecord(*c.after) {
			t.Errorf("%s: records facts, but DeviceMayRecord says it may not", c.name)
		}
	}
	never := dev(domain.BatteryNormal, true)
	never.LastSeen = time.Time{}
	if got := DeviceFacts("a", nil, *never, seen); len(got) != 1 || !got[0].At.Equal(seen) {
		t.Errorf("a device never seen, offline: %+v; want one fact at %v", got, seen)
	}
}

// TestAlertFacts: the kinds an alert records, and when.
func TestAlertFacts(t *testing.T) {
	created := time.Date(2026, 11, 18, 9, 0, 0, 0, time.UTC)
	seen, earlier := created.Add(2*time.Hour), created.Add(time.Hour)
	alert := func(open, overdue bool, overdueSince time.Time) *domain.Alert {
		a := &domain.Alert{ID: "x1", LocationID: "1", Type: domain.AlertJam, Status: domain.AlertOpen, Created: created, Overdue: overdue, OverdueSince: overdueSince}
		if !open {
			a.Status = domain.AlertClosed
		}
		return a
	}
	type fact struct {
		kind store.FactKind
		at   time.Time
	}
	for _, c := range []struct {
		name          string
		before, after *domain.Alert
		want          []fact
	}{
		{"new and open", nil, alert(true, false, time.Time{}), []fact{{store.FactAlertOpened, created}}},
		{"new, open and overdue", nil, alert(true, true, time.Time{}), []fact{{store.FactAlertOpened, created}, {store.FactAlertOverdue, seen}}},
		{"new and closed", nil, alert(false, true, time.Time{}), nil},
		{"overdue", alert(true, false, time.Time{}), alert(true, true, time.Time{}), []fact{{store.FactAlertOverdue, seen}}},
		{"overdue again", alert(true, false, earlier), alert(true, true, time.Time{}), []fact{{store.FactAlertOverdue, earlier}}},
		{"overdue still", alert(true, true, earlier), alert(true, true, time.Time{}), nil},
		{"open again, overdue", alert(false, false, time.Time{}), alert(true, true, time.Time{}), nil},
		{"closed", alert(true, false, time.Time{}), alert(false, true, time.Time{}), nil},
	} {
		got := AlertFacts("a", c.before, *c.after, seen)
		if len(got) != len(c.want) {
			t.Errorf("%s: %+v; want %v", c.name, got, c.want)
			continue
		}
		for i, f := range got {
			if f.Kind != c.want[i].kind || !f.At.Equal(c.want[i].at) || f.AlertID != "x1" || f.AlertType != domain.AlertJam || f.MAC != "" {
				t.Errorf("%s: fact %d = %+v; want %s at %v", c.name, i, f, c.want[i].kind, c.want[i].at)
			}
		}
	}
}

// TestChanges: rows come back in the order the write first left them,
// each once, in their last version, with the cache's version when it was
// held; rows dropped do not come back unless left again.
func TestChanges(t *testing.T) {
	c := NewChanges[string]()
	c.Held("b", "b0")
	c.Leaves("a", "a1")
	c.Leaves("b", "b1")
	c.Leaves("a", "a2")
	c.Leaves("c", "c1")
	c.Drop("c")
	c.Drop("a")
	c.Leaves("a", "a3")
	c.Drop("never")
	var got []string
	for before, after := range c.All() {
		b := "-"
		if before != nil {
			b = *before
		}
		got = append(got, b+">"+after)
	}
	if want := "[->a3 b0>b1]"; fmt.Sprint(got) != want {
		t.Errorf("All = %v; want %s", got, want)
	}
	if !c.Knows("b") || c.Knows("a") {
		t.Error("Knows: want b alone")
	}
}
