package web

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"washboard/internal/domain"
)

// roundStops are the element ids of a round's rooms on its page.
func roundStops(t *testing.T, r response) []string {
	t.Helper()
	var ids []string
	r.doc(t).Find("li.round-stop").Each(func(_ int, li *goquery.Selection) {
		ids = append(ids, li.AttrOr("id", ""))
	})
	return ids
}

// postHTMX posts a form as htmx does.
func (b *browser) postHTMX(path string, form url.Values) response {
	req, _ := http.NewRequest(http.MethodPost, b.a.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("HX-Request", "true")
	return b.do(req)
}

// makeRoundOf posts the form of /rounds for the building and person, and
// returns the round's address.
func makeRoundOf(t *testing.T, b *browser, building, person string) string {
	t.Helper()
	r := b.post("/rounds", url.Values{"csrf_token": {b.pageCSRF("/rounds")}, "building": {building}, "person": {person},
		"rooms": {"3"}, "per_room": {"4"}, "per_floor": {"2"}})
	where := r.Header.Get("Location")
	if r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(where, "/rounds/rnd_") {
		t.Fatalf("making a round: %d to %q\n%s", r.StatusCode, where, r.body)
	}
	return where
}

// A supervisor makes a round for a person from the form of /rounds; its
// page lists its rooms, at most the limit, each with what to do; the
// person sees it on "My work", ticks a room done and skips one with a
// reason, all with plain forms; someone else's staff may not tick it; the
// supervisor ends it, and its page says what it left.
func TestARoundIsMadeTickedAndEndedWithPlainForms(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	boss := a.browser()
	boss.signIn(credA)
	maria := a.browserAs(domain.Staff, "Maria")
	ben := a.browserAs(domain.Staff, "Ben")
	vic := a.browserAs(domain.Viewer, "Vic")
	mariaID := a.members(a.accountOf(false))["Maria"].PersonID
	building := a.world.Accounts()[0].Buildings[0].ID

	list := boss.get("/rounds")
	if list.StatusCode != http.StatusOK {
		t.Fatalf("/rounds: %d", list.StatusCode)
	}
	doc := list.doc(t)
	if doc.Find(`select[name=person] option[value="`+mariaID+`"]`).Length() != 1 || doc.Find(`input[name=building][value="`+building+`"]`).Length() != 1 {
		t.Errorf("the form of /rounds does not offer Maria and the building")
	}
	if got := doc.Find("#round-per-room").AttrOr("value", ""); got != "4" {
		t.Errorf("minutes per room shown: %q; want the default 4", got)
	}

	page := makeRoundOf(t, boss, building, mariaID)
	r := maria.get(page)
	stops := roundStops(t, r)
	if r.StatusCode != http.StatusOK || len(stops) == 0 || len(stops) > 3 {
		t.Fatalf("the round's page: %d with %d rooms; want 1 to 3", r.StatusCode, len(stops))
	}
	if r.doc(t).Find("li.round-stop .round-needs li").Length() == 0 {
		t.Error("the round's rooms say nothing to do")
	}
	if my := maria.get("/my"); my.doc(t).Find(`.my-round a[href="`+page+`"]`).Length() != 1 {
		t.Errorf("Maria's /my does not show her round with a link to it")
	}

	action := r.doc(t).Find("#"+stops[0]+" form.round-tick").AttrOr("action", "")
	token := maria.pageCSRF(page)
	if res := ben.post(action, url.Values{"csrf_token": {ben.pageCSRF(page)}, "outcome": {"done"}}); res.StatusCode != http.StatusForbidden {
		t.Errorf("Ben ticking Maria's round: %d; want 403", res.StatusCode)
	}
	if res := vic.post(action, url.Values{"csrf_token": {vic.pageCSRF("/my")}, "outcome": {"done"}}); res.StatusCode != http.StatusForbidden {
		t.Errorf("a viewer ticking: %d; want 403", res.StatusCode)
	}
	if vic.get(page).doc(t).Find("form.round-tick").Length() != 0 {
		t.Error("a viewer's page of the round offers to tick its rooms")
	}
	if res := maria.post(action, url.Values{"csrf_token": {token}, "outcome": {"skip"}, "reason": {"  "}}); res.StatusCode != http.StatusUnprocessableEntity ||
		!strings.Contains(res.body, "Say why the room was skipped") {
		t.Errorf("skipping without a reason: %d\n%s", res.StatusCode, res.body)
	}
	if res := maria.post(action, url.Values{"csrf_token": {token}, "outcome": {"done"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("Maria ticking a room done: %d", res.StatusCode)
	}
	r = maria.get(page)
	if got := strings.TrimSpace(r.doc(t).Find("#" + stops[0] + " .round-status").Text()); !strings.HasPrefix(got, "Done by Maria at ") {
		t.Errorf("the room ticked says %q", got)
	}
	if got := r.doc(t).Find(".round-progress-line").Text(); !strings.Contains(got, "1 of ") {
		t.Errorf("progress after one room: %q", got)
	}
	if len(stops) > 1 {
		skip := r.doc(t).Find("#"+stops[1]+" form.round-tick").AttrOr("action", "")
		frag := maria.postHTMX(skip, url.Values{"csrf_token": {token}, "outcome": {"skip"}, "reason": {"the door was locked"}})
		if frag.StatusCode != http.StatusOK || !strings.Contains(frag.body, "the door was locked") || strings.Contains(frag.body, "<html") {
			t.Errorf("skipping with htmx: %d, want the room alone with its reason\n%s", frag.StatusCode, frag.body)
		}
	}

	if res := boss.post(page+"/end", url.Values{"csrf_token": {boss.pageCSRF(page)}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("ending the round: %d", res.StatusCode)
	}
	r = boss.get(page)
	if r.doc(t).Find("#round-left-heading").Length() != 1 || r.doc(t).Find("form.round-tick, form.round-end").Length() != 0 {
		t.Errorf("the ended round's page: no 'left for the next round', or forms still offered")
	}
	if res := maria.post(action, url.Values{"csrf_token": {token}, "outcome": {"done"}}); res.StatusCode != http.StatusConflict {
		t.Errorf("ticking a round that ended: %d; want 409", res.StatusCode)
	}
	if !strings.Contains(boss.get("/rounds").doc(t).Find("#rounds-recent-heading").Parent().Text(), "Maria") {
		t.Error("the ended round is not among the recent ones")
	}
}

// The form of a round refused says why, and keeps what was typed.
func TestARoundsFormRefusedSaysWhy(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	boss := a.browser()
	boss.signIn(credA)
	building := a.world.Accounts()[0].Buildings[0].ID
	for _, c := range []struct {
		name string
		form url.Values
		want string
	}{
		{"no part", url.Values{"team": {"Day crew"}, "per_room": {"4"}, "per_floor": {"2"}}, "Choose at least one building or floor."},
		{"nobody", url.Values{"building": {building}, "per_room": {"4"}, "per_floor": {"2"}}, "Choose a person, or name a team."},
		{"no time per room", url.Values{"building": {building}, "team": {"Day crew"}, "per_room": {"0"}, "per_floor": {"2"}}, "Minutes per room"},
		{"a building of no one", url.Values{"building": {"zz-unknown"}, "team": {"Day crew"}, "per_room": {"4"}, "per_floor": {"2"}}, "is not in your buildings"},
	} {
		c.form.Set("csrf_token", boss.pageCSRF("/rounds"))
		r := boss.post("/rounds", c.form)
		if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.doc(t).Find(".round-form-section [role=alert]").Text(), c.want) {
			t.Errorf("%s: %d, want 422 saying %q\n%s", c.name, r.StatusCode, c.want, r.doc(t).Find(".round-form-section").Text())
		}
		if team := c.form.Get("team"); team != "" && r.doc(t).Find("#round-team").AttrOr("value", "") != team {
			t.Errorf("%s: the team typed is not kept", c.name)
		}
	}
	// A team's round is made.
	r := boss.post("/rounds", url.Values{"csrf_token": {boss.pageCSRF("/rounds")}, "building": {building}, "team": {"Day crew"}, "per_room": {"4"}, "per_floor": {"2"}})
	if r.StatusCode != http.StatusSeeOther || !strings.Contains(boss.get(r.Header.Get("Location")).doc(t).Find("h1").Text(), "Team Day crew") {
		t.Errorf("a team's round: %d", r.StatusCode)
	}
}

// A person limited to one building learns nothing of another's rounds:
// not listed, its page and its forms answered as an unknown round's.
func TestRoundsOfAnotherBuildingStayHidden(t *testing.T) {
	t.Parallel()
	a := newTwoBuildingsApp(t)
	boss := a.browser()
	boss.signIn(credA)
	o := a.otherBuilding(boss)
	page := makeRoundOf(t, boss, o.building, a.members(a.accountOf(false))[defaultPersonName].PersonID)
	limited := a.browser()
	limited.signIn(credA)
	limited.limitTo(a.world.Accounts()[0].Buildings[0].ID)
	csrf := limited.pageCSRF("/rounds")
	if list := limited.get("/rounds"); strings.Contains(list.body, page) {
		t.Errorf("/rounds of a person of the first building lists the other's round")
	}
	for _, c := range []struct{ method, path string }{
		{http.MethodGet, page}, {http.MethodPost, page + "/stops/0"}, {http.MethodPost, page + "/end"},
	} {
		ask := func(path string) response {
			if c.method == http.MethodGet {
				return limited.get(path)
			}
			return limited.post(path, url.Values{"csrf_token": {csrf}, "outcome": {"done"}})
		}
		got, want := ask(c.path), ask(strings.Replace(c.path, page, "/rounds/rnd_unknown", 1))
		if got.StatusCode != http.StatusNotFound || want.StatusCode != http.StatusNotFound {
			t.Errorf("%s %s of the other building: %d, an unknown round %d; want 404 both", c.method, c.path, got.StatusCode, want.StatusCode)
		}
		for _, s := range o.secrets {
			if strings.Contains(got.body, s) {
				t.Errorf("%s %s names %q of the other building", c.method, c.path, s)
			}
		}
	}
	r := limited.post("/rounds", url.Values{"csrf_token": {csrf}, "building": {o.building}, "team": {"T"}, "per_room": {"4"}, "per_floor": {"2"}})
	unknown := limited.post("/rounds", url.Values{"csrf_token": {csrf}, "building": {"zz-unknown"}, "team": {"T"}, "per_room": {"4"}, "per_floor": {"2"}})
	if r.StatusCode != http.StatusUnprocessableEntity || r.StatusCode != unknown.StatusCode {
		t.Errorf("a round of the other building: %d, of an unknown one %d; want 422 both", r.StatusCode, unknown.StatusCode)
	}
}

// A wall screen made to show rounds shows the rounds running in its
// place, with the rooms they have left; its form keeps the choice; a
// screen made without shows none.
func TestAWallScreenShowsTheRoundsRunning(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	boss := a.browser()
	boss.signIn(credA)
	acc := a.world.Accounts()[0]
	building := acc.Buildings[0].ID
	form := screenForm("Staff room", "building:"+building)
	form.Set("rounds", "on")
	token := boss.createScreen(form)
	plain := boss.createScreen(screenForm("Lobby", "building:"+building))

	page := makeRoundOf(t, boss, building, a.owner(acc.ID).PersonID)
	left := len(roundStops(t, boss.get(page)))

	tv := a.browser()
	tv.get("/s/" + token)
	screen := tv.get("/screen").doc(t)
	want := defaultPersonName + ": " + strconv.Itoa(left) + " room"
	if got := strings.Join(strings.Fields(screen.Find(".screen-rounds li").First().Text()), " "); !strings.HasPrefix(got, want) {
		t.Errorf("the screen's round says %q; want it to begin %q", got, want)
	}
	other := a.browser()
	other.get("/s/" + plain)
	if n := other.get("/screen").doc(t).Find(".screen-rounds").Length(); n != 0 {
		t.Error("a screen made without rounds shows them")
	}

	screens := boss.get("/screens").doc(t)
	edit := ""
	screens.Find(`a[href$="/edit"]`).Each(func(_ int, s *goquery.Selection) {
		if strings.Contains(s.Text(), "Staff room") {
			edit = s.AttrOr("href", "")
		}
	})
	if edit == "" {
		t.Fatal("no edit link of the screen")
	}
	if boss.get(edit).doc(t).Find(`input[name=rounds]`).AttrOr("checked", "no") == "no" {
		t.Error("the form of a screen that shows rounds does not say so")
	}
}

// The form of a round asks, with its second button, for such a round at
// each shift start: /rounds lists the schedule, and a supervisor stops
// it; a refused form says why, as for a round.
func TestARoundAtEachShiftStartIsAskedAndStoppedWithTheForm(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	boss := a.browser()
	boss.signIn(credA)
	building := a.world.Accounts()[0].Buildings[0].ID
	if got := boss.get("/rounds").doc(t).Find(`.round-form button[formaction="/rounds/schedules"]`).Length(); got != 1 {
		t.Fatalf("the form of a round has %d buttons for a schedule; want 1", got)
	}
	form := url.Values{"csrf_token": {boss.pageCSRF("/rounds")}, "building": {building}, "team": {"Day crew"}, "rooms": {"10"}, "per_room": {"4"}, "per_floor": {"2"}}
	if r := boss.post("/rounds/schedules", form); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("asking for a round at each shift start: %d\n%s", r.StatusCode, r.body)
	}
	list := boss.get("/rounds").doc(t).Find("#round-schedules-heading").Parent()
	if got := strings.Join(strings.Fields(list.Find("li").Text()), " "); !strings.Contains(got, "Team Day crew") || !strings.Contains(got, "At most 10 rooms") {
		t.Errorf("the schedules listed: %q", got)
	}
	form.Del("team")
	if r := boss.post("/rounds/schedules", form); r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.body, "Choose a person, or name a team.") {
		t.Errorf("a schedule for nobody: %d", r.StatusCode)
	}
	remove := list.Find("form").AttrOr("action", "")
	if r := boss.post(remove, url.Values{"csrf_token": {boss.pageCSRF("/rounds")}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("stopping the schedule: %d", r.StatusCode)
	}
	if n := boss.get("/rounds").doc(t).Find("#round-schedules-heading").Parent().Find("li").Length(); n != 0 {
		t.Errorf("after stopping it, %d schedules are listed", n)
	}
}
