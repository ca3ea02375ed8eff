package web

import (
	"context"
	"encoding/csv"
	"html"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"washboard/internal/clientreport"
	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/store"
)

// measuredAlerts sets a jam's targets (15 min to claim, 1 h to resolve,
// always open) and closes two jam alerts at the same location: one
// claimed 20 minutes after it opened (missed), one 5 minutes after (met),
// resolved in 40 and 30 minutes (both met). It returns the building id
// and name of their location.
func measuredAlerts(t *testing.T, a *app, b *browser) (string, string) {
	t.Helper()
	token := b.pageCSRF("/service-levels")
	if r := b.post("/service-levels", serviceLevelForm(token, "always", "", "UTC", "15", "1h")); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("saving targets: %d\n%s", r.StatusCode, r.body)
	}
	now := a.clock.Now()
	late, _ := slAlert(t, a, "cr-late", 40*time.Minute)
	onTime, _ := slAlert(t, a, "cr-on-time", 30*time.Minute)
	claimAt(t, a, late.ID, now.Add(-20*time.Minute))
	claimAt(t, a, onTime.ID, now.Add(-25*time.Minute))
	closeAlert(t, a, late)
	closeAlert(t, a, onTime)
	paths, err := a.store.Paths(context.Background(), a.accountOf(false), []string{late.LocationID})
	if err != nil {
		t.Fatal(err)
	}
	p := paths[late.LocationID]
	return p.Building.ID, p.Building.Name
}

// TestClientReport: the month's shares met and times, on the page, in
// the CSV and in the PDF; a month without measures says so.
func TestClientReport(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	if r := b.get("/reports/client?month=2026-11"); r.StatusCode != http.StatusOK || !strings.Contains(r.body, "The account has no service level, so no alert was measured against a target.") {
		t.Errorf("without a service level: %d, the page does not say none is set", r.StatusCode)
	}
	if r := b.get("/reports/shift"); !strings.Contains(r.body, `href="/reports/client"`) {
		t.Errorf("the shift report does not link to the client report")
	}
	_, building := measuredAlerts(t, a, b)

	page := html.UnescapeString(b.get("/reports/client?month=2026-11").body)
	for _, want := range []string{"Client report", "November 2026", "set against October 2026",
		"2 alerts measured against their targets closed in November 2026.",
		"Claimed within target: 50% (1 of 2); median 5 min, 90th percentile 20 min.",
		"Resolved within target: 100% (2 of 2); median 30 min, 90th percentile 40 min.",
		building, "/reports/client.pdf?month=2026-11", "/reports/client.csv?month=2026-11"} {
		if !strings.Contains(page, want) {
			t.Errorf("the client report does not say %q", want)
		}
	}
	doc := b.get("/reports/client?month=2026-11").doc(t)
	var cellsOf []string
	doc.Find("#table-worst tbody tr").First().Find("td").Each(func(_ int, td *goquery.Selection) { cellsOf = append(cellsOf, td.Text()) })
	if got := strings.Join(cellsOf, "|"); !strings.Contains(got, "|"+building+"|2|1|40 min") {
		t.Errorf("the worst location reads %q; want its 2 alerts, 1 missed, 40 min longest", got)
	}
	var against []string
	doc.Find("#table-against tbody tr").First().Children().Each(func(_ int, c *goquery.Selection) { against = append(against, c.Text()) })
	if got := strings.Join(against, "|"); got != "Jammed|50% (1 of 2)|none done|100% (2 of 2)|none done" {
		t.Errorf("against October, the jams read %q", got)
	}
	if r := b.get("/reports/client?month=2026-10"); !strings.Contains(r.body, "No alert measured against a target closed in October 2026.") {
		t.Errorf("a month without measures does not say so")
	}
	if r := b.get("/reports/client"); !strings.Contains(r.body, "No alert measured against a target closed in October 2026.") || !strings.Contains(r.body, `value="2026-10"`) {
		t.Errorf("without a period the report is not of the month before the current one")
	}

	r := b.get("/reports/client.csv?month=2026-11")
	rows, err := csv.NewReader(strings.NewReader(r.body)).ReadAll()
	if err != nil || r.StatusCode != http.StatusOK || len(typeRows(rows)) != 1 {
		t.Fatalf("the CSV: %d, %v, %q", r.StatusCode, err, r.body)
	}
	want := []string{building, "Jammed", "2", "1", "1", "50", "5", "20", "2", "0", "100", "30", "40", "", "", "", "", "", "", "", "", "", "", "", "", "", "", ""}
	if !slices.Equal(rows[1], want) {
		t.Errorf("the CSV row is %q, want %q", rows[1], want)
	}

	r = b.get("/reports/client.pdf?month=2026-11")
	if r.StatusCode != http.StatusOK || r.Header.Get("Content-Type") != "application/pdf" || !strings.HasPrefix(r.body, "%PDF-") {
		t.Fatalf("the PDF: %d %s, starts %.8q", r.StatusCode, r.Header.Get("Content-Type"), r.body)
	}
	pdftotext, err := exec.LookPath("pdftotext")
	if err != nil {
		needed(t, "pdftotext to read the PDF: install poppler-utils (apt-get install poppler-utils)")
	}
	path := filepath.Join(t.TempDir(), "client.pdf")
	must(t, os.WriteFile(path, []byte(r.body), 0o644), "writing the PDF")
	out, err := exec.Command(pdftotext, path, "-").Output()
	must(t, err, "reading the PDF")
	text := strings.Join(strings.Fields(string(out)), " ")
	for _, want := range []string{"Client report: " + a.world.Accounts()[0].Name, "November 2026", "50% (1 of 2)", "100% (2 of 2)", building} {
		if !strings.Contains(text, want) {
			t.Errorf("the PDF does not say %q:\n%s", want, text)
		}
	}
}

// csvRows reads a CSV answer, its header first.
func csvRows(t *testing.T, r response) [][]string {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(r.body)).ReadAll()
	if err != nil || r.StatusCode != http.StatusOK {
		t.Fatalf("the CSV: %d, %v, %q", r.StatusCode, err, r.body)
	}
	return rows
}

// typeRows are the CSV's rows of a building and an alert type, without
// its header and the rows of each building's whole.
func typeRows(rows [][]string) [][]string {
	var out [][]string
	for _, row := range rows[1:] {
		if row[1] != clientreport.AllTypes {
			out = append(out, row)
		}
	}
	return out
}

// TestClientReportRefuses: a period that is not one is a 400 naming the
// parameter, on the page, the CSV and the PDF; staff may not see it.
func TestClientReportRefuses(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	for _, c := range []struct{ query, param, want string }{
		{"month=2026-13", "month", `"2026-13" is not a month such as 2026-11`},
		{"month=soon", "month", `"soon" is not a month`},
		{"from=2026-11-01", "to", "needs both its first day (from) and its last (to)"},
		{"from=first&to=2026-11-02", "from", `"first" is not a date`},
		{"from=2026-11-05&to=2026-11-01", "to", "before the first"},
	} {
		for _, path := range []string{"/reports/client", "/reports/client.csv", "/reports/client.pdf"} {
			r := b.get(path + "?" + c.query)
			body := html.UnescapeString(r.body)
			if r.StatusCode != http.StatusBadRequest || !strings.Contains(body, "The "+c.param+" parameter") || !strings.Contains(body, c.want) {
				t.Errorf("%s?%s: %d, want 400 naming %s and saying %q:\n%.300s", path, c.query, r.StatusCode, c.param, c.want, body)
			}
		}
	}
	staff := a.browserAs(domain.Staff, "Maria")
	for _, path := range []string{"/reports/client", "/reports/client.csv", "/reports/client.pdf"} {
		if r := staff.get(path); r.StatusCode != http.StatusForbidden {
			t.Errorf("staff open %s: %d, want 403", path, r.StatusCode)
		}
	}
}

// TestClientReportScoped: a person limited to a building without the
// measured alerts sees none of them, nor the other building's name.
func TestClientReportScoped(t *testing.T) {
	t.Parallel()
	a := newTwoBuildingsApp(t)
	b := a.browser()
	b.signIn(credA)
	id, name := measuredAlerts(t, a, b)
	var other string
	for _, bl := range a.world.Accounts()[0].Buildings {
		if bl.ID != id {
			other = bl.ID
		}
	}
	if r := b.get("/reports/client.csv?month=2026-11"); len(typeRows(csvRows(t, r))) != 1 {
		t.Fatalf("the whole account's CSV has not one row of an alert type:\n%s", r.body)
	}
	b.limitTo(other)
	page := b.get("/reports/client?month=2026-11").body
	if !strings.Contains(page, "No alert measured against a target closed in November 2026.") || strings.Contains(html.UnescapeString(page), name) {
		t.Errorf("a person limited to the other building sees the measured alerts or their building")
	}
	if r := b.get("/reports/client.csv?month=2026-11"); len(typeRows(csvRows(t, r))) != 0 || strings.Contains(r.body, name) {
		t.Errorf("the limited CSV has rows:\n%s", r.body)
	}
	b.limitTo(id)
	if page := html.UnescapeString(b.get("/reports/client?month=2026-11").body); !strings.Contains(page, "2 alerts measured") || !strings.Contains(page, "Buildings: "+name) {
		t.Errorf("a person limited to the alerts' building does not see them")
	}
}

// disconnecting is a store that runs a hook, once armed, as the client
// report reads its measures: between the report's first read and its
// last.
type disconnecting struct {
	store.Store
	hook atomic.Pointer[func()]
}

func (d *disconnecting) EachAlertMeasure(ctx context.Context, account string, from, to time.Time, buildings []string, f func(store.AlertMeasure) error) error {
	if h := d.hook.Swap(nil); h != nil {
		(*h)()
	}
	return d.Store.EachAlertMeasure(ctx, account, from, to, buildings, f)
}

// TestClientReportOfAccountDisconnectedMeanwhile: an account disconnected
// while its report is being made gets a 410 in words for the page, the
// CSV and the PDF; never a report half read, never a 5xx.
func TestClientReportOfAccountDisconnectedMeanwhile(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	st := &disconnecting{Store: a.store}
	a.deps.Dashboard = dashboard.New(dashboard.Deps{Store: st, Sync: a.engine, Upstream: a.client, Clock: a.clock, Keys: a.deps.Keys})
	s, err := New(a.cfg, a.deps)
	if err != nil {
		t.Fatal(err)
	}
	a.handler.Store(s)
	b := a.browser()
	account := a.accountOf(false)
	for _, path := range []string{"/reports/client", "/reports/client.csv", "/reports/client.pdf"} {
		// Connected again, the account's first sync runs before its report
		// is made (signIn waits for it): a sync the last round's requests
		// started again for the account disconnected is stopped first, or
		// signIn would take it for the account's sync and not wait.
		a.engine.StopAccount(account)
		b.signIn(credA)
		if r := b.get(path + "?month=2026-11"); r.StatusCode != http.StatusOK || strings.Contains(r.body, "Loading your account for the first time") {
			t.Fatalf("%s while connected: %d, or still loading", path, r.StatusCode)
		}
		disconnect := func() {
			a.engine.StopAccount(account)
			if _, err := a.store.DisconnectAccount(context.Background(), account); err != nil {
				t.Error(err)
			}
		}
		st.hook.Store(&disconnect)
		r := b.get(path + "?month=2026-11")
		if r.StatusCode != http.StatusGone || !strings.Contains(r.body, "The account was disconnected while its report was being made") ||
			strings.HasPrefix(r.body, "%PDF") {
			t.Errorf("%s of an account disconnected meanwhile: %d, want 410 in words:\n%s", path, r.StatusCode, r.body)
		}
	}
}

// TestClientReportOutHours: the report says how long dispensers were out
// of product in the month, in all and within service hours, against the
// month before, by building and the locations out longest, on the page,
// in the CSV and in the PDF; a person limited to another building does
// not see them.
func TestClientReportOutHours(t *testing.T) {
	t.Parallel()
	a := newTwoBuildingsApp(t)
	b := a.browser()
	b.signIn(credA)
	ctx := context.Background()
	account := a.accountOf(false)
	token := b.pageCSRF("/service-levels")
	if r := b.post("/service-levels", serviceLevelForm(token, "Mon-Fri 08:00-12:00", "", "UTC", "15", "")); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("saving the service level: %d", r.StatusCode)
	}
	devices, err := a.store.FindDevices(ctx, store.DeviceFilter{Account: account})
	if err != nil {
		t.Fatal(err)
	}
	var d domain.Device
	for _, d = range devices {
		if len(d.Compartments) > 0 {
			break
		}
	}
	levels := func(v int) []int { return slices.Repeat([]int{v}, len(d.Compartments)) }
	// Out from 10:00 to 13:00 on Monday 5 October: 3 hours, 2 within hours.
	monday := time.Date(2026, 10, 5, 10, 0, 0, 0, time.UTC)
	if err := a.store.SeedHistory(ctx, account, map[string][]store.Reading{d.MAC: {
		{At: monday, Levels: levels(0), Battery: -1}, {At: monday.Add(3 * time.Hour), Levels: levels(100), Battery: -1}}}); err != nil {
		t.Fatal(err)
	}
	paths, err := a.store.Paths(ctx, account, []string{d.LocationID})
	if err != nil {
		t.Fatal(err)
	}
	place := paths[d.LocationID]

	doc := b.get("/reports/client?month=2026-10").doc(t)
	section := strings.Join(strings.Fields(doc.Find(`section[aria-labelledby="client-out"]`).Text()), " ")
	for _, want := range []string{
		"Dispensers were out of product for 3.0 hours (2.0 within service hours) in October 2026, summed over 1 dispenser whose levels were kept.",
		"No dispenser's level was kept for September 2026 to set it against.",
	} {
		if !strings.Contains(section, want) {
			t.Errorf("October's report does not say %q:\n%s", want, section)
		}
	}
	var worst []string
	doc.Find("#table-out-worst tbody tr").First().Find("td").Each(func(_ int, td *goquery.Selection) { worst = append(worst, td.Text()) })
	if got := strings.Join(worst, "|"); !strings.HasPrefix(got, place.Location.Name) || !strings.HasSuffix(got, "|"+place.Building.Name+"|3.0 hours|2.0 hours") {
		t.Errorf("the location out longest reads %q", got)
	}
	if page := html.UnescapeString(b.get("/reports/client?month=2026-11").body); !strings.Contains(page,
		"In October 2026 they were out of product for 3.0 hours (2.0 within service hours), over 1 dispenser.") {
		t.Errorf("November's report does not set its out-hours against October's")
	}
	rows := csvRows(t, b.get("/reports/client.csv?month=2026-10"))
	if !slices.ContainsFunc(rows, func(row []string) bool {
		return len(row) > 16 && slices.Equal(row[:16], []string{place.Building.Name, "all", "0", "0", "0", "", "", "", "0", "0", "", "", "", "1", "3.0", "2.0"})
	}) {
		t.Errorf("the CSV has no row of the building's out-hours:\n%q", rows)
	}

	r := b.get("/reports/client.pdf?month=2026-10")
	pdftotext, err := exec.LookPath("pdftotext")
	if err != nil {
		needed(t, "pdftotext to read the PDF: install poppler-utils (apt-get install poppler-utils)")
	}
	path := filepath.Join(t.TempDir(), "client.pdf")
	must(t, os.WriteFile(path, []byte(r.body), 0o644), "writing the PDF")
	out, err := exec.Command(pdftotext, path, "-").Output()
	must(t, err, "reading the PDF")
	text := strings.Join(strings.Fields(string(out)), " ")
	for _, want := range []string{"Dispensers out of product", "out of product for 3.0 hours (2.0 within service hours) in October 2026", place.Building.Name} {
		if !strings.Contains(text, want) {
			t.Errorf("the PDF does not say %q:\n%s", want, text)
		}
	}

	for _, bl := range a.world.Accounts()[0].Buildings {
		if bl.ID != place.Building.ID {
			b.limitTo(bl.ID)
		}
	}
	if page := html.UnescapeString(b.get("/reports/client?month=2026-10").body); !strings.Contains(page, "No dispenser's level was kept for October 2026") {
		t.Errorf("a person limited to another building sees the dispenser's out-hours")
	}
}
