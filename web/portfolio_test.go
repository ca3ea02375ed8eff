package web

import (
	"context"
	"encoding/csv"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/forecast"
	"washboard/internal/people"
	"washboard/internal/store"
	"washboard/internal/upstream"
	"washboard/views"
)

// formOf posts a form of a page of the browser's session, with its form
// token.
func (b *browser) formOf(page, path string, values url.Values) response {
	b.a.t.Helper()
	m := csrfInput.FindStringSubmatch(b.get(page).body)
	if m == nil {
		b.a.t.Fatalf("no form token on %s", page)
	}
	values.Set("csrf_token", m[1])
	return b.post(path, values)
}

// portfolioApp is a world of three accounts: the owner of A and B makes
// the organisation Shine of both (A labelled Head office, in North; B in
// South); the owner of C makes Rival of C.
func portfolioApp(t *testing.T) (a *app, owner, rival *browser) {
	t.Helper()
	return portfolioAppWith(t, Config{}, appOptions{locations: 40, accounts: 3})
}

// portfolioAppWith is portfolioApp with a server configured as cfg, of a
// simulated world of these options (of at least 3 accounts).
func portfolioAppWith(t *testing.T, cfg Config, opts appOptions) (a *app, owner, rival *browser) {
	t.Helper()
	a = newAppWith(t, cfg, opts)
	idA, idB := a.accountOf(false), a.accountOf(true)
	owner = a.browser()
	owner.signIn(credA)
	owner.signIn(credB) // the same person connects B, and owns it
	for _, step := range []struct {
		path   string
		values url.Values
	}{
		{"/organisation", url.Values{"name": {"Shine Services"}}},
		{"/organisation/accounts/" + idB, url.Values{"region": {"South"}}},
		{"/accounts/switch", url.Values{"account": {idA}, "next": {"/organisation"}}},
		{"/organisation/accounts", url.Values{}},
		{"/organisation/accounts/" + idA, url.Values{"client": {"Head office"}, "region": {"North"}}},
	} {
		if r := owner.formOf("/organisation", step.path, step.values); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("POST %s = %d\n%s", step.path, r.StatusCode, r.body)
		}
	}
	rival = a.browser()
	rival.signIn(credC)
	if r := rival.formOf("/organisation", "/organisation", url.Values{"name": {"Rival"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("making Rival = %d\n%s", r.StatusCode, r.body)
	}
	return a, owner, rival
}

// portfolioCSV reads /portfolio.csv (with a query) by account id.
func portfolioCSV(t *testing.T, b *browser, query string) (map[string]map[string]string, []string) {
	t.Helper()
	r := b.get("/portfolio.csv" + query)
	if r.StatusCode != http.StatusOK {
		t.Fatalf("GET /portfolio.csv%s = %d\n%s", query, r.StatusCode, r.body)
	}
	rows, err := csv.NewReader(strings.NewReader(r.body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	out, order := map[string]map[string]string{}, []string{}
	for _, row := range rows[1:] {
		m := map[string]string{}
		for i, h := range rows[0] {
			m[h] = row[i]
		}
		out[row[0]] = m
		order = append(order, row[0])
	}
	return out, order
}

// The portfolio lists every account of the organisation, with the counts
// each account's own overview and devices show, the worst first; its
// filters and CSV agree; a person of another organisation learns nothing
// of it.
func TestPortfolioListsTheOrganisationsAccounts(t *testing.T) {
	t.Parallel()
	a, owner, rival := portfolioApp(t)
	ctx := context.Background()
	idA, idB, idC := a.accountOf(false), a.accountOf(true), a.world.Accounts()[2].ID

	page := owner.get("/portfolio")
	if page.StatusCode != http.StatusOK {
		t.Fatalf("GET /portfolio = %d\n%s", page.StatusCode, page.body)
	}
	doc := page.doc(t)
	if n := doc.Find(".portfolio-table tbody tr").Length(); n != 2 {
		t.Errorf("the portfolio has %d rows; want 2", n)
	}
	for _, want := range []string{"Portfolio of Shine Services", "Head office", a.world.Accounts()[1].Name, "no targets set", `hx-trigger="sse:devices`} {
		if !strings.Contains(page.body, want) {
			t.Errorf("the portfolio does not say %q", want)
		}
	}
	rows, order := portfolioCSV(t, owner, "")
	if len(rows) != 2 || rows[idA] == nil || rows[idB] == nil {
		t.Fatalf("/portfolio.csv rows: %v; want A and B", order)
	}
	openSeen := 0
	for _, id := range []string{idA, idB} {
		o, err := a.deps.Dashboard.Overview(ctx, id, domain.EveryBuilding(), 0)
		if err != nil {
			t.Fatal(err)
		}
		devices, err := a.store.FindDevices(ctx, store.DeviceFilter{Account: id})
		if err != nil {
			t.Fatal(err)
		}
		out, offline := 0, 0
		for _, d := range devices {
			if d.Offline {
				offline++
			}
			for _, c := range d.Compartments {
				if c.Out {
					out++
					break
				}
			}
		}
		r := rows[id]
		for col, want := range map[string]int{"open_alerts": o.Rollup.OpenAlerts, "overdue_alerts": o.Rollup.OverdueAlerts,
			"unclaimed_alerts": o.Rollup.OpenAlerts, "dispensers_out": out, "devices_offline": offline} {
			if r[col] != itoa(int64(want)) {
				t.Errorf("account %s: %s = %s; its own pages say %d", id, col, r[col], want)
			}
		}
		openSeen += o.Rollup.OpenAlerts
		if r["service_level_week"] != "" || r["shift_end"] == "" {
			t.Errorf("account %s: service level %q, shift end %q; want none set, and an end", id, r["service_level_week"], r["shift_end"])
		}
	}
	if openSeen == 0 {
		t.Error("neither account has an open alert: the test proves little")
	}
	if rows[idA]["client"] != "Head office" || rows[idA]["region"] != "North" || rows[idB]["region"] != "South" {
		t.Errorf("clients and regions: %v, %v", rows[idA], rows[idB])
	}
	if worstFirst(rowOf(rows[order[0]]), rowOf(rows[order[1]])) > 0 {
		t.Errorf("the rows are not the worst first: %v", order)
	}

	// Filters, on the page and in the CSV.
	if r, _ := portfolioCSV(t, owner, "?region=North"); len(r) != 1 || r[idA] == nil {
		t.Errorf("region North: %v; want A alone", r)
	}
	if r, _ := portfolioCSV(t, owner, "?client="+url.QueryEscape(a.world.Accounts()[1].Name)); len(r) != 1 || r[idB] == nil {
		t.Errorf("client B: %v; want B alone", r)
	}
	state := rows[idA]["state"]
	if r, _ := portfolioCSV(t, owner, "?state="+state); r[idA] == nil {
		t.Errorf("state %s: %v; want A among them", state, r)
	}
	if r := owner.get("/portfolio?region=Nowhere"); !strings.Contains(r.body, "No account matches the filter.") {
		t.Errorf("a filter matching nothing does not say so")
	}
	for _, q := range []string{"?state=burning", "?client=" + strings.Repeat("x", 81)} {
		if r := owner.get("/portfolio" + q); r.StatusCode != http.StatusBadRequest {
			t.Errorf("GET /portfolio%s = %d; want 400", q, r.StatusCode)
		}
	}

	// Rival's owner sees C alone, and nothing of A or B.
	theirs, _ := portfolioCSV(t, rival, "")
	if len(theirs) != 1 || theirs[idC] == nil {
		t.Errorf("Rival's portfolio: %v; want C alone", theirs)
	}
	for _, path := range []string{"/portfolio", "/portfolio.csv", "/accounts", "/organisation", "/portfolio/search?q=" + url.QueryEscape(a.world.Accounts()[0].Locations[0].Devices[0].MAC)} {
		body := rival.get(path).body
		for _, secret := range []string{idA, idB, "Head office", "Shine"} {
			if strings.Contains(body, secret) {
				t.Errorf("Rival's %s shows %q", path, secret)
			}
		}
	}
	for _, id := range []string{idA, idB, "no-such-account"} {
		if r := rival.formOf("/accounts", "/accounts/switch", url.Values{"account": {id}}); r.StatusCode != http.StatusNotFound {
			t.Errorf("Rival switching to %s = %d; want 404", id, r.StatusCode)
		}
	}
	if r := rival.formOf("/organisation", "/organisation/accounts/"+idA, url.Values{"client": {"Stolen"}}); r.StatusCode != http.StatusForbidden && r.StatusCode != http.StatusNotFound {
		t.Errorf("Rival labelling A = %d; want 403 or 404", r.StatusCode)
	}
	if r := rival.formOf("/organisation", "/organisation/people", url.Values{"email": {"x@example.com"}, "role": {"viewer"}, "account": {idA}}); r.StatusCode == http.StatusSeeOther {
		t.Errorf("Rival giving a role over A was done")
	}

	// Someone of no organisation: the portfolio is not there.
	loner := a.browserAs(domain.Viewer, "Lou")
	if r := loner.get("/portfolio"); r.StatusCode != http.StatusNotFound || !strings.Contains(r.body, "You belong to no organisation") {
		t.Errorf("the portfolio of a person of no organisation = %d", r.StatusCode)
	}
}

// rowOf is a row of /portfolio.csv as the page's row, for its order.
func rowOf(m map[string]string) views.PortfolioRow {
	h, _ := domain.ParseHealth(m["state"])
	n := func(col string) int { v, _ := strconv.Atoi(m[col]); return v }
	return views.PortfolioRow{Account: m["account_id"], Client: m["client"], Health: h, Open: n("open_alerts"), Overdue: n("overdue_alerts"),
		Unclaimed: n("unclaimed_alerts"), Out: n("dispensers_out"), RunOuts: n("runs_out_before_shift_end")}
}

// A person given a role in the organisation over some of its accounts
// switches to them from /accounts without a membership of their own, with
// the higher of their roles in each; lowering that role ends their
// sessions in the organisation's accounts at once.
func TestOrganisationRoleReachesItsAccounts(t *testing.T) {
	t.Parallel()
	a, owner, _ := portfolioApp(t)
	idA, idB, idC := a.accountOf(false), a.accountOf(true), a.world.Accounts()[2].ID
	_, token, err := a.people.Invite(context.Background(), a.owner(idA), people.Invite{Role: domain.Staff, Email: "vera@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	vera := a.browser()
	if r := vera.accept(token, "Vera"); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("Vera accepting = %d", r.StatusCode)
	}
	if r := owner.formOf("/organisation", "/organisation/people", url.Values{"email": {"vera@example.com"}, "role": {"supervisor"}, "account": {idB}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("giving Vera a role in the organisation = %d\n%s", r.StatusCode, r.body)
	}
	for _, id := range []string{idA, idB} {
		log, err := a.people.AuditLog(context.Background(), id, people.AuditQuery{Action: domain.AuditOrganisationRole})
		if err != nil || len(log.Entries) != 1 || log.Entries[0].Subject != "Vera: supervisor over 1 account" {
			t.Errorf("the audit log of %s: %+v, %v; want Vera's role in the organisation", id, log.Entries, err)
		}
	}
	list := vera.get("/accounts")
	for _, want := range []string{"Switch to " + a.world.Accounts()[1].Name, "supervisor (by your organisation)", "See every account of your organisation"} {
		if !strings.Contains(list.body, want) {
			t.Errorf("Vera's accounts do not say %q:\n%s", want, list.body)
		}
	}
	if r := vera.formOf("/accounts", "/accounts/switch", url.Values{"account": {idB}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("Vera switching to B = %d\n%s", r.StatusCode, r.body)
	}
	if r := vera.get("/"); r.StatusCode != http.StatusOK || !strings.Contains(r.body, "Vera (supervisor)") || !strings.Contains(r.body, `href="/portfolio"`) {
		t.Errorf("Vera in B = %d; want B's overview, as a supervisor, with the portfolio in the menu", r.StatusCode)
	}
	if r := vera.get("/reports/settings"); r.StatusCode != http.StatusOK {
		t.Errorf("a supervisor's page in B = %d; want 200", r.StatusCode)
	}
	if r := vera.formOf("/accounts", "/accounts/switch", url.Values{"account": {idC}}); r.StatusCode != http.StatusNotFound {
		t.Errorf("Vera switching to another organisation's account = %d; want 404", r.StatusCode)
	}
	rows, _ := portfolioCSV(t, vera, "")
	if len(rows) != 2 || rows[idA] == nil || rows[idB] == nil {
		t.Errorf("Vera's portfolio: %v; want A (hers) and B (the organisation's role)", rows)
	}
	if r := vera.formOf("/organisation", "/organisation/people", url.Values{"email": {"vera@example.com"}, "role": {"owner"}}); r.StatusCode != http.StatusForbidden {
		t.Errorf("a supervisor of the organisation making herself an owner = %d; want 403", r.StatusCode)
	}

	// Lowered to a viewer: her session in B ends at once.
	if r := owner.formOf("/organisation", "/organisation/people", url.Values{"email": {"vera@example.com"}, "role": {"viewer"}, "account": {idB}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("lowering Vera's role = %d", r.StatusCode)
	}
	if r := vera.get("/"); r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/signin") {
		t.Errorf("Vera's session in B after her role was lowered = %d; want to sign in again", r.StatusCode)
	}
}

// forecastsOf are estimates of when dispensers run out, by account and
// MAC, as a test sets them.
type forecastsOf map[string]map[string]forecast.Estimate

func (f forecastsOf) Estimates(account string) map[string]forecast.Estimate { return f[account] }

// The portfolio counts an alert someone is on as claimed, and the
// dispensers estimated to run out before the end of the account's shift
// (not those out already, nor those running out later).
func TestPortfolioCountsClaimsAndRunOuts(t *testing.T) {
	t.Parallel()
	a, owner, _ := portfolioApp(t)
	ctx := context.Background()
	idA := a.accountOf(false)
	before, _ := portfolioCSV(t, owner, "")
	end, err := time.Parse(time.RFC3339, before[idA]["shift_end"])
	if err != nil {
		t.Fatalf("the shift's end %q: %v", before[idA]["shift_end"], err)
	}
	devices, err := a.store.FindDevices(ctx, store.DeviceFilter{Account: idA})
	if err != nil {
		t.Fatal(err)
	}
	var in []string
	for _, d := range devices {
		out := false
		for _, c := range d.Compartments {
			out = out || c.Out
		}
		if !out && len(d.Compartments) > 0 {
			in = append(in, d.MAC)
		}
	}
	if len(in) < 3 {
		t.Fatalf("account A has %d dispensers not out; the test needs 3", len(in))
	}
	soon := forecast.Estimate{At: end.Add(-time.Minute), Basis: forecast.FromLevels}
	later := forecast.Estimate{At: end.Add(time.Minute), Basis: forecast.FromLevels}
	a.deps.Dashboard = dashboard.New(dashboard.Deps{Store: a.store, Sync: a.engine, Upstream: a.client, Clock: a.clock, Keys: a.deps.Keys,
		Forecasts: forecastsOf{idA: {in[0]: soon, in[1]: soon, in[2]: later}}})
	s, err := New(a.cfg, a.deps)
	if err != nil {
		t.Fatal(err)
	}
	a.handler.Store(s)

	open, err := a.store.FindAlerts(ctx, store.AlertFilter{Account: idA, Status: domain.AlertOpen, Limit: 1})
	if err != nil || len(open) == 0 {
		t.Fatalf("account A has no open alert to claim: %v", err)
	}
	if err := a.store.ClaimAlert(ctx, idA, domain.Claim{AlertID: open[0].ID, Name: "Ana", At: a.clock.Now()}); err != nil {
		t.Fatal(err)
	}
	after, _ := portfolioCSV(t, owner, "")
	if after[idA]["open_alerts"] != before[idA]["open_alerts"] || rowOf(after[idA]).Unclaimed != rowOf(before[idA]).Unclaimed-1 {
		t.Errorf("A's open and unclaimed alerts: %s and %s before a claim, %s and %s after; want one fewer unclaimed",
			before[idA]["open_alerts"], before[idA]["unclaimed_alerts"], after[idA]["open_alerts"], after[idA]["unclaimed_alerts"])
	}
	if got := after[idA]["runs_out_before_shift_end"]; got != "2" {
		t.Errorf("A's dispensers running out before %s: %s; want 2", end, got)
	}
}

// Search across the portfolio finds a location, room or MAC address in
// any account of the organisation the person sees, and leads to it; a
// person of another organisation finds nothing there.
func TestPortfolioSearchFindsPlacesInEveryAccount(t *testing.T) {
	t.Parallel()
	a, owner, rival := portfolioApp(t)
	locB := a.world.Accounts()[1].Locations[3]
	for _, q := range []string{locB.Devices[0].MAC, locB.Room.Name} {
		r := owner.get("/portfolio/search?q=" + url.QueryEscape(q))
		if r.StatusCode != http.StatusOK || !strings.Contains(r.body, locB.Name) || !strings.Contains(r.body, `value="/locations/`+itoa(locB.ID)+`"`) {
			t.Errorf("searching B's %q from A: %d, no way to %s", q, r.StatusCode, locB.Name)
		}
	}
	if r := owner.get("/search?q=" + url.QueryEscape(locB.Room.Name)); !strings.Contains(r.body, `href="/portfolio/search?q=`+url.QueryEscape(locB.Room.Name)+`"`) {
		t.Error("the search of one account does not lead to the search of every account")
	}
	r := owner.formOf("/portfolio/search", "/accounts/switch", url.Values{"account": {a.accountOf(true)}, "next": {"/locations/" + itoa(locB.ID)}})
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/locations/"+itoa(locB.ID) {
		t.Errorf("opening a location found in B = %d, to %q", r.StatusCode, r.Header.Get("Location"))
	}
	if r := rival.get("/portfolio/search?q=" + url.QueryEscape(locB.Devices[0].MAC)); strings.Contains(r.body, locB.Name) {
		t.Error("a person of another organisation finds B's location")
	}
	if r := owner.get("/portfolio/search?q=" + strings.Repeat("x", 101)); r.StatusCode != http.StatusBadRequest {
		t.Errorf("a 101-character search = %d; want 400", r.StatusCode)
	}
}

// A signed-in person connects another account from /accounts with its
// credentials, and comes back to the list, in it.
func TestAccountsPageConnectsAnotherAccount(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	page := b.get("/accounts")
	form := page.doc(t).Find(`form[action="/signin"]`)
	if form.Find(`input[name="api_key"]`).Length() != 1 || form.Find(`input[name="next"][value="/accounts"]`).Length() != 1 {
		t.Fatalf("/accounts offers no form to connect another account:\n%s", page.body)
	}
	r := b.formOf("/accounts", "/signin", url.Values{"api_key": {credB.APIKey}, "authorization": {credB.Authorization}, "next": {"/accounts"}})
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/accounts" {
		t.Fatalf("connecting B from /accounts = %d to %q\n%s", r.StatusCode, r.Header.Get("Location"), r.body)
	}
	list := b.get("/accounts")
	if !strings.Contains(list.body, "Switch to "+a.world.Accounts()[0].Name) || !strings.Contains(list.body, a.world.Accounts()[1].Name) {
		t.Errorf("after connecting B, /accounts does not list both:\n%s", list.body)
	}
}

// The organisation's forms refuse what makes no sense, in words, and
// change nothing.
func TestOrganisationFormsRefuseBadInput(t *testing.T) {
	t.Parallel()
	a, owner, _ := portfolioApp(t)
	idC := a.world.Accounts()[2].ID
	for _, c := range []struct {
		path   string
		values url.Values
		status int
		says   string
	}{
		{"/organisation/accounts/" + a.accountOf(false), url.Values{"region": {strings.Repeat("r", 41)}}, http.StatusUnprocessableEntity, "Region"},
		{"/organisation/accounts/" + idC, url.Values{"region": {"North"}}, http.StatusNotFound, "There is nothing of your organisation with that id."},
		{"/organisation/people", url.Values{"email": {"nobody@example.com"}, "role": {"viewer"}}, http.StatusUnprocessableEntity,
			"Nobody who signs in here has the address nobody@example.com"},
		{"/organisation/people", url.Values{"email": {"not an address"}, "role": {"viewer"}}, http.StatusUnprocessableEntity, "is not an e-mail address"},
		{"/organisation/people", url.Values{"email": {"x@example.com"}, "role": {"god"}}, http.StatusUnprocessableEntity, "Role: choose viewer"},
		{"/organisation/people/nobody/remove", url.Values{}, http.StatusNotFound, "There is nothing of your organisation with that id."},
		{"/organisation", url.Values{"name": {"Another"}}, http.StatusUnprocessableEntity, "You belong to an organisation already"},
	} {
		r := owner.formOf("/organisation", c.path, c.values)
		if r.StatusCode != c.status || !strings.Contains(r.body, c.says) {
			t.Errorf("POST %s %v = %d; want %d saying %q\n%s", c.path, c.values, r.StatusCode, c.status, c.says, r.body)
		}
	}
	lone := a.browser()
	lone.signIn(credA) // a second person of A: an admin, of no organisation
	if r := lone.formOf("/accounts", "/organisation", url.Values{"name": {strings.Repeat("n", 81)}}); r.StatusCode != http.StatusForbidden {
		t.Errorf("an admin making an organisation = %d; want 403 (owners only)", r.StatusCode)
	}
}

// TestPortfolioSaysEachClientsServiceLevelThisWeek: a client with targets
// shows the share of this week's closed alerts that met them; one without
// says none are set.
func TestPortfolioSaysEachClientsServiceLevelThisWeek(t *testing.T) {
	t.Parallel()
	a, owner, _ := portfolioApp(t)
	idA, idB := a.accountOf(false), a.accountOf(true)
	if r := owner.post("/service-levels", serviceLevelForm(owner.pageCSRF("/service-levels"), "always", "", "UTC", "15", "1h")); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("saving A's targets: %d\n%s", r.StatusCode, r.body)
	}
	rows, _ := portfolioCSV(t, owner, "")
	if got := rows[idA]["service_level_week"]; got != "no measured alert closed yet" {
		t.Errorf("A's service level before any alert closed: %q", got)
	}
	now := a.clock.Now()
	late, _ := slAlert(t, a, "sl-late", 40*time.Minute)
	onTime, _ := slAlert(t, a, "sl-on-time", 30*time.Minute)
	claimAt(t, a, late.ID, now.Add(-20*time.Minute))   // 20 min after it opened: missed
	claimAt(t, a, onTime.ID, now.Add(-25*time.Minute)) // 5 min after: met
	closeAlert(t, a, late)
	closeAlert(t, a, onTime)

	rows, _ = portfolioCSV(t, owner, "")
	if got := rows[idA]["service_level_week"]; got != "50 % met (1 of 2 alerts closed)" {
		t.Errorf("A's service level this week: %q; want one of two alerts met", got)
	}
	if got := rows[idB]["service_level_week"]; got != "" {
		t.Errorf("B, without targets, has a service level %q", got)
	}
	if page := owner.get("/portfolio").body; !strings.Contains(page, "50 % met (1 of 2 alerts closed)") || !strings.Contains(page, "no targets set") {
		t.Error("the portfolio page does not show A's service level and B's lack of targets")
	}
	// The next week (Wed 18 Nov to Mon 23 Nov) starts afresh.
	a.clock.Advance(5 * 24 * time.Hour)
	rows, _ = portfolioCSV(t, owner, "")
	if got := rows[idA]["service_level_week"]; got != "no measured alert closed yet" {
		t.Errorf("A's service level on the Monday after: %q; want the week to start afresh", got)
	}
}

// TestOrganisationPeopleArePutOnItsAccountsAlerts: a supervisor puts on an
// alert someone whose organisation's role covers the account, as they
// would one of the account's own people; someone whose organisation's
// role covers other accounts only is not offered.
func TestOrganisationPeopleArePutOnItsAccountsAlerts(t *testing.T) {
	t.Parallel()
	a, owner, _ := portfolioApp(t)
	idA, idB := a.accountOf(false), a.accountOf(true)
	for name, role := range map[string]domain.Role{"Walt": domain.Viewer, "Xena": domain.Viewer} {
		email := strings.ToLower(name) + "@example.com"
		_, token, err := a.people.Invite(context.Background(), a.owner(idB), people.Invite{Role: role, Email: email})
		if err != nil {
			t.Fatal(err)
		}
		if r := a.browser().accept(token, name); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("%s accepting = %d", name, r.StatusCode)
		}
	}
	// Viewers of B, Walt is staff of the organisation in A; Xena in B alone.
	for _, g := range []url.Values{
		{"email": {"walt@example.com"}, "role": {"staff"}, "account": {idA}},
		{"email": {"xena@example.com"}, "role": {"staff"}, "account": {idB}},
	} {
		if r := owner.formOf("/organisation", "/organisation/people", g); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("giving a role in the organisation = %d\n%s", r.StatusCode, r.body)
		}
	}
	alerts, err := a.store.FindAlerts(context.Background(), store.AlertFilter{Account: idA, Status: domain.AlertOpen, Limit: 1})
	if err != nil || len(alerts) == 0 {
		t.Fatalf("no open alert in A: %v", err)
	}
	claim := "/alerts/" + alerts[0].ID + "/claim"
	var offered []string
	owner.get(claim).doc(t).Find(`select[name="person"] option`).Each(func(_ int, o *goquery.Selection) { offered = append(offered, o.Text()) })
	if !slices.Contains(offered, "Walt") || slices.Contains(offered, "Xena") {
		t.Errorf("on an alert of A the supervisor is offered %q; want Walt (staff of the organisation in A) and not Xena (in B alone)", offered)
	}
	walt, err := a.store.AccountOrganisationMembers(context.Background(), idA)
	if err != nil {
		t.Fatal(err)
	}
	var waltID string
	for _, m := range walt {
		if m.Name == "Walt" {
			waltID = m.PersonID
		}
	}
	if r := owner.post(claim, url.Values{"csrf_token": {owner.pageCSRF(claim)}, "person": {waltID}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("putting Walt on A's alert = %d\n%s", r.StatusCode, r.body)
	}
	if got := claimCellOf(t, owner.get("/alerts"), alerts[0].ID); !strings.Contains(got, "Walt") {
		t.Errorf("A's alert after Walt was put on it says %q; want his name", got)
	}
}

// The portfolio page is kept for those who ask again, yet an alert that
// opens in one of its accounts shows in its row at once; each row's Open
// posts through the page's form, which carries the session's token.
func TestPortfolioShowsAnAlertThatOpensAtOnce(t *testing.T) {
	t.Parallel()
	a, owner, _ := portfolioApp(t)
	idB := a.accountOf(true)
	openInB := func() string {
		t.Helper()
		page := owner.get("/portfolio")
		doc := page.doc(t)
		if doc.Find(`form#session-form input[name="csrf_token"]`).Length() != 1 {
			t.Fatal("the portfolio page has no form for its buttons to post through")
		}
		row := doc.Find(`.portfolio-table tr:has(button[form="session-form"][formaction="/accounts/switch"][name="account"][value="` + idB + `"])`)
		if row.Length() != 1 {
			t.Fatalf("no row with a button to open B:\n%s", page.body)
		}
		return strings.TrimSpace(row.Find(`td[data-label="Open alerts"]`).Text())
	}
	before := openInB()
	if openInB() != before {
		t.Fatal("B's open alerts moved with nothing changed")
	}
	loc := a.world.Accounts()[1].Locations[0]
	if _, err := a.engine.ApplyAlerts(context.Background(), idB, []upstream.Alert{{ID: "portfolio-new", LocationID: itoa(int64(loc.ID)),
		MacIDs: []string{loc.Devices[0].MAC}, Status: upstream.StatusOpen, Type: string(domain.AlertJam), Created: a.clock.Now()}}); err != nil {
		t.Fatal(err)
	}
	n, _ := strconv.Atoi(before)
	if got := openInB(); got != strconv.Itoa(n+1) {
		t.Errorf("B's open alerts after one opened, in the same second: %s; want %d", got, n+1)
	}
}

// A visitor's report in a client's room shows on the portfolio, its CSV
// and its wall screen, apart from the service's alerts: the client then
// needs attention, the report is unclaimed until someone is on it, and
// it stops counting when it expires a day later, read or not.
func TestPortfolioCountsVisitorsReports(t *testing.T) {
	t.Parallel()
	a, owner, _ := portfolioApp(t)
	ctx := context.Background()
	idA := a.accountOf(false)
	token := owner.makePortfolioScreen(url.Values{"name": {"Staff room"}, "page_seconds": {"15"}})
	tv := a.browser()
	tv.get("/s/" + token)
	headOffice := func() string {
		names, lines := screenClients(t, tv.get("/screen/content"))
		for i, n := range names {
			if n == "Head office" {
				return lines[i]
			}
		}
		t.Fatal("the screen does not show Head office")
		return ""
	}
	before, _ := portfolioCSV(t, owner, "")
	if got := before[idA]["visitor_reports"]; got != "0" {
		t.Fatalf("A's visitors' reports before any: %q; want 0", got)
	}
	if line := headOffice(); strings.Contains(line, "visitor") {
		t.Fatalf("Head office's line before any report: %q", line)
	}

	id := a.visitorReportIn(owner.roomCodes(a.firstFloor())[0], domain.VisitorDirty)
	after, _ := portfolioCSV(t, owner, "")
	if got := after[idA]["visitor_reports"]; got != "1" {
		t.Errorf("A's visitors' reports after one: %q; want 1", got)
	}
	if after[idA]["open_alerts"] != before[idA]["open_alerts"] || rowOf(after[idA]).Unclaimed != rowOf(before[idA]).Unclaimed+1 {
		t.Errorf("A's open and unclaimed alerts: %s and %s before a visitor's report, %s and %s after; want one more unclaimed, the open as before",
			before[idA]["open_alerts"], before[idA]["unclaimed_alerts"], after[idA]["open_alerts"], after[idA]["unclaimed_alerts"])
	}
	if got := after[idA]["state"]; got == domain.HealthOK.String() {
		t.Errorf("A's state with a visitor's report open: %s; want it to need something", got)
	}
	var cells []string
	for _, row := range owner.get("/portfolio").doc(t).Find(".portfolio-row").EachIter() {
		cells = append(cells, strings.TrimSpace(row.Find("th").Contents().First().Text())+": "+
			strings.TrimSpace(row.Find(`td[data-label="Visitors' reports"]`).Text()))
	}
	slices.Sort(cells)
	if want := []string{after[a.accountOf(true)]["client"] + ": 0", "Head office: 1"}; !slices.Equal(cells, want) {
		t.Errorf("the portfolio's column of visitors' reports: %q; want %q", cells, want)
	}
	if line := headOffice(); !strings.Contains(line, "1 visitor's report") {
		t.Errorf("Head office's line on the wall screen: %q; want it to say 1 visitor's report", line)
	}

	if err := a.store.ClaimAlert(ctx, idA, domain.Claim{AlertID: id, Name: "Ana", At: a.clock.Now()}); err != nil {
		t.Fatal(err)
	}
	a.engine.Changed(idA, domain.ResourceAlerts) // as the dashboard's claim does
	claimed, _ := portfolioCSV(t, owner, "")
	if claimed[idA]["visitor_reports"] != "1" || claimed[idA]["unclaimed_alerts"] != before[idA]["unclaimed_alerts"] {
		t.Errorf("after Ana claimed the report: %s visitors' reports, %s unclaimed; want 1 and %s",
			claimed[idA]["visitor_reports"], claimed[idA]["unclaimed_alerts"], before[idA]["unclaimed_alerts"])
	}

	a.clock.Advance(domain.VisitorReportsOpenFor)
	if got, _ := portfolioCSV(t, owner, ""); got[idA]["visitor_reports"] != "0" {
		t.Errorf("A's visitors' reports a day after the only one: %q; want 0, expired", got[idA]["visitor_reports"])
	}
	if line := headOffice(); strings.Contains(line, "visitor") {
		t.Errorf("Head office's line a day after the report: %q", line)
	}
}
