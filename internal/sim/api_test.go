package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The credentials of the test world's two accounts, A and B.
const (
	apiKeyA, apiAuthA = "key-a", "auth-a"
	apiKeyB, apiAuthB = "key-b", "auth-b"
)

// apiNow is where the test world's clock stands when it is built.
var apiNow = time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)

// The default /alerts window at apiNow: 7 days before today 00:00 UTC to
// tomorrow 00:00 UTC.
var (
	defaultStart = time.Date(2026, 11, 15, 0, 0, 0, 0, time.UTC)
	defaultEnd   = time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
)

// newAPIWorld builds the small two-account world the interface tests use:
// 300 device locations per account and ten days of history up to apiNow.
func newAPIWorld(t *testing.T) (*World, *ManualClock) {
	t.Helper()
	clock := NewManualClock(apiNow)
	w := New(Config{
		Seed:        7,
		Locations:   300,
		Accounts:    2,
		History:     10 * 24 * time.Hour,
		Clock:       clock,
		Zone:        time.UTC,
		Credentials: []Credentials{{APIKey: apiKeyA, Authorization: apiAuthA}, {APIKey: apiKeyB, Authorization: apiAuthB}},
	})
	return w, clock
}

// request sends a request through h and returns the response and its body.
// An empty key or auth leaves that header out.
func doRequest(t *testing.T, h http.Handler, method, path, key, auth string) (*http.Response, []byte) {
	t.Helper()
	req := httptest.NewRequest(method, path, nil)
	if key != "" {
		req.Header.Set("x-api-key", key)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	res := rec.Result()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: reading body: %v", method, path, err)
	}
	return res, body
}

// get sends GET path through h with the credentials.
func get(t *testing.T, h http.Handler, path, key, auth string) (*http.Response, []byte) {
	t.Helper()
	return doRequest(t, h, http.MethodGet, path, key, auth)
}

// getOK sends GET path and fails the test unless it answers 200 with JSON.
func getOK(t *testing.T, h http.Handler, path, key, auth string) []byte {
	t.Helper()
	res, body := get(t, h, path, key, auth)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: status %d, want 200; body %s", path, res.StatusCode, body)
	}
	if ct := res.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("GET %s: Content-Type %q, want application/json", path, ct)
	}
	return body
}

// decode unmarshals a JSON body into a T, failing the test if it does not.
func decodeJSON[T any](t *testing.T, body []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("decoding %T: %v; body %.300s", v, err, body)
	}
	return v
}

// withQuery returns path with the key/value pairs as its query, encoded.
func withQuery(path string, kv ...string) string {
	if len(kv)%2 != 0 {
		panic("withQuery: odd number of arguments")
	}
	if len(kv) == 0 {
		return path
	}
	q := url.Values{}
	for i := 0; i < len(kv); i += 2 {
		q.Add(kv[i], kv[i+1])
	}
	return path + "?" + q.Encode()
}

// errorBody is the simulator's error answer.
type errorBody struct {
	Status    int    `json:"status"`
	Error     string `json:"error"`
	Parameter string `json:"parameter"`
	Message   string `json:"message"`
}

// wantError checks that an answer is an error of the status, as a JSON body
// with the fields status, error and message, and parameter naming param
// exactly when param is not empty.
func wantError(t *testing.T, res *http.Response, body []byte, status int, param string) {
	t.Helper()
	if res.StatusCode != status {
		t.Fatalf("status %d, want %d; body %s", res.StatusCode, status, body)
	}
	if ct := res.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q, want application/json", ct)
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(body, &keys); err != nil {
		t.Fatalf("error body is not a JSON object: %v; body %s", err, body)
	}
	wantKeys := []string{"error", "message", "status"}
	if param != "" {
		wantKeys = []string{"error", "message", "parameter", "status"}
	}
	if got := sortedKeys(keys); !slices.Equal(got, wantKeys) {
		t.Errorf("error body keys %v, want %v; body %s", got, wantKeys, body)
	}
	e := decodeJSON[errorBody](t, body)
	if e.Status != status || e.Error != http.StatusText(status) || e.Message == "" || e.Parameter != param {
		t.Errorf("error body %+v, want status %d, error %q, a message and parameter %q", e, status, http.StatusText(status), param)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// idSetDiff describes how got differs from want, or returns "" when they are
// the same set.
func idSetDiff[K comparable](got, want map[K]bool) string {
	var missing, extra []K
	for k := range want {
		if !got[k] {
			missing = append(missing, k)
		}
	}
	for k := range got {
		if !want[k] {
			extra = append(extra, k)
		}
	}
	if len(missing) == 0 && len(extra) == 0 {
		return ""
	}
	return fmt.Sprintf("%d missing (e.g. %v), %d extra (e.g. %v)", len(missing), firstFewOf(missing), len(extra), firstFewOf(extra))
}

func firstFewOf[K any](s []K) []K { return s[:min(len(s), 3)] }

var apiEndpoints = []string{"/alerts", "/devices", "/metadata"}

func TestAuthentication(t *testing.T) {
	t.Parallel()
	w, _ := newAPIWorld(t)
	h := w.Handler()
	cases := []struct {
		name      string
		key, auth string
		status    int
	}{
		{"no headers", "", "", http.StatusForbidden},
		{"Authorization without x-api-key", "", apiAuthA, http.StatusForbidden},
		{"unknown x-api-key", "key-x", apiAuthA, http.StatusForbidden},
		{"x-api-key in another case", "KEY-A", apiAuthA, http.StatusForbidden},
		{"valid key without Authorization", apiKeyA, "", http.StatusUnauthorized},
		{"valid key with wrong Authorization", apiKeyA, "auth-x", http.StatusUnauthorized},
		{"valid key with the other account's Authorization", apiKeyA, apiAuthB, http.StatusUnauthorized},
		{"other valid key with the first account's Authorization", apiKeyB, apiAuthA, http.StatusUnauthorized},
		{"Authorization in another case", apiKeyA, "AUTH-A", http.StatusUnauthorized},
		{"correct pair of account A", apiKeyA, apiAuthA, http.StatusOK},
		{"correct pair of account B", apiKeyB, apiAuthB, http.StatusOK},
	}
	for _, c := range cases {
		for _, path := range apiEndpoints {
			t.Run(c.name+" "+path, func(t *testing.T) {
				res, body := get(t, h, path, c.key, c.auth)
				if c.status == http.StatusOK {
					if res.StatusCode != http.StatusOK {
						t.Fatalf("status %d, want 200; body %s", res.StatusCode, body)
					}
					return
				}
				wantError(t, res, body, c.status, "")
			})
		}
	}
}

func TestAccountIsolation(t *testing.T) {
	t.Parallel()
	w, _ := newAPIWorld(t)
	h := w.Handler()
	a, b := w.Accounts()[0], w.Accounts()[1]
	wide := []string{"start_date", "2026-01-01", "end_date", "2027-01-01", "page_size", "500"}

	t.Run("alerts", func(t *testing.T) {
		aIDs := map[string]bool{}
		for _, al := range a.alerts {
			aIDs[al.ID] = true
		}
		pages := walkAlerts(t, h, withQuery("/alerts", wide...), apiKeyB, apiAuthB, nil)
		n := 0
		for _, p := range pages {
			for _, al := range p.Alerts {
				n++
				id, _ := strconv.ParseInt(al.DeviceLocationID, 10, 64)
				if aIDs[al.AlertID] || a.locations[id] != nil || b.locations[id] == nil {
					t.Errorf("account B sees alert %s at location %s, not one of its own", al.AlertID, al.DeviceLocationID)
				}
			}
		}
		if n != len(b.alerts) {
			t.Errorf("account B sees %d alerts, it has %d", n, len(b.alerts))
		}
	})
	t.Run("devices", func(t *testing.T) {
		devs := getDevices(t, h, "/devices?limit=1000", apiKeyB, apiAuthB)
		for _, d := range devs {
			id, _ := strconv.ParseInt(d.DeviceLocationID, 10, 64)
			if a.locations[id] != nil || b.locations[id] == nil {
				t.Errorf("account B sees device location %s, not one of its own", d.DeviceLocationID)
			}
			for _, s := range d.DeviceState {
				if a.devices[s.DeviceMacID] != nil || b.devices[s.DeviceMacID] == nil {
					t.Errorf("account B sees device %s, not one of its own", s.DeviceMacID)
				}
			}
		}
		if len(devs) != len(b.Locations) {
			t.Errorf("account B sees %d device locations, it has %d", len(devs), len(b.Locations))
		}
	})
	t.Run("metadata", func(t *testing.T) {
		m := decodeJSON[metadataWire](t, getOK(t, h, "/metadata?limit=1000", apiKeyB, apiAuthB))
		if m.AccountID != b.ID || m.AccountName != b.Name {
			t.Errorf("account B's metadata names account %q %q, want %q %q", m.AccountID, m.AccountName, b.ID, b.Name)
		}
		for _, r := range m.Metadata {
			if a.rooms[r.RoomID] != nil || a.buildings[r.BuildingID] != nil || a.floors[r.FloorID] != nil || b.rooms[r.RoomID] == nil {
				t.Errorf("account B sees room %s (building %s), not one of its own", r.RoomID, r.BuildingID)
			}
		}
		if len(m.Metadata) != len(b.Rooms) {
			t.Errorf("account B sees %d rooms, it has %d", len(m.Metadata), len(b.Rooms))
		}
	})
}

func TestForeignIdentifiersNotFound(t *testing.T) {
	t.Parallel()
	w, _ := newAPIWorld(t)
	h := w.Handler()
	a := w.Accounts()[0]
	loc := a.Locations[len(a.Locations)/2]
	// An alert of account A inside the default window, so that account A's
	// own request finds it.
	var alert *Alert
	for _, al := range a.alerts {
		if !al.Created.Before(defaultStart) {
			alert = al
			break
		}
	}
	if alert == nil {
		t.Fatal("account A has no alert in the default window")
	}
	ids := map[string]string{
		"building_id":        loc.Room.Floor.Building.ID,
		"floor_id":           loc.Room.Floor.ID,
		"room_id":            loc.Room.ID,
		"device_location_id": strconv.FormatInt(loc.ID, 10),
		"alert_id":           alert.ID,
		"device_macid":       loc.Devices[0].MAC,
	}
	cases := []struct{ path, param string }{
		{"/alerts", "building_id"},
		{"/alerts", "floor_id"},
		{"/alerts", "room_id"},
		{"/alerts", "device_location_id"},
		{"/alerts", "alert_id"},
		{"/devices", "building_id"},
		{"/devices", "floor_id"},
		{"/devices", "room_id"},
		{"/devices", "device_location_id"},
		{"/devices", "device_macid"},
		{"/metadata", "building_id"},
		{"/metadata", "floor_id"},
		{"/metadata", "room_id"},
		{"/metadata", "device_location_id"},
	}
	for _, c := range cases {
		t.Run(c.path+" "+c.param, func(t *testing.T) {
			path := withQuery(c.path, c.param, ids[c.param])
			getOK(t, h, path, apiKeyA, apiAuthA) // the owner finds it
			res, body := get(t, h, path, apiKeyB, apiAuthB)
			wantError(t, res, body, http.StatusNotFound, c.param)
		})
	}
}

func TestBadParameters(t *testing.T) {
	t.Parallel()
	w, _ := newAPIWorld(t)
	h := w.Handler()
	cases := []struct {
		path  string
		kv    []string
		param string
	}{
		{"/alerts", []string{"start_date", "yesterday"}, "start_date"},
		{"/alerts", []string{"start_date", "2026-13-01"}, "start_date"},
		{"/alerts", []string{"start_date", "2026-11-20 10:00"}, "start_date"},
		{"/alerts", []string{"end_date", "22/11/2026"}, "end_date"},
		{"/alerts", []string{"end_date", "1732269000000"}, "end_date"},
		{"/alerts", []string{"start_date", "2026-11-20", "end_date", "2026-11-19"}, "end_date"},
		{"/alerts", []string{"start_date", "2026-11-20T00:00:00Z", "end_date", "2026-11-20T00:00:00Z"}, "end_date"},
		{"/alerts", []string{"page_size", "0"}, "page_size"},
		{"/alerts", []string{"page_size", "-1"}, "page_size"},
		{"/alerts", []string{"page_size", "501"}, "page_size"},
		{"/alerts", []string{"page_size", "abc"}, "page_size"},
		{"/alerts", []string{"page_size", "1.5"}, "page_size"},
		{"/alerts", []string{"device_location_id", "abc"}, "device_location_id"},
		{"/alerts", []string{"device_location_id", "1.5"}, "device_location_id"},
		{"/devices", []string{"device_location_id", "abc"}, "device_location_id"},
		{"/metadata", []string{"device_location_id", "abc"}, "device_location_id"},
		{"/alerts", []string{"alert_status", "PENDING"}, "alert_status"},
		{"/alerts", []string{"alert_status", "OPENED"}, "alert_status"},
		{"/alerts", []string{"resolution_type", "fixed"}, "resolution_type"},
		{"/alerts", []string{"resolution_type", "resolved_by_robot"}, "resolution_type"},
		{"/alerts", []string{"next", "!!!"}, "next"},
		{"/alerts", []string{"next", "bm90IGpzb24"}, "next"}, // "not json"
		{"/alerts", []string{"next", "e30"}, "next"},         // "{}"
		{"/alerts", []string{"prev", "e30"}, "prev"},
		{"/alerts", []string{"prev", "!!!"}, "prev"},
		{"/alerts", []string{"prev", "bm90IGpzb24"}, "prev"},
		{"/devices", []string{"offset", "-1"}, "offset"},
		{"/devices", []string{"limit", "ten"}, "limit"},
		{"/devices", []string{"limit", "2.5"}, "limit"},
		{"/metadata", []string{"offset", "-1"}, "offset"},
		{"/metadata", []string{"limit", "ten"}, "limit"},
		{"/metadata", []string{"limit", "2.5"}, "limit"},
		{"/devices", []string{"device_off", "maybe"}, "device_off"},
		{"/devices", []string{"device_macid", "XYZXYZXYZXYZ"}, "device_macid"},
		{"/devices", []string{"device_macid", "0123456789A"}, "device_macid"},
		{"/devices", []string{"device_macid", "0123456789ABC"}, "device_macid"},
		{"/devices", []string{"device_macid", "01:23:45:67:89:AB"}, "device_macid"},
	}
	for _, c := range cases {
		path := withQuery(c.path, c.kv...)
		t.Run(path, func(t *testing.T) {
			res, body := get(t, h, path, apiKeyA, apiAuthA)
			wantError(t, res, body, http.StatusBadRequest, c.param)
		})
	}
}

func TestUnknownPathsNotFound(t *testing.T) {
	t.Parallel()
	w, _ := newAPIWorld(t)
	h := w.Handler()
	for _, path := range []string{"/", "/alert", "/alerts/", "/devices/20000001", "/v1/metadata", "/ALERTS", "/webhooks"} {
		for _, creds := range [][2]string{{apiKeyA, apiAuthA}, {"", ""}} {
			t.Run(fmt.Sprintf("%s key=%q", path, creds[0]), func(t *testing.T) {
				res, body := get(t, h, path, creds[0], creds[1])
				wantError(t, res, body, http.StatusNotFound, "")
			})
		}
	}
}

func TestWritingMethodsNotAllowed(t *testing.T) {
	t.Parallel()
	w, _ := newAPIWorld(t)
	h := w.Handler()
	for _, method := range []string{http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		for _, path := range apiEndpoints {
			t.Run(method+" "+path, func(t *testing.T) {
				res, body := doRequest(t, h, method, path, apiKeyA, apiAuthA)
				wantError(t, res, body, http.StatusMethodNotAllowed, "")
				if allow := res.Header.Get("Allow"); !strings.Contains(allow, http.MethodGet) {
					t.Errorf("Allow %q does not offer GET", allow)
				}
			})
		}
	}
}

func TestPanicBecomesInternalServerError(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		fault func()
	}{
		{"string", func() { panic("boom") }},
		{"error", func() { panic(errors.New("boom")) }},
		{"runtime error", func() {
			i := len(os.Args) + 1
			_ = []int{}[i] // index out of range
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := recoverPanics(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { c.fault() }))
			res, body := get(t, h, "/alerts", apiKeyA, apiAuthA)
			wantError(t, res, body, http.StatusInternalServerError, "")
		})
	}

	t.Run("deliberate abort passes through", func(t *testing.T) {
		h := recoverPanics(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic(http.ErrAbortHandler) }))
		defer func() {
			if v := recover(); v != http.ErrAbortHandler {
				t.Errorf("recovered %v, want http.ErrAbortHandler to reach the server", v)
			}
		}()
		get(t, h, "/alerts", apiKeyA, apiAuthA)
		t.Error("the handler returned normally; want the abort to propagate")
	})
}

func TestInjectedFaults(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name           string
		faults         Faults
		status         int
		wantRetryAfter string // "" for no Retry-After header
	}{
		{"every request fails", Faults{ErrorRate: 1}, http.StatusInternalServerError, ""},
		{"every request rate limited", Faults{RateLimitRate: 1}, http.StatusTooManyRequests, "1"},
		{"Retry-After rounds up to whole seconds", Faults{RateLimitRate: 1, RetryAfter: 1500 * time.Millisecond}, http.StatusTooManyRequests, "2"},
		{"Retry-After of whole seconds", Faults{RateLimitRate: 1, RetryAfter: 3 * time.Second}, http.StatusTooManyRequests, "3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, _ := newAPIWorld(t)
			h := w.Handler()
			w.SetFaults(c.faults)
			for _, path := range apiEndpoints {
				res, body := get(t, h, path, apiKeyA, apiAuthA)
				wantError(t, res, body, c.status, "")
				if got := res.Header.Get("Retry-After"); got != c.wantRetryAfter {
					t.Errorf("%s: Retry-After %q, want %q", path, got, c.wantRetryAfter)
				}
			}
			w.SetFaults(Faults{})
			for _, path := range apiEndpoints {
				var v any
				if err := json.Unmarshal(getOK(t, h, path, apiKeyA, apiAuthA), &v); err != nil {
					t.Errorf("%s after faults were turned off: %v", path, err)
				}
			}
		})
	}
}

func TestQuotaPerCredential(t *testing.T) {
	t.Parallel()
	w, _ := newAPIWorld(t)
	h := w.Handler()
	wall := time.Date(2026, 11, 22, 9, 30, 15, 0, time.UTC)
	w.chaos.mu.Lock()
	w.chaos.now = func() time.Time { return wall } // the quota minute runs on wall-clock time
	w.chaos.mu.Unlock()
	w.SetFaults(Faults{Quota: 3})

	steps := []struct {
		name      string
		key, auth string
		status    int
	}{
		{"A 1", apiKeyA, apiAuthA, http.StatusOK},
		{"A 2", apiKeyA, apiAuthA, http.StatusOK},
		{"A 3", apiKeyA, apiAuthA, http.StatusOK},
		{"A 4 over quota", apiKeyA, apiAuthA, http.StatusTooManyRequests},
		{"B 1 has its own quota", apiKeyB, apiAuthB, http.StatusOK},
		{"A 5 still over quota", apiKeyA, apiAuthA, http.StatusTooManyRequests},
		{"B 2", apiKeyB, apiAuthB, http.StatusOK},
		{"B 3", apiKeyB, apiAuthB, http.StatusOK},
		{"B 4 over quota", apiKeyB, apiAuthB, http.StatusTooManyRequests},
	}
	for _, s := range steps {
		res, body := get(t, h, "/alerts?page_size=1", s.key, s.auth)
		if s.status == http.StatusOK {
			if res.StatusCode != http.StatusOK {
				t.Fatalf("%s: status %d, want 200; body %s", s.name, res.StatusCode, body)
			}
			continue
		}
		wantError(t, res, body, s.status, "")
		// 45 s remain of the minute that started at 09:30:00.
		if got := res.Header.Get("Retry-After"); got != "45" {
			t.Errorf("%s: Retry-After %q, want 45 (the rest of the minute)", s.name, got)
		}
	}

	wall = wall.Add(time.Minute)
	if res, body := get(t, h, "/alerts?page_size=1", apiKeyA, apiAuthA); res.StatusCode != http.StatusOK {
		t.Errorf("next minute: status %d, want 200; body %s", res.StatusCode, body)
	}
	w.SetFaults(Faults{})
	for i := range 10 {
		if res, body := get(t, h, "/alerts?page_size=1", apiKeyA, apiAuthA); res.StatusCode != http.StatusOK {
			t.Fatalf("request %d without quota: status %d, want 200; body %s", i, res.StatusCode, body)
		}
	}
}

func TestTruncatedAnswers(t *testing.T) {
	t.Parallel()
	w, _ := newAPIWorld(t)
	srv := httptest.NewServer(w.Handler())
	defer srv.Close()
	fetch := func(t *testing.T, path string) (*http.Response, []byte, error) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("x-api-key", apiKeyA)
		req.Header.Set("Authorization", apiAuthA)
		res, err := srv.Client().Do(req)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		return res, body, err
	}

	w.SetFaults(Faults{TruncateRate: 1})
	for _, path := range apiEndpoints {
		t.Run("truncated "+path, func(t *testing.T) {
			res, body, err := fetch(t, path)
			if res.StatusCode != http.StatusOK {
				t.Fatalf("status %d, want 200 (the cut comes after the header)", res.StatusCode)
			}
			var v any
			if err == nil && json.Unmarshal(body, &v) == nil {
				t.Fatalf("read %d bytes of valid JSON; want the body cut off", len(body))
			}
			if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("reading the body: %v, want unexpected EOF", err)
			}
		})
	}

	w.SetFaults(Faults{})
	for _, path := range apiEndpoints {
		t.Run("whole "+path, func(t *testing.T) {
			res, body, err := fetch(t, path)
			if err != nil || res.StatusCode != http.StatusOK {
				t.Fatalf("status %d, error %v; want 200 and the whole body", res.StatusCode, err)
			}
			var v any
			if err := json.Unmarshal(body, &v); err != nil {
				t.Errorf("body does not decode: %v", err)
			}
		})
	}
}

func TestLogRequests(t *testing.T) {
	t.Parallel()
	w, _ := newAPIWorld(t)
	var buf bytes.Buffer
	h := LogRequests(slog.New(slog.NewTextHandler(&buf, nil)), w.Handler())
	reqs := []struct {
		method, path, key, auth string
		status                  int
	}{
		{http.MethodGet, "/alerts?page_size=1", apiKeyA, apiAuthA, http.StatusOK},
		{http.MethodGet, "/devices?limit=1", apiKeyB, apiAuthB, http.StatusOK},
		{http.MethodGet, "/metadata", apiKeyA, "secret-wrong-authorization", http.StatusUnauthorized},
		{http.MethodGet, "/metadata", "secret-unknown-key", apiAuthB, http.StatusForbidden},
		{http.MethodPost, "/alerts", apiKeyA, apiAuthA, http.StatusMethodNotAllowed},
		{http.MethodGet, "/nowhere", apiKeyA, apiAuthA, http.StatusNotFound},
		{http.MethodGet, "/alerts?page_size=0", apiKeyA, apiAuthA, http.StatusBadRequest},
	}
	for _, r := range reqs {
		if res, _ := doRequest(t, h, r.method, r.path, r.key, r.auth); res.StatusCode != r.status {
			t.Fatalf("%s %s: status %d, want %d", r.method, r.path, res.StatusCode, r.status)
		}
	}

	out := buf.String()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(reqs) {
		t.Fatalf("%d log lines for %d requests:\n%s", len(lines), len(reqs), out)
	}
	duration := regexp.MustCompile(`\bduration=(\S+)`)
	for i, r := range reqs {
		line := lines[i]
		path, _, _ := strings.Cut(r.path, "?")
		for _, want := range []string{"method=" + r.method, "path=" + path + " ", "status=" + strconv.Itoa(r.status)} {
			if !strings.Contains(line, want) {
				t.Errorf("log line %q lacks %q", line, want)
			}
		}
		m := duration.FindStringSubmatch(line)
		if m == nil {
			t.Errorf("log line %q has no duration", line)
		} else if d, err := time.ParseDuration(m[1]); err != nil || d < 0 {
			t.Errorf("log line %q: duration %q is not a duration: %v", line, m[1], err)
		}
	}
	for _, secret := range []string{apiKeyA, apiAuthA, apiKeyB, apiAuthB, "secret-wrong-authorization", "secret-unknown-key"} {
		if strings.Contains(out, secret) {
			t.Errorf("the log reveals the credential %q:\n%s", secret, out)
		}
	}
}
