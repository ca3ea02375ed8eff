package web

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/people"
	"washboard/internal/report"
	"washboard/internal/store"
)

// The late shift of 17 November, when the simulated accounts have alerts.
const lateShift = "date=2026-11-17&shift=Late"

// reportCounts reads the headline figures of a report's summary, in a
// section of the page: Opened during, Still open at the end, ...
func reportCounts(doc *goquery.Selection) map[string]int {
	out := map[string]int{}
	doc.Find(".report-counts > div").Each(func(_ int, s *goquery.Selection) {
		n, _ := strconv.Atoi(strings.ReplaceAll(strings.TrimSpace(s.Find("dd").Text()), ",", ""))
		out[strings.TrimSpace(s.Find("dt").Text())] = n
	})
	return out
}

// singleReportCounts are the figures of the account's own shift report,
// which the browser switches to.
func singleReportCounts(t *testing.T, b *browser, account, query string) map[string]int {
	t.Helper()
	if r := b.formOf("/accounts", "/accounts/switch", url.Values{"account": {account}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("switching to %s = %d\n%s", account, r.StatusCode, r.body)
	}
	r := b.get("/reports/shift?" + query)
	if r.StatusCode != http.StatusOK {
		t.Fatalf("GET /reports/shift in %s = %d\n%s", account, r.StatusCode, r.body)
	}
	return reportCounts(r.doc(t).Selection)
}

// readCSV reads a CSV answer into rows of cells by column name.
func readCSV(t *testing.T, r response) []map[string]string {
	t.Helper()
	if r.StatusCode != http.StatusOK {
		t.Fatalf("CSV = %d\n%s", r.StatusCode, r.body)
	}
	rows, err := csv.NewReader(strings.NewReader(r.body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]string
	for _, row := range rows[1:] {
		m := map[string]string{}
		for i, h := range rows[0] {
			m[h] = row[i]
		}
		out = append(out, m)
	}
	return out
}

// The shift report of the portfolio adds up its accounts: its summed
// figures are the sums of each account's own report, each account's
// section has that report's figures, and its CSVs name each row's
// account and end the summary with all of them.
func TestPortfolioShiftReportAddsUpItsAccounts(t *testing.T) {
	t.Parallel()
	a, owner, _ := portfolioApp(t)
	idA, idB := a.accountOf(false), a.accountOf(true)
	single := map[string]map[string]int{idA: singleReportCounts(t, owner, idA, lateShift), idB: singleReportCounts(t, owner, idB, lateShift)}
	if single[idA]["Opened during"] == 0 || single[idB]["Opened during"] == 0 {
		t.Fatalf("an account opened no alert in the shift: the test shows nothing (%v)", single)
	}

	page := owner.get("/portfolio/reports/shift?" + lateShift)
	if page.StatusCode != http.StatusOK {
		t.Fatalf("GET /portfolio/reports/shift = %d\n%s", page.StatusCode, page.body)
	}
	doc := page.doc(t)
	sum := reportCounts(doc.Find(`section[aria-labelledby="sum-summary"]`))
	if len(sum) != 5 {
		t.Fatalf("the summed section has figures %v; want 5", sum)
	}
	for name, n := range sum {
		if want := single[idA][name] + single[idB][name]; n != want {
			t.Errorf("summed %q = %d; want %d + %d", name, n, single[idA][name], single[idB][name])
		}
	}
	sections := doc.Find("section.portfolio-account")
	if sections.Length() != 2 {
		t.Fatalf("%d account sections; want 2", sections.Length())
	}
	// Sections by client name: Head office is A.
	sections.Each(func(i int, s *goquery.Selection) {
		id := map[string]string{"Head office": idA, a.world.Accounts()[1].Name: idB}[strings.TrimSpace(s.Find("h2").First().Text())]
		if id == "" {
			t.Errorf("section %d is of %q; want Head office or B", i, s.Find("h2").First().Text())
			return
		}
		if got := reportCounts(s); fmt.Sprint(got) != fmt.Sprint(single[id]) {
			t.Errorf("the section of %s says %v; its own report %v", id, got, single[id])
		}
		if next, _ := s.Find(`form[action="/accounts/switch"] input[name="next"]`).Attr("value"); next != "/reports/shift?"+lateShift {
			t.Errorf("the section of %s opens %q; want its own report of the shift", id, next)
		}
		if !s.HasClass("pick-break") {
			t.Errorf("the section of %s does not start a printed page", id)
		}
	})
	if r := owner.formOf("/portfolio/reports/shift?"+lateShift, "/accounts/switch", url.Values{"account": {idB}, "next": {"/reports/shift?" + lateShift}}); r.StatusCode != http.StatusSeeOther ||
		r.Header.Get("Location") != "/reports/shift?"+lateShift {
		t.Errorf("opening B's full report = %d to %q; want B's own report of the shift", r.StatusCode, r.Header.Get("Location"))
	}
	for _, want := range []string{"All accounts together", "Late shift", "2 accounts", `href="/portfolio/reports/shift.csv?`} {
		if !strings.Contains(page.body, want) {
			t.Errorf("the report does not say %q", want)
		}
	}

	summary := readCSV(t, owner.get("/portfolio/reports/shift.csv?table=summary&"+lateShift))
	if len(summary) != 3 || summary[2]["client"] != "All accounts" || summary[2]["account_id"] != "" {
		t.Fatalf("the summary CSV: %v; want A, B and all accounts", summary)
	}
	opened := 0
	for _, row := range summary[:2] {
		n, _ := strconv.Atoi(row["opened_during"])
		if want := single[row["account_id"]]["Opened during"]; n != want {
			t.Errorf("the summary CSV: %s opened %d; its report %d", row["account_id"], n, want)
		}
		opened += n
	}
	if summary[2]["opened_during"] != strconv.Itoa(opened) {
		t.Errorf("the summary CSV: all accounts opened %s; want %d", summary[2]["opened_during"], opened)
	}
	rows := readCSV(t, owner.get("/portfolio/reports/shift.csv?table=opened&"+lateShift))
	byAccount := map[string]int{}
	for _, r := range rows {
		byAccount[r["account_id"]]++
	}
	if byAccount[idA] != single[idA]["Opened during"] || byAccount[idB] != single[idB]["Opened during"] || len(byAccount) != 2 {
		t.Errorf("the opened CSV has rows by account %v; want %d of A and %d of B", byAccount, single[idA]["Opened during"], single[idB]["Opened during"])
	}
	if r := owner.get("/portfolio/reports/shift.csv?table=nothing"); r.StatusCode != http.StatusBadRequest || !strings.Contains(r.body, "summary, opened") {
		t.Errorf("an unknown table = %d; want 400 naming the tables", r.StatusCode)
	}
	if r := owner.get("/portfolio/reports/shift?state=action"); r.StatusCode != http.StatusBadRequest || !strings.Contains(r.body, "choose them by client or region") {
		t.Errorf("state=action = %d; want 400 saying a state does not choose the accounts", r.StatusCode)
	}
	if r := owner.get("/portfolio/reports/shift?date=yesterday"); r.StatusCode != http.StatusBadRequest || !strings.Contains(r.body, "is not a date such as") {
		t.Errorf("a date that is none = %d; want 400 saying so", r.StatusCode)
	}

	// The region North is A alone; the portfolio's links carry its filter.
	north := owner.get("/portfolio/reports/shift?region=North&" + lateShift).doc(t)
	if n := north.Find("section.portfolio-account").Length(); n != 1 {
		t.Errorf("the report of North has %d accounts; want 1", n)
	}
	if got := reportCounts(north.Find(`section[aria-labelledby="sum-summary"]`)); fmt.Sprint(got) != fmt.Sprint(single[idA]) {
		t.Errorf("the sum of North alone %v; want A's %v", got, single[idA])
	}
	if p := owner.get("/portfolio?region=North"); !strings.Contains(p.body, `href="/portfolio/reports/shift?region=North"`) ||
		!strings.Contains(p.body, `href="/portfolio/trends?region=North"`) {
		t.Errorf("the portfolio filtered by North does not link its reports with the filter")
	}
}

// The trends of the portfolio add up the accounts' alerts: each day's
// count is the sum of the accounts' own trends, and each account's row
// has its share.
func TestPortfolioTrendsAddUpItsAccounts(t *testing.T) {
	t.Parallel()
	a, owner, _ := portfolioApp(t)
	idA, idB := a.accountOf(false), a.accountOf(true)
	perDay := map[string]int{}
	created := map[string]int{}
	for _, id := range []string{idA, idB} {
		if r := owner.formOf("/accounts", "/accounts/switch", url.Values{"account": {id}}); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("switching to %s = %d", id, r.StatusCode)
		}
		for _, row := range readCSV(t, owner.get("/trends.csv?table=perday")) {
			n, _ := strconv.Atoi(row["alerts"])
			perDay[row["date"]] += n
			created[id] += n
		}
	}
	if created[idA] == 0 || created[idB] == 0 {
		t.Fatalf("alerts created %v: the test shows nothing", created)
	}
	page := owner.get("/portfolio/trends")
	if page.StatusCode != http.StatusOK {
		t.Fatalf("GET /portfolio/trends = %d\n%s", page.StatusCode, page.body)
	}
	doc := page.doc(t)
	days := 0
	doc.Find("#table-perday tbody tr").Each(func(_ int, s *goquery.Selection) {
		date, _ := s.Find("time").Attr("datetime")
		n, _ := strconv.Atoi(strings.ReplaceAll(s.Find("td").First().Text(), ",", ""))
		if n != perDay[date] {
			t.Errorf("%s: %d alerts in all; the accounts' own trends add up to %d", date, n, perDay[date])
		}
		days++
	})
	if days != 30 {
		t.Errorf("%d days; want 30", days)
	}
	total := created[idA] + created[idB]
	for _, id := range []string{idA, idB} {
		want := fmt.Sprintf("%d %%", (created[id]*100+total/2)/total)
		row := doc.Find("#table-accounts tbody tr").FilterFunction(func(_ int, s *goquery.Selection) bool {
			return strings.Contains(s.Find("th").Text(), map[string]string{idA: "Head office", idB: a.world.Accounts()[1].Name}[id])
		})
		if got := strings.TrimSpace(row.Find(`td[data-label="Share"]`).Text()); got != want {
			t.Errorf("the share of %s is %q; want %q", id, got, want)
		}
	}
	for _, row := range readCSV(t, owner.get("/portfolio/trends.csv?table=perday")) {
		if row["alerts"] != strconv.Itoa(perDay[row["date"]]) {
			t.Errorf("the per-day CSV: %s has %s alerts; want %d", row["date"], row["alerts"], perDay[row["date"]])
		}
	}
	accounts := readCSV(t, owner.get("/portfolio/trends.csv?table=accounts"))
	if len(accounts) != 3 || accounts[2]["client"] != "All accounts" || accounts[2]["alerts_created"] != strconv.Itoa(total) {
		t.Errorf("the accounts CSV %v; want A, B and all accounts with %d alerts", accounts, total)
	}
	for _, row := range accounts[:min(2, len(accounts))] {
		if row["alerts_created"] != strconv.Itoa(created[row["account_id"]]) {
			t.Errorf("the accounts CSV: %s created %s; its own trends %d", row["account_id"], row["alerts_created"], created[row["account_id"]])
		}
	}
	if r := owner.get("/portfolio/trends?period=7"); r.StatusCode != http.StatusBadRequest || !strings.Contains(r.body, "must be 30 or 90") {
		t.Errorf("period=7 = %d; want 400 naming the periods", r.StatusCode)
	}
	if r := owner.get("/portfolio/trends?period=90"); r.StatusCode != http.StatusOK || r.doc(t).Find("#table-perday tbody tr").Length() != 90 {
		t.Errorf("period=90 = %d; want 90 days", r.StatusCode)
	}
}

// A person sees in the portfolio's reports the accounts they have a role
// in, and of an account where their role is limited to a building, that
// building's figures alone; the page says how many accounts it left out
// and why.
func TestPortfolioReportsShowOnlyWhatThePersonSees(t *testing.T) {
	t.Parallel()
	a, owner, _ := portfolioAppWith(t, Config{}, appOptions{locations: 60, accounts: 3, seed: 24})
	ctx := context.Background()
	idA, idB := a.accountOf(false), a.accountOf(true)
	acc := a.world.Accounts()[0]
	if len(acc.Buildings) < 2 {
		t.Fatalf("account A has %d buildings; the test needs 2", len(acc.Buildings))
	}
	building := acc.Buildings[0]

	// Vera: staff of A, and a viewer of the organisation over A alone.
	// Lim: a viewer of A limited to its first building, and of the
	// organisation over A.
	join := func(name string, in people.Invite) *browser {
		_, token, err := a.people.Invite(ctx, a.owner(idA), in)
		if err != nil {
			t.Fatal(err)
		}
		b := a.browser()
		if r := b.accept(token, name); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("%s accepting = %d", name, r.StatusCode)
		}
		if r := owner.formOf("/organisation", "/organisation/people", url.Values{"email": {in.Email}, "role": {"viewer"}, "account": {idA}}); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("giving %s a role in the organisation = %d\n%s", name, r.StatusCode, r.body)
		}
		return b
	}
	vera := join("Vera", people.Invite{Role: domain.Staff, Email: "vera@example.com"})
	lim := join("Lim", people.Invite{Role: domain.Viewer, Email: "lim@example.com", Buildings: []string{building.ID}})

	whole := singleReportCounts(t, owner, idA, lateShift)
	for _, c := range []struct {
		who      string
		b        *browser
		scope    string
		wantSame bool // the same figures as A's whole report
	}{
		{"Vera", vera, "Whole account", true},
		{"Lim", lim, "Your buildings: " + building.Name, false},
	} {
		own := reportCounts(c.b.get("/reports/shift?" + lateShift).doc(t).Selection)
		page := c.b.get("/portfolio/reports/shift?" + lateShift)
		if page.StatusCode != http.StatusOK {
			t.Fatalf("%s: GET /portfolio/reports/shift = %d\n%s", c.who, page.StatusCode, page.body)
		}
		doc := page.doc(t)
		if n := doc.Find("section.portfolio-account").Length(); n != 1 {
			t.Errorf("%s sees %d accounts; want A alone", c.who, n)
		}
		if strings.Contains(page.body, a.world.Accounts()[1].Name) {
			t.Errorf("%s's report names B, where she has no role", c.who)
		}
		if !strings.Contains(page.body, "1 account of the organisation left out: you have no role in it.") {
			t.Errorf("%s's report does not say that B was left out, and why", c.who)
		}
		if !strings.Contains(doc.Find("section.portfolio-account .report-facts").Text(), c.scope) {
			t.Errorf("%s's section of A does not say its scope %q", c.who, c.scope)
		}
		got := reportCounts(doc.Find(`section[aria-labelledby="sum-summary"]`))
		if fmt.Sprint(got) != fmt.Sprint(own) {
			t.Errorf("%s's sum %v; her own report of A %v", c.who, got, own)
		}
		if same := fmt.Sprint(got) == fmt.Sprint(whole); same != c.wantSame {
			t.Errorf("%s's figures %v, A's whole report %v: the same is %v, want %v", c.who, got, whole, same, c.wantSame)
		}
		for _, row := range readCSV(t, c.b.get("/portfolio/reports/shift.csv?table=opened&"+lateShift)) {
			if row["account_id"] != idA || (!c.wantSame && row["building"] != building.Name) {
				t.Errorf("%s's opened CSV has a row of %s, %s", c.who, row["account_id"], row["building"])
			}
		}
		trends := c.b.get("/portfolio/trends")
		if n := trends.doc(t).Find("#table-accounts tbody tr").Length(); n != 1 || !strings.Contains(trends.body, "1 account of the organisation left out") {
			t.Errorf("%s's trends: %d accounts; want A alone, saying B was left out", c.who, n)
		}
	}
	_ = idB
}

// A report of more accounts than it covers says so in words and asks to
// filter; a filter that names fewer reports on them.
func TestPortfolioReportsSayTheirAccountLimit(t *testing.T) {
	t.Parallel()
	a, owner, _ := portfolioApp(t)
	ctx := context.Background()
	p, err := a.people.PortfolioOf(ctx, a.owner(a.accountOf(false)).PersonID)
	if err != nil {
		t.Fatal(err)
	}
	for i := range dashboard.MaxReportAccounts - 1 {
		id := fmt.Sprintf("extra-%02d", i)
		if err := a.store.SaveReportSettings(ctx, id, store.ReportSettings{Shifts: report.DefaultShifts().String(), Zone: "UTC", Updated: a.clock.Now()}); err != nil {
			t.Fatal(err)
		}
		if err := a.store.AddOrganisationAccount(ctx, domain.OrganisationAccount{Organisation: p.Organisation.ID, Account: id, Added: a.clock.Now()}, 0, store.Audit{}); err != nil {
			t.Fatal(err)
		}
	}
	want := fmt.Sprintf("These are %d accounts, and a report covers at most %d at once: choose a client or a region to report on fewer.",
		dashboard.MaxReportAccounts+1, dashboard.MaxReportAccounts)
	for _, path := range []string{"/portfolio/reports/shift", "/portfolio/trends"} {
		r := owner.get(path)
		if r.StatusCode != http.StatusOK || !strings.Contains(r.body, want) {
			t.Errorf("%s of %d accounts = %d; want it to say %q", path, dashboard.MaxReportAccounts+1, r.StatusCode, want)
		}
		if n := r.doc(t).Find("section.portfolio-account, #table-accounts").Length(); n != 0 {
			t.Errorf("%s of too many accounts reports on them", path)
		}
		if r := owner.get(path + "?region=North"); r.StatusCode != http.StatusOK || strings.Contains(r.body, want) {
			t.Errorf("%s?region=North = %d; want the report of North", path, r.StatusCode)
		}
	}
	if r := owner.get("/portfolio/reports/shift.csv?table=summary"); r.StatusCode != http.StatusBadRequest || !strings.Contains(r.body, "a report covers at most") {
		t.Errorf("the CSV of too many accounts = %d; want 400 saying the limit", r.StatusCode)
	}
}

// The portfolio's shift report of a period older than the cache covers
// counts what the cache holds, says so in each account's section, and
// asks the service for nothing: each account's own report reads it.
func TestPortfolioShiftReportOfAnOldPeriodReadsTheCache(t *testing.T) {
	t.Parallel()
	a, owner, _ := portfolioApp(t)
	var reads atomic.Int64
	count := func(r *http.Request) {
		q := r.URL.Query()
		if r.URL.Path == "/alerts" && (q.Get("start_date") == "2026-10-01T06:00:00.000Z" || q.Get("end_date") == "2026-10-01T14:00:00.000Z") {
			reads.Add(1)
		}
	}
	a.beforeUpstream.Store(&count)
	r := owner.get("/portfolio/reports/shift?date=2026-10-01&shift=Early")
	if r.StatusCode != http.StatusOK {
		t.Fatalf("GET /portfolio/reports/shift of an old period = %d\n%s", r.StatusCode, r.body)
	}
	gaps := r.doc(t).Find("section.portfolio-account .report-gap")
	if gaps.Length() != 2 || !strings.Contains(gaps.Text(), "older than the cache covers") || !strings.Contains(gaps.Text(), "The account's own shift report reads the rest") {
		t.Errorf("the sections' notes %q; want each to say the period is older than the cache", gaps.Text())
	}
	if n := reads.Load(); n != 0 {
		t.Errorf("the service was asked for the old period %d times; want none", n)
	}
}
