package upstream

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// The fuzz tests check that no input makes a decoder panic, and that what a
// decoder returns keeps its promises. Their seeds cover every shape the
// decoders accept; go test runs the seeds, go test -fuzz explores further.

// scalarSeeds are JSON values of every kind, for all the scalar readers.
var scalarSeeds = []string{
	``, ` `, `null`, `true`, `false`, `0`, `-1`, `1`, `59`, `59.6`, `1e20`, `-0`, `1E400`,
	`""`, `" "`, `"59"`, `" 59 "`, `"full"`, `"NaN"`, `"Infinity"`, `"0x10"`, `"+5"`, `".5"`,
	`[]`, `[null]`, `[59]`, `["59"]`, `[1,2]`, `[[1]]`, `{}`, `{"a":1}`, `[`, `"unterminated`, `nul`, `tru`,
	`"true"`, `"FALSE"`, `"1"`, `[true]`, `[true,false]`, `["false",1,0,null]`, `[{}]`,
	`"CCAEC73590CF"`, `["CCAEC73590CF"]`, `["A",""]`, `[123]`, `"NORMAL"`, `"Low"`,
}

// timeSeeds are timestamps in every accepted form and some that are not.
var timeSeeds = []string{
	`"2026-11-22T09:15:00.000Z"`, `"2026-11-22T09:15:00Z"`, `"2026-11-22T09:15:00.123456789Z"`,
	`"2026-11-22T10:15:00+01:00"`, `"2026-11-22T10:15:00.000+0100"`, `"2026-11-22T04:15:00-05"`,
	`"2026-11-22T09:15:00"`, `"2026-11-22 09:15:00Z"`, `"2026-11-22 09:15:00"`, `"2026-11-22T09:15Z"`,
	`"2026-11-22T09:15"`, `"2026-11-22"`, `1795338900000`, `1795338900000.5`, `"1795338900000"`, `1795338900`,
	`-62135596800000`, `253402300799999`, `253402300800000`, `-99999999999999999`, `"0000-01-01T00:00:00Z"`,
	`"9999-12-31T23:59:59.999Z"`, `"2026-11-22T09:15:00+25:00"`, `"yesterday"`, `"2026-13-40T09:15:00Z"`,
	`["2026-11-22T09:15:00Z"]`, `"-1"`, `"1-2"`,
}

func addSeeds(f *testing.F, seeds ...[]string) {
	for _, list := range seeds {
		for _, s := range list {
			f.Add([]byte(s))
		}
	}
}

func FuzzReadTime(f *testing.F) {
	addSeeds(f, timeSeeds, scalarSeeds)
	f.Fuzz(func(t *testing.T, data []byte) {
		tm, err := readTime(data)
		if err != nil || tm.IsZero() {
			if err != nil && !tm.IsZero() {
				t.Errorf("readTime(%q) returned %v with error %v", data, tm, err)
			}
			return
		}
		if tm.Location() != time.UTC || tm.Before(minTime) || tm.After(maxTime) {
			t.Errorf("readTime(%q) = %v, want a UTC time within years 1 to 9999", data, tm)
		}
		// What was read can be written and read again unchanged.
		again, err := readTime([]byte(`"` + tm.Format(time.RFC3339Nano) + `"`))
		if err != nil || !again.Equal(tm) {
			t.Errorf("readTime(%q) = %v does not survive a round trip: %v, %v", data, tm, again, err)
		}
	})
}

// FuzzReadInt covers battery_level, refill_count and total_count.
func FuzzReadInt(f *testing.F) {
	addSeeds(f, scalarSeeds)
	f.Fuzz(func(t *testing.T, data []byte) {
		n, known, err := readInt(data)
		if (err != nil || !known) && n != 0 {
			t.Errorf("readInt(%q) = %d without a value", data, n)
		}
		if n > maxExactInt || n < -maxExactInt {
			t.Errorf("readInt(%q) = %d out of range", data, n)
		}
	})
}

// FuzzReadInts covers product and product_level.
func FuzzReadInts(f *testing.F) {
	addSeeds(f, scalarSeeds, []string{`[77,63,75,69]`, `["77","63"]`, `[77,"63",75.4]`, `["x"]`})
	f.Fuzz(func(t *testing.T, data []byte) {
		ns, err := readInts(data)
		if err != nil && ns != nil {
			t.Errorf("readInts(%q) returned %v with error %v", data, ns, err)
		}
	})
}

// FuzzReadBools covers device_off, the faults, product_low, product_out
// and overdue.
func FuzzReadBools(f *testing.F) {
	addSeeds(f, scalarSeeds, []string{`[false,false]`, `["maybe"]`, `[[true]]`, `[true, "0", 1]`})
	f.Fuzz(func(t *testing.T, data []byte) {
		bs, err := readBools(data)
		if err != nil && bs != nil {
			t.Errorf("readBools(%q) returned %v with error %v", data, bs, err)
		}
	})
}

// FuzzReadStrings covers device_macid in alerts; readString every other
// string member.
func FuzzReadStrings(f *testing.F) {
	addSeeds(f, scalarSeeds, []string{`["a","b"]`, `["a",["b"]]`, `[null,"a"]`})
	f.Fuzz(func(t *testing.T, data []byte) {
		ss, err := readStrings(data)
		for _, s := range ss {
			if s == "" {
				t.Errorf("readStrings(%q) kept an empty string", data)
			}
		}
		if err != nil && ss != nil {
			t.Errorf("readStrings(%q) returned %q with error %v", data, ss, err)
		}
		s, err := readString(data)
		if err != nil && s != "" {
			t.Errorf("readString(%q) returned %q with error %v", data, s, err)
		}
	})
}

// simBodies returns the answers of a small simulated service to path.
func simBodies(f *testing.F, paths ...string) []string {
	f.Helper()
	h := newWorldOf(f, 12, 1, 2*24*time.Hour).Handler()
	var out []string
	for _, p := range paths {
		req := httptest.NewRequest(http.MethodGet, p, nil)
		req.Header.Set("x-api-key", "k1")
		req.Header.Set("Authorization", "a1")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			f.Fatalf("GET %s: %d %s", p, rec.Code, rec.Body)
		}
		out = append(out, rec.Body.String())
	}
	return out
}

// checkPage checks what every page decoder promises.
func checkPage(t *testing.T, data []byte, info PageInfo, kept int) {
	t.Helper()
	if info.received != kept+info.Skipped {
		t.Errorf("page of %q: %d received, %d kept, %d skipped", data, info.received, kept, info.Skipped)
	}
	if len(info.SkipReasons) > maxSkipReasons || len(info.SkipReasons) > info.Skipped ||
		(info.Skipped > 0 && len(info.SkipReasons) == 0) {
		t.Errorf("page of %q: %d skipped with %d reasons", data, info.Skipped, len(info.SkipReasons))
	}
}

func FuzzDecodeAlertPage(f *testing.F) {
	addSeeds(f, simBodies(f, "/alerts?page_size=3&start_date=2026-01-01", "/alerts?alert_status=OPEN"), []string{
		`{"alerts":[],"next":null,"prev":null}`,
		`{"alerts":null}`, `{}`, `[]`, `[{"alert_id":"a"}]`, `{"alerts":"none"}`, `{"alerts":[1,"x",null,[],{}]}`,
		`{"alerts":[{"alert_id":"a2","device_location_id":10000336,"device_macid":"ccaec73590cf","alert_status":"closed","alert_type":"consumable_out","created_date":1795338900000,"resolved_date":"1795342500000","resolution_type":"resolved_by_offline","overdue":[true],"refill_count":"4"}],"next":"abc"}`,
		`{"alerts":[{"alert_id":"a3","device_macid":null,"created_date":"2026-11-22T10:15:00+01:00","resolved_date":null,"resolution_type":null,"overdue":"true","refill_count":null}]}`,
		`{"alerts":[{"alert_id":"a4","alert_type":"brandname_leak","priority":{"level":3}}],"page_info":{"n":1}}`,
		`{"alerts":[{"alert_id":"b1","created_date":"yesterday"}]}`,
		`{"alerts":[{"alert_id":["x"],"device_macid":[["x"]]}],"next":["c"]}`,
		`{"alerts":[`, `not json`, ``,
	})
	f.Fuzz(func(t *testing.T, data []byte) {
		page, err := decodeAlertPage(data, DefaultMaxPageRecords)
		if err != nil {
			return
		}
		checkPage(t, data, page.PageInfo, len(page.Alerts))
		for _, a := range page.Alerts {
			if a.ID == "" || a.Status != strings.ToUpper(a.Status) || a.ResolutionType != strings.ToUpper(a.ResolutionType) {
				t.Errorf("alert %+v from %q", a, data)
			}
			for _, m := range a.MacIDs {
				if m == "" || m != strings.ToUpper(m) {
					t.Errorf("alert %+v from %q: device_macid %q", a, data, m)
				}
			}
		}
	})
}

func FuzzDecodeDevicePage(f *testing.F) {
	addSeeds(f, simBodies(f, "/devices?limit=4", "/devices?limit=3&offset=6"), []string{
		`[]`, `null`, `{}`, `{"devices":[]}`, `{"devices":[{"device_location_id":"1"}]}`, `[1,"x",null,[],{}]`,
		`[{"device_location_id":"1","device_state":{"battery_level":10}}]`,
		`[{"device_location_id":2,"device_type":"towel","device_state":[{"device_state_type":"2.0","device_macid":"aabbccddeeff","jam_fault":[true],"sensor_fault":[false],"system_fault":false,"product_level":["12"],"product_low":[true],"product_out":[false],"battery_level":["18"],"battery_state":"Low","last_seen":1795338000000,"device_off":[true]}]}]`,
		`[{"device_location_id":"3","device_type":"air_freshener","colour":"blue","device_state":[{"faults":{"scent_empty_fault":[true]},"nozzle_fault":[false],"odd_fault":"x","status":{"battery_level":null,"battery_state":"shutdown","scent":"pine"},"last_seen":null,"device_off":null}]}]`,
		`[{"device_location_id":"4","device_state":{"status":{"battery_level":"80.4","product":[1,"2"]},"product_level":[9,9]}}]`,
		`[{"device_location_id":"5","device_state":[{"faults":[{"jam_fault":[false]}],"status":[{"product":[]}]}]}]`,
		`[{"device_location_id":"6","device_state":[{"faults":{"jam_fault":["maybe"]}},7]}]`,
		`[{"device_location_id":"7","device_state":[{"faults":"none","status":5,"battery_level":"full"}]}]`,
		`[{"device_location_id":"8","device_state":[{"jam_fault":{}}]}]`,
		`[{"device_location_id"`, `<html>`, ``,
	})
	f.Fuzz(func(t *testing.T, data []byte) {
		page, err := decodeDevicePage(data, DefaultMaxPageRecords)
		if err != nil {
			return
		}
		checkPage(t, data, page.PageInfo, len(page.Devices))
		for _, d := range page.Devices {
			if d.LocationID == "" {
				t.Errorf("device without a location from %q", data)
			}
			for _, s := range d.States {
				if s.BatteryState != strings.ToUpper(s.BatteryState) || s.MacID != strings.ToUpper(s.MacID) {
					t.Errorf("state %+v from %q", s, data)
				}
				s.Faulty() // must not panic on any shape of faults
			}
		}
	})
}

func FuzzDecodeMetadataPage(f *testing.F) {
	addSeeds(f, simBodies(f, "/metadata?limit=2", "/metadata?device_type=soap"), []string{
		`{"total_count":0,"next":null,"prev":null,"metadata":[]}`, `{}`, `[]`, `{"metadata":null}`, `{"metadata":{}}`,
		`{"total_count":"3","account_id":12,"metadata":[{"room_id":"r1","device_locations":[{"location_id":10000001,"type":"soap","colour":"red"}],"area_m2":12},{"room_id":"r2","device_locations":null},{"room_id":"r3","device_locations":[{"location_name":"no id"}]},[]]}`,
		`{"total_count":[3],"next":"/metadata?offset=1","metadata":[{"room_id":["r"],"device_locations":{}}]}`,
		`{"total_count":"many"}`, `{"metadata":[`, `nope`,
	})
	f.Fuzz(func(t *testing.T, data []byte) {
		page, err := decodeMetadataPage(data, DefaultMaxPageRecords)
		if err != nil {
			return
		}
		checkPage(t, data, page.PageInfo, len(page.Rooms))
		if !page.HasTotal && page.TotalCount != 0 {
			t.Errorf("total %d without total_count from %q", page.TotalCount, data)
		}
		for _, r := range page.Rooms {
			if r.RoomID == "" {
				t.Errorf("room without an identifier from %q", data)
			}
			for _, l := range r.Locations {
				if l.ID == "" {
					t.Errorf("location without an identifier from %q", data)
				}
			}
		}
	})
}

func FuzzParseErrorBody(f *testing.F) {
	addSeeds(f, []string{
		`{"status":400,"error":"Bad Request","parameter":"page_size","message":"page_size must be from 1 to 500"}`,
		`{"status":"400","error":"Bad Request"}`, `{"error":{"code":7,"message":"nope","param":"limit"}}`,
		`{"error":{"error":{"message":"deep"}}}`, `{"detail":"Not allowed"}`, `{"message":["a","b"]}`,
		"upstream connect error\nreset", `<html><h1>502</h1></html>`, ``, "\xff\xfe", strings.Repeat("x", 1000),
	})
	f.Fuzz(func(t *testing.T, data []byte) {
		msg, _ := parseErrorBody(data)
		if len([]rune(msg)) > 503 {
			t.Errorf("message of %d runes from %q", len([]rune(msg)), data)
		}
	})
}

func FuzzParseRetryAfter(f *testing.F) {
	now := time.Date(2026, 11, 18, 9, 30, 0, 0, time.UTC)
	for _, s := range []string{"", "0", "7", "-5", "99999999999999999999", "soon", now.Format(http.TimeFormat),
		"Wed, 18 Nov 2026 09:30:20 GMT", "Wednesday, 18-Nov-26 09:30:20 GMT", "Wed Nov 18 09:30:20 2026"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if d := parseRetryAfter(v, now); d < 0 || d > maxRetryAfter {
			t.Errorf("parseRetryAfter(%q) = %s", v, d)
		}
	})
}

// FuzzCount checks count against encoding/json's own reading of every
// valid JSON value.
func FuzzCount(f *testing.F) {
	addSeeds(f, scalarSeeds, simBodies(f, "/devices?limit=4", "/metadata?limit=3"), []string{
		`{"a":1,"a":2}`, `["a,\"],[", "\\", {"x,y": "}"}]`, "[\n1 ,\t[ 2 , 3 ] ]", `[[],{},[[]],{"a":{}}]`,
	})
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			count(data) // bounded, meaningless: it must only not panic
			return
		}
		elems, values := count(data)
		wantElems, wantValues := referenceCount(t, data)
		if elems != wantElems || values != wantValues {
			t.Errorf("count(%s) = %d elements, %d values; encoding/json reads %d, %d", data, elems, values, wantElems, wantValues)
		}
	})
}

// referenceCount counts as count does, with encoding/json's tokens: the
// elements or members of the outermost value, and every value but the
// names of members.
func referenceCount(t *testing.T, data []byte) (elems, values int) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var inObject []bool // for each open array or object, whether it is an object
	name := false       // the next token is the name of a member
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return elems, values
		}
		if err != nil {
			t.Fatalf("reading %s: %v", data, err)
		}
		if delim, ok := tok.(json.Delim); ok && (delim == ']' || delim == '}') {
			inObject = inObject[:len(inObject)-1]
			name = len(inObject) > 0 && inObject[len(inObject)-1]
			continue
		}
		if name {
			name = false
			continue
		}
		values++
		if len(inObject) == 1 {
			elems++
		}
		if delim, ok := tok.(json.Delim); ok {
			inObject = append(inObject, delim == '{')
			name = delim == '{'
			continue
		}
		name = len(inObject) > 0 && inObject[len(inObject)-1]
	}
}
