package domain

import (
	"reflect"
	"testing"
	"time"
)

func TestFoldFaultsSameWayForBothGenerations(t *testing.T) {
	gen1Keys := []string{"jam_fault", "sensor_fault", "system_fault", "calibration_fault", "communication_fault",
		"incorrectly_loaded", "leak", "maintenance_required", "no_i2c_communication", "safety_check",
		"tear_bar_fault", "user_sensor_occluded"}
	gen2Keys := []string{"jam_fault", "sensor_fault", "system_fault"}
	tests := []struct {
		name  string
		keys  []string
		flags map[string][]bool
		want  []Fault
	}{
		{"nothing set", gen2Keys, map[string][]bool{"jam_fault": {false}}, nil},
		{"gen 2 jam", gen2Keys, map[string][]bool{"jam_fault": {true}}, []Fault{{FaultJam, "jam_fault"}}},
		{"gen 1 second jam condition", gen1Keys, map[string][]bool{"jam_fault": {false, true}}, []Fault{{FaultJam, "jam_fault"}}},
		{"gen 1 tear bar is a jam", gen1Keys, map[string][]bool{"tear_bar_fault": {true}}, []Fault{{FaultJam, "tear_bar_fault"}}},
		{"gen 1 calibration is a system fault", gen1Keys, map[string][]bool{"calibration_fault": {true}}, []Fault{{FaultSystem, "calibration_fault"}}},
		{"gen 1 communication is a sensor fault", gen1Keys, map[string][]bool{"communication_fault": {true}}, []Fault{{FaultSensor, "communication_fault"}}},
		{"gen 1 incorrectly loaded is a sensor fault", gen1Keys, map[string][]bool{"incorrectly_loaded": {true}}, []Fault{{FaultSensor, "incorrectly_loaded"}}},
		{"one fault per kind", gen1Keys, map[string][]bool{"sensor_fault": {true}, "communication_fault": {true}}, []Fault{{FaultSensor, "sensor_fault"}}},
		{"gen 1 detail kept", gen1Keys, map[string][]bool{"leak": {true}, "safety_check": {true}}, []Fault{{FaultOther, "leak"}, {FaultOther, "safety_check"}}},
		{"unknown key kept", []string{"jam_fault", "valve_stuck"}, map[string][]bool{"valve_stuck": {true}}, []Fault{{FaultOther, "valve_stuck"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FoldFaults(tt.keys, tt.flags); !reflect.DeepEqual(got, tt.want) {
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
