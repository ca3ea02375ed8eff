package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// The device types the spec names. The service may send others; they are
// kept as sent.
const (
	DeviceTissue    = "tissue"
	DeviceTowel     = "towel"
	DeviceSoap      = "soap"
	DeviceSanitizer = "sanitizer"
	DeviceCollector = "collector" // a gateway; the spec's sample shows it
)

// Battery states. The spec writes Normal, Low and Shutdown, its sample
// NORMAL; the client upper-cases what it reads, so these are the values
// to compare with. Other states are kept, upper-cased.
const (
	BatteryNormal   = "NORMAL"
	BatteryLow      = "LOW"
	BatteryShutdown = "SHUTDOWN"
)

// knownFaults are the fault keys the spec lists. In the attribute-table
// layout they sit directly on the device state; so does any key ending in
// _fault that holds booleans.
var knownFaults = map[string]bool{
	"jam_fault": true, "sensor_fault": true, "system_fault": true, "calibration_fault": true,
	"communication_fault": true, "incorrectly_loaded": true, "leak": true,
	"maintenance_required": true, "no_i2c_communication": true, "safety_check": true,
	"tear_bar_fault": true, "user_sensor_occluded": true,
}

// Device is one device location and the state of the devices it holds
// (one, or two side by side).
type Device struct {
	LocationID   string // device_location_id
	LocationName string
	Type         string // device_type as sent; see the Device constants
	StateType    string // device_state_type at the top level, when sent
	States       []DeviceState

	// Extra holds the members the client does not know, as sent.
	Extra map[string]json.RawMessage
}

// DeviceState is the state one physical device last reported. The service
// groups faults in "faults" and product and battery data in "status"; the
// attribute-table layout of the spec, with all of them directly on the
// state, is read too. Where both are sent, the grouped value wins.
type DeviceState struct {
	StateType string // device_state_type: "1.0" or "2.0"
	MacID     string // device_macid, upper case
	Position  string // e.g. main, left, right

	// Faults maps each fault key sent, known or not, to its booleans: one
	// for most keys, two for generation 1's jam_fault.
	Faults map[string][]bool

	ProductLevel []int  // percent per compartment ("product" or "product_level")
	ProductLow   []bool // per compartment
	ProductOut   []bool // per compartment
	BatteryLevel *int   // percent; nil when not reported
	BatteryState string // upper case; see the Battery constants
	LastSeen     time.Time
	DeviceOff    bool // offline: no communication for 24 hours

	// Extra holds the members the client does not know, as sent; those
	// inside "status" are named "status." and their name.
	Extra map[string]json.RawMessage
}

// Faulty reports whether any fault is set.
func (s DeviceState) Faulty() bool {
	for _, v := range s.Faults {
		if anyTrue(v) {
			return true
		}
	}
	return false
}

// Fault reports whether the fault with that key is set.
func (s DeviceState) Fault(key string) bool { return anyTrue(s.Faults[key]) }

// DeviceQuery is the query of GET /devices. Zero fields are not sent.
type DeviceQuery struct {
	BuildingID       string
	FloorID          string
	RoomID           string
	DeviceLocationID string // an integer, as the service sends it
	DeviceMacID      string // 12 hexadecimal digits
	DeviceOff        *bool  // false: only locations with a device online; true: only those all offline
	Limit            int    // locations per page; the service's default is 100 and it may serve fewer
	Offset           int    // locations skipped
}

// Values returns the query parameters of q.
func (q DeviceQuery) Values() url.Values {
	v := url.Values{}
	for _, p := range [][2]string{
		{"building_id", q.BuildingID}, {"floor_id", q.FloorID}, {"room_id", q.RoomID},
		{"device_location_id", q.DeviceLocationID}, {"device_macid", q.DeviceMacID},
	} {
		if p[1] != "" {
			v.Set(p[0], p[1])
		}
	}
	if q.DeviceOff != nil {
		v.Set("device_off", strconv.FormatBool(*q.DeviceOff))
	}
	if q.Limit > 0 {
		v.Set("limit", strconv.Itoa(q.Limit))
	}
	if q.Offset > 0 {
		v.Set("offset", strconv.Itoa(q.Offset))
	}
	return v
}

// DevicePage is one page of GET /devices.
type DevicePage struct {
	PageInfo
	Offset  int // the offset the page was asked for
	Devices []Device
}

// Devices fetches one page of devices.
func (c *Client) Devices(ctx context.Context, cred Credentials, q DeviceQuery) (DevicePage, error) {
	var page DevicePage
	err := c.get(ctx, cred, c.endpoint("devices", q.Values()), func(body []byte) (err error) {
		page, err = decodeDevicePage(body, c.maxRecords)
		return err
	})
	if err != nil {
		return DevicePage{}, err
	}
	page.Number, page.Offset = 1, q.Offset
	return page, nil
}

// WalkDevices fetches the devices of q page by page from q.Offset, and
// calls fn with each page that has any. Each page is asked for at the
// offset of the last plus the records it held, whatever q.Limit asked for,
// since the service may serve fewer; the walk ends at the first empty page.
// It stops with fn's error if fn returns one; with an ErrRepeatedPage error
// when a page holds the same locations as the page before it; and with an
// ErrPageLimit error when Config.MaxPages pages were not enough.
func (c *Client) WalkDevices(ctx context.Context, cred Credentials, q DeviceQuery, fn func(DevicePage) error) error {
	return walkByOffset(c, "GET /devices", q.Offset, func(offset int) (DevicePage, error) {
		q.Offset = offset
		return c.Devices(ctx, cred, q)
	}, nil, fn)
}

// decodeDevicePage reads a devices answer: an array of devices, or an
// object holding one as "devices". It refuses a page of more than
// maxRecords devices (see readRecords), and one whose devices all fail to
// be read (see skipLog.noneRead).
func decodeDevicePage(body []byte, maxRecords int) (DevicePage, error) {
	var page DevicePage
	records, name := json.RawMessage(body), ""
	if lead(body) == '{' {
		o, err := readObject(body)
		if err != nil {
			return page, err
		}
		v, ok := o["devices"]
		if !ok {
			return page, errors.New("want an array of devices, got an object without devices")
		}
		records, name = v, "devices"
	}
	elems, err := readRecords(body, records, name, maxRecords)
	if err != nil {
		return page, err
	}
	var skips skipLog
	for i, e := range elems {
		d, err := decodeDevice(e)
		if err != nil {
			skips.add("devices", i, err)
			continue
		}
		page.Devices = append(page.Devices, d)
	}
	if err := skips.noneRead(len(elems)); err != nil {
		return DevicePage{}, err
	}
	page.Skipped, page.SkipReasons, page.received = skips.count, skips.reasons, len(elems)
	return page, nil
}

// takeString reads member name of o into dst, if present.
func takeString(o object, name string, dst *string) error {
	v, ok := o.take(name)
	if !ok {
		return nil
	}
	s, err := readString(v)
	if err != nil {
		return fieldError(name, err)
	}
	*dst = s
	return nil
}

// decodeDevice reads one device location. It fails when the element is not
// an object, has no device_location_id, or a known member (or one of its
// states) holds a value no accepted shape fits.
func decodeDevice(raw json.RawMessage) (Device, error) {
	o, err := readObject(raw)
	if err != nil {
		return Device{}, err
	}
	var d Device
	for _, f := range []struct {
		name string
		dst  *string
	}{
		{"device_location_id", &d.LocationID},
		{"device_location_name", &d.LocationName},
		{"device_type", &d.Type},
		{"device_state_type", &d.StateType},
	} {
		if err := takeString(o, f.name, f.dst); err != nil {
			return Device{}, err
		}
	}
	if d.LocationID == "" {
		return Device{}, errors.New("device_location_id is missing")
	}
	if v, ok := o.take("device_state"); ok {
		elems := []json.RawMessage{v}
		if lead(v) != '{' {
			if elems, err = readArray(v, maxList); err != nil {
				return Device{}, fieldError("device_state", err)
			}
		}
		for i, e := range elems {
			s, err := decodeState(e)
			if err != nil {
				return Device{}, fmt.Errorf("device_state[%d]: %w", i, err)
			}
			d.States = append(d.States, s)
		}
	}
	d.Extra = o.extra()
	return d, nil
}

// decodeState reads one element of device_state.
func decodeState(raw json.RawMessage) (DeviceState, error) {
	o, err := readObject(raw)
	if err != nil {
		return DeviceState{}, err
	}
	var s DeviceState
	for _, f := range []struct {
		name string
		dst  *string
	}{
		{"device_state_type", &s.StateType},
		{"device_macid", &s.MacID},
		{"position", &s.Position},
	} {
		if err := takeString(o, f.name, f.dst); err != nil {
			return DeviceState{}, err
		}
	}
	s.MacID = strings.ToUpper(s.MacID)
	if v, ok := o.take("last_seen"); ok {
		if s.LastSeen, err = readTime(v); err != nil {
			return DeviceState{}, fieldError("last_seen", err)
		}
	}
	if v, ok := o.take("device_off"); ok {
		bs, err := readBools(v)
		if err != nil {
			return DeviceState{}, fieldError("device_off", err)
		}
		s.DeviceOff = anyTrue(bs)
	}

	// The attribute-table layout: measures and faults on the state itself.
	if err := takeMeasures(o, &s, ""); err != nil {
		return DeviceState{}, err
	}
	for name, v := range o {
		if name == "faults" || !(knownFaults[name] || strings.HasSuffix(name, "_fault")) {
			continue
		}
		bs, err := readBools(v)
		if err != nil {
			if knownFaults[name] {
				return DeviceState{}, fieldError(name, err)
			}
			continue // an unknown member that only looks like a fault stays in Extra
		}
		s.setFault(name, bs)
		delete(o, name)
	}

	// The sample's layout: faults and status grouped.
	if v, ok := o.take("faults"); ok {
		if err := s.takeFaults(v); err != nil {
			return DeviceState{}, fieldError("faults", err)
		}
	}
	if v, ok := o.take("status"); ok {
		st, err := readGroup(v)
		if err != nil {
			return DeviceState{}, fieldError("status", err)
		}
		if err := takeMeasures(st, &s, "status."); err != nil {
			return DeviceState{}, err
		}
		for name, v := range st {
			o["status."+name] = v
		}
	}
	s.Extra = o.extra()
	return s, nil
}

// readGroup reads a grouping member such as faults or status: an object,
// perhaps in a one-element array; null reads as an empty one.
func readGroup(raw json.RawMessage) (object, error) {
	raw, err := unwrapOne(raw)
	if err != nil {
		return nil, err
	}
	if lead(raw) == 'n' {
		return object{}, json.Unmarshal(raw, new(struct{}))
	}
	return readObject(raw)
}

func (s *DeviceState) setFault(name string, bs []bool) {
	if s.Faults == nil {
		s.Faults = map[string][]bool{}
	}
	s.Faults[name] = bs
}

// takeFaults reads the faults object: every member is a fault, known or
// not.
func (s *DeviceState) takeFaults(raw json.RawMessage) error {
	fs, err := readGroup(raw)
	if err != nil {
		return err
	}
	for name, v := range fs {
		bs, err := readBools(v)
		if err != nil {
			return fieldError(name, err)
		}
		s.setFault(name, bs)
	}
	return nil
}

// takeMeasures reads the product and battery members of o into s,
// overwriting what s has for each member present. prefix names the group
// in error messages.
func takeMeasures(o object, s *DeviceState, prefix string) error {
	for _, name := range []string{"product_level", "product"} { // product wins, as in the sample
		if v, ok := o.take(name); ok {
			levels, err := readInts(v)
			if err != nil {
				return fieldError(prefix+name, err)
			}
			s.ProductLevel = levels
		}
	}
	for _, f := range []struct {
		name string
		dst  *[]bool
	}{{"product_low", &s.ProductLow}, {"product_out", &s.ProductOut}} {
		if v, ok := o.take(f.name); ok {
			bs, err := readBools(v)
			if err != nil {
				return fieldError(prefix+f.name, err)
			}
			*f.dst = bs
		}
	}
	if v, ok := o.take("battery_level"); ok {
		n, known, err := readInt(v)
		if err != nil {
			return fieldError(prefix+"battery_level", err)
		}
		s.BatteryLevel = nil
		if known {
			s.BatteryLevel = &n
		}
	}
	if v, ok := o.take("battery_state"); ok {
		st, err := readString(v)
		if err != nil {
			return fieldError(prefix+"battery_state", err)
		}
		s.BatteryState = upper(st)
	}
	return nil
}
