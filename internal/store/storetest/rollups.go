package storetest

import (
	"maps"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// model is what the cache of one account should hold, kept by the test
// beside the store: the rollups it should read are counted from it with
// the domain's rules.
type model struct {
	account string
	layout  domain.Layout
	devices map[string]domain.Device // by MAC
	alerts  map[string]domain.Alert  // by id
}

func newModel(account string) *model {
	return &model{account: account, devices: map[string]domain.Device{}, alerts: map[string]domain.Alert{}}
}

// replaceDevices is a refresh of the devices: those listed, the later
// listing of a MAC listed twice.
func (m *model) replaceDevices(devices []domain.Device) {
	clear(m.devices)
	for _, d := range devices {
		m.devices[d.MAC] = d
	}
}

// upsertAlerts is a refresh of alerts.
func (m *model) upsertAlerts(alerts []domain.Alert) {
	for _, a := range alerts {
		m.alerts[a.ID] = a
	}
}

// applyEvents is what the service's events bring: the later state of each.
func (m *model) applyEvents(alerts []domain.Alert) {
	for _, a := range alerts {
		if c, ok := m.alerts[a.ID]; ok {
			a, _ = domain.Later(c, a)
		}
		m.alerts[a.ID] = a
	}
}

// rollups counts, by scope and id, every location of the layout by its
// health and the open and overdue alerts of each part; alerts of
// locations the layout does not list count for the account only.
func (m *model) rollups() map[domain.Scope]map[string]domain.Rollup {
	out := map[domain.Scope]map[string]domain.Rollup{
		domain.ScopeAccount: {m.account: {}}, domain.ScopeBuilding: {}, domain.ScopeFloor: {}, domain.ScopeRoom: {},
	}
	floorBuilding, roomFloor := map[string]string{}, map[string]string{}
	for _, f := range m.layout.Floors {
		floorBuilding[f.ID] = f.BuildingID
	}
	for _, r := range m.layout.Rooms {
		roomFloor[r.ID] = r.FloorID
	}
	devices := map[string][]domain.Device{}
	for _, d := range m.devices {
		devices[d.LocationID] = append(devices[d.LocationID], d)
	}
	open, overdue := map[string]int{}, map[string]int{}
	for _, a := range m.alerts {
		if a.Open() {
			open[a.LocationID]++
			if a.Overdue {
				overdue[a.LocationID]++
			}
		}
	}
	add := func(scope domain.Scope, id string, counted bool, h domain.Health, open, overdue int) {
		r := out[scope][id]
		if counted {
			r.Add(h)
		}
		r.OpenAlerts += open
		r.OverdueAlerts += overdue
		out[scope][id] = r
	}
	listed := map[string]bool{}
	for _, l := range m.layout.Locations {
		listed[l.ID] = true
		// The worst of its devices', offline when none has reported, and
		// needs-action when an open alert is overdue: action ranks above
		// offline, with or without devices.
		h := domain.LocationHealth(devices[l.ID], false)
		if overdue[l.ID] > 0 {
			h = domain.Worse(h, domain.HealthAction)
		}
		floor := roomFloor[l.RoomID]
		add(domain.ScopeAccount, m.account, true, h, open[l.ID], overdue[l.ID])
		add(domain.ScopeBuilding, floorBuilding[floor], true, h, open[l.ID], overdue[l.ID])
		add(domain.ScopeFloor, floor, true, h, open[l.ID], overdue[l.ID])
		add(domain.ScopeRoom, l.RoomID, true, h, open[l.ID], overdue[l.ID])
	}
	for loc, n := range open {
		if !listed[loc] {
			add(domain.ScopeAccount, m.account, false, 0, n, overdue[loc])
		}
	}
	return out
}

// checkRollups compares the store's rollups with the model's, every part
// of every scope, and each part read alone.
func checkRollups(t *testing.T, s store.Store, m *model, step string) {
	t.Helper()
	ctx := t.Context()
	nonZero := func(rs map[string]domain.Rollup) map[string]domain.Rollup {
		out := map[string]domain.Rollup{}
		for id, r := range rs {
			if r != (domain.Rollup{}) {
				out[id] = r
			}
		}
		return out
	}
	for scope, want := range m.rollups() {
		got, err := s.Rollups(ctx, m.account, scope)
		if err != nil {
			t.Fatalf("after %s: Rollups(%s): %v", step, scope, err)
		}
		if g, w := nonZero(got), nonZero(want); !maps.Equal(g, w) {
			t.Errorf("after %s, %s rollups are\n%v\nwant\n%v", step, scope, g, w)
		}
		ids := make([]string, 0, len(want))
		for id, w := range want {
			ids = append(ids, id)
			if r, err := s.Rollup(ctx, m.account, scope, id); err != nil || r != w {
				t.Errorf("after %s, Rollup(%s %s) = %+v, %v; want %+v", step, scope, id, r, err, w)
			}
		}
		if len(ids) > 0 {
			some, err := s.Rollups(ctx, m.account, scope, append(ids[:1:1], "no-such-part")...)
			if w := nonZero(map[string]domain.Rollup{ids[0]: want[ids[0]]}); err != nil || !maps.Equal(nonZero(some), w) {
				t.Errorf("after %s, Rollups(%s, %s) = %v, %v; want %v", step, scope, ids[0], some, err, w)
			}
		}
	}
}

// testRollupsFollowEveryStep: after each refresh, and each batch of the
// service's events, the counts read are those of the layout, devices and
// alerts cached, through devices that move or are listed twice, rooms
// that move, locations that go, and alerts at locations the layout does
// not list.
func testRollupsFollowEveryStep(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	m := newModel("a")
	other := testLayout("b", true) // an account with the same identifiers, which must not count
	mustReplaceLayout(t, s, other)
	mustReplaceDevices(t, s, "b", []domain.Device{device("0000000000B1", "1", 0)})
	mustApplyAlerts(t, s, "b", store.AlertWrite{Upserts: []domain.Alert{alert("b-x", "2", t0, true, true)}})

	m.layout = testLayout("a", true)
	mustReplaceLayout(t, s, m.layout)
	checkRollups(t, s, m, "the layout")

	devices := []domain.Device{
		device("0000000000A1", "1", 90),
		device("0000000000A2", "1", 0),  // moves on: listed again below
		device("0000000000A3", "3", 10), // attention
		device("0000000000A2", "2", 90), // the later listing counts
		device("0000000000A5", "9", 0),  // at a location the layout does not list
	}
	mustReplaceDevices(t, s, "a", devices)
	m.replaceDevices(devices)
	checkRollups(t, s, m, "the devices")

	alerts := []domain.Alert{alert("x1", "1", t0, true, true), alert("x2", "3", t0, true, false), alert("x3", "9", t0, true, true), alert("x4", "4", t0, false, true)}
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: alerts, SeenAt: t0})
	m.upsertAlerts(alerts)
	checkRollups(t, s, m, "the alerts")

	m.layout.Rooms[1].FloorID = "f1" // room 2 moves to the first floor
	m.layout.Locations = m.layout.Locations[:3]
	mustReplaceLayout(t, s, m.layout)
	checkRollups(t, s, m, "a new layout")

	mustReplaceDevices(t, s, "a", devices[2:])
	m.replaceDevices(devices[2:])
	checkRollups(t, s, m, "devices gone")

	closed := alert("x2", "3", t0, false, false)
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{closed}, Remove: []string{"x3"}, SeenAt: t0})
	m.upsertAlerts([]domain.Alert{closed})
	delete(m.alerts, "x3")
	checkRollups(t, s, m, "an alert closed and one removed")

	// The service's events adjust the rollups of the locations they touch
	// and leave them as a count of the cache gives.
	t1 := t0.Add(2 * time.Hour)
	for _, ev := range []struct {
		step   string
		alerts []domain.Alert
	}{
		{"an event opening an alert", []domain.Alert{alert("e1", "2", t1, true, false)}},
		{"an event making it overdue", []domain.Alert{alert("e1", "2", t1, true, true)}},
		{"an event closing an overdue alert", []domain.Alert{alert("x1", "1", t0, false, true)}},
		{"a late event that changes nothing", []domain.Alert{alert("x1", "1", t0, true, true)}},
		{"events at a location the layout does not list", []domain.Alert{alert("e2", "9", t1, true, true), alert("e3", "9", t1, true, false)}},
		{"events at several locations at once", []domain.Alert{alert("e4", "3", t1, true, true), alert("e2", "9", t1, false, true), alert("e1", "2", t1, false, true)}},
		{"an event and its repeat in one batch", []domain.Alert{alert("e5", "1", t1, true, false), alert("e5", "1", t1, true, true)}},
	} {
		if _, err := s.ApplyAlertEvents(ctx, "a", ev.alerts, t1); err != nil {
			t.Fatal(err)
		}
		m.applyEvents(ev.alerts)
		checkRollups(t, s, m, ev.step)
	}

	// A refresh after the events counts the same.
	mustReplaceLayout(t, s, testLayout("a", true))
	m.layout = testLayout("a", true)
	checkRollups(t, s, m, "the layout as it was")

	// The other account's counts are its own.
	mb := newModel("b")
	mb.layout = other
	mb.replaceDevices([]domain.Device{device("0000000000B1", "1", 0)})
	mb.upsertAlerts([]domain.Alert{alert("b-x", "2", t0, true, true)})
	checkRollups(t, s, mb, "account a's refreshes")
}
