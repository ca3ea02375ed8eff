package storetest

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"
	"unsafe"

	"washboard/internal/domain"
	"washboard/internal/store"
)

func testAlertRefreshes(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	mustReplaceDevices(t, s, "a", []domain.Device{device("0000000000A1", "a-1", 80), device("0000000000A3", "a-3", 80)})
	alerts := []domain.Alert{
		alert("x1", "a-1", t0, true, false),
		alert("x2", "a-1", t0.Add(-time.Hour), true, true), // older and overdue
		alert("x3", "a-3", t0.Add(time.Hour), true, false),
		alert("x4", "a-3", t0.Add(-100*24*time.Hour), false, false), // beyond a 90-day history
		alert("x5", "a-3", t0.Add(-2*24*time.Hour), false, false),
	}
	alerts[2].MACs = []string{"0000000000A3", "0000000000A4"}
	alerts[2].Type, alerts[2].RefillCount = domain.AlertBatteryOut, 2
	if c := mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: alerts}); c != (domain.Change{Added: 5}) {
		t.Fatalf("ApplyAlerts reported %+v; want 5 added", c)
	}
	got, err := s.FindAlerts(ctx, store.AlertFilter{Account: "a", LocationID: "a-3", Status: domain.AlertOpen})
	if err != nil || len(got) != 1 || !reflect.DeepEqual(got[0], alerts[2]) {
		t.Errorf("x3 came back as %+v, %v; want %+v", got, err, alerts[2])
	}
	closed, err := s.FindAlerts(ctx, store.AlertFilter{Account: "a", Status: domain.AlertClosed, From: t0.Add(-3 * 24 * time.Hour)})
	if err != nil || len(closed) != 1 || !reflect.DeepEqual(closed[0], alerts[4]) || closed[0].TimeToResolve() != time.Hour {
		t.Errorf("closed since 3 days before = %+v, %v; want x5", closed, err)
	}
	r, _ := s.Rollup(ctx, "a", domain.ScopeAccount, "a")
	if r.OpenAlerts != 3 || r.OverdueAlerts != 1 || r.Action != 1 {
		t.Errorf("account rollup = %+v, want 3 open, 1 overdue, the overdue alert's location needing action", r)
	}

	// Same content again: nothing written.
	if c := mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: alerts}); !c.Empty() {
		t.Errorf("unchanged alerts reported %+v", c)
	}

	// x1 closes, x3 vanished upstream, an unknown id is removed too, and
	// history beyond 90 days is pruned.
	alerts[0].Status, alerts[0].Resolved, alerts[0].Resolution = domain.AlertClosed, t0.Add(30*time.Minute), domain.ResolvedByOffline
	c := mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: alerts[:1], Remove: []string{"x3", "never-cached"}, PruneBefore: t0.Add(-90 * 24 * time.Hour)})
	if c != (domain.Change{Changed: 1, Removed: 2}) {
		t.Fatalf("closing, removing and pruning reported %+v; want 1 changed, 2 removed", c)
	}
	all, _ := s.FindAlerts(ctx, store.AlertFilter{Account: "a"})
	if fmt.Sprint(alertIDs(all)) != "[x2 x5 x1]" {
		t.Errorf("alerts left: %v; want [x2 x5 x1]", alertIDs(all))
	}
	if n, err := s.CountAlerts(ctx, store.AlertFilter{Account: "a"}); err != nil || n != 3 {
		t.Errorf("CountAlerts = %d, %v; want 3", n, err)
	}
	stillOpen, _ := s.FindAlerts(ctx, store.AlertFilter{Account: "a", Status: domain.AlertOpen, From: t0.Add(-24 * time.Hour)})
	if fmt.Sprint(alertIDs(stillOpen)) != "[x2]" {
		t.Errorf("open alerts of the last day = %v, want only x2", alertIDs(stillOpen))
	}
	r, _ = s.Rollup(ctx, "a", domain.ScopeAccount, "a")
	if r.OpenAlerts != 1 || r.OverdueAlerts != 1 {
		t.Errorf("account rollup = %+v, want 1 open and overdue", r)
	}
	// Pruning keeps open alerts, however old.
	old := alert("x6", "a-2", t0.Add(-200*24*time.Hour), true, false)
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{old}})
	if c := mustApplyAlerts(t, s, "a", store.AlertWrite{PruneBefore: t0.Add(time.Minute)}); c != (domain.Change{Removed: 2}) {
		t.Errorf("pruning everything closed created before t0+1m reported %+v; want x5 and x1 removed", c)
	}
	all, _ = s.FindAlerts(ctx, store.AlertFilter{Account: "a"})
	if fmt.Sprint(alertIDs(all)) != "[x2 x6]" {
		t.Errorf("alerts left: %v; want [x2 x6]", alertIDs(all))
	}
}

// testAlertFilters compares FindAlerts, CountAlerts and AlertSpans, for
// many filters, with the filter applied here to the alerts written.
func testAlertFilters(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	l := testLayout("a", false)
	mustReplaceLayout(t, s, l)
	mustReplaceLayout(t, s, testLayout("b", true))
	where := map[string][3]string{} // location → building, floor, room
	for _, loc := range l.Locations {
		for _, r := range l.Rooms {
			if r.ID == loc.RoomID {
				where[loc.ID] = [3]string{"a-b1", r.FloorID, r.ID}
			}
		}
	}
	types := []domain.AlertType{domain.AlertConsumableOut, domain.AlertBatteryOut, domain.AlertJam}
	resolutions := []domain.Resolution{domain.ResolvedByDevice, domain.ResolvedByOffline, domain.ResolvedByUser}
	locs := []string{"a-1", "a-2", "a-3", "a-4", "a-9"}
	var alerts []domain.Alert
	for i := 0; i < 40; i++ {
		created := t0.Add(time.Duration((i*7)%40) * time.Hour)
		if i == 39 {
			created = alerts[3].Created // created at the same time as x03, listed later
		}
		a := alert(fmt.Sprintf("x%02d", i), locs[i%len(locs)], created, i%3 != 0, i%4 == 1)
		a.Type = types[i%len(types)]
		if !a.Open() {
			a.Resolution = resolutions[(i/3)%len(resolutions)]
			a.Resolved = created.Add(time.Duration(1+i%5) * 3 * time.Hour)
		}
		alerts = append(alerts, a)
	}
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: alerts})
	mustApplyAlerts(t, s, "b", store.AlertWrite{Upserts: []domain.Alert{alert("other", "1", t0, true, true)}})

	matches := func(a domain.Alert, f store.AlertFilter) bool {
		w, listed := where[a.LocationID]
		date := a.Created
		if f.Status == domain.AlertClosed {
			date = a.Resolved
		}
		return (f.BuildingID == "" || listed && w[0] == f.BuildingID) &&
			(f.FloorID == "" || listed && w[1] == f.FloorID) &&
			(f.RoomID == "" || listed && w[2] == f.RoomID) &&
			(f.LocationID == "" || a.LocationID == f.LocationID) &&
			(f.AlertID == "" || a.ID == f.AlertID) &&
			(f.Status == "" || a.Status == f.Status) &&
			(f.Type == "" || a.Type == f.Type) &&
			(f.Resolution == "" || a.Resolution == f.Resolution) &&
			(f.From.IsZero() || !date.Before(f.From)) &&
			(f.To.IsZero() || date.Before(f.To)) &&
			(f.OpenFrom.IsZero() || a.Open() || !a.Resolved.Before(f.OpenFrom)) &&
			(f.OpenTo.IsZero() || a.Created.Before(f.OpenTo))
	}
	expect := func(f store.AlertFilter) ([]string, int) {
		type listed struct {
			a domain.Alert
			i int
		}
		var found []listed
		for i, a := range alerts {
			if matches(a, f) {
				found = append(found, listed{a, i})
			}
		}
		// Overdue first, then oldest first, then in the service's order.
		slices.SortFunc(found, func(x, y listed) int {
			if x.a.Overdue != y.a.Overdue {
				if x.a.Overdue {
					return -1
				}
				return 1
			}
			return cmp.Or(x.a.Created.Compare(y.a.Created), cmp.Compare(x.i, y.i))
		})
		ids := []string{}
		for _, x := range found {
			ids = append(ids, x.a.ID)
		}
		n := len(ids)
		if f.Limit > 0 && len(ids) > f.Limit {
			ids = ids[:f.Limit]
		}
		return ids, n
	}
	// The spans of the alerts a filter selects: oldest first, then in the
	// service's order.
	expectSpans := func(f store.AlertFilter) []store.AlertSpan {
		var found []int
		for i, a := range alerts {
			if matches(a, f) {
				found = append(found, i)
			}
		}
		slices.SortFunc(found, func(x, y int) int { return cmp.Or(alerts[x].Created.Compare(alerts[y].Created), cmp.Compare(x, y)) })
		if f.Limit > 0 && len(found) > f.Limit {
			found = found[:f.Limit]
		}
		out := []store.AlertSpan{}
		for _, i := range found {
			a := alerts[i]
			out = append(out, store.AlertSpan{LocationID: a.LocationID, Type: a.Type, Created: a.Created, Resolved: a.Resolved})
		}
		return out
	}
	day := 24 * time.Hour
	filters := []store.AlertFilter{
		{},
		{Status: domain.AlertOpen},
		{Status: domain.AlertClosed},
		{BuildingID: "a-b1"},
		{BuildingID: "b1"},
		{FloorID: "a-f2"},
		{FloorID: "a-f2", Status: domain.AlertOpen},
		{FloorID: "a-f1", Status: domain.AlertClosed},
		{RoomID: "a-r1"},
		{RoomID: "a-r1", Status: domain.AlertOpen, Type: domain.AlertBatteryOut},
		{LocationID: "a-3"},
		{LocationID: "a-9"},
		{LocationID: "a-9", Status: domain.AlertOpen},
		{AlertID: "x05"},
		{AlertID: "x05", Status: domain.AlertClosed},
		{AlertID: "other"}, // another account's
		{Type: domain.AlertJam},
		{Resolution: domain.ResolvedByUser},
		{Status: domain.AlertClosed, Resolution: domain.ResolvedByOffline, BuildingID: "a-b1"},
		{From: t0.Add(10 * time.Hour)},
		{To: t0.Add(10 * time.Hour)},
		{From: t0.Add(5 * time.Hour), To: t0.Add(20 * time.Hour)},
		{Status: domain.AlertOpen, From: t0.Add(5 * time.Hour), To: t0.Add(20 * time.Hour)},
		{Status: domain.AlertClosed, From: t0.Add(10 * time.Hour)},
		{Status: domain.AlertClosed, From: t0.Add(10 * time.Hour), To: t0.Add(day)},
		{OpenFrom: t0.Add(20 * time.Hour)},
		{OpenTo: t0.Add(12 * time.Hour)},
		{OpenFrom: t0.Add(20 * time.Hour), OpenTo: t0.Add(30 * time.Hour)},
		{OpenFrom: t0.Add(20 * time.Hour), OpenTo: t0.Add(30 * time.Hour), FloorID: "a-f1"},
		{Limit: 5},
		{Status: domain.AlertOpen, Limit: 3},
		{FloorID: "a-f2", Status: domain.AlertOpen, Limit: 2},
		{Limit: 100},
	}
	for _, f := range filters {
		f.Account = "a"
		want, n := expect(f)
		got, err := s.FindAlerts(ctx, f)
		if err != nil {
			t.Errorf("FindAlerts(%+v): %v", f, err)
			continue
		}
		if g := alertIDs(got); !slices.Equal(g, want) {
			t.Errorf("FindAlerts(%+v) =\n%v\nwant\n%v", f, g, want)
		}
		if c, err := s.CountAlerts(ctx, f); err != nil || c != n {
			t.Errorf("CountAlerts(%+v) = %d, %v; want %d", f, c, err, n)
		}
		spans, err := s.AlertSpans(ctx, f)
		if err != nil {
			t.Errorf("AlertSpans(%+v): %v", f, err)
			continue
		}
		if got, want := spanLines(spans), spanLines(expectSpans(f)); !slices.Equal(got, want) {
			t.Errorf("AlertSpans(%+v) =\n%v\nwant\n%v", f, got, want)
		}
	}
	if got, err := s.FindAlerts(ctx, store.AlertFilter{Account: "nobody"}); err != nil || len(got) != 0 {
		t.Errorf("an unknown account's alerts: %v, %v", alertIDs(got), err)
	}
	if got, err := s.AlertSpans(ctx, store.AlertFilter{Account: "nobody"}); err != nil || len(got) != 0 {
		t.Errorf("an unknown account's spans: %v, %v", got, err)
	}
	// Spans read together share their strings: a location's id is kept
	// once however many alerts it had.
	spans, err := s.AlertSpans(ctx, store.AlertFilter{Account: "a"})
	if err != nil {
		t.Fatal(err)
	}
	byLoc := map[string]*byte{}
	for _, sp := range spans {
		p := unsafe.StringData(sp.LocationID)
		if q, ok := byLoc[sp.LocationID]; ok && q != p {
			t.Errorf("two spans of location %s hold two copies of its id", sp.LocationID)
			break
		}
		byLoc[sp.LocationID] = p
	}
}

// spanLines describes spans one a line, for comparing.
func spanLines(spans []store.AlertSpan) []string {
	out := []string{}
	for _, sp := range spans {
		out = append(out, fmt.Sprintf("%s %s %s %s", sp.LocationID, sp.Type, sp.Created.UTC().Format(time.RFC3339), sp.Resolved.UTC().Format(time.RFC3339)))
	}
	return out
}

// testAlertsOverdueSinceAndOpenDuring: the cache remembers when it first
// saw an alert overdue (no later than its resolution) and keeps that time,
// and finds the alerts open at some moment of a period, as a shift report
// needs.
func testAlertsOverdueSinceAndOpenDuring(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	late := alert("late", "a-1", t0.Add(-6*time.Hour), true, true)        // open and overdue
	fixed := alert("fixed", "a-1", t0.Add(-30*time.Hour), false, true)    // overdue, resolved an hour later
	fine := alert("fine", "a-3", t0.Add(-time.Hour), true, false)         // open, not overdue
	before := alert("before", "a-3", t0.Add(-50*time.Hour), false, false) // resolved before the period
	unseen := alert("unseen", "a-4", t0.Add(-2*time.Hour), true, true)    // read without a time
	seen := t0.Add(time.Minute)
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{unseen}})
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{late, fixed, fine, before}, SeenAt: seen})
	// Later fine turns overdue, and late is read again.
	fine.Overdue = true
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{late, fine}, SeenAt: seen.Add(time.Hour)})
	all, err := s.FindAlerts(ctx, store.AlertFilter{Account: "a", OpenFrom: t0.Add(-48 * time.Hour), OpenTo: t0})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]time.Time{}
	for _, a := range all {
		got[a.ID] = a.OverdueSince
	}
	want := map[string]time.Time{
		"late":   seen,                // first seen overdue, not moved by the second read
		"fixed":  fixed.Resolved,      // resolved before it was seen: no later than that
		"fine":   seen.Add(time.Hour), // overdue from the second read
		"unseen": seen,                // the first refresh that said when
	}
	if len(got) != len(want) {
		t.Errorf("alerts open during the two days before t0: %v; want %d, not the one resolved before", got, len(want))
	}
	for id, w := range want {
		if !got[id].Equal(w) {
			t.Errorf("%s: overdue since %v, want %v", id, got[id], w)
		}
	}
}

// testAlertReadTwice: an alert a refresh reads open and overdue, then
// closed, is stored closed, overdue since its resolution when that came
// before the read, as if it had been read closed only; a page of its own
// for each version, or both on one page, alike.
func testAlertReadTwice(t *testing.T, open func(*testing.T) store.Store) {
	first := alert("x", "a-1", t0.Add(-3*time.Hour), true, true)
	closed := alert("x", "a-1", t0.Add(-3*time.Hour), false, true) // resolved at t0-2h
	for name, pages := range map[string][][]domain.Alert{
		"two pages": {{first}, {closed}},
		"one page":  {{first, closed}},
	} {
		t.Run(name, func(t *testing.T) {
			s := open(t)
			ctx := t.Context()
			mustReplaceLayout(t, s, testLayout("a", false))
			r, err := s.BeginAlerts(ctx, "a")
			if err != nil {
				t.Fatal(err)
			}
			defer r.Rollback()
			r.SeenAt(t0)
			for _, p := range pages {
				if err := r.Write(ctx, p); err != nil {
					t.Fatal(err)
				}
			}
			if c, err := r.Commit(ctx, nil, time.Time{}); err != nil || c != (domain.Change{Added: 1}) {
				t.Fatalf("Commit = %+v, %v; want one added", c, err)
			}
			got, err := s.FindAlerts(ctx, store.AlertFilter{Account: "a"})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].Status != domain.AlertClosed || !got[0].OverdueSince.Equal(closed.Resolved) {
				t.Errorf("alerts = %+v; want x closed, overdue since its resolution %v", got, closed.Resolved)
			}
			if r, _ := s.Rollup(ctx, "a", domain.ScopeAccount, "a"); r.OpenAlerts != 0 {
				t.Errorf("account rollup = %+v; want no open alert", r)
			}
		})
	}
	// Read open in one refresh and closed in the next: overdue since the
	// first read.
	s := open(t)
	mustReplaceLayout(t, s, testLayout("a", false))
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{first}, SeenAt: t0.Add(-150 * time.Minute)})
	if c := mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{closed}, SeenAt: t0}); c != (domain.Change{Changed: 1}) {
		t.Errorf("closing reported %+v", c)
	}
	got, _ := s.FindAlerts(t.Context(), store.AlertFilter{Account: "a"})
	if len(got) != 1 || !got[0].OverdueSince.Equal(t0.Add(-150*time.Minute)) {
		t.Errorf("alerts = %+v; want x overdue since its first read", got)
	}
}

// testFailedRefresh: a refresh abandoned half-way, after writing more rows
// than any batch holds, leaves the cache as it was, and the next refresh
// works; Rollback after Commit changes nothing.
func testFailedRefresh(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	l := testLayout("a", false)
	mustReplaceLayout(t, s, l)
	devices := []domain.Device{device("0000000000A1", "a-1", 80), device("0000000000A3", "a-3", 80)}
	mustReplaceDevices(t, s, "a", devices)
	alerts := []domain.Alert{alert("x1", "a-1", t0, true, true)}
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: alerts, SeenAt: t0})

	type snapshot struct {
		layout  domain.Layout
		devices []domain.Device
		alerts  []domain.Alert
		rollups map[string]domain.Rollup
	}
	read := func() snapshot {
		var sn snapshot
		var err error
		if sn.layout, err = s.Layout(ctx, "a"); err != nil {
			t.Fatal(err)
		}
		if sn.devices, err = s.FindDevices(ctx, store.DeviceFilter{Account: "a"}); err != nil {
			t.Fatal(err)
		}
		if sn.alerts, err = s.FindAlerts(ctx, store.AlertFilter{Account: "a"}); err != nil {
			t.Fatal(err)
		}
		if sn.rollups, err = s.Rollups(ctx, "a", domain.ScopeRoom); err != nil {
			t.Fatal(err)
		}
		return sn
	}
	before := read()

	var bigLayout domain.Layout
	bigLayout.Account = domain.Account{ID: "a", Name: "Renamed"}
	bigLayout.Buildings = l.Buildings
	bigLayout.Floors = l.Floors
	bigLayout.Rooms = l.Rooms
	var moreDevices []domain.Device
	var moreAlerts []domain.Alert
	for i := 0; i < 300; i++ {
		id := fmt.Sprint("a-new-", i)
		bigLayout.Locations = append(bigLayout.Locations, domain.Location{ID: id, RoomID: "a-r1", Name: id, Type: domain.Soap})
		moreDevices = append(moreDevices, device(fmt.Sprintf("%012X", 0xB00000+i), "a-1", 0))
		moreAlerts = append(moreAlerts, alert(fmt.Sprint("y", i), "a-2", t0, true, true))
	}
	moreAlerts = append(moreAlerts, alert("x1", "a-1", t0, false, true))

	lr, err := s.BeginLayout(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(bigLayout.Locations); i += 100 {
		part := domain.Layout{Account: bigLayout.Account, Locations: bigLayout.Locations[i : i+100]}
		if i == 0 {
			part.Buildings, part.Floors, part.Rooms = bigLayout.Buildings, bigLayout.Floors, bigLayout.Rooms
		}
		if err := lr.Write(ctx, part); err != nil {
			t.Fatal(err)
		}
	}
	lr.Rollback()

	dr, err := s.BeginDevices(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(moreDevices); i += 100 {
		if err := dr.Write(ctx, moreDevices[i:i+100]); err != nil {
			t.Fatal(err)
		}
	}
	if err := dr.Write(ctx, []domain.Device{device("0000000000A1", "a-1", 0)}); err != nil {
		t.Fatal(err)
	}
	dr.Rollback()

	ar, err := s.BeginAlerts(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	ar.SeenAt(t0.Add(time.Hour))
	if err := ar.Write(ctx, moreAlerts); err != nil {
		t.Fatal(err)
	}
	ar.Rollback()

	if after := read(); !reflect.DeepEqual(after, before) {
		t.Errorf("after failed refreshes the cache holds\n%+v\nwant\n%+v", after, before)
	}

	// The next refreshes go through, and a Rollback after Commit keeps
	// what was committed.
	dr, err = s.BeginDevices(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	if err := dr.Write(ctx, moreDevices); err != nil {
		t.Fatal(err)
	}
	if c, err := dr.Commit(ctx); err != nil || c != (domain.Change{Added: 300, Removed: 2}) {
		t.Errorf("the next refresh: %+v, %v", c, err)
	}
	dr.Rollback()
	if got, _ := s.FindDevices(ctx, store.DeviceFilter{Account: "a"}); len(got) != 300 {
		t.Errorf("after Commit then Rollback the cache holds %d devices, want 300", len(got))
	}
	if c := mustReplaceLayout(t, s, bigLayout); c != (domain.Change{Added: 300, Changed: 1, Removed: 4}) {
		t.Errorf("the next layout refresh: %+v", c)
	}
}

// testAlertEvents: the service's events bring each alert to its later
// state of the cache's and the event's.
func testAlertEvents(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	closed := alert("closed", "a-1", t0, false, true)
	openOne := alert("open", "a-2", t0, true, false)
	overdue := alert("overdue", "a-3", t0, true, true)
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{closed, openOne, overdue}, SeenAt: t0})
	seen := t0.Add(time.Hour)
	apply := func(step string, want domain.Change, events ...domain.Alert) {
		t.Helper()
		if c, err := s.ApplyAlertEvents(ctx, "a", events, seen); err != nil || c != want {
			t.Errorf("%s: %+v, %v; want %+v", step, c, err, want)
		}
	}
	byID := func() map[string]domain.Alert {
		all, err := s.FindAlerts(ctx, store.AlertFilter{Account: "a"})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]domain.Alert{}
		for _, a := range all {
			out[a.ID] = a
		}
		return out
	}

	apply("a closed alert read open", domain.Change{}, alert("closed", "a-1", t0, true, true))
	apply("an overdue alert read not overdue", domain.Change{}, alert("overdue", "a-3", t0, true, false))
	apply("no events", domain.Change{})
	earlier := closed
	earlier.Resolved = closed.Resolved.Add(-time.Minute)
	apply("a closed alert read resolved earlier", domain.Change{}, earlier)
	more := openOne
	more.RefillCount, more.Overdue = 3, true
	apply("more refills, overdue", domain.Change{Changed: 1}, more)
	laterClose := closed
	laterClose.Resolved, laterClose.Resolution = closed.Resolved.Add(time.Minute), domain.ResolvedByUser
	fresh := alert("fresh", "a-4", t0.Add(30*time.Minute), true, false)
	apply("a later resolution and a new alert", domain.Change{Added: 1, Changed: 1}, laterClose, fresh)
	got := byID()
	if a := got["closed"]; a.Resolution != domain.ResolvedByUser || !a.Resolved.Equal(laterClose.Resolved) || !a.OverdueSince.Equal(t0) {
		t.Errorf("closed = %+v; want resolved by the user at %v, overdue since %v", a, laterClose.Resolved, t0)
	}
	if a := got["open"]; a.RefillCount != 3 || !a.Overdue || !a.OverdueSince.Equal(seen) {
		t.Errorf("open = %+v; want 3 refills, overdue since the events arrived", a)
	}
	if a := got["fresh"]; !reflect.DeepEqual(a, fresh) {
		t.Errorf("fresh = %+v; want %+v", a, fresh)
	}
	fewer := more
	fewer.RefillCount = 1
	apply("fewer refills", domain.Change{}, fewer)
	overdueClosed := overdue
	overdueClosed.Status, overdueClosed.Resolved, overdueClosed.Resolution = domain.AlertClosed, t0.Add(2*time.Hour), domain.ResolvedByDevice
	apply("an overdue alert closes", domain.Change{Changed: 1}, overdueClosed)
	if a := byID()["overdue"]; a.Open() || !a.OverdueSince.Equal(t0) {
		t.Errorf("overdue = %+v; want closed, overdue since it was first seen", a)
	}
	if r, _ := s.Rollup(ctx, "a", domain.ScopeAccount, "a"); r.OpenAlerts != 2 || r.OverdueAlerts != 1 {
		t.Errorf("account rollup = %+v; want 2 open, 1 overdue", r)
	}
	// An event of a location the layout does not list counts for the
	// account only.
	apply("an alert elsewhere", domain.Change{Added: 1}, alert("elsewhere", "a-9", t0, true, true))
	if r, _ := s.Rollup(ctx, "a", domain.ScopeAccount, "a"); r.OpenAlerts != 3 || r.OverdueAlerts != 2 || r.Counts.Total() != 4 {
		t.Errorf("account rollup = %+v; want 3 open, 2 overdue, 4 locations", r)
	}
	if r, _ := s.Rollup(ctx, "a", domain.ScopeBuilding, "a-b1"); r.OpenAlerts != 2 {
		t.Errorf("building rollup = %+v; want 2 open, not the one elsewhere", r)
	}
	// Events of an account the cache does not hold yet are kept.
	if c, err := s.ApplyAlertEvents(ctx, "new", []domain.Alert{alert("n1", "n-1", t0, true, false)}, seen); err != nil || c != (domain.Change{Added: 1}) {
		t.Errorf("an event of a new account: %+v, %v", c, err)
	}
	if r, _ := s.Rollup(ctx, "new", domain.ScopeAccount, "new"); r.OpenAlerts != 1 {
		t.Errorf("the new account's rollup = %+v; want its open alert", r)
	}
}

func testAlertOfAnotherAccount(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{alert("x1", "1", t0, true, false)}})
	mustApplyAlerts(t, s, "b", store.AlertWrite{Upserts: []domain.Alert{alert("y1", "1", t0, true, false)}})
	for _, c := range []struct {
		account, id string
		want        bool
	}{
		{"a", "x1", false}, {"b", "x1", true}, {"a", "y1", true}, {"b", "y1", false},
		{"a", "z1", false}, {"nobody", "x1", true}, {"nobody", "z1", false},
	} {
		if got, err := s.AlertOfAnotherAccount(ctx, c.account, c.id); err != nil || got != c.want {
			t.Errorf("AlertOfAnotherAccount(%s, %s) = %v, %v; want %v", c.account, c.id, got, err, c.want)
		}
	}
}

// testRefillTotals: the open consumable_out and battery_out alerts add up
// per floor and kind; closed ones, other types and other floors' do not
// count when a floor is chosen.
func testRefillTotals(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	mk := func(id, loc string, typ domain.AlertType, n int, open bool) domain.Alert {
		x := alert(id, loc, t0, open, false)
		x.Type, x.RefillCount = typ, n
		return x
	}
	alerts := []domain.Alert{
		mk("r1", "a-2", domain.AlertConsumableOut, 2, true), // tissue on level 1
		mk("r2", "a-2", domain.AlertConsumableOut, 1, true),
		mk("r3", "a-1", domain.AlertBatteryOut, 1, true),     // soap's batteries on level 1
		mk("r4", "a-3", domain.AlertConsumableOut, 3, true),  // towel on level 2
		mk("r5", "a-4", domain.AlertConsumableOut, 5, false), // closed
		mk("r6", "a-4", domain.AlertJam, 1, true),            // not a refill
		mk("r7", "a-9", domain.AlertConsumableOut, 4, true),  // a location the layout does not list
	}
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: alerts})
	got, err := s.RefillTotals(ctx, store.AlertFilter{Account: "a"})
	if err != nil {
		t.Fatal(err)
	}
	want := "[{North Tower Level 1 battery 1} {North Tower Level 1 tissue 3} {North Tower Level 2 towel 3}]"
	if fmt.Sprint(got) != want {
		t.Errorf("totals %v, want %s", got, want)
	}
	got, err = s.RefillTotals(ctx, store.AlertFilter{Account: "a", FloorID: "a-f2", Status: domain.AlertClosed, Limit: 1})
	if err != nil || fmt.Sprint(got) != "[{North Tower Level 2 towel 3}]" {
		t.Errorf("level 2's totals %v, %v", got, err)
	}
	got, err = s.RefillTotals(ctx, store.AlertFilter{Account: "a", Type: domain.AlertBatteryOut})
	if err != nil || fmt.Sprint(got) != "[{North Tower Level 1 battery 1}]" {
		t.Errorf("battery totals %v, %v", got, err)
	}
	if got, err := s.RefillTotals(ctx, store.AlertFilter{Account: "nobody"}); err != nil || len(got) != 0 {
		t.Errorf("an unknown account's totals: %v, %v", got, err)
	}
}
