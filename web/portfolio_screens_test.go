package web

import (
	"bufio"
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"washboard/internal/domain"
	"washboard/internal/people"
)

var portfolioScreenID = regexp.MustCompile(`/portfolio/screens/([0-9a-f]{16})/revoke`)

// makePortfolioScreen makes a screen on the organisation's Wall screens
// page and returns its link's token.
func (b *browser) makePortfolioScreen(values url.Values) string {
	t := b.a.t
	t.Helper()
	r := b.formOf("/portfolio/screens", "/portfolio/screens", values)
	if r.StatusCode != http.StatusOK {
		t.Fatalf("making a portfolio screen = %d\n%s", r.StatusCode, r.body)
	}
	links := screenLink.FindAllStringSubmatch(r.body, -1)
	if len(links) != 1 {
		t.Fatalf("the new screen's link appears %d times, want once", len(links))
	}
	return links[0][1]
}

// screenClients are the client lines of a screen, in their order: the
// client's name, and the line's words.
func screenClients(t *testing.T, r response) (names, lines []string) {
	t.Helper()
	r.doc(t).Find(".screen-client").Each(func(_ int, s *goquery.Selection) {
		name := s.Find(".screen-item-location").Clone()
		name.Find(".screen-client-region").Remove()
		names = append(names, strings.TrimSpace(name.Text()))
		lines = append(lines, strings.Join(strings.Fields(s.Text()), " "))
	})
	return names, lines
}

// A portfolio screen shows each client of the organisation, a line each,
// in the portfolio's order (worst first) with the portfolio's figures,
// and its service level in words; its link is shown once and never
// logged, and opens the screen's routes alone.
func TestPortfolioScreenShowsClientsWorstFirst(t *testing.T) {
	t.Parallel()
	a, owner, _ := portfolioApp(t)
	token := owner.makePortfolioScreen(url.Values{"name": {"Staff room"}, "page_seconds": {"12"}, "contact": {"the office"}})

	tv := a.browser()
	if r := tv.get("/s/" + token); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/screen" {
		t.Fatalf("opening the link = %d to %q; want a redirect to /screen", r.StatusCode, r.Header.Get("Location"))
	}
	page := tv.get("/screen")
	if page.StatusCode != http.StatusOK {
		t.Fatalf("the screen = %d\n%s", page.StatusCode, page.body)
	}
	rows, order := portfolioCSV(t, owner, "")
	names, lines := screenClients(t, page)
	if len(names) != len(order) {
		t.Fatalf("the screen shows clients %q; the portfolio %d", names, len(order))
	}
	for i, id := range order {
		r := rows[id]
		if names[i] != r["client"] {
			t.Errorf("line %d of the screen is %q; the portfolio's row %d is %q (worst first)", i+1, names[i], i+1, r["client"])
		}
		for col, words := range map[string]string{"open_alerts": " open alert", "overdue_alerts": " overdue", "unclaimed_alerts": " unclaimed",
			"dispensers_out": " dispenser", "devices_offline": " device"} {
			n, _ := strconv.Atoi(r[col])
			if n > 0 && !strings.Contains(lines[i], strconv.Itoa(n)+words) {
				t.Errorf("%s's line %q does not say %s%s", r["client"], lines[i], r[col], words)
			}
		}
		if !strings.Contains(lines[i], "No service level targets") {
			t.Errorf("%s's line %q does not say it has no targets", r["client"], lines[i])
		}
	}
	for _, want := range []string{"Shine Services", "Staff room", `name="screen-page-seconds" content="12"`, `id="screen-pages"`, "Data as of", " · North"} {
		if !strings.Contains(page.body, want) {
			t.Errorf("the screen does not say %q", want)
		}
	}
	if strings.Contains(page.body, a.world.Accounts()[2].Name) {
		t.Error("the screen shows the other organisation's account")
	}
	for _, path := range []string{"/", "/portfolio", "/portfolio.csv", "/portfolio/screens"} {
		if r := tv.get(path); r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/signin") {
			t.Errorf("the screen asking for %s: %d; want to be sent to sign in", path, r.StatusCode)
		}
	}
	if strings.Contains(a.logs.String(), token) || !strings.Contains(a.logs.String(), "/s/REDACTED") {
		t.Error("the screen's link is logged, or not with its token redacted")
	}
	if list := owner.get("/portfolio/screens"); strings.Contains(list.body, token) || !strings.Contains(list.body, "Every client") {
		t.Error("the list shows the link again, or not which clients the screen shows")
	}
}

// A screen of chosen clients shows them alone, each a unit that
// screen.js pages.
func TestPortfolioScreenOfChosenClients(t *testing.T) {
	t.Parallel()
	a, owner, _ := portfolioApp(t)
	idB := a.accountOf(true)
	token := owner.makePortfolioScreen(url.Values{"name": {"South desk"}, "account": {idB}, "page_seconds": {"20"}})
	tv := a.browser()
	tv.get("/s/" + token)
	page := tv.get("/screen")
	names, _ := screenClients(t, page)
	if len(names) != 1 || names[0] != a.world.Accounts()[1].Name {
		t.Errorf("the screen of client B shows %q", names)
	}
	if strings.Contains(page.body, "Head office") {
		t.Error("the screen of client B shows Head office")
	}
	doc := page.doc(t)
	if n := doc.Find(".screen-groups .screen-part .screen-group .screen-item.screen-client").Length(); n != 1 {
		t.Errorf("%d client lines where screen.js pages them; want 1", n)
	}
	if list := owner.get("/portfolio/screens"); !strings.Contains(list.body, a.world.Accounts()[1].Name) || !strings.Contains(list.body, "pages every 20 s") {
		t.Error("the list does not say which client the screen shows, or its settings")
	}
}

// An unlinked portfolio screen says so, on the page and in its event
// stream; its link is dead; a new link brings it back and drops the old
// browser.
func TestUnlinkedPortfolioScreenSaysSo(t *testing.T) {
	t.Parallel()
	a, owner, _ := portfolioApp(t)
	token := owner.makePortfolioScreen(url.Values{"name": {"Lobby"}, "page_seconds": {"15"}})
	tv := a.browser()
	tv.get("/s/" + token)
	id := portfolioScreenID.FindStringSubmatch(owner.get("/portfolio/screens").body)
	if id == nil {
		t.Fatal("no Unlink on the list")
	}
	if r := owner.formOf("/portfolio/screens", "/portfolio/screens/"+id[1]+"/revoke", url.Values{}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("unlinking = %d\n%s", r.StatusCode, r.body)
	}
	if r := tv.get("/screen"); !strings.Contains(r.body, "This screen was unlinked") || strings.Contains(r.body, "Head office") {
		t.Errorf("the unlinked screen shows:\n%s", r.body)
	}
	resp, err := tv.client.Get(a.srv.URL + "/screen/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	lines := bufio.NewScanner(resp.Body)
	beat := ""
	for beat == "" && lines.Scan() {
		if l := lines.Text(); strings.HasPrefix(l, "data: {") {
			beat = l
		}
	}
	if !strings.Contains(beat, `"stopped":{"title":"This screen was unlinked"`) {
		t.Errorf("the unlinked screen's heartbeat = %q", beat)
	}
	if r := tv.get("/s/" + token); r.StatusCode != http.StatusNotFound {
		t.Errorf("the unlinked screen's link = %d; want 404", r.StatusCode)
	}
	if r := owner.formOf("/portfolio/screens", "/portfolio/screens/"+id[1]+"/remove", url.Values{}); r.StatusCode != http.StatusSeeOther {
		t.Errorf("removing the unlinked screen = %d", r.StatusCode)
	}
	if list := owner.get("/portfolio/screens"); strings.Contains(list.body, "Lobby") {
		t.Error("the removed screen is still listed")
	}
}

// A person of another organisation, or of none, learns nothing of an
// organisation's screens and changes none, whatever id they try; a
// person whose role covers some clients sees and makes only screens of
// those; the screen never shows more than its maker may see, and stops
// when its maker leaves the organisation.
func TestPortfolioScreensStayInTheirOrganisation(t *testing.T) {
	t.Parallel()
	a, owner, rival := portfolioApp(t)
	ctx := context.Background()
	idA, idB := a.accountOf(false), a.accountOf(true)
	owner.makePortfolioScreen(url.Values{"name": {"Break room TV"}, "page_seconds": {"15"}})
	id := portfolioScreenID.FindStringSubmatch(owner.get("/portfolio/screens").body)[1]

	if list := rival.get("/portfolio/screens"); list.StatusCode != http.StatusOK || strings.Contains(list.body, "Break room TV") || strings.Contains(list.body, id) {
		t.Errorf("Rival's screens = %d, with Shine's screen", list.StatusCode)
	}
	nobody := a.browserAs(domain.Supervisor, "Sue") // of account A, of no organisation
	for _, b := range []*browser{rival, nobody} {
		if r := b.get("/portfolio/screens/" + id + "/edit"); r.StatusCode != http.StatusNotFound || strings.Contains(r.body, "Break room TV") {
			t.Errorf("another's edit form = %d", r.StatusCode)
		}
		for _, path := range []string{"", "/revoke", "/relink", "/remove"} {
			r := b.formOf("/accounts", "/portfolio/screens/"+id+path, url.Values{"name": {"Mine"}, "page_seconds": {"15"}})
			if r.StatusCode != http.StatusNotFound || strings.Contains(r.body, "Break room TV") || screenLink.MatchString(r.body) {
				t.Errorf("another's POST /portfolio/screens/{id}%s = %d; want 404, and nothing of the screen", path, r.StatusCode)
			}
		}
	}
	if r := nobody.get("/portfolio/screens"); r.StatusCode != http.StatusNotFound {
		t.Errorf("a person of no organisation: /portfolio/screens = %d; want 404", r.StatusCode)
	}
	if list := owner.get("/portfolio/screens"); !strings.Contains(list.body, "Break room TV") || !strings.Contains(list.body, "Active") {
		t.Error("the others' tries changed Shine's screen")
	}

	// Vera: staff of A, supervisor in the organisation over B alone.
	_, inv, err := a.people.Invite(ctx, a.owner(idA), people.Invite{Role: domain.Staff, Email: "vera@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	vera := a.browser()
	vera.accept(inv, "Vera")
	if r := owner.formOf("/organisation", "/organisation/people", url.Values{"email": {"vera@example.com"}, "role": {"supervisor"}, "account": {idB}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("giving Vera a role = %d", r.StatusCode)
	}
	vera.formOf("/accounts", "/accounts/switch", url.Values{"account": {idB}})
	list := vera.get("/portfolio/screens")
	if list.StatusCode != http.StatusOK || strings.Contains(list.body, "Break room TV") || strings.Contains(list.body, `value="`+idA+`"`) {
		t.Errorf("Vera's list = %d: it shows the screen of every client, or offers client A", list.StatusCode)
	}
	if r := vera.get("/portfolio/screens/" + id + "/edit"); r.StatusCode != http.StatusNotFound {
		t.Errorf("Vera editing a screen beyond her clients = %d; want 404", r.StatusCode)
	}
	for _, c := range []struct {
		values url.Values
		words  string
	}{
		{url.Values{"name": {"All"}, "page_seconds": {"15"}}, "Your role in the organisation covers some of its clients"},
		{url.Values{"name": {"A"}, "page_seconds": {"15"}, "account": {idA}}, "is not a client of the organisation your role covers"},
		{url.Values{"name": {""}, "page_seconds": {"15"}, "account": {idB}}, "Give the screen a name"},
		{url.Values{"name": {"B"}, "page_seconds": {"2"}, "account": {idB}}, "from 5 to 300"},
	} {
		r := vera.formOf("/portfolio/screens", "/portfolio/screens", c.values)
		if r.StatusCode/100 != 4 || !strings.Contains(r.body, c.words) || screenLink.MatchString(r.body) {
			t.Errorf("Vera making %v = %d; want a refusal saying %q", c.values, r.StatusCode, c.words)
		}
	}
	token := vera.makePortfolioScreen(url.Values{"name": {"B desk"}, "page_seconds": {"15"}, "account": {idB}})
	tv := a.browser()
	tv.get("/s/" + token)
	if names, _ := screenClients(t, tv.get("/screen")); len(names) != 1 || names[0] != a.world.Accounts()[1].Name {
		t.Errorf("Vera's screen shows %q; want client B", names)
	}
	p, err := a.store.PersonByEmail(ctx, "vera@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.people.RemoveOrganisationPerson(ctx, a.owner(idA).PersonID, p.ID); err != nil {
		t.Fatal(err)
	}
	if r := tv.get("/screen"); !strings.Contains(r.body, "no longer belongs to the organisation") || strings.Contains(r.body, "screen-client") {
		t.Errorf("the screen of a maker who left shows:\n%s", r.body)
	}
}

// Supervisors and above of the organisation make its screens; a viewer of
// it is refused in words; an organisation keeps at most
// MaxPortfolioScreens.
func TestPortfolioScreensNeedASupervisorAndAreBounded(t *testing.T) {
	t.Parallel()
	a, owner, _ := portfolioApp(t)
	ctx := context.Background()
	idA := a.accountOf(false)
	_, inv, err := a.people.Invite(ctx, a.owner(idA), people.Invite{Role: domain.Supervisor, Email: "val@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	val := a.browser()
	val.accept(inv, "Val")
	if r := owner.formOf("/organisation", "/organisation/people", url.Values{"email": {"val@example.com"}, "role": {"viewer"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("giving Val a role = %d", r.StatusCode)
	}
	if r := val.formOf("/portfolio/screens", "/portfolio/screens", url.Values{"name": {"Mine"}, "page_seconds": {"15"}}); r.StatusCode != http.StatusForbidden ||
		!strings.Contains(r.body, "Only supervisors, admins and owners of the organisation") {
		t.Errorf("a viewer of the organisation making a screen = %d\n%s", r.StatusCode, r.body)
	}
	if list := val.get("/portfolio/screens"); list.StatusCode != http.StatusOK || strings.Contains(list.body, `action="/portfolio/screens"`) {
		t.Errorf("a viewer's list = %d, with the form", list.StatusCode)
	}

	g, _, err := a.people.OrganisationOf(ctx, a.owner(idA).PersonID)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		if _, _, err := a.deps.Dashboard.CreatePortfolioScreen(ctx, g, domain.Screen{Name: "S" + strconv.Itoa(i), PageSeconds: 15, DimFrom: -1, DimTo: -1}); err != nil {
			t.Fatal(err)
		}
	}
	r := owner.formOf("/portfolio/screens", "/portfolio/screens", url.Values{"name": {"One more"}, "page_seconds": {"15"}})
	if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.body, "An organisation keeps at most 200 wall screens") ||
		!strings.Contains(r.body, `value="One more"`) || screenLink.MatchString(r.body) {
		t.Errorf("the 201st screen = %d; want 422 in words, with the form as typed", r.StatusCode)
	}
}

// A portfolio screen follows its clients: when a client's data changes,
// the screen's event stream says "changed" at its next heartbeat, and the
// screen's content then shows the change.
func TestPortfolioScreenFollowsItsClients(t *testing.T) {
	t.Parallel()
	const beat = 100 * time.Millisecond
	a, owner, _ := portfolioAppWith(t, Config{ScreenHeartbeat: beat}, appOptions{locations: 40, accounts: 3})
	token := owner.makePortfolioScreen(url.Values{"name": {"Staff room"}, "page_seconds": {"15"}})
	tv := a.browser()
	tv.get("/s/" + token)
	// Client A, Head office, the account the owner is in: its sync runs.
	client := a.world.Accounts()[0]
	outOf := func(r response) int {
		names, lines := screenClients(t, r)
		for i, n := range names {
			if n == "Head office" {
				out, _ := strconv.Atoi(regexp.MustCompile(`(\d+) dispensers? out`).FindStringSubmatch(lines[i] + " 0 dispensers out")[1])
				return out
			}
		}
		t.Fatal("the screen does not show Head office")
		return 0
	}
	before := outOf(tv.get("/screen"))

	resp, err := tv.client.Get(a.srv.URL + "/screen/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	lines := bufio.NewScanner(resp.Body)
	next := func(prefix string) chan string {
		found := make(chan string, 1)
		go func() {
			for lines.Scan() {
				if l := lines.Text(); strings.HasPrefix(l, prefix) {
					found <- l
					return
				}
			}
			found <- ""
		}()
		return found
	}
	if first := <-next("data: {"); !strings.Contains(first, `"version"`) {
		t.Fatalf("first heartbeat = %q", first)
	}
	emptied := false
	for _, r := range client.Rooms {
		for _, l := range r.Locations {
			if !emptied && l.Type == "towel" {
				emptied = a.world.Empty(l.Devices[0].MAC)
			}
		}
	}
	if !emptied {
		t.Fatal("no towel dispenser of the client to empty")
	}
	changed := next("event: changed")
	a.clock.Advance(time.Minute)
	a.clock.BlockUntil(1)
	select {
	case l := <-changed:
		if l == "" {
			t.Fatal("the stream ended without saying the data changed")
		}
	case <-time.After(10*beat + 25*time.Second): // a bound for a crowded machine, not a measure
		t.Fatal("no \"changed\" within the heartbeats after the client's data changed")
	}
	if after := outOf(tv.get("/screen/content")); after != before+1 {
		t.Errorf("Head office: %d dispensers out after one was emptied; %d before", after, before)
	}
}

// A client with service level targets says on the screen, in words, how
// many alerts closed this week met and missed them, and how many open
// ones are at risk.
func TestPortfolioScreenSaysServiceLevels(t *testing.T) {
	t.Parallel()
	a, owner, _ := portfolioApp(t)
	now := a.clock.Now()
	late, _ := slAlert(t, a, "sl-late", 40*time.Minute)
	onTime, _ := slAlert(t, a, "sl-on-time", 30*time.Minute)
	slAlert(t, a, "sl-risky", 13*time.Minute) // 13 of its 15 minutes to claim used
	claimAt(t, a, late.ID, now.Add(-20*time.Minute))
	claimAt(t, a, onTime.ID, now.Add(-25*time.Minute))
	if r := owner.post("/service-levels", serviceLevelForm(owner.pageCSRF("/service-levels"), "always", "", "UTC", "15", "1h")); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("saving targets: %d\n%s", r.StatusCode, r.body)
	}
	closeAlert(t, a, late)
	closeAlert(t, a, onTime)

	token := owner.makePortfolioScreen(url.Values{"name": {"Staff room"}, "page_seconds": {"15"}})
	tv := a.browser()
	tv.get("/s/" + token)
	page := tv.get("/screen")
	names, lines := screenClients(t, page)
	for i, n := range names {
		if n != "Head office" {
			continue
		}
		if !strings.Contains(lines[i], "This week: 1 met, 1 missed") || !regexp.MustCompile(`\d+ open alerts? at risk`).MatchString(lines[i]) {
			t.Errorf("Head office's line %q does not say its service level in words", lines[i])
		}
		if page.doc(t).Find(".screen-client").Eq(i).Find(".screen-client-level-warning").Length() != 1 {
			t.Error("a service level with a target missed is not marked beside its words")
		}
		return
	}
	t.Fatalf("the screen does not show Head office: %q", names)
}

// A client disconnected leaves the organisation, and the screen with it.
func TestPortfolioScreenLosesADisconnectedClient(t *testing.T) {
	t.Parallel()
	a, owner, _ := portfolioApp(t)
	token := owner.makePortfolioScreen(url.Values{"name": {"Staff room"}, "page_seconds": {"15"}})
	tv := a.browser()
	tv.get("/s/" + token)
	if names, _ := screenClients(t, tv.get("/screen")); len(names) != 2 {
		t.Fatalf("the screen shows %q; want both clients", names)
	}
	owner.formOf("/accounts", "/accounts/switch", url.Values{"account": {a.accountOf(true)}})
	confirm := owner.get("/account/disconnect")
	confirmWith, _ := confirm.doc(t).Find(`input[name="confirm"]`).Attr("value")
	if r := owner.post("/account/disconnect", url.Values{"csrf_token": {owner.formToken("/account/disconnect")}, "confirm": {confirmWith}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("disconnecting B = %d", r.StatusCode)
	}
	page := tv.get("/screen")
	if names, _ := screenClients(t, page); len(names) != 1 || names[0] != "Head office" || strings.Contains(page.body, a.world.Accounts()[1].Name) {
		t.Errorf("after B was disconnected the screen shows %q; want Head office alone", names)
	}
}
