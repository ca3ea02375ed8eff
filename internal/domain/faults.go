package domain

import (
	"sort"
	"strings"
)

// FaultKind is what a fault means for the people fixing it. Generation 2
// devices report three kinds; generation 1 reports finer flags that fold
// into them, and a few that stand on their own.
type FaultKind string

// The fault kinds.
const (
	FaultJam    FaultKind = "jam"
	FaultSensor FaultKind = "sensor"
	FaultSystem FaultKind = "system"
	FaultOther  FaultKind = "other" // a generation 1 flag without a generation 2 counterpart, or an unknown one
)

// Fault is one fault a device reports. Key is the field of the service that
// reported it ("tear_bar_fault"), so that a folded fault can still say what
// exactly the device detected.
type Fault struct {
	Kind FaultKind
	Key  string
}

// foldInto says which kind each fault field of the interface reports. The
// spec merges tear_bar_fault into jam_fault, calibration_fault into
// system_fault, and communication_fault, incorrectly_loaded and
// user_sensor_occluded into sensor_fault in generation 2. The others are
// generation 1 detail without a counterpart.
var foldInto = map[string]FaultKind{
	"jam_fault":            FaultJam,
	"tear_bar_fault":       FaultJam,
	"sensor_fault":         FaultSensor,
	"communication_fault":  FaultSensor,
	"incorrectly_loaded":   FaultSensor,
	"user_sensor_occluded": FaultSensor,
	"system_fault":         FaultSystem,
	"calibration_fault":    FaultSystem,
}

// faultKeyOrder is the order of the fault fields in the spec.
var faultKeyOrder = []string{
	"jam_fault", "sensor_fault", "system_fault", "calibration_fault", "communication_fault",
	"incorrectly_loaded", "leak", "maintenance_required", "no_i2c_communication", "safety_check",
	"tear_bar_fault", "user_sensor_occluded",
}

// FoldFaults turns a device's fault flags (field name to its booleans) into
// the faults to show, the same way whatever the generation: one fault per
// kind for jam, sensor and system, named after the first field that set it
// in the spec's order, and one per field for the rest, unknown fields
// included (after the known ones, by name).
func FoldFaults(flags map[string][]bool) []Fault {
	keys := make([]string, 0, len(flags))
	known := map[string]bool{}
	for _, k := range faultKeyOrder {
		known[k] = true
		if _, ok := flags[k]; ok {
			keys = append(keys, k)
		}
	}
	var unknown []string
	for k := range flags {
		if !known[k] {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	keys = append(keys, unknown...)

	var out []Fault
	seen := map[FaultKind]bool{}
	for _, key := range keys {
		if !anyTrue(flags[key]) {
			continue
		}
		kind, ok := foldInto[key]
		if !ok {
			out = append(out, Fault{Kind: FaultOther, Key: key})
			continue
		}
		if !seen[kind] {
			seen[kind] = true
			out = append(out, Fault{Kind: kind, Key: key})
		}
	}
	return out
}

func anyTrue(bs []bool) bool {
	for _, b := range bs {
		if b {
			return true
		}
	}
	return false
}

// Label is the fault in words.
func (f Fault) Label() string {
	switch f.Kind {
	case FaultJam:
		return "Jammed"
	case FaultSensor:
		return "Sensor fault"
	case FaultSystem:
		return "System fault"
	}
	switch f.Key {
	case "leak":
		return "Leak"
	case "maintenance_required":
		return "Maintenance required"
	case "no_i2c_communication":
		return "Internal communication fault"
	case "safety_check":
		return "Safety check failed"
	}
	return humanize(f.Key)
}

// Detail is what exactly the device detected, when the fault was folded from
// a finer generation 1 flag ("tear bar"), or "" when the kind says it all.
func (f Fault) Detail() string {
	switch f.Key {
	case "tear_bar_fault":
		return "tear bar"
	case "calibration_fault":
		return "calibration"
	case "communication_fault":
		return "sensor communication"
	case "incorrectly_loaded":
		return "refill loaded incorrectly"
	case "user_sensor_occluded":
		return "hand sensor covered"
	}
	return ""
}

// Action is what to do about the fault: the spec's recommended action for
// the alert of its kind.
func (f Fault) Action() string {
	switch f.Kind {
	case FaultJam:
		return AlertJam.Action()
	case FaultSensor:
		if f.Key == "incorrectly_loaded" {
			return AlertIncorrectlyLoaded.Action()
		}
		return AlertSensor.Action()
	case FaultSystem:
		return AlertSystem.Action()
	}
	return "Inspect the dispenser; the service gives no recommended action for this fault."
}

func humanize(key string) string {
	s := strings.ReplaceAll(strings.TrimSpace(key), "_", " ")
	if s == "" {
		return "Unknown fault"
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
