package web

import (
	"bufio"
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/sim"
	"washboard/internal/store"
)

// limitTo limits the browser's session to the buildings of these ids, as
// a role limited to them does.
func (b *browser) limitTo(ids ...string) {
	b.a.t.Helper()
	sm := b.a.handler.Load().sessions
	ctx, err := sm.Load(context.Background(), b.cookieOf(sessionCookie))
	if err != nil {
		b.a.t.Fatal(err)
	}
	sm.Put(ctx, keyBuildings, strings.Join(ids, "\n"))
	if _, _, err := sm.Commit(ctx); err != nil {
		b.a.t.Fatal(err)
	}
}

// newTwoBuildingsApp is an app whose first account has two buildings.
func newTwoBuildingsApp(t *testing.T) *app {
	return newAppWith(t, Config{}, appOptions{locations: 60, seed: 24})
}

// otherBuilding is what a person limited to the first building of the
// first account must never learn of the second: the names that are its
// own (not also those of the first building's places), its devices' MACs,
// and the name of the claim, screen and rule made there. The ids are
// those they may guess.
type otherBuilding struct {
	building, floor, room, location, alert, screen string
	secrets                                        []string
}

func (a *app) otherBuilding(b *browser) otherBuilding {
	a.t.Helper()
	acc := a.world.Accounts()[0]
	if len(acc.Buildings) < 2 {
		a.t.Fatalf("the simulated account has %d buildings; the test needs 2", len(acc.Buildings))
	}
	own, other := acc.Buildings[0], acc.Buildings[1]
	ownNames := map[string]bool{acc.Name: true, own.Name: true}
	for _, f := range own.Floors {
		ownNames[f.Name] = true
		for _, r := range f.Rooms {
			ownNames[r.Name] = true
			for _, l := range r.Locations {
				ownNames[l.Name] = true
			}
		}
	}
	o := otherBuilding{building: other.ID, floor: other.Floors[0].ID, room: other.Floors[0].Rooms[0].ID,
		location: itoa(other.Floors[0].Rooms[0].Locations[0].ID)}
	o.secrets = append(o.secrets, other.Name, "Otto Otherbuilding", "Screen of the other building", "Rule of the other building")
	for _, f := range other.Floors {
		for _, r := range f.Rooms {
			if !ownNames[r.Name] && !strings.Contains(own.Name, r.Name) {
				o.secrets = append(o.secrets, r.Name)
			}
			for _, l := range r.Locations {
				for _, d := range l.Devices {
					o.secrets = append(o.secrets, d.MAC)
				}
			}
		}
	}
	ctx := context.Background()
	alerts, err := a.store.FindAlerts(ctx, store.AlertFilter{Account: acc.ID, BuildingID: other.ID, Status: domain.AlertOpen, Limit: 1})
	if err != nil || len(alerts) == 0 {
		a.t.Fatalf("no open alert in the other building: %v", err)
	}
	o.alert = alerts[0].ID
	if _, err := a.deps.Dashboard.Claim(ctx, acc.ID, domain.EveryBuilding(), o.alert, dashboard.NewClaim{Name: "Otto Otherbuilding", Note: "in the other building"}); err != nil {
		a.t.Fatal(err)
	}
	o.screen = b.screenID(screenForm("Screen of the other building", "building:"+other.ID))
	return o
}

// screenID makes a screen through the management page and returns its id.
func (b *browser) screenID(form url.Values) string {
	b.a.t.Helper()
	b.createScreen(form)
	edit := b.get("/screens").doc(b.a.t).Find(`a[href^="/screens/"][href$="/edit"]`)
	for i := range edit.Length() {
		row := edit.Eq(i).Closest("tr").Text()
		if strings.Contains(row, form.Get("name")) {
			href, _ := edit.Eq(i).Attr("href")
			return strings.TrimSuffix(strings.TrimPrefix(href, "/screens/"), "/edit")
		}
	}
	b.a.t.Fatalf("no screen named %q on /screens", form.Get("name"))
	return ""
}

// A person limited to one building, guessing the ids of another
// building's floors, rooms, locations, alerts, claims and screens, or
// naming them in the filters of pages and exports, gets the answer an
// unknown id gets (never a 5xx), and no answer of any route of the table
// names anything of the other building.
func TestAPersonLimitedToOneBuildingLearnsNothingOfAnother(t *testing.T) {
	t.Parallel()
	a := newTwoBuildingsApp(t)
	b := a.browser()
	b.signIn(credA)
	o := a.otherBuilding(b)
	own := a.world.Accounts()[0].Buildings[0]
	b.limitTo(own.ID)
	csrf := b.pageCSRF("/screens")

	// Each path of the table, with the ids of the other building, and the
	// same with an id nobody has: their answers must agree.
	const unknown = "zz-unknown"
	ids := map[string][]string{
		"/buildings/:id": {o.building}, "/floors/:id": {o.floor}, "/rooms/:id": {o.room}, "/locations/:id": {o.location},
		"/rooms/:id/service": {o.room}, "/rooms/:id/service.csv": {o.room},
		"/alerts/:id/claim": {o.alert}, "/alerts/:id/release": {o.alert},
		"/screens/:id/edit": {o.screen}, "/screens/:id": {o.screen}, "/screens/:id/revoke": {o.screen},
		"/screens/:id/relink": {o.screen}, "/screens/:id/remove": {o.screen},
		"/floors/:id/plan": {o.floor}, "/floors/:id/plan/image": {o.floor}, "/floors/:id/plan/remove": {o.floor}, "/floors/:id/plan/placements": {o.floor},
		"/floors/:id/codes": {o.floor},
	}
	// Paths without an id, with the other building's places in their
	// filters.
	filters := []url.Values{{"building": {o.building}}, {"floor": {o.floor}}, {"room": {o.room}}}
	queries := map[string][]url.Values{
		"/alerts": filters, "/alerts.csv": filters, "/devices.csv": filters,
		"/reports/shift": {{"building": {o.building}}}, "/reports/shift.csv": {{"building": {o.building}}},
		"/trends": {{"building": {o.building}}}, "/trends.csv": {{"building": {o.building}}},
		"/screens":             {{"scope": {"building:" + o.building}}, {"scope": {"floor:" + o.floor}}, {"scope": {"account"}}},
		"/notifications/rules": {{"where": {"building:" + o.building}, "name": {"Rule of the other building"}, "when": {"alert.opened"}}},
	}
	var search []url.Values
	for _, s := range o.secrets {
		search = append(search, url.Values{"q": {s}})
	}
	queries["/search"] = search
	// Routes of no person's data: assets and health, the service's
	// events, a wall screen's, and those before sign-in.
	skipped := map[access]bool{anyone: true, operations: true, hookSignature: true, linkToken: true, wallScreen: true, sessionOnly: true}

	ask := func(method, path string, q url.Values) response {
		if method == http.MethodPost {
			form := url.Values{"csrf_token": {csrf}, "name": {"Maria"}, "health": {"action"}, "page_seconds": {"10"}}
			for k, v := range q {
				form[k] = v
			}
			return b.post(path, form)
		}
		if len(q) > 0 {
			path += "?" + q.Encode()
		}
		return b.get(path)
	}
	// check looks for what the answer tells of the other building; what
	// the request itself sent (a search, a form's name), a page may say
	// back.
	check := func(key string, r response, sent ...string) {
		t.Helper()
		if r.StatusCode >= 500 {
			t.Errorf("%s = %d", key, r.StatusCode)
		}
		for _, s := range o.secrets {
			if strings.Contains(r.body, s) && !slices.Contains(sent, s) {
				t.Errorf("%s answers %q, of the other building", key, s)
			}
		}
	}
	for _, r := range a.handler.Load().routeTable() {
		if skipped[r.access] || r.method == echo.RouteNotFound || r.path == "/events" {
			continue // the stream: see TestAPersonLimitedToOneBuildingIsToldOfItsChangesAlone
		}
		key := r.method + " " + r.path
		if guesses, ok := ids[r.path]; ok {
			for _, id := range guesses {
				got := ask(r.method, strings.Replace(r.path, ":id", id, 1), nil)
				check(key+" with "+id, got)
				if want := ask(r.method, strings.Replace(r.path, ":id", unknown, 1), nil); got.StatusCode != want.StatusCode {
					t.Errorf("%s with the other building's %s = %d; an unknown id gets %d", key, id, got.StatusCode, want.StatusCode)
				}
				if got.StatusCode == http.StatusOK {
					t.Errorf("%s with the other building's %s = 200", key, id)
				}
			}
			continue
		}
		path := strings.ReplaceAll(strings.ReplaceAll(r.path, ":name", "x"), ":id", "x")
		check(key, ask(r.method, path, nil))
		for _, q := range queries[r.path] {
			got := ask(r.method, path, q)
			check(key+"?"+q.Encode(), got, q.Get("q"), q.Get("name"))
			guessed := url.Values{}
			for k, v := range q {
				guessed[k] = v
				if k != "q" && k != "name" && k != "when" {
					kind, _, found := strings.Cut(v[0], ":")
					guessed[k] = []string{unknown}
					if found {
						guessed[k] = []string{kind + ":" + unknown}
					}
				}
			}
			if k := q.Get("scope"); k == "account" || k == "" && q.Get("where") == "" {
				continue // not an id
			}
			if want := ask(r.method, path, guessed); got.StatusCode != want.StatusCode {
				t.Errorf("%s?%s = %d; with an unknown id %d", key, q.Encode(), got.StatusCode, want.StatusCode)
			}
		}
	}

	// The screen and rule forms offer their buildings, not the whole
	// account.
	for _, path := range []string{"/screens", "/notifications"} {
		if r := b.get(path); r.StatusCode != http.StatusOK || strings.Contains(r.body, "Whole account") {
			t.Errorf("GET %s = %d, offering the whole account: %v", path, r.StatusCode, strings.Contains(r.body, "Whole account"))
		}
	}
	// Their own building they see.
	if r := b.get("/buildings/" + own.ID); r.StatusCode != http.StatusOK || !strings.Contains(r.body, own.Name) {
		t.Errorf("their own building: %d", r.StatusCode)
	}
	// A person of every building sees the other's.
	full := a.browser()
	full.signIn(credA)
	if r := full.get("/alerts/" + o.alert + "/claim"); r.StatusCode != http.StatusOK || !strings.Contains(r.body, "Otto Otherbuilding") {
		t.Errorf("the other building's claim, to a person of every building: %d", r.StatusCode)
	}
}

// The event stream of a person limited to one building tells them of a
// change in it, and not of one in another building: a change of the
// other building's alerts leaves what they see as it was.
func TestAPersonLimitedToOneBuildingIsToldOfItsChangesAlone(t *testing.T) {
	t.Parallel()
	a := newTwoBuildingsApp(t)
	b := a.browser()
	b.signIn(credA)
	acc := a.world.Accounts()[0]
	openIn := func(building *sim.Building) string {
		alerts, err := a.store.FindAlerts(context.Background(), store.AlertFilter{Account: acc.ID, BuildingID: building.ID, Status: domain.AlertOpen, Limit: 1})
		if err != nil || len(alerts) == 0 {
			t.Fatalf("no open alert in %s: %v", building.Name, err)
		}
		return alerts[0].ID
	}
	claim := func(alert string) {
		if _, err := a.deps.Dashboard.Claim(context.Background(), acc.ID, domain.EveryBuilding(), alert, dashboard.NewClaim{Name: "Maria"}); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	changed := a.handler.Load().seenChanges(ctx, acc.ID, domain.OnlyBuildings(acc.Buildings[0].ID))
	claim(openIn(acc.Buildings[1]))
	if changed(domain.ResourceAlerts) {
		t.Error("a claim in the other building counts as a change of what the person sees")
	}
	claim(openIn(acc.Buildings[0]))
	if !changed(domain.ResourceAlerts) {
		t.Error("a claim in their own building does not count as a change")
	}

	// The stream tells of a change of their own building.
	b.limitTo(acc.Buildings[0].ID)
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	req, _ := http.NewRequestWithContext(sctx, http.MethodGet, a.srv.URL+"/events", nil)
	resp, err := b.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	heard := make(chan string, 16)
	go func() {
		lines := bufio.NewScanner(resp.Body)
		event := ""
		for lines.Scan() {
			switch l := lines.Text(); {
			case strings.HasPrefix(l, "event: "):
				event = strings.TrimPrefix(l, "event: ")
			case strings.HasPrefix(l, "data: ") && event == "alerts":
				heard <- strings.TrimPrefix(l, "data: ")
			}
		}
	}()
	// The first sync's changes, as the stream opened, are at the start.
	a.clock.Advance(time.Second)
	claimedAt := a.clock.Now().UTC().Format(time.RFC3339)
	if err := a.deps.Dashboard.Release(ctx, acc.ID, domain.EveryBuilding(), openIn(acc.Buildings[0])); err != nil {
		t.Fatal(err)
	}
	timeout := time.After(10 * time.Second)
	for {
		select {
		case at := <-heard:
			if at >= claimedAt {
				return
			}
		case <-timeout:
			t.Fatal("no change of their own building was heard within 10 s")
		}
	}
}
