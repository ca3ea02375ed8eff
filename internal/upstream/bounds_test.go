package upstream

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
)

// repeat is an array of n copies of v.
func repeat(v string, n int) string {
	return "[" + strings.TrimSuffix(strings.Repeat(v+",", n), ",") + "]"
}

// fetchPage fetches one page of path's endpoint.
func fetchPage(c *Client, path string) error {
	ctx := context.Background()
	var err error
	switch path {
	case "/alerts":
		_, err = c.Alerts(ctx, cred1, AlertQuery{})
	case "/devices":
		_, err = c.Devices(ctx, cred1, DeviceQuery{})
	case "/metadata":
		_, err = c.Metadata(ctx, cred1, MetadataQuery{})
	}
	return err
}

func TestPagesBeyondTheirBoundsAreRefusedWholeAndNotRetried(t *testing.T) {
	t.Parallel()
	room := `{"room_id":"r"}`
	device := `{"device_location_id":"1"}`
	tests := []struct {
		name, path, body string
		want             string // in the error; none when empty
	}{
		{"10,001 alerts", "/alerts", `{"alerts":` + repeat(`{"alert_id":"a"}`, DefaultMaxPageRecords+1) + `}`,
			"10,001 records, more than the 10,000 a page may hold"},
		{"10,001 alerts, bare", "/alerts", repeat(`{"alert_id":"a"}`, DefaultMaxPageRecords+1),
			"10,001 records, more than the 10,000 a page may hold"},
		{"10,001 devices", "/devices", repeat(device, DefaultMaxPageRecords+1),
			"10,001 records, more than the 10,000 a page may hold"},
		{"10,001 devices in an object", "/devices", `{"devices":` + repeat(device, DefaultMaxPageRecords+1) + `}`,
			"10,001 records, more than the 10,000 a page may hold"},
		{"10,001 rooms", "/metadata", `{"metadata":` + repeat(room, DefaultMaxPageRecords+1) + `}`,
			"10,001 records, more than the 10,000 a page may hold"},
		{"10,000 rooms", "/metadata", `{"metadata":` + repeat(room, DefaultMaxPageRecords) + `}`, ""},
		// 500,000 values of the levels, their array, the state, its
		// array, the device, its members and the page.
		{"a device of 500,000 levels", "/devices",
			`[{"device_location_id":"1","device_state":[{"product_level":` + repeat("1", 500_000) + `}]}]`,
			"500,006 JSON values, more than the 500,000 a page may hold"},
		{"500,000 values beside the alerts", "/alerts", `{"alerts":[],"padding":` + repeat("1", 500_000) + `}`,
			"500,003 JSON values, more than the 500,000 a page may hold"},
		{"500,000 values within a page's bounds", "/alerts",
			`{"alerts":[],"padding":` + repeat("1", 500_000-3) + `}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, rec := serve(t, staticHandler(200, tt.body))
			c, _ := newClient(t, srv.URL, nil)
			err := fetchPage(c, tt.path)
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v; want one saying %q", err, tt.want)
			}
			if rec.count() != 1 {
				t.Errorf("sent %d requests, want 1: the same page would come again", rec.count())
			}
		})
	}
}

func TestPageRecordsAreConfigurable(t *testing.T) {
	t.Parallel()
	srv, _ := serve(t, staticHandler(200, repeat(`{"device_location_id":"1"}`, 11)))
	c, _ := newClient(t, srv.URL, func(cfg *Config) { cfg.MaxPageRecords = 10 })
	err := fetchPage(c, "/devices")
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "11 records, more than the 10 a page may hold") {
		t.Fatalf("error %v; want a page of 11 refused", err)
	}
	// The values follow: 50 a record.
	srv, _ = serve(t, staticHandler(200, `{"alerts":[],"padding":`+repeat("1", 500)+`}`))
	c, _ = newClient(t, srv.URL, func(cfg *Config) { cfg.MaxPageRecords = 10 })
	if err := fetchPage(c, "/alerts"); !strings.Contains(fmtErr(err), "503 JSON values, more than the 500 a page may hold") {
		t.Fatalf("error %v; want 503 values refused", err)
	}
}

func fmtErr(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// A page whose records all fail to be read ends its walk: the records
// have no identifiers, so without it a service that ignores the offset
// would be walked to the page limit, each page counted as a good one.
func TestAWalkStopsAtAPageNoneOfWhoseRecordsCanBeRead(t *testing.T) {
	t.Parallel()
	type walk struct {
		name string
		// first is the answer to the first request, later to the others.
		first, later string
		run          func(*Client, func()) error
		want         string
	}
	ctx := context.Background()
	walks := []walk{
		{"devices", `[{"device_location_id":"1"},{"device_location_id":"2"}]`, repeat("{}", 1000),
			func(c *Client, page func()) error {
				return c.WalkDevices(ctx, cred1, DeviceQuery{}, func(DevicePage) error { page(); return nil })
			},
			"GET /v1/devices: unreadable records (status 200): page 2: none of the 1,000 records could be read " +
				"(devices[0]: device_location_id is missing; devices[1]: device_location_id is missing; devices[2]: device_location_id is missing; " +
				"devices[3]: device_location_id is missing; devices[4]: device_location_id is missing; and 995 more)"},
		{"metadata", `{"metadata":[{"room_id":"1"},{"room_id":"2"}]}`, `{"metadata":[{"room_id":[]},{"room_id":[]}]}`,
			func(c *Client, page func()) error {
				return c.WalkMetadata(ctx, cred1, MetadataQuery{}, func(MetadataPage) error { page(); return nil })
			},
			"page 2: none of the 2 records could be read (metadata[0]: room_id is missing; metadata[1]: room_id is missing)"},
		{"metadata by next", `{"metadata":[{"room_id":"1"}],"next":"/v1/metadata?offset=1"}`, `{"metadata":[7,8],"next":"/v1/metadata?offset=3"}`,
			func(c *Client, page func()) error {
				return c.WalkMetadataByNext(ctx, cred1, MetadataQuery{}, func(MetadataPage) error { page(); return nil })
			},
			`page 2: none of the 2 records could be read (metadata[0]: want an object, got "7"; metadata[1]: want an object, got "8")`},
		{"alerts", `{"alerts":[{"alert_id":"a"}],"next":"c2"}`, `{"alerts":[{"alert_id":{}},{"alert_id":""}],"next":"c3"}`,
			func(c *Client, page func()) error {
				return c.WalkAlerts(ctx, cred1, AlertQuery{}, func(AlertPage) error { page(); return nil })
			},
			"page 2: none of the 2 records could be read (alerts[0]: alert_id: want a string, got an object; alerts[1]: alert_id is missing)"},
	}
	for _, w := range walks {
		t.Run(w.name, func(t *testing.T) {
			srv, rec := serve(t, http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
				body := w.later
				if r.URL.Query().Get("offset") == "" && r.URL.Query().Get("next") == "" {
					body = w.first
				}
				rw.Write([]byte(body))
			}))
			c, _ := newClient(t, srv.URL+"/v1", func(cfg *Config) { cfg.MaxPages = 50 })
			pages := 0
			err := w.run(c, func() { pages++ })
			if !errors.Is(err, ErrUnreadable) || !strings.Contains(fmtErr(err), w.want) {
				t.Fatalf("error %v; want one saying %q", err, w.want)
			}
			if pages != 1 || rec.count() != 2 {
				t.Errorf("%d pages handed on, %d requests; want the first page handed on and the second asked for once", pages, rec.count())
			}
		})
	}
}

// One record that cannot be read says nothing of the others: alone on
// its page, it is skipped and counted as before.
func TestALoneUnreadableRecordIsSkipped(t *testing.T) {
	t.Parallel()
	srv, _ := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Query().Get("offset") {
		case "":
			w.Write([]byte(`[{"device_location_id":"1"},{"device_location_id":"2"}]`))
		case "2":
			w.Write([]byte(`[{"device_location_id":"3","device_state":{"last_seen":"yesterday"}}]`))
		default:
			w.Write([]byte(`[]`))
		}
	}))
	c, _ := newClient(t, srv.URL, nil)
	var devices, skipped int
	err := c.WalkDevices(context.Background(), cred1, DeviceQuery{}, func(p DevicePage) error {
		devices += len(p.Devices)
		skipped += p.Skipped
		return nil
	})
	if err != nil || devices != 2 || skipped != 1 {
		t.Errorf("walk: %d devices, %d skipped, error %v; want 2, 1 and none", devices, skipped, err)
	}
}

func TestListsAndObjectsWithinARecordAreBounded(t *testing.T) {
	t.Parallel()
	members := func(n int) string {
		var b strings.Builder
		b.WriteString(`{"device_location_id":"9"`)
		for i := range n - 1 {
			b.WriteString(`,"x` + strings.Repeat("y", i%7) + string(rune('a'+i%26)) + `":` + "1")
		}
		return b.String() + "}"
	}
	tests := []struct {
		name, device string
		skip         string // the reason it is skipped; kept when empty
	}{
		{"256 levels", `{"device_location_id":"9","device_state":{"product_level":` + repeat("1", 256) + `}}`, ""},
		{"257 levels", `{"device_location_id":"9","device_state":{"product_level":` + repeat("1", 257) + `}}`,
			"devices[1]: device_state[0]: product_level: want at most 256 values, got an array of 257"},
		{"257 fault flags", `{"device_location_id":"9","device_state":{"faults":{"jam_fault":` + repeat("false", 257) + `}}}`,
			"devices[1]: device_state[0]: faults: jam_fault: want at most 256 values, got an array of 257"},
		{"257 states", `{"device_location_id":"9","device_state":` + repeat("{}", 257) + `}`,
			"devices[1]: device_state: want at most 256 values, got an array of 257"},
		{"a battery level of 1,000 values", `{"device_location_id":"9","device_state":{"battery_level":` + repeat("1", 1000) + `}}`,
			"devices[1]: device_state[0]: battery_level: want one value, got an array of 1,000"},
		{"257 members", members(257), "devices[1]: want at most 256 members, got an object of 257"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page, err := decodeDevicePage([]byte(`[{"device_location_id":"1"},`+tt.device+`]`), DefaultMaxPageRecords)
			if err != nil {
				t.Fatal(err)
			}
			if tt.skip == "" {
				if len(page.Devices) != 2 {
					t.Errorf("kept %d devices (%q); want 2", len(page.Devices), page.SkipReasons)
				}
				return
			}
			if len(page.Devices) != 1 || page.Skipped != 1 || !containsReason(page.SkipReasons, tt.skip) {
				t.Errorf("kept %d devices, skipped %d for %q; want 1 kept and 1 skipped for %q",
					len(page.Devices), page.Skipped, page.SkipReasons, tt.skip)
			}
		})
	}
}

func TestCount(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in            string
		elems, values int
	}{
		{`[]`, 0, 1},
		{` [ ] `, 0, 1},
		{`{}`, 0, 1},
		{`7`, 0, 1},
		{`"a,b[{"`, 0, 1},
		{`[1,2,3]`, 3, 4},
		{`[{},{},[]]`, 3, 4},
		{`{"a":1,"b":[1,2],"c":{"d":null}}`, 3, 7},
		{`["a,\"],[", "\\", {"x,y": "}"}]`, 3, 5},
		{"[\n1 ,\t[ 2 , 3 ] ]", 2, 5},
		{`[1,2] trailing,,,`, 2, 3},
	}
	for _, tt := range tests {
		elems, values := count([]byte(tt.in))
		if elems != tt.elems || values != tt.values {
			t.Errorf("count(%s) = %d elements, %d values; want %d, %d", tt.in, elems, values, tt.elems, tt.values)
		}
	}
}
