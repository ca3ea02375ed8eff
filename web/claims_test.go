package web

import (
	"bufio"

	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/upstream"
)

// pageCSRF reads the CSRF token of a signed-in page's forms.
func (b *browser) pageCSRF(path string) string {
	b.a.t.Helper()
	m := csrfInput.FindStringSubmatch(b.get(path).body)
	if m == nil {
		b.a.t.Fatalf("no form with a CSRF token on %s", path)
	}
	return m[1]
}

// anOpenAlert is an open alert of the first account, as the cache has it.
func (a *app) anOpenAlert() domain.Alert {
	a.t.Helper()
	alerts, err := a.store.FindAlerts(context.Background(), store.AlertFilter{Account: a.world.Accounts()[0].ID, Status: domain.AlertOpen, Limit: 1})
	if err != nil || len(alerts) == 0 {
		a.t.Fatalf("no open alert in the cache: %v", err)
	}
	return alerts[0]
}

// claimCellOf is the text of the "Who is on it" cell of an alert's row on
// the alerts page.
func claimCellOf(t *testing.T, r response, alertID string) string {
	t.Helper()
	doc := r.doc(t)
	cell := doc.Find(`a[href^="/alerts/` + alertID + `/claim"]`).First().Closest("td")
	if cell.Length() == 0 {
		t.Fatalf("the alerts page has no claim link for alert %s", alertID)
	}
	return strings.Join(strings.Fields(cell.Text()), " ")
}

// TestSomeoneSaysTheyAreOnAnAlert: on the alerts page an open alert says
// nobody is on it and offers "I'm on it"; claiming it with a name and a
// note shows "Maria — 4 min" to everyone, live; someone else can take it
// over, and it can be released. The name is remembered for the next claim.
func TestSomeoneSaysTheyAreOnAnAlert(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	maria, ali := a.browser(), a.browser()
	maria.signIn(credA)
	ali.signIn(credA)
	alert := a.anOpenAlert()

	if got := claimCellOf(t, maria.get("/alerts"), alert.ID); !strings.Contains(got, "I'm on it") {
		t.Fatalf("an unclaimed alert's cell says %q, want the I'm on it link", got)
	}

	// Ali's page listens for changes while Maria claims the alert.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, a.srv.URL+"/events", nil)
	resp, err := ali.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	heard := make(chan struct{}, 8)
	go func() {
		lines := bufio.NewScanner(resp.Body)
		for lines.Scan() {
			if lines.Text() == "event: alerts" {
				heard <- struct{}{}
			}
		}
	}()

	claimPath := "/alerts/" + alert.ID + "/claim"
	page := maria.get(claimPath + "?back=/alerts")
	if page.StatusCode != http.StatusOK || !strings.Contains(page.body, alert.Type.Label()) {
		t.Fatalf("the claim page: %d, naming the alert %v", page.StatusCode, strings.Contains(page.body, alert.Type.Label()))
	}
	r := maria.post(claimPath, url.Values{"csrf_token": {maria.pageCSRF(claimPath)}, "name": {"  Maria "}, "note": {"bringing rolls"}, "back": {"/alerts"}})
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/alerts" {
		t.Fatalf("claiming: %d to %q, want a redirect back to /alerts", r.StatusCode, r.Header.Get("Location"))
	}
	select {
	case <-heard:
	case <-time.After(5 * time.Second):
		t.Error("another user's page heard nothing of the claim within 5 s")
	}
	a.clock.Advance(4 * time.Minute)
	if got := claimCellOf(t, ali.get("/alerts"), alert.ID); !strings.Contains(got, "Maria — 4 min") || !strings.Contains(got, "bringing rolls") {
		t.Errorf("after Maria's claim, the cell says %q to another user; want Maria — 4 min and her note", got)
	}
	if got := maria.get(claimPath).body; !strings.Contains(got, `value="Maria"`) {
		t.Error("the claim form does not remember the name claimed with")
	}
	// A wall screen of the whole account shows who is on it.
	tv := a.browser()
	tv.get("/s/" + maria.createScreen(screenForm("Staff room", "account")))
	if got := strings.Join(strings.Fields(tv.get("/screen/content").body), " "); !strings.Contains(got, "Maria — 4 min") {
		t.Error("the wall screen does not show Maria — 4 min on the claimed alert's location")
	}
	// So does the alert's location page.
	if got := strings.Join(strings.Fields(ali.get("/locations/"+alert.LocationID).doc(t).Find(".card-alerts").Text()), " "); !strings.Contains(got, "Maria — 4 min") {
		t.Error("the location page does not show Maria — 4 min on the claimed alert")
	}

	// Ali takes it over.
	r = ali.post(claimPath, url.Values{"csrf_token": {ali.pageCSRF(claimPath)}, "name": {"Ali"}, "back": {"/alerts"}})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("handing over: %d", r.StatusCode)
	}
	if got := claimCellOf(t, maria.get("/alerts"), alert.ID); !strings.Contains(got, "Ali — just now") || strings.Contains(got, "Maria") {
		t.Errorf("after the hand-over the cell says %q; want Ali alone", got)
	}
	// The shift report says who handled what.
	period := url.Values{"from": {start.Add(-2 * time.Hour).Format("2006-01-02T15:04")}, "to": {start.Add(4 * time.Hour).Format("2006-01-02T15:04")}}
	report := maria.get("/reports/shift?" + period.Encode()).doc(t).Find("#table-handled tbody tr")
	var rows []string
	report.Each(func(_ int, tr *goquery.Selection) { rows = append(rows, strings.Join(strings.Fields(tr.Text()), " ")) })
	if len(rows) != 2 || !strings.HasPrefix(rows[0], "Maria bringing rolls") || !strings.Contains(rows[0], "Handed over") ||
		!strings.HasPrefix(rows[1], "Ali") || !strings.Contains(rows[1], "Still on it") {
		t.Errorf("the shift report's who handled what: %q", rows)
	}
	if csv := maria.get("/reports/shift.csv?table=handled&" + period.Encode()).body; !strings.Contains(csv, "\nMaria,bringing rolls,"+alert.ID+",") ||
		!strings.Contains(csv, ",handed,") {
		t.Errorf("the report's CSV of who handled what:\n%s", csv)
	}

	// And releases it.
	r = ali.post("/alerts/"+alert.ID+"/release", url.Values{"csrf_token": {ali.pageCSRF(claimPath)}, "back": {"/alerts"}})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("releasing: %d", r.StatusCode)
	}
	if got := claimCellOf(t, maria.get("/alerts"), alert.ID); !strings.Contains(got, "I'm on it") || strings.Contains(got, "Ali") {
		t.Errorf("after the release the cell says %q; want nobody on it", got)
	}
}

// TestClaimsRefuseWhatCannotBeKept: a claim without a name, or with one
// too long, is refused in words with the form kept; a claim without the
// CSRF token is refused; a back address elsewhere goes to the alerts
// page; and an alert that closes ends its claim, its claim page saying it
// is no longer open.
func TestClaimsRefuseWhatCannotBeKept(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	alert := a.anOpenAlert()
	claimPath := "/alerts/" + alert.ID + "/claim"
	token := b.pageCSRF(claimPath)

	for _, c := range []struct {
		name, want string
	}{
		{"   ", "The name is needed"},
		{strings.Repeat("n", 81), "The name is longer than 80 characters"},
		{"Bell\x07", "The name holds control characters"},
	} {
		r := b.post(claimPath, url.Values{"csrf_token": {token}, "name": {c.name}, "note": {"kept"}})
		if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.body, c.want) || !strings.Contains(r.body, ">kept</textarea>") {
			t.Errorf("claiming with the name %q: %d; want 422 saying %q with the note kept", c.name, r.StatusCode, c.want)
		}
	}
	if r := b.post(claimPath, url.Values{"name": {"Maria"}}); r.StatusCode != http.StatusForbidden {
		t.Errorf("a claim without the CSRF token: %d, want 403", r.StatusCode)
	}
	for _, back := range []string{"//evil.example/", "https://evil.example/", "/\\evil.example"} {
		r := b.post(claimPath, url.Values{"csrf_token": {token}, "name": {"Maria"}, "back": {back}})
		if loc := r.Header.Get("Location"); r.StatusCode != http.StatusSeeOther || loc != "/alerts" {
			t.Errorf("claiming with back=%q: %d to %q, want /alerts", back, r.StatusCode, loc)
		}
	}

	// The service's event closes the alert: the claim ends with it.
	closed := upstream.Alert{ID: alert.ID, LocationID: alert.LocationID, MacIDs: alert.MACs, Status: upstream.StatusClosed,
		Type: string(alert.Type), Created: alert.Created, Resolved: a.clock.Now(), ResolutionType: upstream.ResolvedByDevice, RefillCount: alert.RefillCount}
	if _, err := a.engine.ApplyAlerts(context.Background(), a.world.Accounts()[0].ID, []upstream.Alert{closed}); err != nil {
		t.Fatal(err)
	}
	claims, err := a.store.ActiveClaims(context.Background(), a.world.Accounts()[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := claims[alert.ID]; ok {
		t.Errorf("the alert closed, and its claim by %s is still active", c.Name)
	}
	if r := b.get(claimPath); r.StatusCode != http.StatusNotFound || !strings.Contains(r.body, "no longer open") {
		t.Errorf("the claim page of a closed alert: %d; want 404 saying it is no longer open", r.StatusCode)
	}
	if r := b.post(claimPath, url.Values{"csrf_token": {token}, "name": {"Maria"}}); r.StatusCode != http.StatusNotFound {
		t.Errorf("claiming a closed alert: %d; want 404", r.StatusCode)
	}
}

// TestAnotherAccountsClaimIsNotFound: someone of another account cannot
// see, take over or release a claim: each is answered 404, and the claim
// stays as it was.
func TestAnotherAccountsClaimIsNotFound(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	maria, other := a.browser(), a.browser()
	maria.signIn(credA)
	other.signIn(credB)
	alert := a.anOpenAlert()
	claimPath := "/alerts/" + alert.ID + "/claim"
	if r := maria.post(claimPath, url.Values{"csrf_token": {maria.pageCSRF(claimPath)}, "name": {"Maria"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("claiming: %d", r.StatusCode)
	}
	token := other.pageCSRF("/alerts")
	if r := other.get(claimPath); r.StatusCode != http.StatusNotFound {
		t.Errorf("another account's claim page: %d, want 404", r.StatusCode)
	}
	if r := other.post(claimPath, url.Values{"csrf_token": {token}, "name": {"Ali"}}); r.StatusCode != http.StatusNotFound {
		t.Errorf("taking over another account's claim: %d, want 404", r.StatusCode)
	}
	if r := other.post("/alerts/"+alert.ID+"/release", url.Values{"csrf_token": {token}}); r.StatusCode != http.StatusNotFound {
		t.Errorf("releasing another account's claim: %d, want 404", r.StatusCode)
	}
	if got := claimCellOf(t, maria.get("/alerts"), alert.ID); !strings.Contains(got, "Maria") {
		t.Errorf("after another account's tries the cell says %q; want Maria still on it", got)
	}
}

// TestClaimsBelongToThePersonSignedIn: a staff member says they are on an
// alert under their own name, whatever name the form carries, and ends
// only their own claim; a supervisor claims for someone else and ends
// anyone's.
func TestClaimsBelongToThePersonSignedIn(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	a.browser().signIn(credA)
	alert := a.anOpenAlert()
	claim, release := "/alerts/"+alert.ID+"/claim", "/alerts/"+alert.ID+"/release"
	staff := a.browserAs(domain.Staff, "Sid Staff")
	page := staff.get(claim)
	if d := page.doc(t); d.Find(`input[name="name"]`).Length() != 0 || !strings.Contains(d.Find(".claim-as").Text(), "Sid Staff") {
		t.Errorf("the claim page asks staff for a name, or does not say whose name the claim takes:\n%s", page.body)
	}
	if r := staff.post(claim, url.Values{"csrf_token": {staff.pageCSRF(claim)}, "name": {"Somebody Else"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("staff claiming = %d\n%s", r.StatusCode, r.body)
	}
	if got := a.claimName(alert.ID); got != "Sid Staff" {
		t.Errorf("staff's claim is in the name %q; want Sid Staff", got)
	}

	boss := a.browserAs(domain.Supervisor, "Sue Boss")
	if r := boss.post(claim, url.Values{"csrf_token": {boss.pageCSRF(claim)}, "name": {"Maria"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("a supervisor claiming for Maria = %d", r.StatusCode)
	}
	if got := a.claimName(alert.ID); got != "Maria" {
		t.Errorf("the supervisor's claim for Maria is in the name %q", got)
	}
	if d := staff.get(claim).doc(t); d.Find(`form[action="`+release+`"]`).Length() != 0 {
		t.Error("staff are offered to end someone else's claim")
	}
	r := staff.post(release, url.Values{"csrf_token": {staff.pageCSRF(claim)}})
	if r.StatusCode != http.StatusForbidden || !strings.Contains(r.body, "only they, or a supervisor") {
		t.Errorf("staff ending Maria's claim = %d; want 403 in words", r.StatusCode)
	}
	if r := boss.post(release, url.Values{"csrf_token": {boss.pageCSRF(claim)}}); r.StatusCode != http.StatusSeeOther {
		t.Errorf("the supervisor ending Maria's claim = %d", r.StatusCode)
	}
	if got := a.claimName(alert.ID); got != "" {
		t.Errorf("after the release, %q is on it", got)
	}
}

// claimName is who is on an open alert of the first account; "" for
// nobody.
func (a *app) claimName(alertID string) string {
	a.t.Helper()
	v, err := a.deps.Dashboard.ClaimOf(context.Background(), a.accountOf(false), domain.EveryBuilding(), alertID)
	if err != nil {
		a.t.Fatal(err)
	}
	return v.Claim.Name
}
