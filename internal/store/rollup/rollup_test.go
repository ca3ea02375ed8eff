package rollup

import (
	"maps"
	"testing"

	"washboard/internal/domain"
)

// world is what the rollups of an account are counted from.
type world struct {
	places  []Place
	healths map[string]domain.Health
	alerts  map[string]Alerts
}

func (w world) state(location string) State {
	s := State{Alerts: w.alerts[location]}
	for _, p := range w.places {
		if p.Location == location {
			s.Place, s.InLayout = p, true
		}
	}
	h, reported := w.healths[location]
	s.Health = Health(h, reported, s.Alerts)
	return s
}

// TestDeltasMoveSumsAsACountWould: the rollups of before, moved by the
// deltas of the locations that changed, are the rollups of after.
func TestDeltasMoveSumsAsACountWould(t *testing.T) {
	places := []Place{{"l1", "r1", "f1", "b1"}, {"l2", "r1", "f1", "b1"}, {"l3", "r2", "f2", "b1"}}
	before := world{
		places:  places,
		healths: map[string]domain.Health{"l1": domain.HealthOK, "l3": domain.HealthAttention},
		alerts:  map[string]Alerts{"l1": {Open: 1}, "l9": {Open: 2, Overdue: 1}},
	}
	after := world{
		places:  places,
		healths: before.healths,
		// l1's alert turns overdue, l2 gets one, and of the two at l9,
		// which the layout does not list, the overdue one stays.
		alerts: map[string]Alerts{"l1": {Open: 1, Overdue: 1}, "l2": {Open: 1}, "l9": {Open: 1, Overdue: 1}},
	}
	touched := []string{"l1", "l2", "l9"}
	was, is := map[string]State{}, map[string]State{}
	for _, id := range touched {
		was[id], is[id] = before.state(id), after.state(id)
	}
	got := map[Key]domain.Rollup{}
	for k, r := range Sum("a", before.places, before.healths, maps.Clone(before.alerts)) {
		got[k] = *r
	}
	for _, d := range Deltas("a", was, is) {
		r := got[d.Key]
		r.OK += d.Counts.OK
		r.Attention += d.Counts.Attention
		r.Action += d.Counts.Action
		r.Offline += d.Counts.Offline
		r.OpenAlerts += d.Counts.OpenAlerts
		r.OverdueAlerts += d.Counts.OverdueAlerts
		got[d.Key] = r
	}
	want := map[Key]domain.Rollup{}
	for k, r := range Sum("a", after.places, after.healths, after.alerts) {
		want[k] = *r
	}
	if !maps.Equal(got, want) {
		t.Errorf("moved by the deltas: %v\ncounted: %v", got, want)
	}
	if a := want[Key{domain.ScopeAccount, "a"}]; a.Action != 1 || a.Offline != 1 || a.Attention != 1 || a.OpenAlerts != 3 || a.OverdueAlerts != 2 {
		t.Errorf("account = %+v", a)
	}
}

// TestHealth: offline without devices, needs-action with an overdue alert
// whether or not a device has reported.
func TestHealth(t *testing.T) {
	for _, c := range []struct {
		devices  domain.Health
		reported bool
		alerts   Alerts
		want     domain.Health
	}{
		{domain.HealthAttention, true, Alerts{}, domain.HealthAttention},
		{domain.HealthOK, false, Alerts{Open: 1}, domain.HealthOffline},
		{domain.HealthOK, false, Alerts{Open: 1, Overdue: 1}, domain.HealthAction},
		{domain.HealthAttention, true, Alerts{Open: 2, Overdue: 1}, domain.HealthAction},
	} {
		if got := Health(c.devices, c.reported, c.alerts); got != c.want {
			t.Errorf("Health(%v, %v, %+v) = %v, want %v", c.devices, c.reported, c.alerts, got, c.want)
		}
	}
}
