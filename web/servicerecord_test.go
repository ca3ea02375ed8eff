package web

import (
	"context"
	"encoding/csv"
	"net/http"
	"strings"
	"testing"
	"time"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/servicerecord"
	"washboard/internal/store"
)

// serviceVisit makes a visit of the first account: Ana Refill says she is
// on an open alert and reports it refilled. It returns the alert's room.
func (a *app) serviceVisit() string {
	a.t.Helper()
	ctx := context.Background()
	account := a.accountOf(false)
	alerts, err := a.store.FindAlerts(ctx, store.AlertFilter{Account: account, Status: domain.AlertOpen, Type: domain.AlertConsumableOut, Limit: 1})
	if err != nil || len(alerts) == 0 {
		a.t.Fatalf("no open alert: %v", err)
	}
	if _, err := a.deps.Dashboard.Claim(ctx, account, domain.EveryBuilding(), alerts[0].ID, dashboard.NewClaim{Name: "Ana Refill"}); err != nil {
		a.t.Fatal(err)
	}
	done := domain.DoneReport{AlertID: alerts[0].ID, Name: "Ana Refill", Outcome: domain.Refilled, At: a.clock.Now()}
	if _, err := a.store.AddDoneReport(ctx, account, done, "key-ana", time.Time{}); err != nil {
		a.t.Fatal(err)
	}
	loc, err := a.store.Location(ctx, account, alerts[0].LocationID)
	if err != nil {
		a.t.Fatal(err)
	}
	return loc.RoomID
}

// A room's page shows who was there and what they did, with its
// dispensers, and links to the record of a period, which shows it too,
// with its CSV: a row per visit and dispenser.
func TestARoomShowsItsServiceRecord(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	room := a.serviceVisit()

	page := b.get("/rooms/" + room)
	if page.StatusCode != http.StatusOK {
		t.Fatalf("the room's page = %d", page.StatusCode)
	}
	section := page.doc(t).Find(".service-record")
	text := strings.Join(strings.Fields(section.Text()), " ")
	if !strings.Contains(text, "Ana Refill") || !strings.Contains(text, "Refilled: Product out at") || !strings.Contains(text, "On it: Product out") {
		t.Errorf("the room's service record reads %q; want Ana's claim and refill", text)
	}
	if section.Find(".service-dispensers .service-level").Length() == 0 {
		t.Errorf("the room's service record shows no dispenser before and after: %q", text)
	}
	href := section.Find(".service-links a").First().AttrOr("href", "")
	if href != "/rooms/"+room+"/service" {
		t.Fatalf("the link to the whole record is %q", href)
	}

	full := b.get(href)
	if full.StatusCode != http.StatusOK || !strings.Contains(full.doc(t).Find(".service-visits").Text(), "Ana Refill") {
		t.Errorf("the whole record = %d, without Ana's visit: %s", full.StatusCode, full.doc(t).Find("main").Text())
	}
	day := a.clock.Now().In(time.UTC).Format(time.DateOnly)
	if earlier := b.get(href + "?from=2026-01-01&to=2026-01-07"); earlier.StatusCode != http.StatusOK || strings.Contains(earlier.body, "Ana Refill") {
		t.Errorf("a week of January = %d, showing Ana's visit of %s: %v", earlier.StatusCode, day, strings.Contains(earlier.body, "Ana Refill"))
	}

	rows := readServiceCSV(t, b.get(href+".csv?from="+day+"&to="+day))
	if len(rows) < 2 || strings.Join(rows[0], ",") != strings.Join(servicerecord.CSVHeader, ",") {
		t.Fatalf("the room's CSV: %q", rows)
	}
	for _, row := range rows[1:] {
		if row[5] != "Ana Refill" || !strings.Contains(row[6], "refilled (consumable_out at ") || row[8] == "" {
			t.Errorf("a row of the room's CSV: %q; want Ana's visit and a dispenser", row)
		}
	}
}

func readServiceCSV(t *testing.T, r response) [][]string {
	t.Helper()
	if r.StatusCode != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/csv") {
		t.Fatalf("the CSV = %d, %s: %s", r.StatusCode, r.Header.Get("Content-Type"), r.doc(t).Find("main").Text())
	}
	rows, err := csv.NewReader(strings.NewReader(r.body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// The account's CSV is a supervisor's: it lists every room's visits; a
// period that is not days, backwards or too long is refused, saying why.
func TestTheAccountsServiceRecordAsCSV(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	owner := a.browser()
	owner.signIn(credA)
	room := a.serviceVisit()

	rows := readServiceCSV(t, owner.get("/reports/service.csv"))
	found := false
	for _, row := range rows[1:] {
		found = found || row[5] == "Ana Refill"
	}
	if !found {
		t.Errorf("the account's CSV has no visit of Ana: %q", rows)
	}
	for _, c := range []struct{ query, says string }{
		{"from=soon", `The from parameter "soon" is not a day such as 2026-11-01.`},
		{"from=2026-11-10&to=2026-11-01", "The last day is before the first."},
		{"from=2026-01-01&to=2026-03-01", "A record covers at most 31 days"},
	} {
		r := owner.get("/reports/service.csv?" + c.query)
		if main := r.doc(t).Find("main").Text(); r.StatusCode != http.StatusBadRequest || !strings.Contains(main, c.says) {
			t.Errorf("the CSV of %s = %d, %q; want 400 saying %q", c.query, r.StatusCode, main, c.says)
		}
	}
	day := a.clock.Now().In(time.UTC).Format(time.DateOnly)
	if rows := readServiceCSV(t, owner.get("/reports/service.csv?from="+day)); len(rows) < 2 {
		t.Errorf("the CSV of the week from %s has no visit: %q", day, rows)
	}
	if rows := readServiceCSV(t, owner.get("/reports/service.csv?to=2026-11-01")); len(rows) != 1 {
		t.Errorf("the CSV of the week to 1 November has visits: %q", rows)
	}
	staff := a.browserAs(domain.Staff, "Sam Staff")
	if r := staff.get("/reports/service.csv"); r.StatusCode != http.StatusForbidden {
		t.Errorf("the account's CSV to staff = %d; want 403", r.StatusCode)
	}
	if r := staff.get("/rooms/" + room + "/service"); r.StatusCode != http.StatusOK {
		t.Errorf("a room's record to staff = %d; want 200", r.StatusCode)
	}
}

// The client report has a section of the service record: the period's
// visits, by building, with a link to the record's CSV of the period.
func TestTheClientReportSaysTheServiceRecord(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	a.serviceVisit()
	day := a.clock.Now().In(time.UTC).Format(time.DateOnly)
	doc := b.get("/reports/client?from=" + day + "&to=" + day).doc(t)
	section := doc.Find("#client-service").Closest("section")
	text := strings.Join(strings.Fields(section.Text()), " ")
	if !strings.Contains(text, "1 visit in ") || section.Find("#table-service-buildings tbody tr").Length() == 0 {
		t.Errorf("the client report's service record reads %q; want Ana's visit counted, by building", text)
	}
	if href := section.Find(`a[href^="/reports/service.csv"]`).AttrOr("href", ""); href != "/reports/service.csv?from="+day+"&to="+day {
		t.Errorf("the section's CSV link is %q", href)
	}
}
