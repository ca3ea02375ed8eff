package report

import (
	"fmt"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"
	_ "time/tzdata"

	"washboard/internal/domain"
)

// The shift most tests report on: 2 June 2026, 06:00 to 14:00 UTC.
func early() Period {
	return DefaultShifts().On(Date{2026, 6, 2}, 0, time.UTC)
}

// at is a time on 2 June 2026 in UTC.
func at(h, m int) time.Time { return time.Date(2026, 6, 2, h, m, 0, 0, time.UTC) }

func openAlert(id, location string, typ domain.AlertType, created time.Time) domain.Alert {
	return domain.Alert{ID: id, LocationID: location, Type: typ, Status: domain.AlertOpen, Created: created}
}

func closedAlert(id, location string, typ domain.AlertType, created, resolved time.Time, how domain.Resolution) domain.Alert {
	a := openAlert(id, location, typ, created)
	a.Status, a.Resolved, a.Resolution = domain.AlertClosed, resolved, how
	return a
}

func testPlaces() map[string]Place {
	return map[string]Place{
		"l1": {LocationID: "l1", Location: "Stall 1", Room: "Ladies", FloorID: "f2", Floor: "Floor 2", BuildingID: "b1", Building: "North", Type: domain.Tissue},
		"l2": {LocationID: "l2", Location: "Sink Left", Room: "Ladies", FloorID: "f2", Floor: "Floor 2", BuildingID: "b1", Building: "North", Type: domain.Towel},
		"l3": {LocationID: "l3", Location: "Sink", Room: "Gents", FloorID: "f10", Floor: "Floor 10", BuildingID: "b1", Building: "North", Type: domain.Soap},
		"l4": {LocationID: "l4", Location: "Entrance", Room: "Lobby", FloorID: "f0", Floor: "Ground", BuildingID: "b0", Building: "Annex", Type: domain.Sanitizer},
		"gw": {LocationID: "gw", Location: "Gateway", Room: "Lobby", FloorID: "f0", Floor: "Ground", BuildingID: "b0", Building: "Annex", Type: domain.Collector},
	}
}

func ids(rows []AlertRow) []string {
	out := []string{}
	for _, r := range rows {
		out = append(out, r.Alert.ID)
	}
	return out
}

func TestAlertsAcrossShiftBoundaries(t *testing.T) {
	tests := []struct {
		name                                         string
		alert                                        domain.Alert
		openAtStart, openedDuring, resolved, openEnd bool
	}{
		{"opened before, resolved during", closedAlert("a", "l1", domain.AlertJam, at(5, 0), at(7, 0), domain.ResolvedByDevice), true, false, true, false},
		{"opened during, still open", openAlert("a", "l1", domain.AlertJam, at(7, 0)), false, true, false, true},
		{"opened during, resolved after the end", closedAlert("a", "l1", domain.AlertJam, at(7, 0), at(15, 0), domain.ResolvedByDevice), false, true, false, true},
		{"resolved exactly at the end is open at the end", closedAlert("a", "l1", domain.AlertJam, at(7, 0), at(14, 0), domain.ResolvedByDevice), false, true, false, true},
		{"created exactly at the start is opened during", openAlert("a", "l1", domain.AlertJam, at(6, 0)), false, true, false, true},
		{"resolved exactly at the start", closedAlert("a", "l1", domain.AlertJam, at(5, 0), at(6, 0), domain.ResolvedByDevice), true, false, true, false},
		{"opened and resolved during", closedAlert("a", "l1", domain.AlertJam, at(7, 0), at(8, 0), domain.ResolvedByUser), false, true, true, false},
		{"open across the whole shift", openAlert("a", "l1", domain.AlertJam, at(6, 0).AddDate(0, 0, -3)), true, false, false, true},
		{"created exactly at the end does not count", openAlert("a", "l1", domain.AlertJam, at(14, 0)), false, false, false, false},
		{"resolved before the start does not count", closedAlert("a", "l1", domain.AlertJam, at(4, 0), at(5, 59), domain.ResolvedByDevice), false, false, false, false},
		{"closed at an unknown time", closedAlert("a", "l1", domain.AlertJam, at(7, 0), time.Time{}, domain.ResolvedByDevice), false, true, false, false},
	}
	count := func(b bool) int {
		if b {
			return 1
		}
		return 0
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Build(Input{Period: early(), Alerts: []domain.Alert{tt.alert}, Places: testPlaces()})
			s := r.Summary
			got := [4]int{s.OpenAtStart, s.OpenedDuring, s.ResolvedDuring, s.OpenAtEnd}
			want := [4]int{count(tt.openAtStart), count(tt.openedDuring), count(tt.resolved), count(tt.openEnd)}
			if got != want {
				t.Errorf("open at start, opened, resolved, open at end = %v, want %v", got, want)
			}
			tables := [3]int{len(r.Opened), len(r.Resolved), len(r.StillOpen)}
			if tables != [3]int{want[1], want[2], want[3]} {
				t.Errorf("rows opened, resolved, still open = %v, want %v", tables, [3]int{want[1], want[2], want[3]})
			}
		})
	}
}

func TestEmptyShift(t *testing.T) {
	p := early()
	old := closedAlert("old", "l1", domain.AlertJam, at(1, 0), at(2, 0), domain.ResolvedByDevice)
	r := Build(Input{Period: p, Alerts: []domain.Alert{old}, DevicesCurrent: true})
	s := r.Summary
	if s.OpenAtStart+s.OpenedDuring+s.ResolvedDuring+s.OpenAtEnd+s.OverdueAtEnd != 0 || len(s.TimeToResolve) != 0 {
		t.Errorf("summary of an empty shift = %+v", s)
	}
	for _, rc := range s.Resolutions {
		if rc.Count != 0 {
			t.Errorf("resolutions of an empty shift = %+v", s.Resolutions)
		}
	}
	if n := len(r.Opened) + len(r.Resolved) + len(r.StillOpen) + len(r.Offline) + len(r.TopLocations) + len(r.PickList.Rows) + len(r.PickList.Refills) + r.PickList.BatterySets; n != 0 {
		t.Errorf("an empty shift has %d rows: %+v", n, r)
	}
	if len(r.Hourly) != 8 {
		t.Fatalf("an 8-hour shift has %d hourly buckets", len(r.Hourly))
	}
	for _, b := range r.Hourly {
		if b.Opened != 0 || b.Resolved != 0 {
			t.Errorf("bucket %s of an empty shift = %+v", b.Label, b)
		}
	}
	if r := Build(Input{}); len(r.Hourly) != 0 || r.Summary.OpenedDuring != 0 {
		t.Errorf("the report of no period = %+v", r)
	}
}

func TestResolutionBreakdown(t *testing.T) {
	alerts := []domain.Alert{
		closedAlert("1", "l1", domain.AlertJam, at(5, 0), at(7, 0), domain.ResolvedByOffline),
		closedAlert("2", "l1", domain.AlertJam, at(7, 0), at(8, 0), domain.ResolvedByOffline),
		closedAlert("3", "l2", domain.AlertJam, at(7, 0), at(9, 0), domain.ResolvedByDevice),
		closedAlert("4", "l2", domain.AlertJam, at(7, 0), at(9, 0), "RESOLVED_BY_SCRIPT"),
		closedAlert("5", "l2", domain.AlertJam, at(7, 0), at(9, 0), "AUTO_CLOSED"),
		closedAlert("6", "l2", domain.AlertJam, at(7, 0), at(15, 0), domain.ResolvedByUser),
	}
	r := Build(Input{Period: early(), Alerts: alerts})
	want := []ResolutionCount{
		{domain.ResolvedByDevice, 1}, {domain.ResolvedByUser, 0}, {domain.ResolvedByOffline, 2},
		{"AUTO_CLOSED", 1}, {"RESOLVED_BY_SCRIPT", 1},
	}
	if !reflect.DeepEqual(r.Summary.Resolutions, want) {
		t.Errorf("Resolutions = %v, want %v", r.Summary.Resolutions, want)
	}
	if r.Summary.ResolvedDuring != 5 {
		t.Errorf("ResolvedDuring = %d, want 5", r.Summary.ResolvedDuring)
	}
	unfixed := map[string]bool{}
	for _, row := range r.Resolved {
		unfixed[row.Alert.ID] = row.MayBeUnfixed
	}
	if want := map[string]bool{"1": true, "2": true, "3": false, "4": false, "5": false}; !reflect.DeepEqual(unfixed, want) {
		t.Errorf("may be unfixed = %v, want %v", unfixed, want)
	}
}

func TestMedianTimeToResolve(t *testing.T) {
	resolvedAfter := func(id string, typ domain.AlertType, created time.Time, minutes int) domain.Alert {
		return closedAlert(id, "l1", typ, created, created.Add(time.Duration(minutes)*time.Minute), domain.ResolvedByDevice)
	}
	alerts := []domain.Alert{
		resolvedAfter("c1", domain.AlertConsumableOut, at(7, 0), 10),
		resolvedAfter("c2", domain.AlertConsumableOut, at(7, 0), 30),
		resolvedAfter("c3", domain.AlertConsumableOut, at(5, 0), 200),  // opened before, resolved during
		resolvedAfter("c4", domain.AlertConsumableOut, at(13, 0), 120), // resolved after the end
		resolvedAfter("j1", domain.AlertJam, at(8, 0), 10),
		resolvedAfter("j2", domain.AlertJam, at(8, 0), 41),
		resolvedAfter("x1", "leak_detected", at(9, 0), 60),
		resolvedAfter("d1", domain.AlertDeviceOff, at(9, 0), 5),
		openAlert("b1", "l1", domain.AlertBatteryOut, at(9, 0)),
	}
	r := Build(Input{Period: early(), Alerts: alerts})
	want := []TypeMedian{
		{domain.AlertConsumableOut, 3, 30 * time.Minute},
		{domain.AlertJam, 2, 25*time.Minute + 30*time.Second},
		{domain.AlertDeviceOff, 1, 5 * time.Minute},
		{"leak_detected", 1, time.Hour},
	}
	if !reflect.DeepEqual(r.Summary.TimeToResolve, want) {
		t.Errorf("TimeToResolve = %v, want %v", r.Summary.TimeToResolve, want)
	}
}

func TestOverdueAtEnd(t *testing.T) {
	overdue := func(a domain.Alert, since time.Time) domain.Alert {
		a.Overdue, a.OverdueSince = true, since
		return a
	}
	tests := []struct {
		name  string
		alert domain.Alert
		want  bool
	}{
		{"overdue before the end, still open", overdue(openAlert("a", "l1", domain.AlertJam, at(5, 0)), at(10, 0)), true},
		{"overdue exactly at the end", overdue(openAlert("a", "l1", domain.AlertJam, at(5, 0)), at(14, 0)), true},
		{"overdue only after the end", overdue(openAlert("a", "l1", domain.AlertJam, at(5, 0)), at(14, 1)), false},
		{"no longer flagged overdue", func() domain.Alert {
			a := overdue(openAlert("a", "l1", domain.AlertJam, at(5, 0)), at(10, 0))
			a.Overdue = false
			return a
		}(), false},
		{"overdue before the end, resolved after it", overdue(closedAlert("a", "l1", domain.AlertJam, at(5, 0), at(15, 0), domain.ResolvedByUser), at(10, 0)), true},
		{"overdue, resolved before the end", overdue(closedAlert("a", "l1", domain.AlertJam, at(5, 0), at(13, 0), domain.ResolvedByUser), at(10, 0)), false},
		{"since when unknown, still open", overdue(openAlert("a", "l1", domain.AlertJam, at(5, 0)), time.Time{}), true},
		{"since when unknown, resolved after the end", overdue(closedAlert("a", "l1", domain.AlertJam, at(5, 0), at(15, 0), domain.ResolvedByUser), time.Time{}), true},
		{"since when unknown, resolved exactly at the end", overdue(closedAlert("a", "l1", domain.AlertJam, at(5, 0), at(14, 0), domain.ResolvedByUser), time.Time{}), false},
		{"since when unknown, opened after the end", overdue(openAlert("a", "l1", domain.AlertJam, at(14, 30)), time.Time{}), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Build(Input{Period: early(), Alerts: []domain.Alert{tt.alert}})
			if got := r.Summary.OverdueAtEnd == 1; got != tt.want {
				t.Errorf("OverdueAtEnd = %d, want overdue %v", r.Summary.OverdueAtEnd, tt.want)
			}
			rowFlag := len(r.StillOpen) == 1 && r.StillOpen[0].OverdueAtEnd
			if rowFlag != tt.want {
				t.Errorf("still-open rows = %+v, want overdue %v", r.StillOpen, tt.want)
			}
		})
	}
}

func TestTableOrder(t *testing.T) {
	late := openAlert("late-overdue", "l1", domain.AlertJam, at(12, 0))
	late.Overdue, late.OverdueSince = true, at(13, 0)
	alerts := []domain.Alert{
		openAlert("b", "l1", domain.AlertJam, at(9, 0)),
		openAlert("a", "l2", domain.AlertJam, at(9, 0)),
		late,
		openAlert("oldest", "l3", domain.AlertJam, at(1, 0)),
		closedAlert("r2", "l1", domain.AlertJam, at(7, 0), at(11, 0), domain.ResolvedByDevice),
		closedAlert("r1", "l1", domain.AlertJam, at(8, 0), at(10, 0), domain.ResolvedByOffline),
		openAlert("a", "l4", domain.AlertJam, at(6, 30)), // the same alert again: ignored
	}
	r := Build(Input{Period: early(), Alerts: alerts, Places: testPlaces()})
	if got, want := ids(r.Opened), []string{"r2", "r1", "a", "b", "late-overdue"}; !reflect.DeepEqual(got, want) {
		t.Errorf("opened = %v, want %v", got, want)
	}
	if got, want := ids(r.Resolved), []string{"r1", "r2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("resolved = %v, want %v", got, want)
	}
	if got, want := ids(r.StillOpen), []string{"late-overdue", "oldest", "a", "b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("still open = %v, want %v", got, want)
	}
	first := r.StillOpen[1]
	if first.AgeAtEnd != 13*time.Hour || first.Place.Location != "Sink" || !first.OpenAtEnd || first.TimeToResolve != 0 {
		t.Errorf("the oldest open alert's row = %+v", first)
	}
	if r1 := r.Resolved[0]; r1.TimeToResolve != 2*time.Hour || !r1.MayBeUnfixed || r1.OpenAtEnd || r1.AgeAtEnd != 0 {
		t.Errorf("the row of an alert closed by going offline = %+v", r1)
	}
}

func TestTopLocations(t *testing.T) {
	places := map[string]Place{}
	var alerts []domain.Alert
	add := func(location string, n int, types ...domain.AlertType) {
		for i := range n {
			typ := types[i%len(types)]
			alerts = append(alerts, openAlert(fmt.Sprintf("%s-%d", location, i), location, typ, at(7, i)))
		}
	}
	for i := 1; i <= 12; i++ {
		id := fmt.Sprintf("loc%02d", i)
		places[id] = Place{LocationID: id, Location: "Sink", Room: "Room", FloorID: id, Floor: fmt.Sprintf("Floor %d", i), BuildingID: "b", Building: "Main"}
	}
	add("loc01", 1, domain.AlertJam)
	add("loc02", 5, domain.AlertJam, "leak_detected", domain.AlertConsumableOut)
	add("loc03", 3, domain.AlertBatteryOut)
	add("loc10", 3, domain.AlertBatteryOut) // ties with loc03: Floor 3 before Floor 10
	add("loc04", 2, domain.AlertJam)
	add("loc05", 1, domain.AlertJam)
	add("loc06", 1, domain.AlertJam)
	add("loc07", 1, domain.AlertJam)
	add("loc08", 1, domain.AlertJam)
	add("loc09", 1, domain.AlertJam)
	add("loc11", 1, domain.AlertJam)
	add("loc12", 1, domain.AlertJam)
	add("unknown", 2, domain.AlertSensor) // not in places: after loc04, its empty building sorts last
	alerts = append(alerts, openAlert("before", "loc12", domain.AlertJam, at(5, 0)), openAlert("before2", "loc12", domain.AlertJam, at(5, 0)))

	r := Build(Input{Period: early(), Alerts: alerts, Places: places})
	var got []string
	for _, lc := range r.TopLocations {
		got = append(got, fmt.Sprintf("%s:%d", lc.Place.LocationID, lc.Opened))
	}
	want := []string{"loc02:5", "loc03:3", "loc10:3", "loc04:2", "unknown:2", "loc01:1", "loc05:1", "loc06:1", "loc07:1", "loc08:1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("top locations = %v, want %v", got, want)
	}
	if types, want := r.TopLocations[0].Types, []domain.AlertType{domain.AlertConsumableOut, domain.AlertJam, "leak_detected"}; !reflect.DeepEqual(types, want) {
		t.Errorf("types at the top location = %v, want %v", types, want)
	}
	if p := r.TopLocations[4].Place; p.Location != "unknown" || p.Building != "" {
		t.Errorf("an unknown location is shown as %+v, want its id", p)
	}
}

func TestOffline(t *testing.T) {
	off := func(id, location string, created time.Time, macs ...string) domain.Alert {
		a := openAlert(id, location, domain.AlertDeviceOff, created)
		a.MACs = macs
		return a
	}
	alerts := []domain.Alert{
		off("o1", "l2", at(3, 0), "AA0000000001", "AA0000000002"),
		off("o2", "l2", at(4, 0), "aa0000000001"), // the same device again, later: the first alert stands
		off("o3", "l4", at(9, 0)),                 // names no device
		closedAlert("o4", "l1", domain.AlertDeviceOff, at(3, 0), at(13, 0), domain.ResolvedByDevice),
		off("o5", "l3", at(14, 0), "CC0000000001"), // after the end
	}
	devices := []domain.Device{
		{MAC: "aa0000000001", LocationID: "l2", Offline: true, LastSeen: at(2, 0).AddDate(0, 0, -1)},
		{MAC: "BB0000000001", LocationID: "l1", Offline: true, LastSeen: at(1, 0)},
		{MAC: "DD0000000001", LocationID: "l4", Offline: true, LastSeen: at(1, 0)}, // covered by o3
		{MAC: "CC0000000001", LocationID: "l3", Offline: false},
	}
	tests := []struct {
		name    string
		current bool
		want    []OfflineRow
	}{
		{"from alerts only", false, []OfflineRow{
			{Place: testPlaces()["l4"], Since: at(9, 0), AlertID: "o3"},
			{Place: testPlaces()["l2"], MAC: "AA0000000001", Since: at(3, 0), AlertID: "o1"},
			{Place: testPlaces()["l2"], MAC: "AA0000000002", Since: at(3, 0), AlertID: "o1"},
		}},
		{"with current devices", true, []OfflineRow{
			{Place: testPlaces()["l4"], Since: at(9, 0), AlertID: "o3"},
			{Place: testPlaces()["l2"], MAC: "AA0000000001", Since: at(3, 0), LastSeen: at(2, 0).AddDate(0, 0, -1), AlertID: "o1"},
			{Place: testPlaces()["l2"], MAC: "AA0000000002", Since: at(3, 0), AlertID: "o1"},
			{Place: testPlaces()["l1"], MAC: "BB0000000001", Since: at(1, 0), LastSeen: at(1, 0)},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Build(Input{Period: early(), Alerts: alerts, Places: testPlaces(), Devices: devices, DevicesCurrent: tt.current})
			if !reflect.DeepEqual(r.Offline, tt.want) {
				t.Errorf("Offline =\n%+v\nwant\n%+v", r.Offline, tt.want)
			}
		})
	}
}

func TestPickList(t *testing.T) {
	withCount := func(a domain.Alert, n int, macs ...string) domain.Alert {
		a.RefillCount, a.MACs = n, macs
		return a
	}
	out := func(id, location string, n int, macs ...string) domain.Alert {
		return withCount(openAlert(id, location, domain.AlertConsumableOut, at(8, 0)), n, macs...)
	}
	battery := func(id, location string, n int, macs ...string) domain.Alert {
		return withCount(openAlert(id, location, domain.AlertBatteryOut, at(8, 0)), n, macs...)
	}
	compartments := func(states ...string) []domain.Compartment {
		var cs []domain.Compartment
		for _, s := range states {
			cs = append(cs, domain.Compartment{Low: s == "low", Out: s == "out"})
		}
		return cs
	}
	north2 := func(refills []Refill, batteries int) PickRow {
		return PickRow{BuildingID: "b1", Building: "North", FloorID: "f2", Floor: "Floor 2", Refills: refills, BatterySets: batteries}
	}
	tests := []struct {
		name    string
		alerts  []domain.Alert
		devices []domain.Device
		current bool
		want    PickList
	}{
		{"refill count of an open consumable_out", []domain.Alert{out("a", "l1", 4)}, nil, false,
			PickList{Rows: []PickRow{north2([]Refill{{domain.Tissue, 4}}, 0)}, Refills: []Refill{{domain.Tissue, 4}}}},
		{"at least one refill", []domain.Alert{out("a", "l1", 0)}, nil, false,
			PickList{Rows: []PickRow{north2([]Refill{{domain.Tissue, 1}}, 0)}, Refills: []Refill{{domain.Tissue, 1}}}},
		{"resolved during the shift: nothing to carry", []domain.Alert{
			withCount(closedAlert("a", "l1", domain.AlertConsumableOut, at(7, 0), at(9, 0), domain.ResolvedByDevice), 2),
		}, nil, false, PickList{}},
		{"resolved exactly at the end: still to carry", []domain.Alert{
			withCount(closedAlert("a", "l1", domain.AlertConsumableOut, at(7, 0), at(14, 0), domain.ResolvedByDevice), 2),
		}, nil, false, PickList{Rows: []PickRow{north2([]Refill{{domain.Tissue, 2}}, 0)}, Refills: []Refill{{domain.Tissue, 2}}}},
		{"battery sets", []domain.Alert{battery("a", "l2", 2), battery("b", "l1", 0)}, nil, false,
			PickList{Rows: []PickRow{north2(nil, 3)}, BatterySets: 3}},
		{"the same need twice counts once, at the larger count", []domain.Alert{
			out("a", "l1", 2, "AA01", "AA02"), out("b", "l1", 3, "aa02", "AA01"), out("a", "l1", 2, "AA01", "AA02"),
		}, nil, false, PickList{Rows: []PickRow{north2([]Refill{{domain.Tissue, 3}}, 0)}, Refills: []Refill{{domain.Tissue, 3}}}},
		{"two devices at one location are two needs", []domain.Alert{out("a", "l2", 1, "AA01"), out("b", "l2", 1, "AA02")}, nil, false,
			PickList{Rows: []PickRow{north2([]Refill{{domain.Towel, 2}}, 0)}, Refills: []Refill{{domain.Towel, 2}}}},
		{"gateways get no refills", []domain.Alert{out("a", "gw", 2)}, []domain.Device{
			{MAC: "GW01", LocationID: "gw", Compartments: compartments("out")},
		}, true, PickList{}},
		{"device state ignored when it is not current", nil, []domain.Device{
			{MAC: "AA01", LocationID: "l1", Compartments: compartments("low", "out"), BatteryState: domain.BatteryLow},
		}, false, PickList{}},
		{"device state adds what no alert covers", []domain.Alert{
			out("a", "l1", 4, "AA01"), battery("b", "l2", 2, "BB01"),
		}, []domain.Device{
			{MAC: "aa01", LocationID: "l1", Compartments: compartments("out", "low", "ok", "out"), BatteryState: domain.BatteryLow},
			{MAC: "AA02", LocationID: "l1", Compartments: compartments("low", "ok"), BatteryState: domain.BatteryNormal},
			{MAC: "BB01", LocationID: "l2", Compartments: compartments("out"), BatteryState: domain.BatteryShutdown},
			{MAC: "BB01", LocationID: "l2", Compartments: compartments("out"), BatteryState: domain.BatteryShutdown}, // listed twice
			{MAC: "GW01", LocationID: "gw", BatteryState: domain.BatteryLow},
		}, true, PickList{
			Rows: []PickRow{
				{BuildingID: "b0", Building: "Annex", FloorID: "f0", Floor: "Ground", BatterySets: 1},
				north2([]Refill{{domain.Tissue, 5}, {domain.Towel, 1}}, 3),
			},
			Refills:     []Refill{{domain.Tissue, 5}, {domain.Towel, 1}},
			BatterySets: 4,
		}},
		{"an alert naming no device covers its location", []domain.Alert{out("a", "l1", 1), battery("b", "l1", 1)}, []domain.Device{
			{MAC: "AA01", LocationID: "l1", Compartments: compartments("out", "out"), BatteryState: domain.BatteryLow},
			{MAC: "AA02", LocationID: "l1", Compartments: compartments("low"), BatteryState: domain.BatteryShutdown},
		}, true, PickList{Rows: []PickRow{north2([]Refill{{domain.Tissue, 1}}, 1)}, Refills: []Refill{{domain.Tissue, 1}}, BatterySets: 1}},
		{"by building and floor, unknown places last", []domain.Alert{
			out("a", "l3", 2), out("b", "l1", 1), out("c", "l4", 1), out("d", "nowhere", 1), battery("e", "l2", 1),
		}, nil, false, PickList{
			Rows: []PickRow{
				{BuildingID: "b0", Building: "Annex", FloorID: "f0", Floor: "Ground", Refills: []Refill{{domain.Sanitizer, 1}}},
				north2([]Refill{{domain.Tissue, 1}}, 1),
				{BuildingID: "b1", Building: "North", FloorID: "f10", Floor: "Floor 10", Refills: []Refill{{domain.Soap, 2}}},
				{Refills: []Refill{{"", 1}}},
			},
			Refills:     []Refill{{domain.Tissue, 1}, {domain.Soap, 2}, {domain.Sanitizer, 1}, {"", 1}},
			BatterySets: 1,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Build(Input{Period: early(), Alerts: tt.alerts, Places: testPlaces(), Devices: tt.devices, DevicesCurrent: tt.current})
			if !reflect.DeepEqual(r.PickList, tt.want) {
				t.Errorf("PickList =\n%+v\nwant\n%+v", r.PickList, tt.want)
			}
		})
	}
}

func TestHourly(t *testing.T) {
	loc := berlin(t)
	night := func(d Date) Period { return DefaultShifts().On(d, 2, loc) }
	custom := func(start, end time.Time) Period {
		p, err := Custom(start, end)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name   string
		period Period
		alerts []domain.Alert
		labels []string
		opened []int
	}{
		{"day shift", early(), []domain.Alert{
			openAlert("a", "l1", domain.AlertJam, at(6, 0)),
			openAlert("b", "l1", domain.AlertJam, at(13, 59)),
			openAlert("c", "l1", domain.AlertJam, at(14, 0)),
			closedAlert("d", "l1", domain.AlertJam, at(5, 0), at(7, 30), domain.ResolvedByDevice),
		}, []string{"06:00", "07:00", "08:00", "09:00", "10:00", "11:00", "12:00", "13:00"}, []int{1, 0, 0, 0, 0, 0, 0, 1}},
		{"partial first and last hours", custom(at(6, 30), at(9, 15)), []domain.Alert{openAlert("a", "l1", domain.AlertJam, at(9, 10))},
			[]string{"06:30", "07:00", "08:00", "09:00"}, []int{0, 0, 0, 1}},
		{"clocks go forward", night(Date{2026, 3, 28}), []domain.Alert{
			openAlert("a", "l1", domain.AlertJam, time.Date(2026, 3, 29, 1, 0, 0, 0, time.UTC)), // 03:00 CEST
		}, []string{"22:00", "23:00", "00:00", "01:00", "03:00", "04:00", "05:00"}, []int{0, 0, 0, 0, 1, 0, 0}},
		{"clocks go back", night(Date{2026, 10, 24}), []domain.Alert{
			openAlert("a", "l1", domain.AlertJam, time.Date(2026, 10, 25, 0, 30, 0, 0, time.UTC)), // 02:30 CEST
			openAlert("b", "l1", domain.AlertJam, time.Date(2026, 10, 25, 1, 30, 0, 0, time.UTC)), // 02:30 CET
			openAlert("c", "l1", domain.AlertJam, time.Date(2026, 10, 25, 1, 45, 0, 0, time.UTC)), // 02:45 CET
		}, []string{"22:00", "23:00", "00:00", "01:00", "02:00", "02:00 (2nd)", "03:00", "04:00", "05:00"}, []int{0, 0, 0, 0, 1, 2, 0, 0, 0}},
		{"longer than a day", custom(time.Date(2026, 6, 2, 6, 0, 0, 0, loc), time.Date(2026, 6, 3, 8, 0, 0, 0, loc)), nil,
			func() []string {
				var labels []string
				for h := 6; h < 24+8; h++ {
					labels = append(labels, fmt.Sprintf("%d Jun %02d:00", 2+h/24, h%24))
				}
				return labels
			}(), make([]int, 26)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Build(Input{Period: tt.period, Alerts: tt.alerts})
			var labels []string
			var counts []int
			for i, b := range r.Hourly {
				labels = append(labels, b.Label)
				counts = append(counts, b.Opened)
				if i == 0 && !b.Start.Equal(tt.period.Start) || i > 0 && !b.Start.Equal(r.Hourly[i-1].End) || !b.End.After(b.Start) || b.End.Sub(b.Start) > time.Hour {
					t.Errorf("bucket %d runs from %v to %v", i, b.Start, b.End)
				}
			}
			if n := len(r.Hourly); n > 0 && !r.Hourly[n-1].End.Equal(tt.period.End) {
				t.Errorf("the last bucket ends at %v, want %v", r.Hourly[n-1].End, tt.period.End)
			}
			if !reflect.DeepEqual(labels, tt.labels) || !reflect.DeepEqual(counts, tt.opened) {
				t.Errorf("buckets = %q %v, want %q %v", labels, counts, tt.labels, tt.opened)
			}
		})
	}
	r := Build(Input{Period: early(), Alerts: []domain.Alert{closedAlert("d", "l1", domain.AlertJam, at(5, 0), at(7, 30), domain.ResolvedByDevice)}})
	if r.Hourly[1].Resolved != 1 || r.Hourly[0].Resolved != 0 {
		t.Errorf("resolved per bucket: %+v", r.Hourly)
	}
}

// An hour cut short by a zone change that is not a whole hour (Lord Howe
// Island moves its clocks by 30 minutes) still ends on the full hour.
func TestHourlyHalfHourChange(t *testing.T) {
	loc, err := time.LoadLocation("Australia/Lord_Howe")
	if err != nil {
		t.Fatal(err)
	}
	// Clocks go from 02:00 to 02:30 on 4 October 2026.
	p, err := Custom(time.Date(2026, 10, 4, 1, 0, 0, 0, loc), time.Date(2026, 10, 4, 4, 0, 0, 0, loc))
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, b := range Build(Input{Period: p}).Hourly {
		labels = append(labels, b.Label)
	}
	if want := []string{"01:00", "02:30", "03:00"}; !reflect.DeepEqual(labels, want) {
		t.Errorf("labels = %q, want %q", labels, want)
	}
}

func TestUnknownLocationStillCounts(t *testing.T) {
	a := openAlert("a", "loc-x", domain.AlertConsumableOut, at(8, 0))
	r := Build(Input{Period: early(), Alerts: []domain.Alert{a}, Places: testPlaces()})
	if r.Summary.OpenedDuring != 1 || len(r.StillOpen) != 1 {
		t.Fatalf("an alert at an unknown location is not counted: %+v", r.Summary)
	}
	if p := r.StillOpen[0].Place; p.LocationID != "loc-x" || p.Location != "loc-x" {
		t.Errorf("its place = %+v, want the location id", p)
	}
}

// The report stays free of the web layer and the store.
func TestDependencies(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	out, err := exec.Command(goTool, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	got := strings.Fields(string(out))
	if want := []string{"washboard/internal/domain", "washboard/internal/report"}; !reflect.DeepEqual(got, want) {
		t.Errorf("report depends on %v, want only %v and the standard library", got, want)
	}
}

// TestWhoHandledWhat: the report lists the claims held during the shift
// by person, each's by the time they were made, with how soon after the
// alert opened and how each ended; claims ended before the shift or made
// after it, and claims of alerts the report does not hold, are left out.
// Claims of a name typed, before claims belonged to people, go together
// by name, after a person of the same name.
func TestWhoHandledWhat(t *testing.T) {
	jam := closedAlert("jam", "l1", domain.AlertJam, at(6, 30), at(7, 10), domain.ResolvedByDevice)
	out := openAlert("out", "l2", domain.AlertConsumableOut, at(5, 0))
	claims := []domain.Claim{
		{AlertID: "out", PersonID: "p-ali", Name: "Ali", At: at(9, 0)}, // still on it
		{AlertID: "jam", PersonID: "p-maria", Name: "Maria", Note: "on my way", At: at(6, 40), Ended: at(7, 10), EndedBy: domain.ClaimClosed},
		{AlertID: "jam", Name: "Maria", At: at(6, 35), Ended: at(6, 40), EndedBy: domain.ClaimHanded},                    // typed
		{AlertID: "jam", PersonID: "p-ali", Name: "Ali", At: at(6, 31), Ended: at(6, 35), EndedBy: domain.ClaimHanded},   // Ali again
		{AlertID: "out", PersonID: "p-sam", Name: "Sam", At: at(5, 10), Ended: at(5, 50), EndedBy: domain.ClaimReleased}, // before the shift
		{AlertID: "out", PersonID: "p-lee", Name: "Lee", At: at(14, 0)},                                                  // at the end: after it
		{AlertID: "gone", PersonID: "p-kim", Name: "Kim", At: at(8, 0)},                                                  // an alert not in the report
		{AlertID: "out", Name: "Jo", At: at(5, 50), Ended: at(9, 0), EndedBy: domain.ClaimHanded},                        // typed, across the start
	}
	r := Build(Input{Period: early(), Alerts: []domain.Alert{jam, out}, Places: testPlaces(), Claims: claims})
	var got []string
	for _, by := range r.Handled {
		line := by.Name + " [" + by.PersonID + "]:"
		for _, h := range by.Rows {
			line += fmt.Sprintf(" %s %s %s;", h.Claim.AlertID, h.TimeToClaim, h.Claim.EndedBy)
		}
		got = append(got, line)
	}
	want := []string{
		"Ali [p-ali]: jam 1m0s handed; out 4h0m0s ;",
		"Jo []: out 50m0s handed;",
		"Maria [p-maria]: jam 10m0s closed;",
		"Maria []: jam 5m0s handed;",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("who handled what:\n got %q\nwant %q", got, want)
	}
	if len(r.Handled) == 4 && r.Handled[2].Rows[0].Alert.Place.Location != "Stall 1" {
		t.Errorf("Maria's row is at %q, want Stall 1", r.Handled[2].Rows[0].Alert.Place.Location)
	}
}

// The dispensers that will run out before the next shift ends, and are
// on no other list, get a refill each; those out or low, those an open
// consumable_out alert covers, those estimated to last longer, and any
// when the devices' state is not current are not listed.
func TestRunningOut(t *testing.T) {
	end := early().End.Add(8 * time.Hour)
	devices := []domain.Device{
		{MAC: "AA01", LocationID: "l1", Compartments: []domain.Compartment{{Level: 40}}},
		{MAC: "AA02", LocationID: "l1", Compartments: []domain.Compartment{{Level: 10, Low: true}}},
		{MAC: "AA03", LocationID: "l3", Compartments: []domain.Compartment{{Level: 60}}},
		{MAC: "AA04", LocationID: "l3", Compartments: []domain.Compartment{{Level: 80}}},
		{MAC: "AA05", LocationID: "l4", Compartments: []domain.Compartment{{Level: 30}}},
		{MAC: "AA06", LocationID: "l2", Compartments: []domain.Compartment{{Level: 30}}},
		{MAC: "AA01", LocationID: "l1", Compartments: []domain.Compartment{{Level: 40}}}, // listed twice
	}
	runsOut := map[string]time.Time{
		"AA01": end.Add(-time.Hour), "AA02": end.Add(-time.Hour), "AA03": end, "AA04": end.Add(time.Minute),
		"AA05": end.Add(-4 * time.Hour), "AA06": end.Add(-time.Hour),
	}
	covering := openAlert("x", "l4", domain.AlertConsumableOut, at(8, 0))
	in := Input{Period: early(), Alerts: []domain.Alert{covering}, Places: testPlaces(), Devices: devices, DevicesCurrent: true, RunsOut: runsOut, NextShiftEnd: end}
	r := Build(in)
	want := PickList{
		Rows: []PickRow{
			{BuildingID: "b1", Building: "North", FloorID: "f2", Floor: "Floor 2", Refills: []Refill{{domain.Tissue, 1}, {domain.Towel, 1}}},
			{BuildingID: "b1", Building: "North", FloorID: "f10", Floor: "Floor 10", Refills: []Refill{{domain.Soap, 1}}},
		},
		Refills: []Refill{{domain.Tissue, 1}, {domain.Towel, 1}, {domain.Soap, 1}},
	}
	if !reflect.DeepEqual(r.RunningOut, want) || !r.NextShiftEnd.Equal(end) {
		t.Errorf("RunningOut =\n%+v\nwant\n%+v", r.RunningOut, want)
	}
	in.DevicesCurrent = false
	if r := Build(in); len(r.RunningOut.Rows) != 0 {
		t.Errorf("with devices not current: %+v", r.RunningOut)
	}
}
