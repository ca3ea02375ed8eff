package sim

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"testing"
	"time"
)

// alertWire is an alert as a client decodes it.
type alertWire struct {
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

// alertPageWire is the alert list envelope as a client decodes it.
type alertPageWire struct {
	Alerts []alertWire `json:"alerts"`
	Next   *string     `json:"next"`
	Prev   *string     `json:"prev"`

	raw []map[string]json.RawMessage // each alert's members as sent
}

// alertTimestamp is the layout of created_date and resolved_date.
const alertTimestamp = "2006-01-02T15:04:05.000Z"

// getAlerts requests one page of alerts and checks the envelope's shape.
func getAlerts(t *testing.T, h http.Handler, path, key, auth string) alertPageWire {
	t.Helper()
	body := getOK(t, h, path, key, auth)
	top := decodeJSON[map[string]json.RawMessage](t, body)
	if got := sortedKeys(top); !slices.Equal(got, []string{"alerts", "next", "prev"}) {
		t.Fatalf("GET %s: envelope members %v, want alerts, next, prev", path, got)
	}
	if !bytes.HasPrefix(top["alerts"], []byte("[")) {
		t.Fatalf("GET %s: alerts is %.20s, want an array", path, top["alerts"])
	}
	p := decodeJSON[alertPageWire](t, body)
	p.raw = decodeJSON[struct {
		Alerts []map[string]json.RawMessage `json:"alerts"`
	}](t, body).Alerts
	return p
}

// cursorPath is the request for the page a cursor points to.
func cursorPath(dir, cursor, pageSize string) string {
	kv := []string{dir, cursor}
	if pageSize != "" {
		kv = append(kv, "page_size", pageSize)
	}
	return withQuery("/alerts", kv...)
}

const maxAlertPages = 1000 // a walk longer than this is taken to loop

// walkAlerts requests path and follows next until it is null, calling
// between (unless nil) before each further page. It returns the pages in
// the order requested.
func walkAlerts(t *testing.T, h http.Handler, path, key, auth string, between func()) []alertPageWire {
	t.Helper()
	u, err := url.Parse(path)
	if err != nil {
		t.Fatal(err)
	}
	size := u.Query().Get("page_size")
	pages := []alertPageWire{getAlerts(t, h, path, key, auth)}
	for pages[len(pages)-1].Next != nil {
		if len(pages) > maxAlertPages {
			t.Fatalf("more than %d pages following next from %s", maxAlertPages, path)
		}
		if between != nil {
			between()
		}
		pages = append(pages, getAlerts(t, h, cursorPath("next", *pages[len(pages)-1].Next, size), key, auth))
	}
	return pages
}

// walkBack follows prev from a page until it is null and returns the pages
// in the order requested, starting with from.
func walkBack(t *testing.T, h http.Handler, from alertPageWire, size, key, auth string) []alertPageWire {
	t.Helper()
	pages := []alertPageWire{from}
	for pages[len(pages)-1].Prev != nil {
		if len(pages) > maxAlertPages {
			t.Fatalf("more than %d pages following prev", maxAlertPages)
		}
		pages = append(pages, getAlerts(t, h, cursorPath("prev", *pages[len(pages)-1].Prev, size), key, auth))
	}
	return pages
}

// idsOnce collects the alert identifiers of pages, failing the test for any
// identifier that comes twice.
func idsOnce(t *testing.T, pages []alertPageWire) (order []string, set map[string]bool) {
	t.Helper()
	set = map[string]bool{}
	for _, p := range pages {
		for _, al := range p.Alerts {
			if set[al.AlertID] {
				t.Errorf("alert %s comes twice", al.AlertID)
			}
			set[al.AlertID] = true
			order = append(order, al.AlertID)
		}
	}
	return order, set
}

// alertsWhere is the set of the account's alerts that keep accepts.
func alertsWhere(a *Account, keep func(*Alert) bool) map[string]bool {
	ids := map[string]bool{}
	for _, al := range a.alerts {
		if keep(al) {
			ids[al.ID] = true
		}
	}
	return ids
}

func createdIn(from, to time.Time) func(*Alert) bool {
	return func(al *Alert) bool { return !al.Created.Before(from) && al.Created.Before(to) }
}

func resolvedIn(from, to time.Time) func(*Alert) bool {
	return func(al *Alert) bool { return !al.Open() && !al.Resolved.Before(from) && al.Resolved.Before(to) }
}

func allOf(f, g func(*Alert) bool) func(*Alert) bool {
	return func(al *Alert) bool { return f(al) && g(al) }
}

func alertOpen(al *Alert) bool { return al.Open() }

func isoMillis(t time.Time) string { return t.UTC().Format(alertTimestamp) }

func TestAlertsWindowAndStatus(t *testing.T) {
	t.Parallel()
	w, _ := newAPIWorld(t)
	h := w.Handler()
	a := w.Accounts()[0]
	// An alert created before the default window and resolved inside it.
	var crossing *Alert
	for _, al := range a.alerts {
		if al.Created.Before(defaultStart) && !al.Open() && !al.Resolved.Before(defaultStart) {
			crossing = al
			break
		}
	}
	if crossing == nil {
		t.Fatal("the world has no alert created before the default window and resolved inside it")
	}
	// A window that starts just after crossing was created and ends just
	// after it was resolved.
	from, to := crossing.Created.Add(time.Millisecond), crossing.Resolved.Add(time.Millisecond)
	nov20, nov21 := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)

	cases := []struct {
		name         string
		kv           []string
		want         func(*Alert) bool
		wantCrossing bool
	}{
		{"default window on creation date", nil, createdIn(defaultStart, defaultEnd), false},
		{"OPEN on creation date", []string{"alert_status", "OPEN"}, allOf(alertOpen, createdIn(defaultStart, defaultEnd)), false},
		{"open in lower case", []string{"alert_status", "open"}, allOf(alertOpen, createdIn(defaultStart, defaultEnd)), false},
		{"CLOSED on resolution date", []string{"alert_status", "CLOSED"}, resolvedIn(defaultStart, defaultEnd), true},
		{"closed in lower case", []string{"alert_status", "closed"}, resolvedIn(defaultStart, defaultEnd), true},
		{"Closed in mixed case", []string{"alert_status", "Closed"}, resolvedIn(defaultStart, defaultEnd), true},
		{"explicit window on creation date", []string{"start_date", isoMillis(from), "end_date", isoMillis(to)}, createdIn(from, to), false},
		{"explicit window, CLOSED on resolution date", []string{"alert_status", "CLOSED", "start_date", isoMillis(from), "end_date", isoMillis(to)}, resolvedIn(from, to), true},
		{"dates without a time", []string{"start_date", "2026-11-20", "end_date", "2026-11-21"}, createdIn(nov20, nov21), false},
		{"date-times with an offset", []string{"start_date", "2026-11-20T02:00:00+02:00", "end_date", "2026-11-21T02:00:00+02:00"}, createdIn(nov20, nov21), false},
		{"date-times without a zone are UTC", []string{"start_date", "2026-11-20T00:00:00", "end_date", "2026-11-21T00:00"}, createdIn(nov20, nov21), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			kv := append([]string{"page_size", "500"}, c.kv...)
			_, got := idsOnce(t, walkAlerts(t, h, withQuery("/alerts", kv...), apiKeyA, apiAuthA, nil))
			want := alertsWhere(a, c.want)
			if len(want) == 0 {
				t.Fatal("the world has no alert for this case; the test would prove nothing")
			}
			if d := idSetDiff(got, want); d != "" {
				t.Errorf("alerts differ from the world's: %s", d)
			}
			if got[crossing.ID] != c.wantCrossing {
				t.Errorf("alert created %s and resolved %s returned: %v, want %v",
					isoMillis(crossing.Created), isoMillis(crossing.Resolved), got[crossing.ID], c.wantCrossing)
			}
		})
	}
}

func TestAlertsDefaultWindowFollowsClock(t *testing.T) {
	t.Parallel()
	w, clock := newAPIWorld(t)
	h := w.Handler()
	a := w.Accounts()[0]
	day := func(d int) time.Time { return time.Date(2026, 11, d, 0, 0, 0, 0, time.UTC) }
	steps := []struct {
		now        time.Time
		start, end time.Time
	}{
		{apiNow, day(15), day(23)},
		{day(22).Add(24*time.Hour - time.Millisecond), day(15), day(23)},
		{day(23), day(16), day(24)},
		{day(23).Add(90 * time.Minute), day(16), day(24)},
	}
	for _, s := range steps {
		t.Run(s.now.Format(time.RFC3339Nano), func(t *testing.T) {
			clock.Set(s.now)
			_, got := idsOnce(t, walkAlerts(t, h, "/alerts?page_size=500", apiKeyA, apiAuthA, nil))
			if d := idSetDiff(got, alertsWhere(a, createdIn(s.start, s.end))); d != "" {
				t.Errorf("want the alerts created in [%s, %s): %s", isoMillis(s.start), isoMillis(s.end), d)
			}
		})
	}
}

func TestAlertsFilters(t *testing.T) {
	t.Parallel()
	w, _ := newAPIWorld(t)
	h := w.Handler()
	a := w.Accounts()[0]
	sample := a.alerts[len(a.alerts)/2]
	loc := sample.Device.Location
	// A window holding the whole history, so that every filter has matches.
	window := []string{"start_date", "2026-11-01", "end_date", "2026-12-01", "page_size", "500"}
	anyStatus := func(*Alert) bool { return true }
	closedOnly := func(al *Alert) bool { return !al.Open() }
	resolution := func(r Resolution) func(*Alert) bool {
		return func(al *Alert) bool { return al.Resolution == r }
	}
	ofType := func(typ AlertType) func(*Alert) bool {
		return func(al *Alert) bool { return al.Type == typ }
	}
	inBuilding := func(al *Alert) bool { return al.Device.Location.Room.Floor.Building == loc.Room.Floor.Building }

	cases := []struct {
		name      string
		kv        []string
		want      func(*Alert) bool
		wantEmpty bool
	}{
		{"building_id", []string{"building_id", loc.Room.Floor.Building.ID}, inBuilding, false},
		{"floor_id", []string{"floor_id", loc.Room.Floor.ID}, func(al *Alert) bool { return al.Device.Location.Room.Floor == loc.Room.Floor }, false},
		{"room_id", []string{"room_id", loc.Room.ID}, func(al *Alert) bool { return al.Device.Location.Room == loc.Room }, false},
		{"device_location_id", []string{"device_location_id", strconv.FormatInt(loc.ID, 10)}, func(al *Alert) bool { return al.Device.Location == loc }, false},
		{"alert_id", []string{"alert_id", sample.ID}, func(al *Alert) bool { return al == sample }, false},
		{"alert_type consumable_out", []string{"alert_type", "consumable_out"}, ofType(AlertConsumableOut), false},
		{"alert_type device_off", []string{"alert_type", "device_off"}, ofType(AlertDeviceOff), false},
		{"alert_type jam_fault", []string{"alert_type", "jam_fault"}, ofType(AlertJam), false},
		{"alert_type nobody raises", []string{"alert_type", "leak_detected"}, func(*Alert) bool { return false }, true},
		{"resolution_type resolved", []string{"resolution_type", "resolved"}, resolution(ResolvedByDevice), false},
		{"resolution_type RESOLVED", []string{"resolution_type", "RESOLVED"}, resolution(ResolvedByDevice), false},
		{"resolution_type resolved_by_offline", []string{"resolution_type", "resolved_by_offline"}, resolution(ResolvedByOffline), false},
		{"resolution_type RESOLVED_BY_OFFLINE", []string{"resolution_type", "RESOLVED_BY_OFFLINE"}, resolution(ResolvedByOffline), false},
		{"resolution_type resolved_by_user", []string{"resolution_type", "resolved_by_user"}, resolution(ResolvedByUser), false},
		{"resolution_type Resolved_By_User", []string{"resolution_type", "Resolved_By_User"}, resolution(ResolvedByUser), false},
		{"building and CLOSED", []string{"building_id", loc.Room.Floor.Building.ID, "alert_status", "CLOSED"}, allOf(inBuilding, closedOnly), false},
		{"building and OPEN", []string{"building_id", loc.Room.Floor.Building.ID, "alert_status", "OPEN"}, allOf(inBuilding, alertOpen), false},
		{"no filter", nil, anyStatus, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, got := idsOnce(t, walkAlerts(t, h, withQuery("/alerts", append(window, c.kv...)...), apiKeyA, apiAuthA, nil))
			want := alertsWhere(a, c.want)
			if (len(want) == 0) != c.wantEmpty {
				t.Fatalf("the world has %d alerts for this case; the test needs it to have some: %v", len(want), !c.wantEmpty)
			}
			if c.name != "no filter" && len(want) == len(a.alerts) {
				t.Fatal("every alert matches; the test would not show the filter filtering")
			}
			if d := idSetDiff(got, want); d != "" {
				t.Errorf("alerts differ from the world's: %s", d)
			}
		})
	}
}

func TestAlertsFields(t *testing.T) {
	t.Parallel()
	w, clock := newAPIWorld(t)
	h := w.Handler()
	a := w.Accounts()[0]
	now := clock.Now()
	pages := walkAlerts(t, h, "/alerts?start_date=2026-11-01&page_size=500", apiKeyA, apiAuthA, nil)
	wantKeys := []string{"alert_id", "alert_status", "alert_type", "created_date", "device_location_id",
		"device_macid", "overdue", "refill_count", "resolution_type", "resolved_date"}
	seen := map[string]int{}
	n := 0
	for _, p := range pages {
		for i, got := range p.Alerts {
			n++
			raw := p.raw[i]
			al := a.alertIDs[got.AlertID]
			if al == nil {
				t.Fatalf("alert %s is not one of the account's", got.AlertID)
			}
			if keys := sortedKeys(raw); !slices.Equal(keys, wantKeys) {
				t.Errorf("alert %s: members %v, want %v", got.AlertID, keys, wantKeys)
			}
			if !bytes.HasPrefix(raw["device_macid"], []byte("[")) || !slices.Equal(got.DeviceMacID, []string{al.Device.MAC}) {
				t.Errorf("alert %s: device_macid %s, want [%q]", got.AlertID, raw["device_macid"], al.Device.MAC)
			}
			if want := strconv.FormatInt(al.Device.Location.ID, 10); got.DeviceLocationID != want {
				t.Errorf("alert %s: device_location_id %q, want %q", got.AlertID, got.DeviceLocationID, want)
			}
			if got.AlertType != string(al.Type) {
				t.Errorf("alert %s: alert_type %q, want %q", got.AlertID, got.AlertType, al.Type)
			}
			if want := al.Created.UTC().Format(alertTimestamp); got.CreatedDate != want {
				t.Errorf("alert %s: created_date %q, want %q", got.AlertID, got.CreatedDate, want)
			}
			deadline := Deadlines[al.Type]
			if al.Open() {
				seen["open"]++
				if got.AlertStatus != "OPEN" || string(raw["resolved_date"]) != "null" || string(raw["resolution_type"]) != "null" {
					t.Errorf("open alert %s: alert_status %q, resolved_date %s, resolution_type %s; want OPEN, null, null",
						got.AlertID, got.AlertStatus, raw["resolved_date"], raw["resolution_type"])
				}
				if want := now.Sub(al.Created) > deadline; got.Overdue != want {
					t.Errorf("open %s alert %s created %s: overdue %v at %s, want %v", al.Type, got.AlertID, got.CreatedDate, got.Overdue, isoMillis(now), want)
				}
				seen["open overdue "+strconv.FormatBool(got.Overdue)]++
			} else {
				if got.AlertStatus != "CLOSED" || got.ResolvedDate == nil || *got.ResolvedDate != al.Resolved.UTC().Format(alertTimestamp) {
					t.Errorf("closed alert %s: alert_status %q, resolved_date %s; want CLOSED, %q",
						got.AlertID, got.AlertStatus, raw["resolved_date"], al.Resolved.UTC().Format(alertTimestamp))
				}
				switch rt := got.ResolutionType; {
				case rt == nil:
					t.Errorf("closed alert %s: resolution_type null", got.AlertID)
				case *rt != "RESOLVED" && *rt != "RESOLVED_BY_OFFLINE" && *rt != "RESOLVED_BY_USER":
					t.Errorf("closed alert %s: resolution_type %q, want an upper-case resolution", got.AlertID, *rt)
				default:
					seen[*rt]++
				}
				// A closed alert keeps the overdue it had when resolved.
				if want := al.Resolved.Sub(al.Created) > deadline; got.Overdue != want {
					t.Errorf("closed %s alert %s open %s: overdue %v, want %v", al.Type, got.AlertID, al.Resolved.Sub(al.Created), got.Overdue, want)
				}
			}
			switch al.Type {
			case AlertConsumableOut:
				if got.RefillCount < 1 || got.RefillCount > len(al.Device.compartments) {
					t.Errorf("consumable_out alert %s: refill_count %d, want 1 to %d", got.AlertID, got.RefillCount, len(al.Device.compartments))
				}
				seen["refill "+strconv.Itoa(got.RefillCount)]++
			case AlertBatteryOut:
				if got.RefillCount < 1 || got.RefillCount > len(al.Device.batteries) {
					t.Errorf("battery_out alert %s: refill_count %d, want 1 to %d", got.AlertID, got.RefillCount, len(al.Device.batteries))
				}
			default:
				if got.RefillCount != 0 {
					t.Errorf("%s alert %s: refill_count %d, want 0", al.Type, got.AlertID, got.RefillCount)
				}
				seen["refill 0"]++
			}
		}
	}
	if n != len(a.alerts) {
		t.Errorf("%d alerts over the whole history, want %d", n, len(a.alerts))
	}
	// The history must exercise every rule, or the checks above prove little.
	for _, k := range []string{"open", "open overdue true", "open overdue false", "RESOLVED", "RESOLVED_BY_OFFLINE",
		"RESOLVED_BY_USER", "refill 0", "refill 1", "refill 4"} {
		if seen[k] == 0 {
			t.Errorf("no alert with %s in the history", k)
		}
	}
}

func TestAlertsPageSize(t *testing.T) {
	t.Parallel()
	w, _ := newAPIWorld(t)
	h := w.Handler()
	cases := []struct {
		query string
		want  int
	}{
		{"", 100},
		{"page_size=1", 1},
		{"page_size=37", 37},
		{"page_size=100", 100},
		{"start_date=2026-11-01&page_size=500", 500},
		{"start_date=2026-11-01", 100},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			p := getAlerts(t, h, "/alerts?"+c.query, apiKeyA, apiAuthA)
			if len(p.Alerts) != c.want {
				t.Errorf("%d alerts, want %d", len(p.Alerts), c.want)
			}
			if p.Next == nil {
				t.Error("next is null; the window holds more alerts")
			}
		})
	}
}

func TestAlertsCursorIgnoresOtherParameters(t *testing.T) {
	t.Parallel()
	w, _ := newAPIWorld(t)
	h := w.Handler()
	a, b := w.Accounts()[0], w.Accounts()[1]
	first := getAlerts(t, h, "/alerts?alert_status=CLOSED&page_size=20", apiKeyA, apiAuthA)
	second := getAlerts(t, h, cursorPath("next", *first.Next, "20"), apiKeyA, apiAuthA)
	if second.Prev == nil {
		t.Fatal("the second page has no prev")
	}
	ignored := [][]string{
		{"alert_status", "NOPE"},
		{"alert_status", "OPEN"},
		{"building_id", a.Buildings[len(a.Buildings)-1].ID},
		{"building_id", b.Buildings[0].ID},
		{"device_location_id", "abc"},
		{"start_date", "yesterday", "end_date", "2000-01-01"},
		{"resolution_type", "fixed", "alert_type", "leak"},
		{"alert_id", "no-such-alert"},
	}
	for _, dir := range []string{"next", "prev"} {
		cursor := *second.Next
		if dir == "prev" {
			cursor = *second.Prev
		}
		base := getAlerts(t, h, cursorPath(dir, cursor, "20"), apiKeyA, apiAuthA)
		if len(base.Alerts) == 0 {
			t.Fatalf("%s: empty page", dir)
		}
		for _, kv := range ignored {
			path := withQuery("/alerts", append([]string{dir, cursor, "page_size", "20"}, kv...)...)
			t.Run(path, func(t *testing.T) {
				got := getAlerts(t, h, path, apiKeyA, apiAuthA)
				gotIDs, _ := idsOnce(t, []alertPageWire{got})
				wantIDs, _ := idsOnce(t, []alertPageWire{base})
				if !slices.Equal(gotIDs, wantIDs) {
					t.Errorf("alerts %v, want %v as without the other parameters", gotIDs, wantIDs)
				}
			})
		}
		t.Run(dir+" honours page_size", func(t *testing.T) {
			got := getAlerts(t, h, cursorPath(dir, cursor, "5"), apiKeyA, apiAuthA)
			if len(got.Alerts) != 5 {
				t.Errorf("%d alerts, want 5", len(got.Alerts))
			}
		})
	}
}

func TestAlertsWalkBothWays(t *testing.T) {
	t.Parallel()
	w, _ := newAPIWorld(t)
	h := w.Handler()
	a := w.Accounts()[0]
	wideStart := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	room := a.alerts[len(a.alerts)/2].Device.Location.Room // a room with alerts
	cases := []struct {
		name      string
		kv        []string
		size      string
		want      func(*Alert) bool
		sortKey   func(alertWire) string
		wantPages int // at least
	}{
		{"default window, page_size 37", nil, "37", createdIn(defaultStart, defaultEnd), byCreated, 10},
		{"default window, page_size 500", nil, "500", createdIn(defaultStart, defaultEnd), byCreated, 2},
		{"default window, default page_size", nil, "", createdIn(defaultStart, defaultEnd), byCreated, 5},
		{"whole history, page_size 37", []string{"start_date", "2026-11-01"}, "37", createdIn(wideStart, defaultEnd), byCreated, 20},
		{"CLOSED, page_size 37", []string{"alert_status", "CLOSED"}, "37", resolvedIn(defaultStart, defaultEnd), byResolved, 10},
		{"room, page_size 1", []string{"room_id", room.ID, "start_date", "2026-11-01"}, "1",
			allOf(createdIn(wideStart, defaultEnd), func(al *Alert) bool { return al.Device.Location.Room == room }), byCreated, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			kv := c.kv
			if c.size != "" {
				kv = append(kv, "page_size", c.size)
			}
			want := alertsWhere(a, c.want)

			forward := walkAlerts(t, h, withQuery("/alerts", kv...), apiKeyA, apiAuthA, nil)
			if len(forward) < c.wantPages {
				t.Fatalf("%d pages, want at least %d for the walk to mean something", len(forward), c.wantPages)
			}
			if forward[0].Prev != nil {
				t.Errorf("the first page's prev is %q, want null", *forward[0].Prev)
			}
			order, got := idsOnce(t, forward)
			if d := idSetDiff(got, want); d != "" {
				t.Errorf("forward: alerts differ from the world's: %s", d)
			}
			var keys []string
			for _, p := range forward {
				for _, al := range p.Alerts {
					keys = append(keys, c.sortKey(al))
				}
			}
			if !slices.IsSorted(keys) {
				t.Errorf("forward: alerts are not oldest first")
			}

			last := forward[len(forward)-1]
			backward := walkBack(t, h, last, c.size, apiKeyA, apiAuthA)
			_, gotBack := idsOnce(t, backward)
			if d := idSetDiff(gotBack, want); d != "" {
				t.Errorf("backward: alerts differ from the world's: %s", d)
			}
			if first := backward[len(backward)-1]; len(first.Alerts) == 0 || first.Alerts[0].AlertID != order[0] {
				t.Errorf("backward: the walk does not end at the oldest alert")
			}
		})
	}
}

func byCreated(al alertWire) string { return al.CreatedDate }

func byResolved(al alertWire) string {
	if al.ResolvedDate == nil {
		return ""
	}
	return *al.ResolvedDate
}

func TestAlertsCursorStableAsAlertsArrive(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		kv     []string
		before func(*Alert) bool // the matching alerts when the walk starts
	}{
		{"any status", nil, createdIn(defaultStart, defaultEnd)},
		{"CLOSED", []string{"alert_status", "CLOSED"}, resolvedIn(defaultStart, defaultEnd)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, clock := newAPIWorld(t)
			h := w.Handler()
			a := w.Accounts()[0]
			before := alertsWhere(a, c.before)
			alertsBefore := len(a.alerts)

			pages := walkAlerts(t, h, withQuery("/alerts", append(c.kv, "page_size", "37")...), apiKeyA, apiAuthA,
				func() { clock.Add(time.Hour) })
			order, got := idsOnce(t, pages)
			for id := range before {
				if !got[id] {
					t.Errorf("alert %s, there when the walk started, was skipped", id)
				}
			}
			if len(a.alerts) == alertsBefore {
				t.Fatal("no alert arrived during the walk; the test proves nothing")
			}
			// Alerts that arrived during the walk come after every alert
			// that was there at its start.
			arrived := 0
			for _, id := range order {
				switch {
				case !before[id]:
					arrived++
				case arrived > 0:
					t.Errorf("alert %s, there at the start, comes after one that arrived later", id)
				}
			}
			if arrived == 0 {
				t.Error("no alert that arrived during the walk was seen at its end")
			}
		})
	}
}
