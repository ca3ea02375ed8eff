package upstream

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

func intPtr(n int) *int { return &n }

func raw(s string) json.RawMessage { return json.RawMessage(s) }

// Each case is one element of a page the service might send. The page is
// served whole, so that the good elements and the skipped ones sit side by
// side as they would.
func TestAlertsTolerateDrift(t *testing.T) {
	t.Parallel()
	created := time.Date(2026, 11, 22, 9, 15, 0, 0, time.UTC)
	tests := []struct {
		name string
		elem string
		want Alert  // compared when skip is empty
		skip string // a part of the skip reason, for an element to be left out
	}{
		{
			name: "as the simulator sends it",
			elem: `{"alert_id":"a1","device_location_id":"10000336","device_macid":["CCAEC73590CF"],"alert_status":"CLOSED","alert_type":"battery_out","created_date":"2026-11-22T09:15:00.000Z","resolved_date":"2026-11-22T10:15:00.500Z","resolution_type":"RESOLVED","overdue":false,"refill_count":1}`,
			want: Alert{ID: "a1", LocationID: "10000336", MacIDs: []string{"CCAEC73590CF"}, Status: "CLOSED", Type: "battery_out",
				Created: created, Resolved: created.Add(time.Hour + 500*time.Millisecond), ResolutionType: "RESOLVED", RefillCount: 1},
		},
		{
			name: "milliseconds, numbers as strings, lower case, one mac as a string",
			elem: `{"alert_id":"a2","device_location_id":10000336,"device_macid":"ccaec73590cf","alert_status":"closed","alert_type":"consumable_out","created_date":1795338900000,"resolved_date":"1795342500000","resolution_type":"resolved_by_offline","overdue":[true],"refill_count":"4"}`,
			want: Alert{ID: "a2", LocationID: "10000336", MacIDs: []string{"CCAEC73590CF"}, Status: "CLOSED", Type: "consumable_out",
				Created: created, Resolved: created.Add(time.Hour), ResolutionType: "RESOLVED_BY_OFFLINE", Overdue: true, RefillCount: 4},
		},
		{
			name: "offsets, no fraction, open with nulls",
			elem: `{"alert_id":"a3","device_location_id":"7","device_macid":null,"alert_status":"OPEN","alert_type":"jam_fault","created_date":"2026-11-22T10:15:00+01:00","resolved_date":null,"resolution_type":null,"overdue":"true","refill_count":null}`,
			want: Alert{ID: "a3", LocationID: "7", Status: "OPEN", Type: "jam_fault", Created: created, Overdue: true},
		},
		{
			name: "unknown type and members kept",
			elem: `{"alert_id":"a4","alert_type":"brandname_leak","created_date":"","priority":{"level":3},"tags":["x"]}`,
			want: Alert{ID: "a4", Type: "brandname_leak",
				Extra: map[string]json.RawMessage{"priority": raw(`{"level":3}`), "tags": raw(`["x"]`)}},
		},
		{name: "created_date in words", elem: `{"alert_id":"b1","created_date":"yesterday"}`, skip: `created_date: want a timestamp, got "yesterday"`},
		{name: "not an object", elem: `42`, skip: "want an object"},
		{name: "no alert_id", elem: `{"alert_type":"jam_fault"}`, skip: "alert_id is missing"},
		{name: "refill_count not a number", elem: `{"alert_id":"b2","refill_count":"many"}`, skip: "refill_count"},
	}
	var elems []string
	for _, tt := range tests {
		elems = append(elems, tt.elem)
	}
	body := `{"alerts":[` + strings.Join(elems, ",") + `],"next":null,"prev":"","page_info":{"n":1}}`
	srv, _ := serve(t, staticHandler(200, body))
	c, _ := newClient(t, srv.URL, nil)
	page, err := c.Alerts(context.Background(), cred1, AlertQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if page.Next != "" || page.Prev != "" || string(page.Extra["page_info"]) != `{"n":1}` {
		t.Errorf("envelope: next %q, prev %q, extra %s", page.Next, page.Prev, page.Extra)
	}
	got := map[string]Alert{}
	for _, a := range page.Alerts {
		got[a.ID] = a
	}
	skips := 0
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.skip != "" {
				skips++
				if !containsReason(page.SkipReasons, tt.skip) {
					t.Errorf("no skip reason holds %q: %q", tt.skip, page.SkipReasons)
				}
				return
			}
			if a := got[tt.want.ID]; !reflect.DeepEqual(a, tt.want) {
				t.Errorf("\n got %+v\nwant %+v", a, tt.want)
			}
		})
	}
	if page.Skipped != skips || len(page.Alerts) != len(tests)-skips {
		t.Errorf("page has %d alerts and %d skipped, want %d and %d", len(page.Alerts), page.Skipped, len(tests)-skips, skips)
	}
}

func containsReason(reasons []string, part string) bool {
	for _, r := range reasons {
		if strings.Contains(r, part) {
			return true
		}
	}
	return false
}

func TestDevicesTolerateDrift(t *testing.T) {
	t.Parallel()
	seen := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		elem string
		want Device
		skip string
	}{
		{
			name: "the sample's layout, as the simulator sends it",
			elem: `{"device_location_id":"1","device_location_name":"Stall 1","device_type":"tissue","device_state_type":"1.0","device_state":[{"device_state_type":"1.0","device_macid":"6891A74FB73E","position":"main","faults":{"jam_fault":[false,true],"leak":[false]},"status":{"product":[77,63,75,69],"product_low":[false,false,false,false],"product_out":[false,false,false,false],"battery_level":"59","battery_state":"NORMAL"},"last_seen":"2026-11-22T09:00:00Z","device_off":false}]}`,
			want: Device{LocationID: "1", LocationName: "Stall 1", Type: "tissue", StateType: "1.0", States: []DeviceState{{
				StateType: "1.0", MacID: "6891A74FB73E", Position: "main",
				Faults:       map[string][]bool{"jam_fault": {false, true}, "leak": {false}},
				ProductLevel: []int{77, 63, 75, 69}, ProductLow: []bool{false, false, false, false}, ProductOut: []bool{false, false, false, false},
				BatteryLevel: intPtr(59), BatteryState: BatteryNormal, LastSeen: seen,
			}}},
		},
		{
			name: "the attribute table's layout, one-element arrays, strings for numbers",
			elem: `{"device_location_id":2,"device_type":"towel","device_state":[{"device_state_type":"2.0","device_macid":"aabbccddeeff","jam_fault":[true],"sensor_fault":[false],"system_fault":false,"product_level":["12"],"product_low":[true],"product_out":[false],"battery_level":["18"],"battery_state":"Low","last_seen":1795338000000,"device_off":[true]}]}`,
			want: Device{LocationID: "2", Type: "towel", States: []DeviceState{{
				StateType: "2.0", MacID: "AABBCCDDEEFF",
				Faults:       map[string][]bool{"jam_fault": {true}, "sensor_fault": {false}, "system_fault": {false}},
				ProductLevel: []int{12}, ProductLow: []bool{true}, ProductOut: []bool{false},
				BatteryLevel: intPtr(18), BatteryState: BatteryLow, LastSeen: seen, DeviceOff: true,
			}}},
		},
		{
			name: "unknown type, fault keys and members kept; battery unknown",
			elem: `{"device_location_id":"3","device_type":"air_freshener","colour":"blue","device_state":[{"device_macid":"AABBCCDDEE01","faults":{"scent_empty_fault":[true]},"nozzle_fault":[false],"status":{"battery_level":null,"battery_state":"shutdown","scent":"pine"},"firmware":"4.2","last_seen":null,"device_off":null}]}`,
			want: Device{LocationID: "3", Type: "air_freshener", Extra: map[string]json.RawMessage{"colour": raw(`"blue"`)},
				States: []DeviceState{{
					MacID:        "AABBCCDDEE01",
					Faults:       map[string][]bool{"scent_empty_fault": {true}, "nozzle_fault": {false}},
					BatteryState: BatteryShutdown,
					Extra:        map[string]json.RawMessage{"firmware": raw(`"4.2"`), "status.scent": raw(`"pine"`)},
				}}},
		},
		{
			name: "the grouped value wins over the attribute table's",
			elem: `{"device_location_id":"4","device_state":{"battery_level":10,"status":{"battery_level":"80.4","product":[1,"2"]},"product_level":[9,9]}}`,
			want: Device{LocationID: "4", States: []DeviceState{{BatteryLevel: intPtr(80), ProductLevel: []int{1, 2}}}},
		},
		{name: "not an object", elem: `"Stall 9"`, skip: "devices[4]: want an object"},
		{name: "no location", elem: `{"device_state":[]}`, skip: "device_location_id is missing"},
		{name: "a fault that is not boolean", elem: `{"device_location_id":"5","device_state":[{"faults":{"jam_fault":["maybe"]}}]}`, skip: "jam_fault"},
		{name: "a state that is not an object", elem: `{"device_location_id":"6","device_state":[{},7]}`, skip: "device_state[1]"},
		{name: "battery level in words", elem: `{"device_location_id":"7","device_state":[{"status":{"battery_level":"full"}}]}`, skip: "status.battery_level"},
	}
	var elems []string
	for _, tt := range tests {
		elems = append(elems, tt.elem)
	}
	srv, _ := serve(t, staticHandler(200, `[`+strings.Join(elems, ",")+`]`))
	c, _ := newClient(t, srv.URL, nil)
	page, err := c.Devices(context.Background(), cred1, DeviceQuery{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Device{}
	for _, d := range page.Devices {
		got[d.LocationID] = d
	}
	skips := 0
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.skip != "" {
				skips++
				// Only the first few reasons are kept; this page has exactly that many.
				if !containsReason(page.SkipReasons, tt.skip) {
					t.Errorf("no skip reason holds %q: %q", tt.skip, page.SkipReasons)
				}
				return
			}
			if d := got[tt.want.LocationID]; !reflect.DeepEqual(d, tt.want) {
				t.Errorf("\n got %#v\nwant %#v", d, tt.want)
			}
		})
	}
	if page.Skipped != skips || len(page.Devices) != len(tests)-skips {
		t.Errorf("page has %d devices and %d skipped, want %d and %d", len(page.Devices), page.Skipped, len(tests)-skips, skips)
	}
}

func TestMetadataTolerateDrift(t *testing.T) {
	t.Parallel()
	body := `{"total_count":"3","next":null,"account_name":"Contoso","account_id":12,"region":"eu","metadata":[
		{"building_id":"b","building_name":"North","floor_id":"f","floor_name":"Ground","room_id":"r1","room_name":"Kitchen",
		 "device_locations":[{"location_id":10000001,"location_name":"Sink","type":"soap"},{"location_id":"10000002","type":"diffuser","colour":"red"}],"area_m2":12},
		{"room_id":"r2","device_locations":null},
		{"room_id":"r3","device_locations":[{"location_name":"no id"}]},
		[]
	]}`
	srv, _ := serve(t, staticHandler(200, body))
	c, _ := newClient(t, srv.URL, nil)
	page, err := c.Metadata(context.Background(), cred1, MetadataQuery{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Room{
		{BuildingID: "b", BuildingName: "North", FloorID: "f", FloorName: "Ground", RoomID: "r1", RoomName: "Kitchen",
			Locations: []Location{
				{ID: "10000001", Name: "Sink", Type: "soap"},
				{ID: "10000002", Type: "diffuser", Extra: map[string]json.RawMessage{"colour": raw(`"red"`)}},
			},
			Extra: map[string]json.RawMessage{"area_m2": raw(`12`)}},
		{RoomID: "r2"},
	}
	if !reflect.DeepEqual(page.Rooms, want) {
		t.Errorf("rooms\n got %+v\nwant %+v", page.Rooms, want)
	}
	if !page.HasTotal || page.TotalCount != 3 || page.AccountID != "12" || page.AccountName != "Contoso" ||
		string(page.Extra["region"]) != `"eu"` {
		t.Errorf("envelope: %+v", page)
	}
	if page.Skipped != 2 || !containsReason(page.SkipReasons, "device_locations[0]: location_id is missing") ||
		!containsReason(page.SkipReasons, "metadata[3]: want an object") {
		t.Errorf("skipped %d: %q", page.Skipped, page.SkipReasons)
	}
}
