package sim

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// maxLimit caps limit on /devices and /metadata. The spec states no maximum;
// the simulator answers at most this many records and says nothing, as a
// real service may, so that clients learn to advance by what they received.
const maxLimit = 1000

type deviceJSON struct {
	DeviceLocationID   string            `json:"device_location_id"`
	DeviceLocationName string            `json:"device_location_name"`
	DeviceType         string            `json:"device_type"`
	DeviceStateType    string            `json:"device_state_type"`
	DeviceState        []deviceStateJSON `json:"device_state"`
}

type deviceStateJSON struct {
	DeviceStateType string            `json:"device_state_type"`
	DeviceMacID     string            `json:"device_macid"`
	Position        string            `json:"position"`
	Faults          map[string][]bool `json:"faults"`
	Status          statusJSON        `json:"status"`
	LastSeen        string            `json:"last_seen"`
	DeviceOff       bool              `json:"device_off"`
}

type statusJSON struct {
	Product      []int  `json:"product"`
	ProductLow   []bool `json:"product_low"`
	ProductOut   []bool `json:"product_out"`
	BatteryLevel string `json:"battery_level"`
	BatteryState string `json:"battery_state"`
}

// Battery states as the service spells them.
const (
	BatteryNormal   = "NORMAL"
	BatteryLow      = "LOW"
	BatteryShutdown = "SHUTDOWN"
)

// stateOf is what the interface reports for a device at now: the reading it
// last transmitted.
func (a *Account) stateOf(d *Device, now time.Time) deviceStateJSON {
	seen := d.lastSeenAt(now)
	r := d.readingAt(seen, a.usage)
	s := deviceStateJSON{
		DeviceStateType: string(d.Generation),
		DeviceMacID:     d.MAC,
		Position:        d.Position,
		Faults:          map[string][]bool{},
		LastSeen:        r.at.UTC().Format(time.RFC3339),
		DeviceOff:       d.offline,
		Status: statusJSON{
			Product:    make([]int, len(r.levels)),
			ProductLow: make([]bool, len(r.levels)),
			ProductOut: make([]bool, len(r.levels)),
		},
	}
	for i, l := range r.levels {
		s.Status.Product[i] = int(math.Ceil(l - eps))
		s.Status.ProductOut[i] = l <= eps
		s.Status.ProductLow[i] = l <= productLowAt+eps
	}
	battery, state := r.battery()
	s.Status.BatteryLevel = strconv.Itoa(battery)
	s.Status.BatteryState = state
	keys := gen2Keys
	if d.Generation == Gen1 {
		keys = gen1Keys
	}
	for _, k := range keys {
		vals := make([]bool, len(k.faults))
		for i, f := range k.faults {
			vals[i] = r.faults.has(f)
		}
		s.Faults[k.name] = vals
	}
	return s
}

// battery is what the interface reports of a reading's batteries: the
// level of the lowest set, in whole percent, and its state.
func (r *reading) battery() (int, string) {
	battery := 100.0
	for _, b := range r.batteries {
		battery = math.Min(battery, b)
	}
	switch {
	case battery <= batteryShutdownAt+eps:
		return int(math.Ceil(battery - eps)), BatteryShutdown
	case battery <= batteryLowAt+eps:
		return int(math.Ceil(battery - eps)), BatteryLow
	default:
		return int(math.Ceil(battery - eps)), BatteryNormal
	}
}

func (a *Account) deviceJSON(l *Location, now time.Time) deviceJSON {
	j := deviceJSON{
		DeviceLocationID:   strconv.FormatInt(l.ID, 10),
		DeviceLocationName: l.Name,
		DeviceType:         string(l.Type),
		DeviceState:        make([]deviceStateJSON, 0, len(l.Devices)),
	}
	for _, d := range l.Devices {
		j.DeviceState = append(j.DeviceState, a.stateOf(d, now))
	}
	if len(l.Devices) > 0 {
		j.DeviceStateType = string(l.Devices[0].Generation)
	}
	return j
}

// listDevices answers GET /devices: device locations by ascending
// identifier, limit and offset counting locations. The caller holds a.mu.
func (a *Account) listDevices(p params, now time.Time) ([]deviceJSON, *apiError) {
	s, err := a.readScope(p, true)
	if err != nil {
		return nil, err
	}
	limit, offset, err := limitOffset(p)
	if err != nil {
		return nil, err
	}
	var offFilter *bool
	if v := p.str("device_off"); v != "" {
		b, perr := strconv.ParseBool(strings.ToLower(v))
		if perr != nil {
			return nil, errBadParam("device_off", "device_off must be true or false, got %q", v)
		}
		offFilter = &b
	}
	out := []deviceJSON{}
	skipped := 0
	for _, l := range a.Locations {
		if len(out) == limit {
			break
		}
		if !s.holds(l) || (offFilter != nil && locationOff(l) != *offFilter) {
			continue
		}
		if skipped < offset {
			skipped++
			continue
		}
		out = append(out, a.deviceJSON(l, now))
	}
	return out, nil
}

// locationOff reports whether a location counts as offline for the
// device_off filter: all of its devices are offline.
func locationOff(l *Location) bool {
	for _, d := range l.Devices {
		if !d.offline {
			return false
		}
	}
	return len(l.Devices) > 0
}

func limitOffset(p params) (limit, offset int, err *apiError) {
	if limit, err = p.intRange("limit", 100, 1, math.MaxInt32); err != nil {
		return 0, 0, err
	}
	if offset, err = p.intRange("offset", 0, 0, math.MaxInt32); err != nil {
		return 0, 0, err
	}
	return min(limit, maxLimit), offset, nil
}
