package storetest

import (
	"fmt"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// testReadsOfSomeBuildings: the reads a person's scope narrows (alerts,
// their counts and refill totals, devices, search, the claims of alerts
// and of visitors' reports) keep the rows of the scope's buildings only;
// an empty scope keeps none, and nil every one.
func testReadsOfSomeBuildings(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	l := testLayout("a", false) // a-1 … a-4 in building a-b1
	l.Buildings = append(l.Buildings, domain.Building{ID: "a-b2", Name: "Annex"})
	l.Floors = append(l.Floors, domain.Floor{ID: "a-f3", BuildingID: "a-b2", Name: "Ground"})
	l.Rooms = append(l.Rooms, domain.Room{ID: "a-r3", FloorID: "a-f3", Name: "Annex Restroom"})
	l.Locations = append(l.Locations, domain.Location{ID: "a-5", RoomID: "a-r3", Name: "Sink Annex", Type: domain.Soap})
	mustReplaceLayout(t, s, l)
	mustReplaceDevices(t, s, "a", []domain.Device{device("0000000000A1", "a-1", 0), device("0000000000A5", "a-5", 0), device("0000000000A9", "a-9", 0)})
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{
		alert("x1", "a-1", t0, true, false), alert("x5", "a-5", t0, true, false), alert("x9", "a-9", t0, true, false)}})

	for _, c := range []struct {
		buildings             []string
		alerts, devices, sink string
	}{
		{nil, "[x1 x5 x9]", "[0000000000A9 0000000000A1 0000000000A5]", "[a-1 a-5]"},
		{[]string{"a-b2"}, "[x5]", "[0000000000A5]", "[a-5]"},
		{[]string{"a-b1", "a-b2"}, "[x1 x5]", "[0000000000A1 0000000000A5]", "[a-1 a-5]"},
		{[]string{"b-b1"}, "[]", "[]", "[]"}, // another account's building
		{[]string{}, "[]", "[]", "[]"},       // a scope of no building
	} {
		what := fmt.Sprintf("buildings %q", c.buildings)
		f := store.AlertFilter{Account: "a", Buildings: c.buildings}
		alerts, err := s.FindAlerts(ctx, f)
		if got := fmt.Sprint(alertIDs(alerts)); err != nil || got != c.alerts {
			t.Errorf("%s: FindAlerts = %s, %v; want %s", what, got, err, c.alerts)
		}
		f.Status = domain.AlertOpen
		if alerts, err := s.FindAlerts(ctx, f); err != nil || fmt.Sprint(alertIDs(alerts)) != c.alerts {
			t.Errorf("%s: open alerts = %s, %v; want %s", what, fmt.Sprint(alertIDs(alerts)), err, c.alerts)
		}
		if n, err := s.CountAlerts(ctx, f); err != nil || n != len(alerts) {
			t.Errorf("%s: CountAlerts = %d, %v; want %d", what, n, err, len(alerts))
		}
		devices, err := s.FindDevices(ctx, store.DeviceFilter{Account: "a", Buildings: c.buildings})
		var macs []string
		for _, d := range devices {
			macs = append(macs, d.MAC)
		}
		if err != nil || fmt.Sprint(macs) != c.devices {
			t.Errorf("%s: FindDevices = %v, %v; want %s", what, macs, err, c.devices)
		}
		locs, err := s.SearchLocations(ctx, "a", "sink", c.buildings, 10)
		var got []string
		for _, l := range locs {
			got = append(got, l.ID)
		}
		if err != nil || fmt.Sprint(got) != c.sink {
			t.Errorf("%s: search for sink = %v, %v; want %s", what, got, err, c.sink)
		}
	}
	// A visitor's report of the Annex's restroom is claimed like an alert.
	report, err := s.AddVisitorReport(ctx, "a", domain.VisitorReport{RoomID: "a-r3", Kind: domain.VisitorNoSoap, Created: t0}, 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []domain.Claim{{AlertID: "x1", Name: "Maria", At: t0}, {AlertID: "x5", Name: "Ali", At: t0},
		{AlertID: domain.VisitorAlertID(report), Name: "Noor", At: t0.Add(time.Minute)}} {
		if err := s.ClaimAlert(ctx, "a", c); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		buildings []string
		want      string
	}{{nil, "[Maria Ali Noor]"}, {[]string{"a-b2"}, "[Ali Noor]"}, {[]string{"a-b1"}, "[Maria]"}, {[]string{"b-b1"}, "[]"}, {[]string{}, "[]"}} {
		claims, err := s.ClaimsDuring(ctx, "a", t0.Add(-time.Hour), t0.Add(time.Hour), c.buildings, 10)
		names := []string{}
		for _, cl := range claims {
			names = append(names, cl.Name)
		}
		if err != nil || fmt.Sprint(names) != c.want {
			t.Errorf("claims of buildings %q = %v, %v; want %s", c.buildings, names, err, c.want)
		}
	}
	// The scope narrows the other choices of a filter, and is not widened by them.
	if alerts, err := s.FindAlerts(ctx, store.AlertFilter{Account: "a", Buildings: []string{"a-b2"}, BuildingID: "a-b1"}); err != nil || len(alerts) != 0 {
		t.Errorf("building a-b1 within a scope of a-b2 = %s, %v; want none", fmt.Sprint(alertIDs(alerts)), err)
	}
	if ds, err := s.FindDevices(ctx, store.DeviceFilter{Account: "a", Buildings: []string{"a-b2"}, LocationID: "a-1"}); err != nil || len(ds) != 0 {
		t.Errorf("location a-1 within a scope of a-b2 = %d devices, %v; want none", len(ds), err)
	}
	totals, err := s.RefillTotals(ctx, store.AlertFilter{Account: "a", Buildings: []string{"a-b2"}})
	if err != nil || len(totals) != 1 || totals[0].Building != "Annex" {
		t.Errorf("refill totals of a-b2 = %+v, %v; want the Annex's alone", totals, err)
	}
}
