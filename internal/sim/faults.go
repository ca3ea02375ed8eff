package sim

// fault is one fault flag of a device. The order is the order of the keys in
// the interface's faults object.
type fault uint8

const (
	faultJam       fault = iota
	faultJamSecond       // generation 1 reports two jam conditions: jam_fault is [motor stall, refill jam]
	faultSensor
	faultSystem
	faultCalibration
	faultCommunication
	faultIncorrectlyLoaded
	faultLeak
	faultMaintenanceRequired
	faultNoI2C
	faultSafetyCheck
	faultTearBar
	faultUserSensorOccluded
)

// faultSet is a set of faults as a bit mask.
type faultSet uint16

func (s faultSet) has(f fault) bool { return s&(1<<f) != 0 }
func (s *faultSet) set(f fault)     { *s |= 1 << f }
func (s *faultSet) clear(f fault)   { *s &^= 1 << f }

// faultKey is a key of the faults object and the faults it reports.
type faultKey struct {
	name   string
	faults []fault // one boolean per entry
}

// gen1Keys and gen2Keys are exactly the fault fields each generation carries.
// Generation 2 merges tear_bar into jam, calibration into system, and
// communication, incorrect loading and sensor occlusion into sensor; it drops
// the rest.
var (
	gen1Keys = []faultKey{
		{"jam_fault", []fault{faultJam, faultJamSecond}},
		{"sensor_fault", []fault{faultSensor}},
		{"system_fault", []fault{faultSystem}},
		{"calibration_fault", []fault{faultCalibration}},
		{"communication_fault", []fault{faultCommunication}},
		{"incorrectly_loaded", []fault{faultIncorrectlyLoaded}},
		{"leak", []fault{faultLeak}},
		{"maintenance_required", []fault{faultMaintenanceRequired}},
		{"no_i2c_communication", []fault{faultNoI2C}},
		{"safety_check", []fault{faultSafetyCheck}},
		{"tear_bar_fault", []fault{faultTearBar}},
		{"user_sensor_occluded", []fault{faultUserSensorOccluded}},
	}
	gen2Keys = []faultKey{
		{"jam_fault", []fault{faultJam}},
		{"sensor_fault", []fault{faultSensor}},
		{"system_fault", []fault{faultSystem}},
	}
)

// faultAlert maps each fault a device can develop to the alert it raises.
// Generation 1's incorrect loading raises its own alert type, one of the
// interface's "other external alerts"; in generation 2 the same condition
// is part of the sensor fault.
var faultAlert = map[fault]AlertType{
	faultJam:                AlertJam,
	faultJamSecond:          AlertJam,
	faultTearBar:            AlertJam,
	faultSensor:             AlertSensor,
	faultCommunication:      AlertSensor,
	faultUserSensorOccluded: AlertSensor,
	faultIncorrectlyLoaded:  AlertIncorrectlyLoaded,
	faultSystem:             AlertSystem,
	faultCalibration:        AlertSystem,
}

// possibleFaults lists the faults a device of a type and generation can
// develop, following the interface's table of alert types: jam and sensor
// faults affect towel, soap and sanitizer dispensers; system faults affect
// every dispenser.
func possibleFaults(t DeviceType, g Generation) []fault {
	switch {
	case t == Tissue:
		if g == Gen1 {
			return []fault{faultSystem, faultCalibration}
		}
		return []fault{faultSystem}
	case t.automated():
		if g == Gen1 {
			fs := []fault{faultJam, faultJamSecond, faultSensor, faultCommunication,
				faultUserSensorOccluded, faultIncorrectlyLoaded, faultSystem, faultCalibration}
			if t == Towel {
				fs = append(fs, faultTearBar)
			}
			return fs
		}
		return []fault{faultJam, faultSensor, faultSystem}
	}
	return nil // collectors report no dispenser faults
}
