package domain

import (
	"reflect"
	"testing"
	"time"
)

func TestFoldFaultsSameWayForBothGenerations(t *testing.T) {
	tests := []struct {
		name  string
		flags map[string][]bool
		want  []Fault
	}{
		{"nothing set", map[string][]bool{"jam_fault": {false}, "sensor_fault": {false}, "system_fault": {false}}, nil},
		{"gen 2 jam", map[string][]bool{"jam_fault": {true}, "sensor_fault": {false}}, []Fault{{FaultJam, "jam_fault"}}},
		{"gen 1 second jam condition", map[string][]bool{"jam_fault": {false, true}, "leak": {false}}, []Fault{{FaultJam, "jam_fault"}}},
		{"gen 1 tear bar is a jam", map[string][]bool{"jam_fault": {false, false}, "tear_bar_fault": {true}}, []Fault{{FaultJam, "tear_bar_fault"}}},
		{"gen 1 calibration is a system fault", map[string][]bool{"calibration_fault": {true}}, []Fault{{FaultSystem, "calibration_fault"}}},
		{"gen 1 communication is a sensor fault", map[string][]bool{"communication_fault": {true}}, []Fault{{FaultSensor, "communication_fault"}}},
		{"gen 1 incorrectly loaded is a sensor fault", map[string][]bool{"incorrectly_loaded": {true}}, []Fault{{FaultSensor, "incorrectly_loaded"}}},
		{"one fault per kind, named by the spec's first field", map[string][]bool{"communication_fault": {true}, "sensor_fault": {true}}, []Fault{{FaultSensor, "sensor_fault"}}},
		{"gen 1 detail kept", map[string][]bool{"safety_check": {true}, "leak": {true}}, []Fault{{FaultOther, "leak"}, {FaultOther, "safety_check"}}},
		{"unknown keys kept after known ones", map[string][]bool{"valve_stuck": {true}, "a_new_fault": {true}, "system_fault": {true}},
			[]Fault{{FaultSystem, "system_fault"}, {FaultOther, "a_new_fault"}, {FaultOther, "valve_stuck"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FoldFaults(tt.flags); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("FoldFaults = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestFaultWords(t *testing.T) {
	jam := Fault{FaultJam, "tear_bar_fault"}
	if jam.Label() != "Jammed" || jam.Detail() != "tear bar" || jam.Action() != AlertJam.Action() {
		t.Errorf("tear bar fault reads %q (%q): %q", jam.Label(), jam.Detail(), jam.Action())
	}
	if got := (Fault{FaultOther, "valve_stuck"}).Label(); got != "Valve stuck" {
		t.Errorf("unknown fault label = %q, want it shown as it is, in words", got)
	}
}

func TestClassify(t *testing.T) {
	low, shutdown := BatteryLow, BatteryShutdown
	tests := []struct {
		name    string
		d       Device
		overdue bool
		want    Health
	}{
		{"all fine", Device{Compartments: []Compartment{{Level: 80}}, BatteryState: BatteryNormal}, false, HealthOK},
		{"product low", Device{Compartments: []Compartment{{Level: 10, Low: true}}}, false, HealthAttention},
		{"battery low", Device{BatteryState: low}, false, HealthAttention},
		{"one roll out of four", Device{Compartments: []Compartment{{Level: 0, Out: true, Low: true}, {Level: 90}, {Level: 90}, {Level: 90}}}, false, HealthAction},
		{"battery shutdown", Device{BatteryState: shutdown}, false, HealthAction},
		{"a fault", Device{Faults: []Fault{{FaultSensor, "sensor_fault"}}}, false, HealthAction},
		{"an overdue alert", Device{}, true, HealthAction},
		{"offline wins over what it last said", Device{Offline: true, Compartments: []Compartment{{Out: true}}}, false, HealthOffline},
	}
	for _, tt := range tests {
		if got := Classify(tt.d, tt.overdue); got != tt.want {
			t.Errorf("%s: Classify = %s, want %s", tt.name, got, tt.want)
		}
	}
	if Worse(HealthOffline, HealthAction) != HealthAction || Worse(HealthAttention, HealthOffline) != HealthOffline {
		t.Error("Worse ranks action above offline above attention")
	}
}

func TestHealthNamesRoundTrip(t *testing.T) {
	for _, h := range Healths {
		if got, ok := ParseHealth(h.String()); !ok || got != h {
			t.Errorf("ParseHealth(%q) = %v, %v", h.String(), got, ok)
		}
	}
	if _, ok := ParseHealth("purple"); ok {
		t.Error("ParseHealth accepted an unknown class")
	}
	var c Counts
	for _, h := range []Health{HealthOK, HealthOK, HealthAction, HealthOffline, HealthAttention} {
		c.Add(h)
	}
	if c.Total() != 5 || c.Of(HealthOK) != 2 || c.Of(HealthAction) != 1 {
		t.Errorf("counts = %+v", c)
	}
}

func TestAlertWords(t *testing.T) {
	for _, typ := range AlertTypes {
		if typ.Label() == "" || typ.Action() == "" {
			t.Errorf("%s has no words or no action", typ)
		}
	}
	if got := AlertType("leak_detected").Label(); got != "Leak detected" {
		t.Errorf("unknown type label = %q", got)
	}
	if !ResolvedByOffline.MayBeUnfixed() || ResolvedByDevice.MayBeUnfixed() {
		t.Error("only resolved-by-offline may leave the problem unfixed")
	}
	created := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	a := Alert{Status: AlertClosed, Created: created, Resolved: created.Add(90 * time.Minute)}
	if a.TimeToResolve() != 90*time.Minute {
		t.Errorf("time to resolve = %s", a.TimeToResolve())
	}
	if (Alert{Status: AlertOpen, Created: created}).TimeToResolve() != 0 {
		t.Error("an open alert has a time to resolve")
	}
}

func TestLaterKeepsTheLaterStateOfAnAlert(t *testing.T) {
	created := time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)
	open := Alert{ID: "a1", LocationID: "7", Status: AlertOpen, Type: AlertConsumableOut, Created: created, RefillCount: 1}
	raised := open
	raised.RefillCount = 2
	overdue := open
	overdue.Overdue = true
	closed := open
	closed.Status, closed.Resolved, closed.Resolution, closed.RefillCount = AlertClosed, created.Add(2*time.Hour), ResolvedByDevice, 2
	closedLater := closed
	closedLater.Resolved = created.Add(3 * time.Hour)
	tests := []struct {
		name          string
		cached, event Alert
		want          Alert
		changed       bool
	}{
		{"a raised refill count", open, raised, raised, true},
		{"a lower refill count that came late", raised, open, raised, false},
		{"overdue set", open, overdue, overdue, true},
		{"overdue does not go away on a late event", overdue, open, overdue, false},
		{"an open alert closes", raised, closed, closed, true},
		{"a closed alert never opens again", closed, raised, closed, false},
		{"the same close twice", closed, closed, closed, false},
		{"a later close wins", closed, closedLater, closedLater, true},
		{"an earlier close does not", closedLater, closed, closedLater, false},
		{"the same event twice", raised, raised, raised, false},
	}
	for _, tt := range tests {
		got, changed := Later(tt.cached, tt.event)
		if changed != tt.changed || got.Status != tt.want.Status || got.RefillCount != tt.want.RefillCount ||
			got.Overdue != tt.want.Overdue || !got.Resolved.Equal(tt.want.Resolved) {
			t.Errorf("%s: got %+v (changed %v), want %+v (changed %v)", tt.name, got, changed, tt.want, tt.changed)
		}
	}
	// Whatever order the events of one alert arrive in, the last state is
	// the same.
	events := []Alert{open, raised, overdue, closed}
	perms := [][]int{{0, 1, 2, 3}, {3, 2, 1, 0}, {1, 3, 0, 2}, {2, 0, 3, 1}}
	for _, p := range perms {
		state := events[p[0]]
		for _, i := range p[1:] {
			state, _ = Later(state, events[i])
		}
		if state.Open() || state.RefillCount != 2 {
			t.Errorf("events in order %v end as %+v, want closed with 2 refills", p, state)
		}
	}
}

func TestScreenDimming(t *testing.T) {
	night := Screen{DimFrom: 22 * 60, DimTo: 6 * 60}
	for m, want := range map[int]bool{23 * 60: true, 2 * 60: true, 6 * 60: false, 12 * 60: false, 22 * 60: true} {
		if night.Dimmed(m) != want {
			t.Errorf("22:00–06:00 at minute %d: dimmed %v", m, !want)
		}
	}
	if (Screen{DimFrom: -1, DimTo: -1}).Dimmed(0) {
		t.Error("a screen without dimming dims")
	}
}
