package web

import (
	"bufio"
	"reflect"

	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"washboard/internal/domain"
	"washboard/internal/people"
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
// nobody is on it and offers "I'm on it"; a staff member claiming it with
// a note shows "Maria — 4 min" to everyone, live; someone else can take
// it over, and it can be released. The shift report groups who handled
// what by person.
func TestSomeoneSaysTheyAreOnAnAlert(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	boss := a.browser()
	boss.signIn(credA)
	maria, ali := a.browserAs(domain.Staff, "Maria"), a.browserAs(domain.Staff, "Ali")
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
	r := maria.post(claimPath, url.Values{"csrf_token": {maria.pageCSRF(claimPath)}, "note": {"bringing rolls"}, "back": {"/alerts"}})
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
	// A wall screen of the whole account shows who is on it.
	tv := a.browser()
	tv.get("/s/" + boss.createScreen(screenForm("Staff room", "account")))
	if got := strings.Join(strings.Fields(tv.get("/screen/content").body), " "); !strings.Contains(got, "Maria — 4 min") {
		t.Error("the wall screen does not show Maria — 4 min on the claimed alert's location")
	}
	// So does the alert's location page.
	if got := strings.Join(strings.Fields(ali.get("/locations/"+alert.LocationID).doc(t).Find(".card-alerts").Text()), " "); !strings.Contains(got, "Maria — 4 min") {
		t.Error("the location page does not show Maria — 4 min on the claimed alert")
	}

	// Ali takes it over.
	r = ali.post(claimPath, url.Values{"csrf_token": {ali.pageCSRF(claimPath)}, "back": {"/alerts"}})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("handing over: %d", r.StatusCode)
	}
	if got := claimCellOf(t, maria.get("/alerts"), alert.ID); !strings.Contains(got, "Ali — just now") || strings.Contains(got, "Maria") {
		t.Errorf("after the hand-over the cell says %q; want Ali alone", got)
	}
	// The shift report says who handled what, person by person.
	period := url.Values{"from": {start.Add(-2 * time.Hour).Format("2006-01-02T15:04")}, "to": {start.Add(4 * time.Hour).Format("2006-01-02T15:04")}}
	if got := handledByPerson(t, boss, period); len(got) != 2 || got[0] != "Ali (1): Still on it" || !strings.HasPrefix(got[1], "Maria (1): bringing rolls Handed over at") {
		t.Errorf("the shift report's who handled what: %q", got)
	}
	if csv := boss.get("/reports/shift.csv?table=handled&" + period.Encode()).body; !strings.Contains(csv, "\nMaria,bringing rolls,"+alert.ID+",") ||
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

// handledByPerson reads the shift report's who handled what: a line per
// person, their name and count, then the note and outcome of each claim
// ("Maria (1): bringing rolls Handed over").
func handledByPerson(t *testing.T, b *browser, period url.Values) []string {
	t.Helper()
	var out []string
	b.get("/reports/shift?" + period.Encode()).doc(t).Find("#table-handled tbody.handled-by").Each(func(_ int, tb *goquery.Selection) {
		line := strings.Join(strings.Fields(tb.Find(`th[scope="rowgroup"]`).Text()), " ") + ":"
		tb.Find("tr").Each(func(_ int, tr *goquery.Selection) {
			if cells := tr.Find("td"); cells.Length() > 0 {
				for _, i := range []int{0, 5} {
					if text := strings.Join(strings.Fields(cells.Eq(i).Text()), " "); text != "" {
						line += " " + text
					}
				}
			}
		})
		out = append(out, line)
	})
	return out
}

// TestClaimsRefuseWhatCannotBeKept: a claim of no one, or with a note too
// long, is refused in words with the form kept; a claim without the CSRF
// token is refused; a back address elsewhere goes to the alerts page; and
// an alert that closes ends its claim, its claim page saying it is no
// longer open.
func TestClaimsRefuseWhatCannotBeKept(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	alert := a.anOpenAlert()
	claimPath := "/alerts/" + alert.ID + "/claim"
	token := b.pageCSRF(claimPath)
	me := a.owner(a.accountOf(false)).PersonID

	for _, c := range []struct {
		person, note, want string
	}{
		{"", "kept", "Choose who is on it"},
		{me, strings.Repeat("n", 501), "The note is longer than 500 characters"},
		{me, "Bell\x07", "The note holds control characters"},
	} {
		r := b.post(claimPath, url.Values{"csrf_token": {token}, "person": {c.person}, "note": {c.note}})
		if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.body, c.want) || !strings.Contains(r.body, ">"+c.note+"</textarea>") {
			t.Errorf("claiming for %q with the note %q: %d; want 422 saying %q with the note kept", c.person, c.note, r.StatusCode, c.want)
		}
	}
	if r := b.post(claimPath, url.Values{"person": {me}}); r.StatusCode != http.StatusForbidden {
		t.Errorf("a claim without the CSRF token: %d, want 403", r.StatusCode)
	}
	for _, back := range []string{"//evil.example/", "https://evil.example/", "/\\evil.example"} {
		r := b.post(claimPath, url.Values{"csrf_token": {token}, "person": {me}, "back": {back}})
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
	if r := b.post(claimPath, url.Values{"csrf_token": {token}, "person": {me}}); r.StatusCode != http.StatusNotFound {
		t.Errorf("claiming a closed alert: %d; want 404", r.StatusCode)
	}
}

// TestAnotherAccountsClaimIsNotFound: someone of another account cannot
// see, take over or release a claim: each is answered 404, and the claim
// stays as it was.
func TestAnotherAccountsClaimIsNotFound(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	a.browser().signIn(credA)
	maria, other := a.browserAs(domain.Staff, "Maria"), a.browser()
	other.signIn(credB)
	alert := a.anOpenAlert()
	claimPath := "/alerts/" + alert.ID + "/claim"
	if r := maria.post(claimPath, url.Values{"csrf_token": {maria.pageCSRF(claimPath)}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("claiming: %d", r.StatusCode)
	}
	token := other.pageCSRF("/alerts")
	if r := other.get(claimPath); r.StatusCode != http.StatusNotFound {
		t.Errorf("another account's claim page: %d, want 404", r.StatusCode)
	}
	otherOwner := a.owner(a.accountOf(true)).PersonID
	if r := other.post(claimPath, url.Values{"csrf_token": {token}, "person": {otherOwner}}); r.StatusCode != http.StatusNotFound {
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
// alert under their own name, whatever the form carries, and ends only
// their own claim; the claim follows their name when they change it on
// /me; a supervisor puts another person on it and ends anyone's.
func TestClaimsBelongToThePersonSignedIn(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	a.browser().signIn(credA)
	alert := a.anOpenAlert()
	claim, release := "/alerts/"+alert.ID+"/claim", "/alerts/"+alert.ID+"/release"
	staff := a.browserAs(domain.Staff, "Sid Staff")
	maria := a.browserAs(domain.Staff, "Maria")
	page := staff.get(claim)
	if d := page.doc(t); d.Find(`select[name="person"], input[name="name"]`).Length() != 0 || !strings.Contains(d.Find(".claim-as").Text(), "Sid Staff") {
		t.Errorf("the claim page asks staff whom to put on it, or does not say whose name the claim takes:\n%s", page.body)
	}
	mariaID := a.members(a.accountOf(false))["Maria"].PersonID
	if r := staff.post(claim, url.Values{"csrf_token": {staff.pageCSRF(claim)}, "name": {"Somebody Else"}, "person": {mariaID}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("staff claiming = %d\n%s", r.StatusCode, r.body)
	}
	if got := a.claimName(alert.ID); got != "Sid Staff" {
		t.Errorf("staff's claim is in the name %q; want Sid Staff", got)
	}

	// Sid changes his name: the alert shows the new one.
	if r := staff.post("/me", url.Values{"csrf_token": {staff.pageCSRF("/me")}, "name": {"Sid Sand"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("renaming = %d", r.StatusCode)
	}
	if got := claimCellOf(t, maria.get("/alerts"), alert.ID); !strings.Contains(got, "Sid Sand") {
		t.Errorf("after Sid renamed himself, the alert's cell says %q; want Sid Sand", got)
	}

	boss := a.browserAs(domain.Supervisor, "Sue Boss")
	if r := boss.post(claim, url.Values{"csrf_token": {boss.pageCSRF(claim)}, "person": {mariaID}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("a supervisor putting Maria on it = %d\n%s", r.StatusCode, r.body)
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
	if d := maria.get(claim).doc(t); d.Find(`form[action="`+release+`"]`).Length() != 1 {
		t.Error("Maria is not offered to end the claim a supervisor made in her name")
	}
	if r := boss.post(release, url.Values{"csrf_token": {boss.pageCSRF(claim)}}); r.StatusCode != http.StatusSeeOther {
		t.Errorf("the supervisor ending Maria's claim = %d", r.StatusCode)
	}
	if got := a.claimName(alert.ID); got != "" {
		t.Errorf("after the release, %q is on it", got)
	}
}

// TestSupervisorPutsAPersonOfTheAccountOnAnAlert: a supervisor chooses
// from the account's people who are staff or above and see the alert's
// building, themselves chosen first; a viewer, someone limited to another
// building, a person of another account and no one are refused in
// words. A person removed from the account keeps their name on the claim.
func TestSupervisorPutsAPersonOfTheAccountOnAnAlert(t *testing.T) {
	t.Parallel()
	a := newTwoBuildingsApp(t)
	owner := a.browser()
	owner.signIn(credA)
	acc := a.world.Accounts()[0]
	alerts, err := a.store.FindAlerts(context.Background(), store.AlertFilter{Account: acc.ID, BuildingID: acc.Buildings[0].ID, Status: domain.AlertOpen, Limit: 1})
	if err != nil || len(alerts) == 0 {
		t.Fatalf("no open alert in the first building: %v", err)
	}
	claim := "/alerts/" + alerts[0].ID + "/claim"
	boss := a.browserAs(domain.Supervisor, "Sue Boss")
	a.browserAs(domain.Staff, "Maria")
	a.browserAs(domain.Viewer, "Vic Viewer")
	_, token, err := a.people.Invite(context.Background(), a.owner(acc.ID), people.Invite{Role: domain.Staff, Buildings: []string{acc.Buildings[1].ID}})
	if err != nil {
		t.Fatal(err)
	}
	if r := a.browser().accept(token, "Otto Elsewhere"); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("accepting = %d", r.StatusCode)
	}
	a.browser().signIn(credB)
	members := a.members(acc.ID)

	d := boss.get(claim).doc(t)
	var offered []string
	d.Find(`select[name="person"] option`).Each(func(_ int, o *goquery.Selection) { offered = append(offered, o.Text()) })
	if want := []string{defaultPersonName, "Maria", "Sue Boss"}; !reflect.DeepEqual(offered, want) {
		t.Errorf("the supervisor is offered %q; want %q", offered, want)
	}
	if got := d.Find(`select[name="person"] option[selected]`).Text(); got != "Sue Boss" {
		t.Errorf("the person chosen first is %q; want the supervisor", got)
	}
	for _, c := range []struct{ who, person, says string }{
		{"a viewer", members["Vic Viewer"].PersonID, "Vic Viewer is a viewer, and viewers are not put on alerts"},
		{"someone of another building", members["Otto Elsewhere"].PersonID, "Otto Elsewhere's role is limited to other buildings than " + acc.Buildings[0].Name},
		{"a person of another account", a.owner(a.accountOf(true)).PersonID, "The person chosen is not one of this account's people"},
		{"a person of no one", "nobody", "The person chosen is not one of this account's people"},
		{"no one", "", "Choose who is on it"},
	} {
		r := boss.post(claim, url.Values{"csrf_token": {boss.pageCSRF(claim)}, "person": {c.person}, "note": {"kept"}})
		if d := r.doc(t); r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(d.Find(".message-error").Text(), c.says) || d.Find("textarea").Text() != "kept" {
			t.Errorf("putting %s on the alert = %d; want 422 saying %q with the note kept", c.who, r.StatusCode, c.says)
		}
	}
	if got := a.claimName(alerts[0].ID); got != "" {
		t.Errorf("after the refusals, %q is on the alert", got)
	}

	if r := boss.post(claim, url.Values{"csrf_token": {boss.pageCSRF(claim)}, "person": {members["Maria"].PersonID}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("putting Maria on the alert = %d\n%s", r.StatusCode, r.body)
	}
	if _, err := a.people.RemoveMember(context.Background(), a.owner(acc.ID), members["Maria"].PersonID); err != nil {
		t.Fatal(err)
	}
	if got := claimCellOf(t, boss.get("/alerts"), alerts[0].ID); !strings.Contains(got, "Maria") {
		t.Errorf("after Maria was removed from the account, the alert's cell says %q; want her name", got)
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

// TestClaimsOfNamesTypedBeforePeopleStillShow: a claim kept from before
// claims belonged to people (a name typed, no person) shows its name on
// the alerts page, and the shift report lists it under that name, apart
// from a person of the same name.
func TestClaimsOfNamesTypedBeforePeopleStillShow(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	boss := a.browser()
	boss.signIn(credA)
	maria := a.browserAs(domain.Staff, "Maria")
	alerts, err := a.store.FindAlerts(context.Background(), store.AlertFilter{Account: a.accountOf(false), Status: domain.AlertOpen, Limit: 2})
	if err != nil || len(alerts) < 2 {
		t.Fatalf("%d open alerts, %v; the test needs 2", len(alerts), err)
	}
	typed := domain.Claim{AlertID: alerts[0].ID, Name: "Maria", Note: "from before", At: a.clock.Now()}
	if err := a.store.ClaimAlert(context.Background(), a.accountOf(false), typed); err != nil {
		t.Fatal(err)
	}
	claim := "/alerts/" + alerts[1].ID + "/claim"
	if r := maria.post(claim, url.Values{"csrf_token": {maria.pageCSRF(claim)}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("Maria claiming = %d", r.StatusCode)
	}
	if got := claimCellOf(t, boss.get("/alerts"), alerts[0].ID); !strings.Contains(got, "Maria — just now") || !strings.Contains(got, "from before") {
		t.Errorf("the cell of the alert claimed by a name typed says %q", got)
	}
	period := url.Values{"from": {a.clock.Now().Add(-time.Hour).Format("2006-01-02T15:04")}, "to": {a.clock.Now().Add(time.Hour).Format("2006-01-02T15:04")}}
	want := []string{"Maria (1): Still on it", "Maria (a name typed before claims belonged to people) (1): from before Still on it"}
	if got := handledByPerson(t, boss, period); !reflect.DeepEqual(got, want) {
		t.Errorf("the shift report's who handled what: %q;\nwant %q", got, want)
	}
}
