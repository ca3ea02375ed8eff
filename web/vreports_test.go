package web

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/upstream"
)

// visitorReportIn has a visitor report kind in the room of the code, and
// returns its alert id.
func (a *app) visitorReportIn(code sheetCode, kind domain.VisitorKind) string {
	a.t.Helper()
	v := a.browser()
	if r := v.post(code.path, v.visitorForm(code.path, url.Values{"kind": {string(kind)}})); r.StatusCode != http.StatusOK {
		a.t.Fatalf("a visitor's report: %d\n%s", r.StatusCode, r.text(a.t))
	}
	rs := a.visitorReports()
	return domain.VisitorAlertID(rs[len(rs)-1].ID)
}

// A visitor's report shows beside the service's alerts, said to be a
// visitor's in words: on the alerts page, its CSV, the room's and
// floor's pages and "My work"; it is claimed, and "done" closes it.
func TestAVisitorsReportIsAnAlertOnThePages(t *testing.T) {
	t.Parallel()
	a := newAppOf(t, Config{}, 10)
	a.browser().signIn(credA)
	sup := a.browserAs(domain.Supervisor, "Sue")
	code := sup.roomCodes(a.firstFloor())[0]
	id := a.visitorReportIn(code, domain.VisitorDirty)

	row := sup.get("/alerts").doc(t).Find(`a[href^="/alerts/` + id + `/claim"]`).Closest("tr")
	if got := strings.Join(strings.Fields(row.Text()), " "); !strings.Contains(got, "Reported by a visitor: Dirty") || !strings.Contains(got, code.name) ||
		row.Find(`use[href$="#person"]`).Length() == 0 {
		t.Errorf("the alerts page's row of the visitor's report: %q", got)
	}
	if got := sup.get("/alerts?type=visitor_report").doc(t).Find("tbody tr").Length(); got != 1 {
		t.Errorf("the alerts page of visitors' reports has %d rows; want 1", got)
	}
	if csv := sup.get("/alerts.csv").body; !strings.Contains(csv, id+",open,visitor_report,") || !strings.Contains(csv, ",visitor,dirty,") {
		t.Errorf("alerts.csv has no row of the visitor's report:\n%s", csv)
	}
	for _, page := range []string{"/rooms/" + code.id, "/floors/" + a.firstFloor()} {
		if got := sup.get(page).doc(t).Find(".visitor-alerts").Text(); !strings.Contains(got, "Reported by visitors") || !strings.Contains(got, "Dirty") {
			t.Errorf("%s says of the visitor's report %q", page, strings.Join(strings.Fields(got), " "))
		}
	}

	maria := a.browserAs(domain.Staff, "Maria")
	page := maria.get("/my")
	item := "alert-" + id
	if got := strings.Join(strings.Fields(page.doc(t).Find("#"+item).Text()), " "); !strings.Contains(got, "Reported by a visitor: Dirty") {
		t.Fatalf("My work's item of the report says %q", got)
	}
	claimPath, claimForm := myForm(t, page, item, "claim")
	if r := maria.post(claimPath, claimForm); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("I'm on it: %d\n%s", r.StatusCode, r.body)
	}
	if got := a.claimName(id); got != "Maria" {
		t.Errorf("the report's claim is in the name %q; want Maria", got)
	}
	if got := sup.get("/alerts/" + id + "/claim"); got.StatusCode != http.StatusOK || !strings.Contains(got.text(t), "Maria") {
		t.Errorf("the claim page of the report: %d", got.StatusCode)
	}
	donePath, doneForm := myForm(t, page, item, "done")
	doneForm.Set("outcome", string(domain.FaultCleared))
	if r := maria.post(donePath, doneForm); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("done: %d\n%s", r.StatusCode, r.body)
	}
	rs := a.visitorReports()
	if r := rs[len(rs)-1]; r.ClosedBy != domain.ClosedDone {
		t.Errorf("after done, the report = %+v; want closed by done", r)
	}
	if got := sup.get("/alerts").doc(t).Find(`a[href^="/alerts/` + id + `/claim"]`).Length(); got != 0 {
		t.Error("the report done is still on the alerts page")
	}
	if r := sup.get("/alerts/" + id + "/claim"); r.StatusCode != http.StatusNotFound {
		t.Errorf("the claim page of the report done: %d; want 404", r.StatusCode)
	}
}

// The service's refill of a room's dispenser closes a visitor's report
// of it being out; a report of something else stays open.
func TestTheServicesRefillClosesAVisitorsReport(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	a.browser().signIn(credA)
	sup := a.browserAs(domain.Supervisor, "Sue")
	account := a.accountOf(false)
	ctx := context.Background()
	alerts, err := a.store.FindAlerts(ctx, store.AlertFilter{Account: account, Status: domain.AlertOpen, Type: domain.AlertConsumableOut})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[domain.DeviceType]domain.VisitorKind{domain.Soap: domain.VisitorNoSoap, domain.Towel: domain.VisitorNoTowels, domain.Tissue: domain.VisitorNoPaper}
	for _, al := range alerts {
		l, err := a.store.Location(ctx, account, al.LocationID)
		kind, ok := kinds[l.Type]
		if err != nil || !ok {
			continue
		}
		r, err := a.store.Room(ctx, account, l.RoomID)
		if err != nil {
			t.Fatal(err)
		}
		var code sheetCode
		for _, c := range sup.roomCodes(r.FloorID) {
			if c.id == r.ID {
				code = c
			}
		}
		out := a.visitorReportIn(code, kind)
		dirty := a.visitorReportIn(code, domain.VisitorDirty)
		refill := upstream.Alert{ID: al.ID, LocationID: al.LocationID, MacIDs: al.MACs, Status: upstream.StatusClosed,
			Type: string(al.Type), Created: al.Created, Resolved: a.clock.Now(), ResolutionType: upstream.ResolvedByDevice, RefillCount: al.RefillCount}
		if _, err := a.engine.ApplyAlerts(ctx, account, []upstream.Alert{refill}); err != nil {
			t.Fatal(err)
		}
		doc := sup.get("/alerts").doc(t)
		if doc.Find(`a[href^="/alerts/`+out+`/claim"]`).Length() != 0 || doc.Find(`a[href^="/alerts/`+dirty+`/claim"]`).Length() != 1 {
			t.Errorf("after the refill, the report of %s is listed: %v; the dirty one: %v", kind,
				doc.Find(`a[href^="/alerts/`+out+`/claim"]`).Length() != 0, doc.Find(`a[href^="/alerts/`+dirty+`/claim"]`).Length() == 1)
		}
		for _, r := range a.visitorReports() {
			if domain.VisitorAlertID(r.ID) == out && r.ClosedBy != domain.ClosedService {
				t.Errorf("the report of %s after the refill = %+v; want closed by the service", kind, r)
			}
		}
		return
	}
	t.Fatal("no open consumable_out alert of a dispenser a visitor can say is out")
}

// What visitors rate a room shows on its page, by week, and on the
// trends page, among the rooms rated lowest.
func TestRatingsShowOnTheRoomsPageAndTheTrends(t *testing.T) {
	t.Parallel()
	a := newAppOf(t, Config{}, 10)
	a.browser().signIn(credA)
	sup := a.browserAs(domain.Supervisor, "Sue")
	code := sup.roomCodes(a.firstFloor())[0]
	if got := sup.get("/rooms/" + code.id).doc(t).Find(".ratings .empty").Text(); got != "No ratings from visitors in this time." {
		t.Errorf("the room's page, unrated, says %q", got)
	}
	for i, rating := range []string{"2", "4"} {
		v := a.browser()
		f := v.visitorForm(code.path, url.Values{"rating": {rating}})
		if i == 1 {
			f.Set("kind", string(domain.VisitorDirty))
		}
		if r := v.post(code.path, f); r.StatusCode != http.StatusOK {
			t.Fatalf("a rating: %d", r.StatusCode)
		}
	}
	doc := sup.get("/rooms/" + code.id).doc(t)
	if got := strings.Join(strings.Fields(doc.Find(".ratings").Text()), " "); !strings.Contains(got, "3.0 of 5 on average, from 2 ratings") ||
		!strings.Contains(got, "Week of ") || doc.Find(".rating-weeks meter").Length() != 1 {
		t.Errorf("the room's page says of its ratings %q", got)
	}
	lowest := sup.get("/trends").doc(t).Find(".rating-lowest li").First()
	if got := strings.Join(strings.Fields(lowest.Text()), " "); !strings.Contains(got, code.name) || !strings.Contains(got, "3.0 of 5 (2 ratings)") {
		t.Errorf("the trends' rooms rated lowest begin with %q", got)
	}
}

// The client report says what visitors rated the buildings of its scope
// in the period: on its page and in its CSV.
func TestTheClientReportSaysWhatVisitorsRated(t *testing.T) {
	t.Parallel()
	a := newAppOf(t, Config{}, 10)
	a.browser().signIn(credA)
	sup := a.browserAs(domain.Supervisor, "Sue")
	code := sup.roomCodes(a.firstFloor())[0]
	v := a.browser()
	if r := v.post(code.path, v.visitorForm(code.path, url.Values{"rating": {"2"}})); r.StatusCode != http.StatusOK {
		t.Fatalf("a rating: %d", r.StatusCode)
	}
	month := "month=" + a.clock.Now().In(a.cfg.Zone).Format("2006-01")
	got := strings.Join(strings.Fields(sup.get("/reports/client?"+month).doc(t).Find("#client-ratings-heading").Closest("section").Text()), " ")
	if !strings.Contains(got, "2.0 of 5 on average, from 1 rating") || !strings.Contains(got, code.name) {
		t.Errorf("the client report's ratings say %q", got)
	}
	csv := sup.get("/reports/client.csv?" + month).body
	if !strings.Contains(strings.SplitN(csv, "\n", 2)[0], ",visitor_ratings,visitor_rating_average") || !strings.Contains(csv, ",1,2.00") {
		t.Errorf("the client report's CSV:\n%s", csv)
	}
}

// A supervisor closes a visitor's report by hand from its claim page;
// staff are not offered to, and are refused.
func TestASupervisorClosesAVisitorsReport(t *testing.T) {
	t.Parallel()
	a := newAppOf(t, Config{}, 10)
	a.browser().signIn(credA)
	sup := a.browserAs(domain.Supervisor, "Sue")
	staff := a.browserAs(domain.Staff, "Sid")
	code := sup.roomCodes(a.firstFloor())[0]
	id := a.visitorReportIn(code, domain.VisitorBroken)
	claim, closePath := "/alerts/"+id+"/claim", "/alerts/"+id+"/close"
	if staff.get(claim).doc(t).Find(`form[action="`+closePath+`"]`).Length() != 0 {
		t.Error("staff are offered to close the report")
	}
	if r := staff.post(closePath, url.Values{"csrf_token": {staff.pageCSRF(claim)}}); r.StatusCode != http.StatusForbidden {
		t.Errorf("staff closing the report: %d; want 403", r.StatusCode)
	}
	if got := sup.get(claim).doc(t).Find(`form[action="` + closePath + `"] button`).Text(); got != "Close the report" {
		t.Errorf("the supervisor's claim page offers %q", got)
	}
	if r := sup.post(closePath, url.Values{"csrf_token": {sup.pageCSRF(claim)}, "back": {"/alerts"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("closing the report: %d\n%s", r.StatusCode, r.body)
	}
	rs := a.visitorReports()
	if r := rs[len(rs)-1]; r.ClosedBy != domain.ClosedPerson {
		t.Errorf("the report closed by hand = %+v", r)
	}
}
