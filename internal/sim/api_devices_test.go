package sim

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// deviceWire is a device location as a client decodes it from /devices.
type deviceWire struct {
	DeviceLocationID   string            `json:"device_location_id"`
	DeviceLocationName string            `json:"device_location_name"`
	DeviceType         string            `json:"device_type"`
	DeviceStateType    string            `json:"device_state_type"`
	DeviceState        []deviceStateWire `json:"device_state"`
}

type deviceStateWire struct {
	DeviceStateType string            `json:"device_state_type"`
	DeviceMacID     string            `json:"device_macid"`
	Position        string            `json:"position"`
	Faults          map[string][]bool `json:"faults"`
	Status          struct {
		Product      []int           `json:"product"`
		ProductLow   []bool          `json:"product_low"`
		ProductOut   []bool          `json:"product_out"`
		BatteryLevel json.RawMessage `json:"battery_level"`
		BatteryState string          `json:"battery_state"`
	} `json:"status"`
	LastSeen  string          `json:"last_seen"`
	DeviceOff json.RawMessage `json:"device_off"`
}

// getDevices requests /devices and checks that the answer is a top-level
// JSON array.
func getDevices(t *testing.T, h http.Handler, path, key, auth string) []deviceWire {
	t.Helper()
	body := getOK(t, h, path, key, auth)
	if !bytes.HasPrefix(bytes.TrimSpace(body), []byte("[")) {
		t.Fatalf("GET %s: body %.40s is not a top-level array", path, body)
	}
	return decodeJSON[[]deviceWire](t, body)
}

// locationIDs returns the device_location_id of each element, as integers.
func locationIDs(t *testing.T, devs []deviceWire) []int64 {
	t.Helper()
	ids := make([]int64, len(devs))
	for i, d := range devs {
		id, err := strconv.ParseInt(d.DeviceLocationID, 10, 64)
		if err != nil {
			t.Fatalf("device_location_id %q is not an integer", d.DeviceLocationID)
		}
		ids[i] = id
	}
	return ids
}

// locationsWhere returns the identifiers of the account's locations that
// keep accepts, ascending.
func locationsWhere(a *Account, keep func(*Location) bool) []int64 {
	var ids []int64
	for _, l := range a.Locations {
		if keep(l) {
			ids = append(ids, l.ID)
		}
	}
	return ids
}

// twoDeviceLocation returns the index in a.Locations of a location holding
// two devices.
func twoDeviceLocation(t *testing.T, a *Account) int {
	t.Helper()
	for i, l := range a.Locations {
		if len(l.Devices) == 2 && i+1 < len(a.Locations) {
			return i
		}
	}
	t.Fatal("the account has no location with two devices")
	return 0
}

func TestDevicesLimitOffset(t *testing.T) {
	t.Parallel()
	w, _ := newAPIWorld(t)
	h := w.Handler()
	a := w.Accounts()[0]
	all := locationsWhere(a, func(*Location) bool { return true })
	two := twoDeviceLocation(t, a)
	cases := []struct {
		query string
		want  []int64
	}{
		{"", all[:100]},
		{"limit=10", all[:10]},
		{"offset=5", all[5:105]},
		{"limit=10&offset=5", all[5:15]},
		{"offset=295", all[295:]},
		{"offset=300", nil},
		{"offset=100000", nil},
		{"limit=1000", all},
		{"limit=1&offset=" + strconv.Itoa(two), all[two : two+1]},     // one location, two devices
		{"limit=2&offset=" + strconv.Itoa(two), all[two : two+2]},     // two locations, three devices
		{"limit=1&offset=" + strconv.Itoa(two+1), all[two+1 : two+2]}, // the next location follows the pair
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			got := locationIDs(t, getDevices(t, h, "/devices?"+c.query, apiKeyA, apiAuthA))
			if !slices.Equal(got, c.want) {
				t.Errorf("locations %v, want %v", firstFewOf(got), firstFewOf(c.want))
				t.Errorf("%d locations, want %d", len(got), len(c.want))
			}
		})
	}
	t.Run("a pair of devices counts once", func(t *testing.T) {
		devs := getDevices(t, h, "/devices?limit=1&offset="+strconv.Itoa(two), apiKeyA, apiAuthA)
		if len(devs) != 1 || len(devs[0].DeviceState) != 2 {
			t.Fatalf("got %d locations, want 1 with two device states", len(devs))
		}
	})
}

func TestDevicesWalkWithOffset(t *testing.T) {
	t.Parallel()
	w, _ := newAPIWorld(t)
	h := w.Handler()
	a := w.Accounts()[0]
	want := locationsWhere(a, func(*Location) bool { return true })
	for _, limit := range []int{1, 7, 100, 299, 1000} {
		t.Run(strconv.Itoa(limit), func(t *testing.T) {
			var got []int64
			for offset := 0; ; {
				page := locationIDs(t, getDevices(t, h, "/devices?limit="+strconv.Itoa(limit)+"&offset="+strconv.Itoa(offset), apiKeyA, apiAuthA))
				if len(page) == 0 {
					break
				}
				if len(page) > limit {
					t.Fatalf("%d locations for limit %d", len(page), limit)
				}
				got = append(got, page...)
				offset += len(page)
				if offset > 2*len(want) {
					t.Fatal("the walk does not end")
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("walked %d locations, want each of the %d once in ascending order", len(got), len(want))
			}
		})
	}
}

func TestDevicesLimitCapped(t *testing.T) {
	t.Parallel()
	clock := NewManualClock(apiNow)
	w := New(Config{Seed: 7, Locations: 1100, Accounts: 1, History: time.Hour, Clock: clock, Zone: time.UTC,
		Credentials: []Credentials{{APIKey: apiKeyA, Authorization: apiAuthA}}})
	h := w.Handler()
	all := locationsWhere(w.Accounts()[0], func(*Location) bool { return true })
	cases := []struct {
		query string
		want  []int64
	}{
		{"limit=1000", all[:1000]},
		{"limit=1001", all[:1000]},
		{"limit=5000", all[:1000]},
		{"limit=2147483647", all[:1000]},
		{"limit=5000&offset=1000", all[1000:]},
		{"limit=5000&offset=50", all[50:1050]},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			got := locationIDs(t, getDevices(t, h, "/devices?"+c.query, apiKeyA, apiAuthA))
			if !slices.Equal(got, c.want) {
				t.Errorf("%d locations from %v, want %d from %v", len(got), firstFewOf(got), len(c.want), firstFewOf(c.want))
			}
		})
	}
}

func TestDevicesShape(t *testing.T) {
	t.Parallel()
	w, clock := newAPIWorld(t)
	h := w.Handler()
	now := clock.Now()
	gen1 := []string{"calibration_fault", "communication_fault", "incorrectly_loaded", "jam_fault", "leak",
		"maintenance_required", "no_i2c_communication", "safety_check", "sensor_fault", "system_fault",
		"tear_bar_fault", "user_sensor_occluded"}
	gen2 := []string{"jam_fault", "sensor_fault", "system_fault"}
	stateKeys := []string{"device_macid", "device_off", "device_state_type", "faults", "last_seen", "position", "status"}
	statusKeys := []string{"battery_level", "battery_state", "product", "product_low", "product_out"}

	seen := map[string]int{}
	for _, acct := range []struct {
		a         *Account
		key, auth string
	}{{w.Accounts()[0], apiKeyA, apiAuthA}, {w.Accounts()[1], apiKeyB, apiAuthB}} {
		a := acct.a
		body := getOK(t, h, "/devices?limit=1000", acct.key, acct.auth)
		devs := decodeJSON[[]deviceWire](t, body)
		raws := decodeJSON[[]struct {
			DeviceState []map[string]json.RawMessage `json:"device_state"`
		}](t, body)
		if len(devs) != len(a.Locations) {
			t.Fatalf("%d locations, want %d", len(devs), len(a.Locations))
		}
		for i, dev := range devs {
			l := a.Locations[i]
			if dev.DeviceLocationID != strconv.FormatInt(l.ID, 10) || dev.DeviceLocationName != l.Name || dev.DeviceType != string(l.Type) {
				t.Errorf("location %s %q %q, want %d %q %q", dev.DeviceLocationID, dev.DeviceLocationName, dev.DeviceType, l.ID, l.Name, l.Type)
			}
			if len(dev.DeviceState) != len(l.Devices) {
				t.Fatalf("location %d: %d device states, want %d", l.ID, len(dev.DeviceState), len(l.Devices))
			}
			for j, s := range dev.DeviceState {
				d := l.Devices[j]
				raw := raws[i].DeviceState[j]
				where := "location " + dev.DeviceLocationID + " device " + s.DeviceMacID
				if got := sortedKeys(raw); !slices.Equal(got, stateKeys) {
					t.Errorf("%s: members %v, want %v", where, got, stateKeys)
				}
				var status map[string]json.RawMessage
				if err := json.Unmarshal(raw["status"], &status); err != nil || !slices.Equal(sortedKeys(status), statusKeys) {
					t.Errorf("%s: status %s, want an object with %v", where, raw["status"], statusKeys)
				}
				if s.DeviceMacID != d.MAC || s.Position != d.Position || s.Position == "" {
					t.Errorf("%s: device_macid %q position %q, want %q %q", where, s.DeviceMacID, s.Position, d.MAC, d.Position)
				}
				if s.DeviceStateType != string(d.Generation) || dev.DeviceStateType != s.DeviceStateType {
					t.Errorf("%s: device_state_type %q (top level %q), want %q in both", where, s.DeviceStateType, dev.DeviceStateType, d.Generation)
				}

				// Faults: exactly the generation's keys.
				wantFaults := gen2
				if s.DeviceStateType == "1.0" {
					wantFaults = gen1
				} else if s.DeviceStateType != "2.0" {
					t.Errorf("%s: device_state_type %q, want 1.0 or 2.0", where, s.DeviceStateType)
				}
				seen["generation "+s.DeviceStateType]++
				if got := sortedKeys(s.Faults); !slices.Equal(got, wantFaults) {
					t.Errorf("%s: generation %s faults %v, want %v", where, s.DeviceStateType, got, wantFaults)
				}
				for k, v := range s.Faults {
					n := 1
					if k == "jam_fault" && s.DeviceStateType == "1.0" {
						n = 2
					}
					if len(v) != n {
						t.Errorf("%s: %s has %d entries, want %d", where, k, len(v), n)
					}
				}

				// Status.
				st := s.Status
				if len(st.Product) != len(d.compartments) || len(st.ProductLow) != len(st.Product) || len(st.ProductOut) != len(st.Product) {
					t.Errorf("%s: product %v, product_low %v, product_out %v; want %d entries each", where, st.Product, st.ProductLow, st.ProductOut, len(d.compartments))
				}
				switch {
				case l.Type == Collector:
				case len(d.compartments) == 4:
					seen["four-roll"]++
				case len(st.Product) != 1:
					t.Errorf("%s: a %s dispenser with %d compartments", where, l.Type, len(st.Product))
				}
				for k := range min(len(st.Product), len(st.ProductLow), len(st.ProductOut)) {
					if st.Product[k] < 0 || st.Product[k] > 100 || (st.Product[k] == 0) != st.ProductOut[k] || (st.ProductOut[k] && !st.ProductLow[k]) {
						t.Errorf("%s: compartment %d: product %d, low %v, out %v", where, k, st.Product[k], st.ProductLow[k], st.ProductOut[k])
					}
					if st.ProductOut[k] {
						seen["product out"]++
					}
				}
				var level string
				if err := json.Unmarshal(st.BatteryLevel, &level); err != nil {
					t.Errorf("%s: battery_level %s is not a JSON string", where, st.BatteryLevel)
				} else if n, err := strconv.Atoi(level); err != nil || n < 0 || n > 100 {
					t.Errorf("%s: battery_level %q does not hold an integer from 0 to 100", where, level)
				}
				switch st.BatteryState {
				case "NORMAL", "LOW", "SHUTDOWN":
					seen[st.BatteryState]++
				default:
					t.Errorf("%s: battery_state %q, want NORMAL, LOW or SHUTDOWN", where, st.BatteryState)
				}

				// Connectivity.
				seenAt, err := time.Parse(time.RFC3339, s.LastSeen)
				if err != nil || !strings.HasSuffix(s.LastSeen, "Z") {
					t.Errorf("%s: last_seen %q is not RFC 3339 in UTC", where, s.LastSeen)
				} else if seenAt.After(now) {
					t.Errorf("%s: last_seen %s is after now (%s)", where, s.LastSeen, now.Format(time.RFC3339))
				}
				switch string(s.DeviceOff) {
				case "true":
					seen["off"]++
					if now.Sub(seenAt) < 24*time.Hour {
						t.Errorf("%s: device_off true, last seen %s, less than 24 hours before %s", where, s.LastSeen, now.Format(time.RFC3339))
					}
				case "false":
					if now.Sub(seenAt) >= 24*time.Hour+time.Second {
						t.Errorf("%s: device_off false, last seen %s, 24 hours or more before %s", where, s.LastSeen, now.Format(time.RFC3339))
					}
				default:
					t.Errorf("%s: device_off %s, want a plain boolean", where, s.DeviceOff)
				}
			}
		}
	}
	for _, k := range []string{"generation 1.0", "generation 2.0", "four-roll", "NORMAL", "LOW", "SHUTDOWN", "product out", "off"} {
		if seen[k] == 0 {
			t.Errorf("no device with %s; the checks prove little", k)
		}
	}
}

func TestDevicesDeviceOff(t *testing.T) {
	t.Parallel()
	w, _ := newAPIWorld(t)
	h := w.Handler()
	b := w.Accounts()[1] // the account with offline devices at apiNow
	offline := locationsWhere(b, locationOff)
	online := locationsWhere(b, func(l *Location) bool { return !locationOff(l) })
	if len(offline) == 0 || len(online) == 0 {
		t.Fatalf("%d offline and %d online locations; the test needs both", len(offline), len(online))
	}
	all := locationsWhere(b, func(*Location) bool { return true })
	cases := []struct {
		value   string
		want    []int64
		wantOff bool // every device state's device_off, when want is a filter
	}{
		{"false", online, false},
		{"FALSE", online, false},
		{"0", online, false},
		{"true", offline, true},
		{"True", offline, true},
		{"", all, false},
	}
	for _, c := range cases {
		t.Run(c.value, func(t *testing.T) {
			devs := getDevices(t, h, withQuery("/devices", "limit", "1000", "device_off", c.value), apiKeyB, apiAuthB)
			if got := locationIDs(t, devs); !slices.Equal(got, c.want) {
				t.Errorf("%d locations, want %d", len(got), len(c.want))
			}
			if c.value == "" {
				return
			}
			for _, d := range devs {
				off := true
				for _, s := range d.DeviceState {
					off = off && string(s.DeviceOff) == "true"
				}
				if off != c.wantOff {
					t.Errorf("location %s listed for device_off=%s has device states %v", d.DeviceLocationID, c.value, d.DeviceState)
				}
			}
		})
	}
}

func TestDevicesFilters(t *testing.T) {
	t.Parallel()
	w, _ := newAPIWorld(t)
	h := w.Handler()
	a := w.Accounts()[0]
	l := a.Locations[twoDeviceLocation(t, a)]
	room, floor, building := l.Room, l.Room.Floor, l.Room.Floor.Building
	var otherRoom *Room // a room of another building
	for _, r := range a.Rooms {
		if r.Floor.Building != building {
			otherRoom = r
			break
		}
	}
	if otherRoom == nil {
		t.Fatal("the account has a single building")
	}
	cases := []struct {
		name string
		kv   []string
		want func(*Location) bool
	}{
		{"building_id", []string{"building_id", building.ID}, func(x *Location) bool { return x.Room.Floor.Building == building }},
		{"floor_id", []string{"floor_id", floor.ID}, func(x *Location) bool { return x.Room.Floor == floor }},
		{"room_id", []string{"room_id", room.ID}, func(x *Location) bool { return x.Room == room }},
		{"device_location_id", []string{"device_location_id", strconv.FormatInt(l.ID, 10)}, func(x *Location) bool { return x == l }},
		{"device_macid of the first device", []string{"device_macid", l.Devices[0].MAC}, func(x *Location) bool { return x == l }},
		{"device_macid of the second device", []string{"device_macid", l.Devices[1].MAC}, func(x *Location) bool { return x == l }},
		{"device_macid in lower case", []string{"device_macid", strings.ToLower(l.Devices[1].MAC)}, func(x *Location) bool { return x == l }},
		{"building and floor", []string{"building_id", building.ID, "floor_id", floor.ID}, func(x *Location) bool { return x.Room.Floor == floor }},
		{"building and a room elsewhere", []string{"building_id", building.ID, "room_id", otherRoom.ID}, func(*Location) bool { return false }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := locationsWhere(a, c.want)
			if len(want) == len(a.Locations) {
				t.Fatal("every location matches; the test would not show the filter filtering")
			}
			got := locationIDs(t, getDevices(t, h, withQuery("/devices", append(c.kv, "limit", "1000")...), apiKeyA, apiAuthA))
			if !slices.Equal(got, want) {
				t.Errorf("locations %v (%d), want %v (%d)", firstFewOf(got), len(got), firstFewOf(want), len(want))
			}
		})
	}
}
