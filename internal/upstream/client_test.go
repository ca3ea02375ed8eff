package upstream

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"washboard/internal/version"
)

func TestNewRefusesBadBaseURLs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		base string
		ok   bool
	}{
		{"https://api.example.com/v1", true},
		{"http://127.0.0.1:9100/", true},
		{"", false},
		{"api.example.com", false},
		{"ftp://api.example.com", false},
		{"https://user:secret@api.example.com", false},
		{"https://api.example.com/v1?key=x", false},
	}
	for _, tt := range tests {
		_, err := New(Config{BaseURL: tt.base})
		if (err == nil) != tt.ok {
			t.Errorf("New(%q): error %v, want ok %v", tt.base, err, tt.ok)
		}
		if err != nil && strings.Contains(err.Error(), "secret") {
			t.Errorf("New(%q): error %q shows the password", tt.base, err)
		}
	}
}

func TestRequestsCarryHeadersAndQuery(t *testing.T) {
	t.Parallel()
	off := false
	tests := []struct {
		name string
		call func(*Client) error
		path string
		want string // the encoded query
	}{
		{"alerts", func(c *Client) error {
			_, err := c.Alerts(context.Background(), cred1, AlertQuery{
				AlertID: "a", BuildingID: "b", FloorID: "f", RoomID: "r", DeviceLocationID: "7", AlertStatus: "OPEN",
				AlertType: AlertDeviceOff, ResolutionType: "resolved", PageSize: 50,
				StartDate: time.Date(2026, 11, 1, 0, 0, 0, 0, time.FixedZone("CET", 3600)), EndDate: time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC),
			})
			return err
		}, "/v1/alerts", "alert_id=a&alert_status=OPEN&alert_type=device_off&building_id=b&device_location_id=7&end_date=2026-11-02T00%3A00%3A00.000Z&floor_id=f&page_size=50&resolution_type=resolved&room_id=r&start_date=2026-10-31T23%3A00%3A00.000Z"},
		{"alerts by cursor", func(c *Client) error {
			_, err := c.Alerts(context.Background(), cred1, AlertQuery{BuildingID: "ignored", PageSize: 10, Next: "abc"})
			return err
		}, "/v1/alerts", "next=abc&page_size=10"},
		{"devices", func(c *Client) error {
			_, err := c.Devices(context.Background(), cred1, DeviceQuery{BuildingID: "b", FloorID: "f", RoomID: "r",
				DeviceLocationID: "7", DeviceMacID: "AABBCCDDEEFF", DeviceOff: &off, Limit: 10, Offset: 20})
			return err
		}, "/v1/devices", "building_id=b&device_location_id=7&device_macid=AABBCCDDEEFF&device_off=false&floor_id=f&limit=10&offset=20&room_id=r"},
		{"metadata", func(c *Client) error {
			_, err := c.Metadata(context.Background(), cred1, MetadataQuery{BuildingID: "b", FloorID: "f", RoomID: "r",
				DeviceLocationID: "7", DeviceType: "soap", Limit: 10, Offset: 20})
			return err
		}, "/v1/metadata", "building_id=b&device_location_id=7&device_type=soap&floor_id=f&limit=10&offset=20&room_id=r"},
	}
	body := map[string]string{"/v1/alerts": `{"alerts":[]}`, "/v1/devices": `[]`, "/v1/metadata": `{"metadata":[]}`}
	srv, rec := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(body[r.URL.Path]))
	}))
	c, _ := newClient(t, srv.URL+"/v1/", nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.call(c); err != nil {
				t.Fatal(err)
			}
			reqs := rec.requests()
			r := reqs[len(reqs)-1]
			if r.URL.Path != tt.path || r.URL.RawQuery != tt.want {
				t.Errorf("requested %s?%s\nwant %s?%s", r.URL.Path, r.URL.RawQuery, tt.path, tt.want)
			}
			if got, want := r.Header.Get("User-Agent"), "Washboard/"+version.String(); got != want {
				t.Errorf("User-Agent %q, want %q", got, want)
			}
			if r.Header.Get("x-api-key") != "k1" || r.Header.Get("Authorization") != "a1" {
				t.Errorf("credentials headers %q, %q", r.Header.Get("x-api-key"), r.Header.Get("Authorization"))
			}
		})
	}
}

// pagedHandler serves n items (device locations or metadata rooms) from
// the offset asked for, at most per a page whatever limit asks for.
func pagedHandler(n, per int, metadata, withTotal bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
		var items []string
		for i := offset; i < min(n, offset+per); i++ {
			if metadata {
				items = append(items, fmt.Sprintf(`{"room_id":"r%d"}`, i))
			} else {
				items = append(items, fmt.Sprintf(`{"device_location_id":"%d"}`, i))
			}
		}
		list := "[" + strings.Join(items, ",") + "]"
		switch {
		case !metadata:
			w.Write([]byte(list))
		case withTotal:
			fmt.Fprintf(w, `{"total_count":%d,"metadata":%s}`, n, list)
		default:
			fmt.Fprintf(w, `{"metadata":%s}`, list)
		}
	})
}

func TestOffsetWalksWhenTheServerIgnoresLimit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		metadata    bool
		withTotal   bool
		wantOffsets []string // of the requests
	}{
		{"devices", false, false, []string{"", "3", "6", "9", "10"}},
		{"metadata with total_count", true, true, []string{"", "3", "6", "9"}},
		{"metadata without total_count", true, false, []string{"", "3", "6", "9", "10"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, rec := serve(t, pagedHandler(10, 3, tt.metadata, tt.withTotal))
			c, _ := newClient(t, srv.URL, nil)
			var got []string
			var err error
			if tt.metadata {
				err = c.WalkMetadata(context.Background(), cred1, MetadataQuery{Limit: 100}, func(p MetadataPage) error {
					for _, r := range p.Rooms {
						got = append(got, strings.TrimPrefix(r.RoomID, "r"))
					}
					return nil
				})
			} else {
				err = c.WalkDevices(context.Background(), cred1, DeviceQuery{Limit: 100}, func(p DevicePage) error {
					for _, d := range p.Devices {
						got = append(got, d.LocationID)
					}
					return nil
				})
			}
			if err != nil {
				t.Fatal(err)
			}
			if want := []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}; !slices.Equal(got, want) {
				t.Errorf("walk returned %v, want %v", got, want)
			}
			var offsets []string
			for _, r := range rec.requests() {
				offsets = append(offsets, r.URL.Query().Get("offset"))
				if r.URL.Query().Get("limit") != "100" {
					t.Errorf("request %s lost the limit", r.URL)
				}
			}
			if !slices.Equal(offsets, tt.wantOffsets) {
				t.Errorf("asked for offsets %q, want %q", offsets, tt.wantOffsets)
			}
		})
	}
}

func TestOffsetWalksCountSkippedRecords(t *testing.T) {
	t.Parallel()
	// A page of three whose middle record cannot be read still moves the
	// offset by three.
	srv, rec := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("offset") == "" {
			w.Write([]byte(`[{"device_location_id":"1"},{"device_location_id":{}},{"device_location_id":"3"}]`))
			return
		}
		w.Write([]byte(`[]`))
	}))
	c, _ := newClient(t, srv.URL, nil)
	skipped := 0
	err := c.WalkDevices(context.Background(), cred1, DeviceQuery{}, func(p DevicePage) error {
		skipped += p.Skipped
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	reqs := rec.requests()
	if skipped != 1 || len(reqs) != 2 || reqs[1].URL.Query().Get("offset") != "3" {
		t.Errorf("skipped %d; second request %v", skipped, reqs[len(reqs)-1].URL)
	}
}

// cursorHandler serves alert pages whose next cursors are given in turn;
// past the list it makes up fresh ones.
func cursorHandler(cursors ...string) http.Handler {
	var n atomic.Int64
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		next := "fresh-" + strconv.Itoa(i)
		if i < len(cursors) {
			next = cursors[i]
		}
		fmt.Fprintf(w, `{"alerts":[{"alert_id":"x%d"}],"next":%q}`, i, next)
	})
}

func TestWalkAlertsStops(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		handler   http.Handler
		maxPages  int
		want      error
		wantPages int
	}{
		{"empty next", cursorHandler("A", "B", ""), 0, nil, 3},
		{"repeated cursor", cursorHandler("A", "B", "C", "B"), 0, ErrCursorLoop, 4},
		{"cursor repeated at once", cursorHandler("A", "A"), 0, ErrCursorLoop, 2},
		{"page cap", cursorHandler(), 5, ErrPageLimit, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, rec := serve(t, tt.handler)
			c, _ := newClient(t, srv.URL, func(cfg *Config) { cfg.MaxPages = tt.maxPages })
			pages := 0
			err := c.WalkAlerts(context.Background(), cred1, AlertQuery{PageSize: 1}, func(p AlertPage) error {
				pages++
				return nil
			})
			if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Fatalf("error %v, want %v", err, tt.want)
			}
			if pages != tt.wantPages || rec.count() != tt.wantPages {
				t.Errorf("%d pages from %d requests, want %d", pages, rec.count(), tt.wantPages)
			}
			for i, r := range rec.requests()[1:] {
				if r.URL.Query().Get("next") == "" || r.URL.Query().Get("page_size") != "1" {
					t.Errorf("request %d: %s", i+2, r.URL)
				}
			}
		})
	}
}

func TestWalkStopsOnTheCallbacksError(t *testing.T) {
	t.Parallel()
	srv, rec := serve(t, cursorHandler())
	c, _ := newClient(t, srv.URL, nil)
	stop := errors.New("store full")
	err := c.WalkAlerts(context.Background(), cred1, AlertQuery{}, func(p AlertPage) error {
		if p.Number == 3 {
			return stop
		}
		return nil
	})
	if err != stop || rec.count() != 3 {
		t.Errorf("error %v after %d requests, want the callback's after 3", err, rec.count())
	}
}

func TestMetadataNextURLs(t *testing.T) {
	t.Parallel()
	foreign, foreignRec := serve(t, pagedHandler(10, 3, true, true))
	tests := []struct {
		name     string
		next     func(srvURL string) string
		want     error
		wantRoom int
	}{
		{"absolute, same host", func(u string) string { return u + "/metadata?offset=1" }, nil, 2},
		{"relative", func(string) string { return "/metadata?offset=1" }, nil, 2},
		{"another host", func(string) string { return foreign.URL + "/metadata?offset=1" }, ErrForeignHost, 1},
		{"another scheme", func(u string) string { return strings.Replace(u, "http:", "https:", 1) + "/metadata?offset=1" }, ErrForeignHost, 1},
		{"user information", func(u string) string { return strings.Replace(u, "http://", "http://me:pw@", 1) + "/metadata?offset=1" }, ErrForeignHost, 1},
		{"back to the same offset", func(u string) string { return u + "/metadata?offset=0" }, ErrCursorLoop, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var srvURL string
			srv, rec := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				offset := r.URL.Query().Get("offset")
				next := fmt.Sprintf("%q", tt.next(srvURL))
				if offset == "1" {
					next = "null"
				}
				fmt.Fprintf(w, `{"total_count":2,"next":%s,"metadata":[{"room_id":"r%s"}]}`, next, cmpOr(offset, "0"))
			}))
			srvURL = srv.URL
			c, _ := newClient(t, srv.URL, nil)
			rooms := 0
			err := c.WalkMetadataByNext(context.Background(), cred1, MetadataQuery{}, func(p MetadataPage) error {
				rooms += len(p.Rooms)
				return nil
			})
			if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Fatalf("error %v, want %v", err, tt.want)
			}
			if rooms != tt.wantRoom {
				t.Errorf("walk returned %d rooms, want %d", rooms, tt.wantRoom)
			}
			if n := foreignRec.count(); n != 0 {
				t.Fatalf("the other host received %d requests", n)
			}
			if tt.want == ErrForeignHost && rec.count() != 1 {
				t.Errorf("sent %d requests, want only the first", rec.count())
			}
		})
	}
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func TestRedirects(t *testing.T) {
	t.Parallel()
	foreign, foreignRec := serve(t, staticHandler(200, `{"alerts":[]}`))
	var local *httptest.Server
	local, rec := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away/alerts":
			http.Redirect(w, r, foreign.URL+"/alerts", http.StatusFound)
		case "/moved/alerts":
			http.Redirect(w, r, local.URL+"/alerts", http.StatusMovedPermanently)
		default:
			w.Write([]byte(`{"alerts":[{"alert_id":"x"}]}`))
		}
	}))
	tests := []struct {
		base string
		want error
	}{
		{local.URL + "/moved", nil},
		{local.URL + "/away", ErrForeignHost},
	}
	for _, tt := range tests {
		c, _ := newClient(t, tt.base, nil)
		before := rec.count()
		page, err := c.Alerts(context.Background(), cred1, AlertQuery{})
		if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
			t.Fatalf("%s: error %v, want %v", tt.base, err, tt.want)
		}
		if tt.want == nil {
			last := rec.requests()[rec.count()-1]
			if len(page.Alerts) != 1 || rec.count()-before != 2 || last.Header.Get("x-api-key") != "k1" {
				t.Errorf("%s: redirect within the host not followed with credentials", tt.base)
			}
		}
	}
	if foreignRec.count() != 0 {
		t.Errorf("the other host received %d requests", foreignRec.count())
	}
}

func TestBodySizeLimit(t *testing.T) {
	t.Parallel()
	big := `{"alerts":[],"padding":"` + strings.Repeat("x", 2000) + `"}`
	tests := []struct {
		name    string
		handler http.Handler
		want    error
	}{
		{"declared length", staticHandler(200, big), ErrTooLarge},
		{"chunked", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			for i := 0; i < len(big); i += 100 {
				w.Write([]byte(big[i:min(i+100, len(big))]))
				w.(http.Flusher).Flush()
			}
		}), ErrTooLarge},
		{"at the limit", staticHandler(200, big[:len(big)-1000]+`"}`), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, rec := serve(t, tt.handler)
			c, _ := newClient(t, srv.URL, func(cfg *Config) { cfg.MaxBodySize = int64(len(big) - 998) })
			_, err := c.Alerts(context.Background(), cred1, AlertQuery{})
			if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Fatalf("error %v, want %v", err, tt.want)
			}
			if rec.count() != 1 {
				t.Errorf("sent %d requests, want 1: a body too large is not retried", rec.count())
			}
		})
	}
}

func TestUnreadableBodiesAreRetried(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		body string
	}{
		{"HTML", `<html><body>Gateway maintenance</body></html>`},
		{"cut JSON", `{"alerts":[{"alert_id":"a"`},
		{"wrong shape", `{"alerts":"none"}`},
		{"empty", ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, rec := serve(t, staticHandler(200, tt.body))
			c, sl := newClient(t, srv.URL, nil)
			_, err := c.Alerts(context.Background(), cred1, AlertQuery{})
			if !errors.Is(err, ErrBadResponse) || asError(t, err).Kind != KindDecode {
				t.Fatalf("error %v, want an unreadable response", err)
			}
			if rec.count() != DefaultMaxAttempts || len(sl.recorded()) != DefaultMaxAttempts-1 {
				t.Errorf("%d requests, %d waits", rec.count(), len(sl.recorded()))
			}
		})
	}
}

func TestRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 18, 9, 30, 0, 0, time.UTC)
	tests := []struct {
		name   string
		header string
		want   time.Duration
	}{
		{"seconds", "7", 7 * time.Second},
		{"HTTP date", now.Add(20 * time.Second).Format(http.TimeFormat), 20 * time.Second},
		{"HTTP date past", now.Add(-time.Minute).Format(http.TimeFormat), 0},
		{"absent", "", 0},
		{"garbage", "soon", 0},
		{"negative", "-5", 0},
		{"huge", "99999999999999", 24 * time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := parseRetryAfter(tt.header, now); got != tt.want {
				t.Errorf("parseRetryAfter(%q) = %s, want %s", tt.header, got, tt.want)
			}
		})
	}

	// A 429 once, then success: the call waits what the header says and
	// succeeds.
	var n atomic.Int64
	srv, rec := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("Retry-After", now.Add(20*time.Second).Format(http.TimeFormat))
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.Write([]byte(`[]`))
	}))
	c, sl := newClient(t, srv.URL, func(cfg *Config) { cfg.Now = func() time.Time { return now } })
	if _, err := c.Devices(context.Background(), cred1, DeviceQuery{}); err != nil {
		t.Fatal(err)
	}
	if waits := sl.recorded(); !slices.Equal(waits, []time.Duration{20 * time.Second}) || rec.count() != 2 {
		t.Errorf("waited %v over %d requests, want 20s over 2", waits, rec.count())
	}
}

func TestRetryBudget(t *testing.T) {
	t.Parallel()
	// A clock that the sleeps move: each failed attempt is followed by a
	// wait of up to 10 s, and the budget of 25 s runs out before the
	// attempts do.
	var clock atomic.Int64
	now := func() time.Time { return time.Unix(0, clock.Load()) }
	srv, rec := serve(t, staticHandler(502, `bad gateway`))
	c, _ := newClient(t, srv.URL, func(cfg *Config) {
		cfg.MaxAttempts, cfg.RetryBudget, cfg.BaseDelay, cfg.MaxDelay = 100, 25*time.Second, 10*time.Second, 10*time.Second
		cfg.Now = now
		cfg.Sleep = func(ctx context.Context, d time.Duration) error { clock.Add(int64(d)); return nil }
	})
	_, err := c.Devices(context.Background(), cred1, DeviceQuery{})
	if !errors.Is(err, ErrServer) || !strings.Contains(err.Error(), "bad gateway") {
		t.Fatalf("error %v, want the server's", err)
	}
	if spent := time.Duration(clock.Load()); spent >= 25*time.Second || rec.count() < 3 || rec.count() > 50 {
		t.Errorf("%d attempts over %s, want a few within 25s", rec.count(), spent)
	}
}

func TestTimeoutPerAttempt(t *testing.T) {
	t.Parallel()
	srv, rec := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	c, _ := newClient(t, srv.URL, func(cfg *Config) { cfg.Timeout, cfg.MaxAttempts = 50*time.Millisecond, 2 })
	_, err := c.Metadata(context.Background(), cred1, MetadataQuery{})
	if !errors.Is(err, ErrNetwork) || asError(t, err).Kind != KindTimeout {
		t.Fatalf("error %v, want a timeout", err)
	}
	if rec.count() != 2 {
		t.Errorf("sent %d requests, want 2", rec.count())
	}
}

func TestCredentialsAreSentAndNeverShown(t *testing.T) {
	t.Parallel()
	secret := Credentials{APIKey: "key-5ecret-0123456789", Authorization: "Bearer tok-5ecret-9876543210"}
	// Every request must carry the credentials; the server then answers
	// with an error that echoes them.
	tests := []struct {
		name   string
		status int
		body   string
		header string
		echoed bool // whether the error shows the server's text where the credential was
	}{
		{"400", 400, `{"status":400,"parameter":"key-5ecret-0123456789","message":"bad key key-5ecret-0123456789"}`, "", true},
		{"401", 401, `{"message":"token tok-5ecret-9876543210 expired"}`, "", true},
		{"403", 403, `Forbidden: Bearer tok-5ecret-9876543210`, "", true},
		{"404", 404, `{"error":{"message":"no key-5ecret-0123456789"}}`, "", true},
		{"429", 429, `{"message":"slow down, key-5ecret-0123456789"}`, "2", true},
		{"500", 500, `internal error for key-5ecret-0123456789`, "", true},
		{"200 not JSON", 200, `key-5ecret-0123456789`, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, rec := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tt.header != "" {
					w.Header().Set("Retry-After", tt.header)
				}
				w.WriteHeader(tt.status)
				w.Write([]byte(tt.body))
			}))
			c, _ := newClient(t, srv.URL, nil)
			_, err := c.Alerts(context.Background(), secret, AlertQuery{})
			if err == nil {
				t.Fatal("no error")
			}
			for _, r := range rec.requests() {
				if r.Header.Get("x-api-key") != secret.APIKey || r.Header.Get("Authorization") != secret.Authorization {
					t.Errorf("request without the credentials: %v", r.Header)
				}
			}
			for _, text := range []string{err.Error(), fmt.Sprintf("%v", err), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err), fmt.Sprint(errors.Unwrap(err))} {
				if strings.Contains(text, "5ecret") {
					t.Errorf("error text shows a credential: %s", text)
				}
			}
			if tt.echoed && !strings.Contains(err.Error(), redacted) {
				t.Errorf("error %q does not show where the echoed credential was", err)
			}
		})
	}
}

func TestErrorBodies(t *testing.T) {
	t.Parallel()
	tests := []struct {
		body      string
		msg, prm  string
		wantEmpty bool
	}{
		{body: `{"status":400,"error":"Bad Request","parameter":"page_size","message":"page_size must be from 1 to 500"}`, msg: "page_size must be from 1 to 500", prm: "page_size"},
		{body: `{"status":"400","error":"Bad Request"}`, msg: "Bad Request"},
		{body: `{"error":{"code":7,"message":"nope","param":"limit"}}`, msg: "nope", prm: "limit"},
		{body: `{"detail":"Not allowed"}`, msg: "Not allowed"},
		{body: `{"message":["a","b"]}`, wantEmpty: true},
		{body: "upstream connect error\nreset", msg: "upstream connect error"},
		{body: `<html><h1>502</h1></html>`, wantEmpty: true},
		{body: ``, wantEmpty: true},
	}
	for _, tt := range tests {
		msg, prm := parseErrorBody([]byte(tt.body))
		if tt.wantEmpty {
			tt.msg, tt.prm = "", ""
		}
		if msg != tt.msg || prm != tt.prm {
			t.Errorf("parseErrorBody(%q) = %q, %q; want %q, %q", tt.body, msg, prm, tt.msg, tt.prm)
		}
	}
}

func TestBackoffIsBoundedFullJitter(t *testing.T) {
	t.Parallel()
	c, _ := newClient(t, "http://example.invalid", nil)
	for n := 1; n <= 8; n++ {
		ceiling := min(DefaultBaseDelay<<(n-1), DefaultMaxDelay)
		distinct := map[time.Duration]bool{}
		for range 50 {
			d := c.backoff(n)
			if d < 0 || d > ceiling {
				t.Fatalf("backoff(%d) = %s, want within [0, %s]", n, d, ceiling)
			}
			distinct[d] = true
		}
		if len(distinct) < 40 {
			t.Errorf("backoff(%d) drew %d distinct waits of 50", n, len(distinct))
		}
	}
}
