package storetest

import (
	"reflect"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// testServiceRecord: the "done" reports, claims and door scans of a room, or of a
// scope's buildings, are read newest first with their alerts' places and
// types, bounded, of the span and the account alone; a claim that took
// another over names its holder; a scope of no building reads nothing.
func testServiceRecord(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	l := testLayout("a", false)
	l.Buildings = append(l.Buildings, domain.Building{ID: "a-b2", Name: "Annex"})
	l.Floors = append(l.Floors, domain.Floor{ID: "a-f3", BuildingID: "a-b2", Name: "Ground"})
	l.Rooms = append(l.Rooms, domain.Room{ID: "a-r3", FloorID: "a-f3", Name: "Annex Restroom"})
	l.Locations = append(l.Locations, domain.Location{ID: "a-5", RoomID: "a-r3", Name: "Sink", Type: domain.Soap})
	mustReplaceLayout(t, s, l)
	mustReplaceLayout(t, s, testLayout("b", false))
	battery := alert("x2", "a-3", t0, true, false)
	battery.Type = domain.AlertBatteryOut
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{alert("x1", "a-1", t0, true, false), battery, alert("x3", "a-5", t0, true, false)}, SeenAt: t0})
	mustApplyAlerts(t, s, "b", store.AlertWrite{Upserts: []domain.Alert{alert("x1", "b-1", t0, true, false)}, SeenAt: t0})

	report := func(alertID, name string, outcome domain.Outcome, minutes int) domain.DoneReport {
		return domain.DoneReport{AlertID: alertID, PersonID: "p-" + name, Name: name, Outcome: outcome, At: t0.Add(time.Duration(minutes) * time.Minute)}
	}
	ana, ben, cy := report("x1", "Ana", domain.Refilled, 10), report("x2", "Ben", domain.BatteriesChanged, 20), report("x3", "Cy", domain.Refilled, 30)
	for i, r := range []domain.DoneReport{ana, ben, cy} {
		if added, err := s.AddDoneReport(ctx, "a", r, "key-"+r.Name, time.Time{}); !added || err != nil {
			t.Fatalf("report %d: %v, %v", i, added, err)
		}
	}
	if added, err := s.AddDoneReport(ctx, "b", report("x1", "Dee", domain.Refilled, 15), "key-Dee", time.Time{}); !added || err != nil {
		t.Fatalf("account b's report: %v, %v", added, err)
	}
	placedAna := store.PlacedDoneReport{DoneReport: ana, LocationID: "a-1", RoomID: "a-r1", Type: domain.AlertConsumableOut}
	placedBen := store.PlacedDoneReport{DoneReport: ben, LocationID: "a-3", RoomID: "a-r2", Type: domain.AlertBatteryOut}
	placedCy := store.PlacedDoneReport{DoneReport: cy, LocationID: "a-5", RoomID: "a-r3", Type: domain.AlertConsumableOut}
	hour := store.ServiceFilter{Account: "a", From: t0, To: t0.Add(time.Hour), Limit: 10}
	for _, c := range []struct {
		name string
		f    func(store.ServiceFilter) store.ServiceFilter
		want []store.PlacedDoneReport
	}{
		{"every room", func(f store.ServiceFilter) store.ServiceFilter { return f }, []store.PlacedDoneReport{placedCy, placedBen, placedAna}},
		{"one room", func(f store.ServiceFilter) store.ServiceFilter { f.RoomID = "a-r1"; return f }, []store.PlacedDoneReport{placedAna}},
		{"North Tower", func(f store.ServiceFilter) store.ServiceFilter { f.Buildings = []string{"a-b1"}; return f }, []store.PlacedDoneReport{placedBen, placedAna}},
		{"a room outside the buildings", func(f store.ServiceFilter) store.ServiceFilter {
			f.Buildings, f.RoomID = []string{"a-b1"}, "a-r3"
			return f
		}, nil},
		{"no building", func(f store.ServiceFilter) store.ServiceFilter { f.Buildings = []string{}; return f }, nil},
		{"the newest alone", func(f store.ServiceFilter) store.ServiceFilter { f.Limit = 1; return f }, []store.PlacedDoneReport{placedCy}},
		{"a span that ends at Ben's", func(f store.ServiceFilter) store.ServiceFilter { f.To = ben.At; return f }, []store.PlacedDoneReport{placedAna}},
	} {
		got, err := s.DoneReportsIn(ctx, c.f(hour))
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("done reports of %s = %+v, %v;\nwant %+v", c.name, got, err, c.want)
		}
	}
	if got, err := s.DoneReportsIn(ctx, store.ServiceFilter{Account: "b", From: t0, To: t0.Add(time.Hour), Limit: 10}); err != nil || len(got) != 1 || got[0].Name != "Dee" {
		t.Errorf("account b's done reports = %+v, %v; want Dee's alone", got, err)
	}
	if _, err := s.DoneReportsIn(ctx, store.ServiceFilter{Account: "a", From: t0, To: t0.Add(time.Hour)}); err == nil {
		t.Error("a read without a limit was not refused")
	}

	// Ana is on x1, then Ben takes it over; Cy is on x3 in the Annex.
	onAna := domain.Claim{AlertID: "x1", PersonID: "p-Ana", Name: "Ana", At: t0.Add(5 * time.Minute)}
	onBen := domain.Claim{AlertID: "x1", PersonID: "p-Ben", Name: "Ben", Note: "on my way", At: t0.Add(8 * time.Minute)}
	onCy := domain.Claim{AlertID: "x3", Name: "Cy", At: t0.Add(9 * time.Minute)}
	for _, c := range []domain.Claim{onAna, onBen, onCy} {
		mustClaim(t, s, "a", c)
	}
	placedOnBen := store.PlacedClaim{Claim: onBen, LocationID: "a-1", RoomID: "a-r1", Type: domain.AlertConsumableOut, TookOver: "Ana"}
	placedOnAna := store.PlacedClaim{Claim: ended(onAna, onBen.At, domain.ClaimHanded), LocationID: "a-1", RoomID: "a-r1", Type: domain.AlertConsumableOut}
	placedOnCy := store.PlacedClaim{Claim: onCy, LocationID: "a-5", RoomID: "a-r3", Type: domain.AlertConsumableOut}
	for _, c := range []struct {
		name string
		f    store.ServiceFilter
		want []store.PlacedClaim
	}{
		{"every room", hour, []store.PlacedClaim{placedOnCy, placedOnBen, placedOnAna}},
		{"one room", store.ServiceFilter{Account: "a", RoomID: "a-r1", From: t0, To: t0.Add(time.Hour), Limit: 10}, []store.PlacedClaim{placedOnBen, placedOnAna}},
		{"the Annex", store.ServiceFilter{Account: "a", Buildings: []string{"a-b2"}, From: t0, To: t0.Add(time.Hour), Limit: 10}, []store.PlacedClaim{placedOnCy}},
		{"no building", store.ServiceFilter{Account: "a", Buildings: []string{}, From: t0, To: t0.Add(time.Hour), Limit: 10}, nil},
		{"the newest two", store.ServiceFilter{Account: "a", From: t0, To: t0.Add(time.Hour), Limit: 2}, []store.PlacedClaim{placedOnCy, placedOnBen}},
		{"a span that begins after Ana's", store.ServiceFilter{Account: "a", From: onAna.At.Add(time.Second), To: onCy.At, Limit: 10}, []store.PlacedClaim{placedOnBen}},
		{"account b", store.ServiceFilter{Account: "b", From: t0, To: t0.Add(time.Hour), Limit: 10}, nil},
	} {
		got, err := s.ClaimsIn(ctx, c.f)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("claims of %s = %+v, %v;\nwant %+v", c.name, got, err, c.want)
		}
	}

	// Ana scans the Restroom's code, then the Annex's; Ben scans a room
	// of account b.
	scanAna1 := domain.PresenceScan{RoomID: "a-r1", PersonID: "p-Ana", Name: "Ana", At: t0.Add(11 * time.Minute)}
	scanAna3 := domain.PresenceScan{RoomID: "a-r3", PersonID: "p-Ana", Name: "Ana", At: t0.Add(12 * time.Minute)}
	for _, sc := range []domain.PresenceScan{scanAna1, scanAna3} {
		if added, err := s.AddPresenceScan(ctx, "a", sc, 100); !added || err != nil {
			t.Fatalf("scan of %s: %v, %v", sc.RoomID, added, err)
		}
	}
	if added, err := s.AddPresenceScan(ctx, "b", domain.PresenceScan{RoomID: "b-r1", PersonID: "p-Ben", Name: "Ben", At: t0.Add(11 * time.Minute)}, 100); !added || err != nil {
		t.Fatalf("account b's scan: %v, %v", added, err)
	}
	for _, c := range []struct {
		name string
		f    store.ServiceFilter
		want []domain.PresenceScan
	}{
		{"every room", hour, []domain.PresenceScan{scanAna3, scanAna1}},
		{"one room", store.ServiceFilter{Account: "a", RoomID: "a-r1", From: t0, To: t0.Add(time.Hour), Limit: 10}, []domain.PresenceScan{scanAna1}},
		{"the Annex", store.ServiceFilter{Account: "a", Buildings: []string{"a-b2"}, From: t0, To: t0.Add(time.Hour), Limit: 10}, []domain.PresenceScan{scanAna3}},
		{"a room outside the buildings", store.ServiceFilter{Account: "a", Buildings: []string{"a-b1"}, RoomID: "a-r3", From: t0, To: t0.Add(time.Hour), Limit: 10}, nil},
		{"no building", store.ServiceFilter{Account: "a", Buildings: []string{}, From: t0, To: t0.Add(time.Hour), Limit: 10}, nil},
		{"the newest alone", store.ServiceFilter{Account: "a", From: t0, To: t0.Add(time.Hour), Limit: 1}, []domain.PresenceScan{scanAna3}},
		{"a span that ends at the Annex's", store.ServiceFilter{Account: "a", From: t0, To: scanAna3.At, Limit: 10}, []domain.PresenceScan{scanAna1}},
	} {
		got, err := s.PresenceScansIn(ctx, c.f)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("scans of %s = %+v, %v;\nwant %+v", c.name, got, err, c.want)
		}
	}
	if _, err := s.PresenceScansIn(ctx, store.ServiceFilter{Account: "a", From: t0, To: t0.Add(time.Hour)}); err == nil {
		t.Error("a read of scans without a limit was not refused")
	}
}
