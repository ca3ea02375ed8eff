package web

import (
	"encoding/csv"
	"flag"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"washboard/internal/sim"
	"washboard/static"
)

// TestShiftReportDefaultsToTheShiftThatEnded: without parameters the
// report is of the night shift that ended at 06:00, and its counts are the
// simulator's own.
func TestShiftReportDefaultsToTheShiftThatEnded(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	r := b.get("/reports/shift")
	if r.StatusCode != http.StatusOK {
		t.Fatalf("status %d", r.StatusCode)
	}
	doc := r.doc(t)
	if got := doc.Find("#report-title").Text(); !strings.Contains(got, "Night shift") {
		t.Errorf("title %q; want the night shift", got)
	}
	if got := doc.Find(".report-facts").Text(); !strings.Contains(got, "Tue 17 Nov 2026, 22:00 UTC") || !strings.Contains(got, "Wed 18 Nov 2026, 06:00 UTC") {
		t.Errorf("period %q; want Tue 17 Nov 22:00 to Wed 18 Nov 06:00", got)
	}
	if doc.Find("svg.chart rect.chart-opened").Length() != 8 {
		t.Errorf("the chart has %d hours; want 8", doc.Find("svg.chart rect.chart-opened").Length())
	}
	if doc.Find(".signature").Length() != 2 {
		t.Error("no lines for the outgoing and incoming supervisors")
	}
	if doc.Find("[data-print]").Length() != 1 || doc.Find(`script[src="`+static.URL("js/app.js")+`"]`).Length() != 1 {
		t.Error("no print button, or not the script that runs it")
	}
	if doc.Find(`script[src*="htmx"]`).Length() != 0 {
		t.Error("the report loads htmx, though nothing on it is fetched again")
	}
	if run := doc.Find("[data-running]").AttrOr("data-running", ""); !strings.Contains(run, "17 Nov 2026 22:00") || !strings.Contains(run, "printed") {
		t.Errorf("running header %q; want the period and the print time", run)
	}

	// The previous shift is one click away, and keeps the scope.
	prev := doc.Find("a[rel=prev]").AttrOr("href", "")
	if prev != "/reports/shift?date=2026-11-17&shift=Late" {
		t.Errorf("previous shift link %q", prev)
	}
}

// TestShiftReportCountsAreTheSimulators: the late shift's counts and
// tables hold every alert the simulator opened and resolved in it.
func TestShiftReportCountsAreTheSimulators(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	from := time.Date(2026, 11, 17, 14, 0, 0, 0, time.UTC)
	to := from.Add(8 * time.Hour)
	doc := b.get("/reports/shift?date=2026-11-17&shift=Late").doc(t)
	opened, resolved := 0, 0
	for _, rec := range a.world.Accounts()[0].AlertRecords() {
		if !rec.Created.Before(from) && rec.Created.Before(to) {
			opened++
		}
		if !rec.Resolved.IsZero() && !rec.Resolved.Before(from) && rec.Resolved.Before(to) {
			resolved++
		}
	}
	if opened == 0 {
		t.Fatal("the simulator opened no alert that night: the test shows nothing")
	}
	counts := map[string]string{}
	doc.Find(".report-counts > div").Each(func(_ int, s *goquery.Selection) {
		counts[strings.TrimSpace(s.Find("dt").Text())] = strings.TrimSpace(s.Find("dd").Text())
	})
	if counts["Opened during"] != strconv.Itoa(opened) || counts["Resolved during"] != strconv.Itoa(resolved) {
		t.Errorf("counts %v; the simulator opened %d and resolved %d", counts, opened, resolved)
	}
	if n := doc.Find("#table-opened tbody tr").Length(); n != opened {
		t.Errorf("the opened table has %d rows; want all %d", n, opened)
	}
	if n := doc.Find("#table-resolved tbody tr").Length(); n != resolved {
		t.Errorf("the resolved table has %d rows; want all %d", n, resolved)
	}
}

// TestShiftReportOfOneBuilding: a report scoped to a building lists only
// its alerts.
func TestShiftReportOfOneBuilding(t *testing.T) {
	t.Parallel()
	a := newAppOf(t, Config{}, 600)
	b := a.browser()
	b.signIn(credA)
	acc := a.world.Accounts()[0]
	if len(acc.Buildings) < 2 {
		t.Fatal("the simulated account has one building: the test shows nothing")
	}
	whole := b.get("/reports/shift?from=2026-11-13T00:00&to=2026-11-18T09:00").doc(t)
	all := whole.Find("#table-opened tbody tr").Length()
	total := 0
	for _, bl := range acc.Buildings {
		doc := b.get("/reports/shift?from=2026-11-13T00:00&to=2026-11-18T09:00&building=" + bl.ID).doc(t)
		if got := doc.Find(".report-facts").Text(); !strings.Contains(got, bl.Name) {
			t.Errorf("the scope of building %s is not named: %q", bl.Name, got)
		}
		doc.Find("#table-opened tbody tr").Each(func(_ int, row *goquery.Selection) {
			total++
			if where := row.Find("td").Eq(2).Text(); !strings.HasPrefix(where, bl.Name+" ›") {
				t.Errorf("the report of %s lists an alert in %q", bl.Name, where)
			}
		})
	}
	if total != all || all == 0 {
		t.Errorf("the buildings' reports list %d alerts opened; the whole account's %d", total, all)
	}
}

// TestShiftReportFormKeepsWhatWasTyped: values that name no report give the
// form back, with what is wrong in words, as typed.
func TestShiftReportFormKeepsWhatWasTyped(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	other := a.world.Accounts()[1].Buildings[0].ID
	for _, tt := range []struct {
		query, field, says string
	}{
		{"date=2026-13-45&shift=Late", "date", `"2026-13-45" is not a date`},
		{"date=2026-11-17&shift=Lunch", "shift", `no shift named "Lunch"`},
		{"from=2026-11-17T06:00", "to", "needs both its start and its end"},
		{"from=2026-11-17T06:00&to=2026-11-17T05:00", "to", "custom range is not valid"},
		{"from=2026-11-17T06:00&to=2027-01-17T05:00", "to", "custom range is not valid"},
		{"from=yesterday&to=2026-11-17T05:00", "from", `"yesterday" is not a date and time`},
		{"building=" + other, "building", "not one of this account's"},
	} {
		r := b.get("/reports/shift?" + tt.query)
		if r.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400", tt.query, r.StatusCode)
			continue
		}
		doc := r.doc(t)
		if got := doc.Find(".form-error").Text(); !strings.Contains(got, tt.says) {
			t.Errorf("%s: error %q, want it to say %q", tt.query, got, tt.says)
		}
		if tt.field != "building" && tt.field != "shift" && doc.Find("[aria-invalid=true]").AttrOr("name", "") != tt.field {
			t.Errorf("%s: the field marked invalid is %q, want %q", tt.query, doc.Find("[aria-invalid=true]").AttrOr("name", ""), tt.field)
		}
		q, _ := url.ParseQuery(tt.query)
		for _, name := range []string{"date", "from", "to"} {
			if v := q.Get(name); v != "" && doc.Find("input[name="+name+"]").AttrOr("value", "") != v {
				t.Errorf("%s: the %s field lost what was typed", tt.query, name)
			}
		}
		if doc.Find(".report-body").Length() != 0 {
			t.Errorf("%s: a report shows for values that name none", tt.query)
		}
	}
}

// TestShiftReportCSV: each table downloads with every row, for the same
// parameters as the page.
func TestShiftReportCSV(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	page := b.get("/reports/shift?date=2026-11-17&shift=Late").doc(t)
	for _, table := range []string{"opened", "resolved", "open", "offline", "top", "picklist"} {
		href := ""
		page.Find("a[download]").Each(func(_ int, s *goquery.Selection) {
			if u, err := url.Parse(s.AttrOr("href", "")); err == nil && u.Path == "/reports/shift.csv" && u.Query().Get("table") == table {
				href = u.String()
			}
		})
		if href == "" {
			t.Errorf("no CSV link for %s", table)
			continue
		}
		r := b.get(href)
		if r.StatusCode != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/csv") {
			t.Errorf("%s: status %d, Content-Type %q", href, r.StatusCode, r.Header.Get("Content-Type"))
			continue
		}
		rows, err := csv.NewReader(strings.NewReader(r.body)).ReadAll()
		if err != nil {
			t.Errorf("%s: %v", href, err)
			continue
		}
		want := page.Find("#table-" + table + " tbody tr").Length()
		if table == "picklist" || want == 0 && page.Find("#table-"+table).Length() == 0 && len(rows) == 1 {
			continue // the pick list's CSV has a row per product; an empty table has a header only
		}
		if len(rows)-1 != want {
			t.Errorf("%s: %d rows, the page's table has %d", table, len(rows)-1, want)
		}
	}
	if r := b.get("/reports/shift.csv?table=secrets"); r.StatusCode != http.StatusBadRequest || !strings.Contains(r.body, "table") {
		t.Errorf("an unknown table: status %d", r.StatusCode)
	}
}

// TestShiftSettings: an account's shifts and zone change its reports; bad
// values are refused with the typed text kept.
func TestShiftSettings(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	token := csrfInput.FindStringSubmatch(b.get("/reports/settings").body)[1]
	form := url.Values{"csrf_token": {token}, "shifts": {"Day 07:00-19:00, Night 19:00-25:00"}, "zone": {"Europe/Berlin"}}
	r := b.post("/reports/settings", form)
	if r.StatusCode != http.StatusBadRequest || !strings.Contains(r.body, `25:00`) {
		t.Fatalf("bad shifts: status %d", r.StatusCode)
	}
	if v := r.doc(t).Find("input[name=shifts]").AttrOr("value", ""); v != form.Get("shifts") {
		t.Errorf("the form lost the typed shifts: %q", v)
	}
	form.Set("shifts", "Day 07:00-19:00, Night 19:00-07:00")
	form.Set("zone", "Mars/Olympus")
	if r := b.post("/reports/settings", form); r.StatusCode != http.StatusBadRequest || !strings.Contains(r.body, "not a time zone") {
		t.Errorf("bad zone: status %d", r.StatusCode)
	}
	form.Set("zone", "Europe/Berlin")
	b.post("/reports/settings", form)
	// 09:30 UTC is 10:30 in Berlin: the night shift ended at 07:00.
	doc := b.get("/reports/shift").doc(t)
	if got := doc.Find(".report-facts").Text(); !strings.Contains(got, "Tue 17 Nov 2026, 19:00 CET") || !strings.Contains(got, "Wed 18 Nov 2026, 07:00 CET") {
		t.Errorf("period %q; want the Berlin night shift of 19:00 to 07:00", got)
	}
	// Account B keeps the defaults.
	other := a.browser()
	other.signIn(credB)
	if got := other.get("/reports/shift").doc(t).Find("#report-title").Text(); !strings.Contains(got, "Night shift") || strings.Contains(other.get("/reports/settings").body, "Day 07:00") {
		t.Errorf("account B sees account A's shifts")
	}
}

// TestShiftReportOlderThanTheCacheReadsTheService: a period before what
// the cache holds is read from the service, and the report says so.
func TestShiftReportOlderThanTheCacheReadsTheService(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	r := b.get("/reports/shift?date=2026-10-01&shift=Early")
	if r.StatusCode != http.StatusOK {
		t.Fatalf("status %d", r.StatusCode)
	}
	notes := r.doc(t).Find(".report-note").Text()
	if !strings.Contains(notes, "read from the Device Monitoring Service") || !strings.Contains(notes, "were not read") {
		t.Errorf("notes %q; want where the alerts came from and what is missing", notes)
	}
	a.world.SetFaults(sim.Faults{ErrorRate: 1})
	r = b.get("/reports/shift?date=2026-10-01&shift=Late")
	if r.StatusCode != http.StatusOK || !strings.Contains(r.doc(t).Find(".report-gap").Text(), "reading it from the Device Monitoring Service failed") {
		t.Errorf("with the service failing: status %d, gaps %q", r.StatusCode, r.doc(t).Find(".report-gap").Text())
	}
}

// TestAnOldPeriodIsReadFromTheServiceOnceAWhile: views of an old period's
// report and its CSVs, by two people of the account, read the service
// once; the report says how old the read is, and a view after it is kept
// reads again. Another account's view of the same period reads its own.
func TestAnOldPeriodIsReadFromTheServiceOnceAWhile(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	var reads atomic.Int64
	count := func(r *http.Request) {
		// A read of the early shift of 1 October asks for the alerts
		// resolved from its start, and those open created until its end.
		q := r.URL.Query()
		if r.URL.Path == "/alerts" && (q.Get("start_date") == "2026-10-01T06:00:00.000Z" || q.Get("end_date") == "2026-10-01T14:00:00.000Z") {
			reads.Add(1)
		}
	}
	a.beforeUpstream.Store(&count)
	maria, ali := a.browser(), a.browser()
	maria.signIn(credA)
	ali.signIn(credA)
	const period = "date=2026-10-01&shift=Early"
	note := func(b *browser) string {
		r := b.get("/reports/shift?" + period)
		if r.StatusCode != http.StatusOK {
			t.Fatalf("the old period's report: %d", r.StatusCode)
		}
		return strings.Join(strings.Fields(r.doc(t).Find(".report-note").Text()), " ")
	}
	if got := note(maria); !strings.Contains(got, "read from the Device Monitoring Service just now") {
		t.Errorf("the first view says %q; want it read just now", got)
	}
	first := reads.Load()
	if first == 0 {
		t.Fatal("the first view of an old period read nothing from the service")
	}
	for _, b := range []*browser{maria, ali} {
		for range 3 {
			note(b)
		}
		for _, table := range []string{"opened", "resolved", "top"} {
			if r := b.get("/reports/shift.csv?table=" + table + "&" + period); r.StatusCode != http.StatusOK {
				t.Fatalf("the %s CSV: %d", table, r.StatusCode)
			}
		}
	}
	if n := reads.Load(); n != first {
		t.Errorf("12 more views of the period made %d more reads of the service; want none", n-first)
	}
	a.clock.Advance(4 * time.Minute)
	if got := note(ali); !strings.Contains(got, "read from the Device Monitoring Service at 09:30, 4 minutes ago") ||
		!strings.Contains(got, "kept for 10 minutes") || reads.Load() != first {
		t.Errorf("4 minutes later the report says %q after %d more reads; want the read's age, and no read", got, reads.Load()-first)
	}
	other := a.browser()
	other.signIn(credB)
	note(other)
	if reads.Load() != 2*first {
		t.Errorf("another account's view of the period made %d reads; want its own %d", reads.Load()-first, first)
	}
	a.clock.Advance(6 * time.Minute)
	if got := note(maria); !strings.Contains(got, "just now") || reads.Load() != 3*first {
		t.Errorf("10 minutes after the read the report says %q after %d more reads; want it read again", got, reads.Load()-2*first)
	}
}

var updateGolden = flag.Bool("update", false, "rewrite the golden files of the tests")

// TestShiftReportGolden compares the rendered report of the late shift of
// 17 November (simulator seed 3, clock fixed at 18 November 09:30 UTC)
// with testdata/shift-report.golden.html. Run with -update after a change
// that is meant to alter it, and read the diff.
func TestShiftReportGolden(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	r := b.get("/reports/shift?date=2026-11-17&shift=Late")
	html, err := goquery.OuterHtml(r.doc(t).Find("article.report-body"))
	if err != nil || html == "" {
		t.Fatalf("no report in the page (%v)", err)
	}
	// The icons' address carries the sprite's version, which changes with
	// any icon: it is not the report's content.
	html = strings.ReplaceAll(html, static.URL("icons/icons.svg"), "/static/icons/icons.svg")
	got := strings.ReplaceAll(html, "><", ">\n<") + "\n"
	path := filepath.Join("testdata", "shift-report.golden.html")
	if *updateGolden {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to write it)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) || i < len(wl); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("the report differs from %s at line %d:\n got: %s\nwant: %s\n(run with -update if the change is meant)", path, i+1, g, w)
			}
		}
	}
}
