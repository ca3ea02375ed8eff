package dashboard

import (
	"context"
	"errors"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// addReport keeps a visitor's report of the room, made at at.
func addReport(t *testing.T, st store.Store, room string, kind domain.VisitorKind, rating int, at time.Time) string {
	t.Helper()
	id, err := st.AddVisitorReport(context.Background(), "acme", domain.VisitorReport{RoomID: room, Kind: kind, Rating: rating, Created: at}, 0)
	if err != nil {
		t.Fatal(err)
	}
	return domain.VisitorAlertID(id)
}

func idsOf(alerts []domain.Alert) []string {
	out := make([]string, len(alerts))
	for i, a := range alerts {
		out[i] = a.ID
	}
	return out
}

// visitorReport reads a report back by its alert id.
func visitorReport(t *testing.T, st store.Store, alertID string) domain.VisitorReport {
	t.Helper()
	id, _ := domain.VisitorReportID(alertID)
	rs, err := st.VisitorReports(context.Background(), "acme", store.VisitorReportFilter{ID: id})
	if err != nil || len(rs) != 1 {
		t.Fatalf("report %s: %v, %v", alertID, rs, err)
	}
	return rs[0]
}

// A visitor's report is an alert of its own beside the service's, first,
// on the alerts page, its export and "My work", of the buildings the
// person sees; a rating alone is none.
func TestVisitorsReportsAreAlertsBesideTheServices(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	s, st := twoBuildings(t, now)
	north := addReport(t, st, "r1", domain.VisitorNoTowels, 0, now.Add(-10*time.Minute))
	annex := addReport(t, st, "r2", domain.VisitorDirty, 2, now.Add(-5*time.Minute))
	addReport(t, st, "r1", domain.VisitorRatingOnly, 5, now.Add(-time.Minute))

	page, err := s.Alerts(ctx, domain.EveryBuilding(), AlertsQuery{AlertFilter: AlertFilter{Account: "acme", Status: domain.AlertOpen}}, 50)
	if err != nil {
		t.Fatal(err)
	}
	if got := idsOf(page.Alerts.Alerts); page.Total != 4 || len(got) != 4 || got[0] != north || got[1] != annex {
		t.Fatalf("alerts page = %v of %d, want %s and %s first of 4", got, page.Total, north, annex)
	}
	v := page.Alerts.Alerts[0]
	if v.Type != domain.AlertVisitor || v.Visitor == nil || v.Visitor.Kind != domain.VisitorNoTowels || page.Alerts.Places.Where(v.Visitor.RoomID) != "North › Ground › Restroom" {
		t.Errorf("visitor's alert = %+v, where %q", v, page.Alerts.Places.Where(v.Visitor.RoomID))
	}

	north1 := domain.OnlyBuildings("b1")
	page, err = s.Alerts(ctx, north1, AlertsQuery{AlertFilter: AlertFilter{Account: "acme"}}, 50)
	if err != nil {
		t.Fatal(err)
	}
	if got := idsOf(page.Alerts.Alerts); page.Total != 2 || len(got) != 2 || got[0] != north {
		t.Errorf("North's alerts = %v of %d, want %s and a1", got, page.Total, north)
	}
	noAnnex(t, "the alerts page of North", page)

	for _, f := range []AlertFilter{
		{Account: "acme", Type: domain.AlertConsumableOut}, {Account: "acme", Status: domain.AlertClosed},
		{Account: "acme", LocationID: "l1"}, {Account: "acme", RoomID: "r2", BuildingID: "b1"},
	} {
		if page, err = s.Alerts(ctx, domain.EveryBuilding(), AlertsQuery{AlertFilter: f}, 50); err != nil {
			t.Fatal(err)
		}
		for _, a := range page.Alerts.Alerts {
			if a.Visitor != nil {
				t.Errorf("filter %+v lists the visitor's alert %s", f, a.ID)
			}
		}
	}
	page, err = s.Alerts(ctx, domain.EveryBuilding(), AlertsQuery{AlertFilter: AlertFilter{Account: "acme", Type: domain.AlertVisitor, RoomID: "r2"}}, 50)
	if err != nil {
		t.Fatal(err)
	}
	if got := idsOf(page.Alerts.Alerts); len(got) != 1 || got[0] != annex {
		t.Errorf("the visitors' alerts of r2 = %v, want %s", got, annex)
	}

	all, err := s.AllAlerts(ctx, north1, AlertsQuery{AlertFilter: AlertFilter{Account: "acme"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := idsOf(all.Alerts); len(got) != 2 || got[0] != north {
		t.Errorf("North's export = %v", got)
	}

	w, err := s.MyWork(ctx, "acme", north1, "", time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, it := range w.Open {
		if it.Alert.ID == north {
			found = it.Room == "Restroom" && it.Building == "North"
		}
	}
	if !found {
		t.Errorf("My work of North = %+v, want %s in the Restroom", w.Open, north)
	}
	noAnnex(t, "My work of North", w)
}

// A visitor's alert is claimed, handed over and released as the
// service's; "done" closes it (but "could not fix"); a person of another
// building can do none of it.
func TestAVisitorsAlertIsClaimedAndDone(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	s, st := twoBuildings(t, now)
	id := addReport(t, st, "r1", domain.VisitorDirty, 0, now.Add(-10*time.Minute))

	if _, err := s.Claim(ctx, "acme", domain.OnlyBuildings("b2"), id, NewClaim{Name: "Annex Anna"}); !errors.Is(err, ErrNoOpenAlert) {
		t.Errorf("a claim from the other building = %v, want ErrNoOpenAlert", err)
	}
	if _, err := s.Claim(ctx, "acme", domain.OnlyBuildings("b1"), id, NewClaim{Name: "Maria", Note: "on my way"}); err != nil {
		t.Fatal(err)
	}
	v, err := s.ClaimOf(ctx, "acme", domain.EveryBuilding(), id)
	if err != nil {
		t.Fatal(err)
	}
	if v.Claim.Name != "Maria" || v.Alert.Visitor == nil || v.Building().Name != "North" {
		t.Errorf("claim page = %+v", v)
	}
	if _, err := s.Claim(ctx, "acme", domain.EveryBuilding(), id, NewClaim{Name: "Jo"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Release(ctx, "acme", domain.EveryBuilding(), id); err != nil {
		t.Fatal(err)
	}
	if claims, _ := st.ActiveClaims(ctx, "acme"); claims[id].Name != "" {
		t.Errorf("after release, %s is claimed by %q", id, claims[id].Name)
	}
	if _, err := s.Claim(ctx, "acme", domain.EveryBuilding(), id, NewClaim{Name: "Maria"}); err != nil {
		t.Fatal(err)
	}

	if _, err := s.MarkDone(ctx, "acme", domain.EveryBuilding(), id, NewDone{Name: "Maria", Outcome: domain.CouldNotFix, Reason: "no key to the room", Key: "key-could-not-fix-0001"}); err != nil {
		t.Fatal(err)
	}
	if r := visitorReport(t, st, id); !r.Open() {
		t.Errorf("'could not fix' closed the report: %+v", r)
	}
	if _, err := s.MarkDone(ctx, "acme", domain.OnlyBuildings("b2"), id, NewDone{Name: "Annex Anna", Outcome: domain.FaultCleared, Key: "key-annex-done-000001"}); !errors.Is(err, ErrNoOpenAlert) {
		t.Errorf("done from the other building = %v, want ErrNoOpenAlert", err)
	}
	if _, err := s.MarkDone(ctx, "acme", domain.EveryBuilding(), id, NewDone{Name: "Maria", Outcome: domain.FaultCleared, Key: "key-done-0000000001"}); err != nil {
		t.Fatal(err)
	}
	if r := visitorReport(t, st, id); r.Open() || r.ClosedBy != domain.ClosedDone || !r.Closed.Equal(now) {
		t.Errorf("after done, the report = %+v, want closed by done at %v", r, now)
	}
	if claims, _ := st.ActiveClaims(ctx, "acme"); claims[id].Name != "" {
		t.Errorf("after done, %s is still claimed by %q", id, claims[id].Name)
	}
	if _, err := s.ClaimOf(ctx, "acme", domain.EveryBuilding(), id); !errors.Is(err, ErrNoOpenAlert) {
		t.Errorf("claim page of a report done = %v, want ErrNoOpenAlert", err)
	}
}

// A report open a day closes by itself, as expired, and is no longer
// listed; a supervisor may close one by hand.
func TestVisitorsReportsExpireOrAreClosedByHand(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	s, st := twoBuildings(t, now)
	old := addReport(t, st, "r1", domain.VisitorBroken, 0, now.Add(-domain.VisitorReportsOpenFor-time.Minute))
	young := addReport(t, st, "r1", domain.VisitorBroken, 0, now.Add(-domain.VisitorReportsOpenFor+time.Minute))
	page, err := s.Alerts(ctx, domain.EveryBuilding(), AlertsQuery{AlertFilter: AlertFilter{Account: "acme", Type: domain.AlertVisitor}}, 50)
	if err != nil {
		t.Fatal(err)
	}
	if got := idsOf(page.Alerts.Alerts); len(got) != 1 || got[0] != young {
		t.Errorf("visitors' alerts = %v, want %s alone", got, young)
	}
	if r := visitorReport(t, st, old); r.ClosedBy != domain.ClosedExpired || !r.Closed.Equal(r.Created.Add(domain.VisitorReportsOpenFor)) {
		t.Errorf("the report a day old = %+v, want expired a day after it was made", r)
	}
	if err := s.CloseVisitorAlert(ctx, "acme", domain.OnlyBuildings("b2"), young); !errors.Is(err, ErrNoOpenAlert) {
		t.Errorf("closing from the other building = %v, want ErrNoOpenAlert", err)
	}
	if err := s.CloseVisitorAlert(ctx, "acme", domain.EveryBuilding(), young); err != nil {
		t.Fatal(err)
	}
	if r := visitorReport(t, st, young); r.ClosedBy != domain.ClosedPerson {
		t.Errorf("the report closed by hand = %+v", r)
	}
}

// The refill the service reports closes the reports of what that
// dispenser gives, made before it, in its room: not the others.
func TestARefillClosesTheVisitorsReportOfIt(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	s, st := twoBuildings(t, now)
	towels := addReport(t, st, "r1", domain.VisitorNoTowels, 0, now.Add(-30*time.Minute))
	soap := addReport(t, st, "r1", domain.VisitorNoSoap, 0, now.Add(-30*time.Minute))
	dirty := addReport(t, st, "r1", domain.VisitorDirty, 0, now.Add(-30*time.Minute))
	annex := addReport(t, st, "r2", domain.VisitorNoTowels, 0, now.Add(-30*time.Minute))
	later := addReport(t, st, "r1", domain.VisitorNoTowels, 0, now.Add(time.Minute))
	if _, err := s.Claim(ctx, "acme", domain.EveryBuilding(), towels, NewClaim{Name: "Maria"}); err != nil {
		t.Fatal(err)
	}
	refill := domain.Alert{ID: "a1", LocationID: "l1", MACs: []string{"0000000000A1"}, Status: domain.AlertClosed, Type: domain.AlertConsumableOut,
		Created: now.Add(-time.Hour), Resolved: now, Resolution: domain.ResolvedByDevice, RefillCount: 1}
	if _, err := st.ApplyAlertEvents(ctx, "acme", []domain.Alert{refill}, now); err != nil {
		t.Fatal(err)
	}
	if r := visitorReport(t, st, towels); r.ClosedBy != domain.ClosedService || !r.Closed.Equal(now) {
		t.Errorf("the towels' report = %+v, want closed by the service's refill at %v", r, now)
	}
	for _, id := range []string{soap, dirty, annex, later} {
		if r := visitorReport(t, st, id); !r.Open() {
			t.Errorf("the report %s (%s of %s) closed with the towels' refill of r1", id, r.Kind, r.RoomID)
		}
	}
	if claims, _ := st.ActiveClaims(ctx, "acme"); claims[towels].Name != "" {
		t.Errorf("the claim on the report the refill closed is still on")
	}
}
