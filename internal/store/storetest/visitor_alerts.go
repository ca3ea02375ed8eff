package storetest

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// testVisitorAlerts: a visitor's report that says something is wrong is
// claimed as an alert of the id "v-<id>" while it is open (a rating
// alone is not); a refresh of the service's alerts leaves its claims on;
// the refill of a dispenser (a consumable_out alert closed by it)
// closes, at its resolution, the open reports of its room made before
// it, of what it gives, and ends their claims; CloseVisitorReports
// closes the account's open reports only, once.
func testVisitorAlerts(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	mustReplaceLayout(t, s, testLayout("b", false))
	add := func(account, room string, kind domain.VisitorKind, rating int, at time.Time) int64 {
		t.Helper()
		id, err := s.AddVisitorReport(ctx, account, domain.VisitorReport{RoomID: room, Kind: kind, Rating: rating, Created: at}, 100)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	soap := add("a", "a-r1", domain.VisitorNoSoap, 0, t0)
	towels := add("a", "a-r1", domain.VisitorNoTowels, 0, t0)
	rating := add("a", "a-r1", domain.VisitorRatingOnly, 4, t0)
	soap2 := add("a", "a-r2", domain.VisitorNoSoap, 0, t0)
	later := add("a", "a-r1", domain.VisitorNoSoap, 0, t0.Add(3*time.Hour))
	other := add("b", "b-r1", domain.VisitorNoSoap, 0, t0)

	facts, err := s.FactsAfter(ctx, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var said []string
	for _, f := range facts {
		if f.Kind == store.FactVisitorReport {
			said = append(said, f.Account+" "+f.AlertID+" "+string(f.AlertType))
		}
	}
	if want := []string{"a " + domain.VisitorAlertID(soap) + " visitor_report", "a " + domain.VisitorAlertID(towels) + " visitor_report",
		"a " + domain.VisitorAlertID(soap2) + " visitor_report", "a " + domain.VisitorAlertID(later) + " visitor_report",
		"b " + domain.VisitorAlertID(other) + " visitor_report"}; !reflect.DeepEqual(said, want) {
		t.Errorf("the facts of the reports = %q; want %q (none of the rating alone)", said, want)
	}
	got, err := s.VisitorReports(ctx, "a", store.VisitorReportFilter{Problems: true, OpenOnly: true})
	if err != nil || len(got) != 4 {
		t.Errorf("open problems = %+v, %v; want the 4 reports but the rating", got, err)
	}
	if got, err := s.VisitorReports(ctx, "a", store.VisitorReportFilter{ID: towels}); err != nil || len(got) != 1 || got[0].Kind != domain.VisitorNoTowels {
		t.Errorf("the report %d = %+v, %v", towels, got, err)
	}

	for _, id := range []string{domain.VisitorAlertID(soap), domain.VisitorAlertID(towels)} {
		if err := s.ClaimAlert(ctx, "a", domain.Claim{AlertID: id, Name: "Maria", At: t0.Add(time.Minute)}); err != nil {
			t.Errorf("claim of %s: %v", id, err)
		}
	}
	for _, id := range []string{domain.VisitorAlertID(rating), domain.VisitorAlertID(other), "v-99999"} {
		if err := s.ClaimAlert(ctx, "a", domain.Claim{AlertID: id, Name: "Maria", At: t0.Add(time.Minute)}); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("claim of %s = %v, want not found", id, err)
		}
	}

	// The soap dispenser of a-r1 (location a-1) runs out, then is refilled.
	out := domain.Alert{ID: "soap-out", LocationID: "a-1", Status: domain.AlertOpen, Type: domain.AlertConsumableOut, Created: t0.Add(time.Hour)}
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{out}, SeenAt: t0.Add(time.Hour)})
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{out}, SeenAt: t0.Add(time.Hour)}) // the baseline is made: this one is compared
	if claims, err := s.ActiveClaims(ctx, "a"); err != nil || len(claims) != 2 {
		t.Errorf("after a refresh, the claims on visitors' alerts = %+v, %v; want both on", claims, err)
	}
	refilled := out
	refilled.Status, refilled.Resolved, refilled.Resolution = domain.AlertClosed, t0.Add(2*time.Hour), domain.ResolvedByDevice
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{refilled}, SeenAt: t0.Add(2 * time.Hour)})

	state := func(account string, id int64) domain.VisitorReport {
		t.Helper()
		rs, err := s.VisitorReports(ctx, account, store.VisitorReportFilter{ID: id})
		if err != nil || len(rs) != 1 {
			t.Fatalf("report %d of %s: %+v, %v", id, account, rs, err)
		}
		return rs[0]
	}
	if r := state("a", soap); r.ClosedBy != domain.ClosedService || !r.Closed.Equal(t0.Add(2*time.Hour)) {
		t.Errorf("the soap report after the refill = %+v; want closed by the service at the refill", r)
	}
	for _, c := range []struct {
		account string
		id      int64
	}{{"a", towels}, {"a", soap2}, {"a", later}, {"b", other}} {
		if r := state(c.account, c.id); !r.Open() {
			t.Errorf("report %d (%s of %s) closed by the soap refill of a-r1", c.id, r.Kind, r.RoomID)
		}
	}
	claims, err := s.ActiveClaims(ctx, "a")
	if _, on := claims[domain.VisitorAlertID(soap)]; err != nil || on || len(claims) != 1 {
		t.Errorf("claims after the refill = %+v, %v; want the towels' alone", claims, err)
	}

	at := t0.Add(4 * time.Hour)
	if n, err := s.CloseVisitorReports(ctx, "a", []int64{towels, soap, other}, at, domain.ClosedDone); err != nil || n != 1 {
		t.Errorf("closing towels, soap (closed) and b's = %d, %v; want 1", n, err)
	}
	if r := state("a", towels); r.ClosedBy != domain.ClosedDone || !r.Closed.Equal(at) {
		t.Errorf("the towels' report = %+v", r)
	}
	if r := state("b", other); !r.Open() {
		t.Errorf("a closed b's report %+v", r)
	}
	if claims, _ := s.ActiveClaims(ctx, "a"); len(claims) != 0 {
		t.Errorf("claims after closing = %+v; want none", claims)
	}
	if n, err := s.CloseVisitorReports(ctx, "a", []int64{towels}, at, domain.ClosedPerson); err != nil || n != 0 {
		t.Errorf("closing it again = %d, %v; want 0", n, err)
	}

	// The ratings of every room, in the period alone, oldest first.
	add("a", "a-r2", domain.VisitorRatingOnly, 2, t0.Add(time.Hour))
	add("a", "a-r1", domain.VisitorDirty, 1, t0.Add(5*time.Hour))
	add("b", "b-r1", domain.VisitorRatingOnly, 5, t0.Add(time.Hour))
	ratings, err := s.RatingsDuring(ctx, "a", t0, t0.Add(5*time.Hour))
	want := []domain.Rating{{RoomID: "a-r1", At: t0, Rating: 4}, {RoomID: "a-r2", At: t0.Add(time.Hour), Rating: 2}}
	if err != nil || len(ratings) != len(want) {
		t.Fatalf("ratings = %+v, %v; want %+v", ratings, err, want)
	}
	for i := range want {
		if ratings[i].RoomID != want[i].RoomID || !ratings[i].At.Equal(want[i].At) || ratings[i].Rating != want[i].Rating {
			t.Errorf("rating %d = %+v; want %+v", i, ratings[i], want[i])
		}
	}
}
