package upstream

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"washboard/internal/sim"
)

// rawAlert is an alert as the simulator sends it, decoded strictly.
type rawAlert struct {
	AlertID          string   `json:"alert_id"`
	DeviceLocationID string   `json:"device_location_id"`
	DeviceMacID      []string `json:"device_macid"`
	AlertStatus      string   `json:"alert_status"`
	AlertType        string   `json:"alert_type"`
	CreatedDate      string   `json:"created_date"`
	ResolvedDate     *string  `json:"resolved_date"`
	ResolutionType   *string  `json:"resolution_type"`
	Overdue          bool     `json:"overdue"`
	RefillCount      int      `json:"refill_count"`
}

// walkByHand follows the alert cursors of the simulator with plain
// net/http and encoding/json.
func walkByHand(t *testing.T, base string, cred Credentials, q url.Values) []rawAlert {
	t.Helper()
	var all []rawAlert
	for {
		req, _ := http.NewRequest(http.MethodGet, base+"/alerts?"+q.Encode(), nil)
		req.Header.Set("x-api-key", cred.APIKey)
		req.Header.Set("Authorization", cred.Authorization)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var page struct {
			Alerts []rawAlert `json:"alerts"`
			Next   *string    `json:"next"`
		}
		err = json.NewDecoder(resp.Body).Decode(&page)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("walking by hand: %s, %v", resp.Status, err)
		}
		all = append(all, page.Alerts...)
		if page.Next == nil {
			return all
		}
		q = url.Values{"page_size": q["page_size"], "next": {*page.Next}}
	}
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	tm, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

func TestWalkAlertsMatchesTheService(t *testing.T) {
	t.Parallel()
	srv, _ := serve(t, newWorld(t).Handler())
	c, _ := newClient(t, srv.URL, nil)
	start := testNow.AddDate(0, 0, -30)

	for _, cred := range []Credentials{cred1, cred2} {
		want := walkByHand(t, srv.URL, cred, url.Values{"page_size": {"37"}, "start_date": {start.Format(time.RFC3339)}})
		if len(want) < 100 {
			t.Fatalf("the world has %d alerts; the test needs several pages", len(want))
		}
		var got []Alert
		pages := 0
		err := c.WalkAlerts(context.Background(), cred, AlertQuery{StartDate: start, PageSize: 37}, func(p AlertPage) error {
			pages++
			if p.Number != pages {
				t.Errorf("page %d has Number %d", pages, p.Number)
			}
			if p.Skipped != 0 {
				t.Errorf("page %d skipped %d alerts: %v", pages, p.Skipped, p.SkipReasons)
			}
			got = append(got, p.Alerts...)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("walk returned %d alerts, walking by hand %d", len(got), len(want))
		}
		if wantPages := (len(want) + 36) / 37; pages != wantPages {
			t.Errorf("walk took %d pages, want %d", pages, wantPages)
		}
		seen := map[string]bool{}
		for i, a := range got {
			if seen[a.ID] {
				t.Fatalf("alert %s returned twice", a.ID)
			}
			seen[a.ID] = true
			w := want[i]
			wantAlert := Alert{
				ID: w.AlertID, LocationID: w.DeviceLocationID, MacIDs: w.DeviceMacID, Status: w.AlertStatus,
				Type: w.AlertType, Created: mustTime(t, w.CreatedDate), Overdue: w.Overdue, RefillCount: w.RefillCount,
			}
			if w.ResolvedDate != nil {
				wantAlert.Resolved = mustTime(t, *w.ResolvedDate)
				wantAlert.ResolutionType = *w.ResolutionType
			}
			if !alertsEqual(a, wantAlert) {
				t.Fatalf("alert %d:\n got %+v\nwant %+v", i, a, wantAlert)
			}
		}
	}
}

func alertsEqual(a, b Alert) bool {
	return a.ID == b.ID && a.LocationID == b.LocationID && slices.Equal(a.MacIDs, b.MacIDs) &&
		a.Status == b.Status && a.Type == b.Type && a.Created.Equal(b.Created) && a.Resolved.Equal(b.Resolved) &&
		a.ResolutionType == b.ResolutionType && a.Overdue == b.Overdue && a.RefillCount == b.RefillCount &&
		len(a.Extra) == len(b.Extra)
}

// locationIDs returns the device location identifiers of an account in
// the order /devices serves them.
func locationIDs(a *sim.Account) []string {
	var ids []string
	for _, l := range a.Locations {
		ids = append(ids, strconv.FormatInt(l.ID, 10))
	}
	return ids
}

func TestWalkDevicesAdvancesByWhatItReceived(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		locations int
		limit     int
		wantPages int
	}{
		{"limit above the server's cap, one page", 200, 5000, 1},
		{"limit above the server's cap, capped pages", 2500, 5000, 3},
		{"small pages", 200, 30, 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorldOf(t, tt.locations, 1, time.Hour)
			srv, rec := serve(t, w.Handler())
			c, _ := newClient(t, srv.URL, nil)
			var got []string
			var offsets []int
			err := c.WalkDevices(context.Background(), cred1, DeviceQuery{Limit: tt.limit}, func(p DevicePage) error {
				offsets = append(offsets, p.Offset)
				for _, d := range p.Devices {
					got = append(got, d.LocationID)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			want := locationIDs(w.Accounts()[0])
			if !slices.Equal(got, want) {
				t.Fatalf("walk returned %d locations, want each of the %d once", len(got), len(want))
			}
			if len(offsets) != tt.wantPages {
				t.Errorf("walk delivered %d pages (offsets %v), want %d", len(offsets), offsets, tt.wantPages)
			}
			// The walk ends at the first empty page.
			if n := rec.count(); n != tt.wantPages+1 {
				t.Errorf("walk sent %d requests, want %d", n, tt.wantPages+1)
			}
		})
	}
}

func TestDevicesDecodeTheSimulator(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	srv, _ := serve(t, w.Handler())
	c, _ := newClient(t, srv.URL, nil)
	page, err := c.Devices(context.Background(), cred1, DeviceQuery{Limit: 200})
	if err != nil {
		t.Fatal(err)
	}
	if page.Skipped != 0 || len(page.Devices) != 200 {
		t.Fatalf("got %d devices, %d skipped (%v); want 200", len(page.Devices), page.Skipped, page.SkipReasons)
	}
	var gen1, gen2, withLevel int
	for _, d := range page.Devices {
		if len(d.States) == 0 {
			t.Fatalf("device %s has no state", d.LocationID)
		}
		for _, s := range d.States {
			if len(s.MacID) != 12 || s.LastSeen.IsZero() || s.Extra != nil {
				t.Errorf("device %s: state %+v", d.LocationID, s)
			}
			switch s.StateType {
			case "1.0":
				gen1++
				if len(s.Faults) != 12 || len(s.Faults["jam_fault"]) != 2 {
					t.Errorf("generation 1 state of %s has faults %v", d.LocationID, s.Faults)
				}
			case "2.0":
				gen2++
				if len(s.Faults) != 3 {
					t.Errorf("generation 2 state of %s has faults %v", d.LocationID, s.Faults)
				}
			}
			if s.BatteryLevel != nil {
				withLevel++
			}
			if !slices.Contains([]string{BatteryNormal, BatteryLow, BatteryShutdown}, s.BatteryState) {
				t.Errorf("battery state %q", s.BatteryState)
			}
			if d.Type != DeviceCollector && len(s.ProductLevel) == 0 {
				t.Errorf("dispenser %s reports no product level", d.LocationID)
			}
		}
	}
	if gen1 == 0 || gen2 == 0 || withLevel != gen1+gen2 {
		t.Errorf("generation 1: %d, generation 2: %d, with battery level: %d", gen1, gen2, withLevel)
	}
}

func TestWalkMetadataReturnsEveryRoomOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	srv, _ := serve(t, w.Handler())
	c, _ := newClient(t, srv.URL, nil)
	var want []string
	for _, r := range w.Accounts()[0].Rooms {
		want = append(want, r.ID)
	}
	walks := []struct {
		name string
		walk func(context.Context, Credentials, MetadataQuery, func(MetadataPage) error) error
	}{
		{"by offset", c.WalkMetadata},
		{"by next URL", c.WalkMetadataByNext},
	}
	for _, wk := range walks {
		t.Run(wk.name, func(t *testing.T) {
			var got []string
			locations := 0
			err := wk.walk(context.Background(), cred1, MetadataQuery{Limit: 7}, func(p MetadataPage) error {
				if !p.HasTotal || p.TotalCount != len(want) {
					t.Errorf("total_count %d (sent: %v), want %d", p.TotalCount, p.HasTotal, len(want))
				}
				for _, r := range p.Rooms {
					got = append(got, r.RoomID)
					locations += len(r.Locations)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("walk returned rooms %v, want each of the %d rooms once: %v", got, len(want), want)
			}
			if locations != 200 {
				t.Errorf("rooms list %d locations, want 200", locations)
			}
		})
	}
}

func TestRejectedCredentials(t *testing.T) {
	t.Parallel()
	srv, rec := serve(t, newWorld(t).Handler())
	c, _ := newClient(t, srv.URL, nil)
	tests := []struct {
		name     string
		cred     Credentials
		want     error
		notWant  error
		status   int
		wantKind Kind
	}{
		{"wrong Authorization", Credentials{APIKey: "k1", Authorization: "a2"}, ErrUnauthorized, ErrForbidden, 401, KindUnauthorized},
		{"missing Authorization", Credentials{APIKey: "k1"}, ErrUnauthorized, ErrForbidden, 401, KindUnauthorized},
		{"unknown key", Credentials{APIKey: "nope", Authorization: "a1"}, ErrForbidden, ErrUnauthorized, 403, KindForbidden},
		{"no credentials", Credentials{}, ErrForbidden, ErrUnauthorized, 403, KindForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := rec.count()
			_, err := c.Alerts(context.Background(), tt.cred, AlertQuery{})
			if !errors.Is(err, tt.want) || !errors.Is(err, ErrRejected) || errors.Is(err, tt.notWant) {
				t.Fatalf("error %v: want %v and ErrRejected, not %v", err, tt.want, tt.notWant)
			}
			e := asError(t, err)
			if e.Status != tt.status || e.Kind != tt.wantKind || errors.Is(err, ErrTransient) {
				t.Errorf("status %d, kind %v; want %d, %v", e.Status, e.Kind, tt.status, tt.wantKind)
			}
			if n := rec.count() - before; n != 1 {
				t.Errorf("sent %d requests, want 1: a rejection is never retried", n)
			}
		})
	}
}

func TestClientErrorsCarryTheParameterAndAreNotRetried(t *testing.T) {
	t.Parallel()
	srv, rec := serve(t, newWorld(t).Handler())
	c, sl := newClient(t, srv.URL, nil)
	ctx := context.Background()
	tests := []struct {
		name  string
		call  func() error
		want  error
		param string
	}{
		{"page_size too large", func() error { _, err := c.Alerts(ctx, cred1, AlertQuery{PageSize: 9999}); return err }, ErrBadRequest, "page_size"},
		{"cursor not issued", func() error { _, err := c.Alerts(ctx, cred1, AlertQuery{Next: "garbage!"}); return err }, ErrBadRequest, "next"},
		{"location not an integer", func() error {
			_, err := c.Devices(ctx, cred1, DeviceQuery{DeviceLocationID: "abc"})
			return err
		}, ErrBadRequest, "device_location_id"},
		{"unknown building", func() error {
			_, err := c.Metadata(ctx, cred1, MetadataQuery{BuildingID: "no-such-building"})
			return err
		}, ErrNotFound, "building_id"},
		{"unknown room in a walk", func() error {
			return c.WalkDevices(ctx, cred1, DeviceQuery{RoomID: "no-such-room"}, func(DevicePage) error { return nil })
		}, ErrNotFound, "room_id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := rec.count()
			err := tt.call()
			if !errors.Is(err, tt.want) {
				t.Fatalf("error %v, want %v", err, tt.want)
			}
			e := asError(t, err)
			if e.Param != tt.param || e.Message == "" || !strings.Contains(err.Error(), tt.param) {
				t.Errorf("error %q has parameter %q and message %q; want parameter %q", err, e.Param, e.Message, tt.param)
			}
			if n := rec.count() - before; n != 1 {
				t.Errorf("sent %d requests, want 1", n)
			}
		})
	}
	if w := sl.recorded(); len(w) != 0 {
		t.Errorf("waited %v before retries that must not happen", w)
	}
}

func TestWalkCompletesThroughServerErrors(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	srv, rec := serve(t, w.Handler())
	c, sl := newClient(t, srv.URL, nil)
	ctx := context.Background()
	q := AlertQuery{StartDate: testNow.AddDate(0, 0, -30), PageSize: 50}
	collect := func() ([]string, error) {
		var ids []string
		err := c.WalkAlerts(ctx, cred1, q, func(p AlertPage) error {
			for _, a := range p.Alerts {
				ids = append(ids, a.ID)
			}
			return nil
		})
		return ids, err
	}
	want, err := collect()
	if err != nil {
		t.Fatal(err)
	}
	clean := rec.count()

	w.SetFaults(sim.Faults{ErrorRate: 0.5})
	got, err := collect()
	if err != nil {
		t.Fatalf("walk failed despite retries: %v", err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("walk through errors returned %d alerts, want the %d of a clean walk", len(got), len(want))
	}
	retried := rec.count() - 2*clean
	if retried <= 0 || len(sl.recorded()) != retried {
		t.Errorf("%d requests were retries and %d waits recorded; want as many, and some", retried, len(sl.recorded()))
	}
}

func TestServerErrorsFailAfterTheAttempts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		attempts int
	}{
		{"default", 0},
		{"two attempts", 2},
		{"no retries", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			w.SetFaults(sim.Faults{ErrorRate: 1})
			srv, rec := serve(t, w.Handler())
			c, sl := newClient(t, srv.URL, func(cfg *Config) { cfg.MaxAttempts = tt.attempts })
			_, err := c.Devices(context.Background(), cred1, DeviceQuery{})
			want := cmp.Or(tt.attempts, DefaultMaxAttempts)
			if !errors.Is(err, ErrServer) || !errors.Is(err, ErrTransient) {
				t.Fatalf("error %v, want ErrServer", err)
			}
			if e := asError(t, err); e.Status != 500 || e.Attempts != want {
				t.Errorf("status %d after %d attempts, want 500 after %d", e.Status, e.Attempts, want)
			}
			if n := rec.count(); n != want {
				t.Errorf("sent %d requests, want %d", n, want)
			}
			waits := sl.recorded()
			if len(waits) != want-1 {
				t.Fatalf("waited %d times, want %d", len(waits), want-1)
			}
			for i, d := range waits {
				if ceiling := DefaultBaseDelay << i; d < 0 || d > ceiling {
					t.Errorf("wait %d is %s, want within [0, %s]", i+1, d, ceiling)
				}
			}
		})
	}
}

func TestRateLimitWaitsRetryAfter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		retryAfter time.Duration
		wantWaits  []time.Duration
		wantReqs   int
	}{
		{"within the budget", 3 * time.Second, []time.Duration{3 * time.Second, 3 * time.Second, 3 * time.Second}, 4},
		{"beyond the budget", time.Minute, nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			w.SetFaults(sim.Faults{RateLimitRate: 1, RetryAfter: tt.retryAfter})
			srv, rec := serve(t, w.Handler())
			c, sl := newClient(t, srv.URL, nil)
			_, err := c.Alerts(context.Background(), cred1, AlertQuery{})
			if !errors.Is(err, ErrRateLimited) {
				t.Fatalf("error %v, want ErrRateLimited", err)
			}
			if e := asError(t, err); e.RetryAfter != tt.retryAfter || e.Status != 429 {
				t.Errorf("RetryAfter %s, status %d; want %s, 429", e.RetryAfter, e.Status, tt.retryAfter)
			}
			if got := sl.recorded(); !slices.Equal(got, tt.wantWaits) {
				t.Errorf("waited %v, want %v", got, tt.wantWaits)
			}
			if n := rec.count(); n != tt.wantReqs {
				t.Errorf("sent %d requests, want %d", n, tt.wantReqs)
			}
		})
	}
}

func TestTruncatedBodiesAreRetried(t *testing.T) {
	t.Parallel()
	t.Run("always truncated", func(t *testing.T) {
		w := newWorld(t)
		w.SetFaults(sim.Faults{TruncateRate: 1})
		srv, rec := serve(t, w.Handler())
		c, sl := newClient(t, srv.URL, nil)
		_, err := c.Metadata(context.Background(), cred1, MetadataQuery{})
		if !errors.Is(err, ErrBadResponse) || !errors.Is(err, ErrTransient) {
			t.Fatalf("error %v, want ErrBadResponse", err)
		}
		if e := asError(t, err); e.Kind != KindTruncated || e.Attempts != DefaultMaxAttempts {
			t.Errorf("kind %v after %d attempts, want %v after %d", e.Kind, e.Attempts, KindTruncated, DefaultMaxAttempts)
		}
		if n, waits := rec.count(), len(sl.recorded()); n != DefaultMaxAttempts || waits != n-1 {
			t.Errorf("%d requests and %d waits, want %d and %d", n, waits, DefaultMaxAttempts, DefaultMaxAttempts-1)
		}
	})
	t.Run("sometimes truncated", func(t *testing.T) {
		w := newWorld(t)
		w.SetFaults(sim.Faults{TruncateRate: 0.3})
		srv, _ := serve(t, w.Handler())
		c, sl := newClient(t, srv.URL, nil)
		rooms := 0
		err := c.WalkMetadata(context.Background(), cred1, MetadataQuery{Limit: 5}, func(p MetadataPage) error {
			rooms += len(p.Rooms)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if want := len(w.Accounts()[0].Rooms); rooms != want || len(sl.recorded()) == 0 {
			t.Errorf("walk returned %d rooms after %d retries, want %d after some", rooms, len(sl.recorded()), want)
		}
	})
}

func TestCancelStopsPromptly(t *testing.T) {
	hang := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	tests := []struct {
		name      string
		handler   http.Handler
		configure func(*Config)
	}{
		{"during a request", hang, nil},
		{"during a wait for Retry-After", nil, func(cfg *Config) { cfg.Sleep = nil }},
		{"during a backoff", staticHandler(503, `{}`), func(cfg *Config) {
			cfg.Sleep, cfg.BaseDelay, cfg.MaxDelay = nil, time.Hour, time.Hour
			cfg.RetryBudget = 2 * time.Hour
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := tt.handler
			if h == nil {
				w := newWorld(t)
				w.SetFaults(sim.Faults{RateLimitRate: 1, RetryAfter: 30 * time.Second})
				h = w.Handler()
			}
			srv, rec := serve(t, h)
			c, _ := newClient(t, srv.URL, tt.configure)
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(50*time.Millisecond, cancel)
			start := time.Now()
			_, err := c.Alerts(ctx, cred1, AlertQuery{})
			if elapsed := time.Since(start); elapsed > 3*time.Second {
				t.Errorf("returned %s after the cancel", elapsed)
			}
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("error %v, want context.Canceled", err)
			}
			if e := asError(t, err); e.Kind != KindCanceled || errors.Is(err, ErrTransient) {
				t.Errorf("kind %v, want %v", e.Kind, KindCanceled)
			}
			if n := rec.count(); n != 1 {
				t.Errorf("sent %d requests, want 1", n)
			}
		})
	}
}
