package web

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/syncer"
)

// A visitor's open report shows on the wall screen of its floor among
// the things to do, said to be a visitor's in words beside an icon, with
// what they wrote and who is on it; the screen of another floor does not
// show it, and the screen hears at once that it arrived.
func TestAVisitorsReportShowsOnItsFloorsScreen(t *testing.T) {
	t.Parallel()
	a := newAppOf(t, Config{}, 40)
	user := a.browser()
	user.signIn(credA)
	sup := a.browserAs(domain.Supervisor, "Sue")
	acc := a.world.Accounts()[0]
	floor, other := acc.Buildings[0].Floors[0], acc.Buildings[0].Floors[1]
	tv, otherTV := a.browser(), a.browser()
	tv.get("/s/" + user.createScreen(screenForm("Level screen", "floor:"+floor.ID)))
	otherTV.get("/s/" + user.createScreen(screenForm("Other screen", "floor:"+other.ID)))

	events, stop := a.engine.Subscribe(acc.ID)
	defer stop()
	code := sup.roomCodes(floor.ID)[0]
	v := a.browser()
	v.post(code.path, v.visitorForm(code.path, url.Values{"kind": {"other"}, "text": {"The door does not lock"}}))
	rs := a.visitorReports()
	id := domain.VisitorAlertID(rs[len(rs)-1].ID)
	heard := false
	for timeout := time.After(10 * time.Second); !heard; {
		select {
		case ev := <-events:
			heard = ev.Kind == syncer.EventChanged && ev.Resource == domain.ResourceAlerts
		case <-timeout:
			t.Fatal("the report announced no change of the account's alerts, which wakes its screens")
		}
	}
	if _, err := a.deps.Dashboard.Claim(context.Background(), acc.ID, domain.EveryBuilding(), id, dashboard.NewClaim{Name: "Maria"}); err != nil {
		t.Fatal(err)
	}

	item := tv.get("/screen").doc(t).Find(".screen-part-action .screen-item").FilterFunction(func(_ int, s *goquery.Selection) bool {
		return strings.Contains(s.Text(), "Reported by a visitor")
	})
	if item.Length() != 1 || item.Find(`.screen-item-problem use[href$="#person"]`).Length() == 0 {
		t.Fatalf("the floor's screen shows %d items of a visitor's report, with the icon: %v", item.Length(), item.Find(".screen-item-problem use").Length() > 0)
	}
	got := strings.Join(strings.Fields(item.Text()), " ")
	for _, want := range []string{"Reported by a visitor: Something else – “The door does not lock”", "Maria"} {
		if !strings.Contains(got, want) {
			t.Errorf("the floor's screen says of the report %q; want %q", got, want)
		}
	}
	if where := strings.Join(strings.Fields(item.Closest(".screen-group").Find(".screen-where").Text()), " "); !strings.Contains(where, code.name) {
		t.Errorf("the report shows under %q; want its room %q", where, code.name)
	}
	if body := otherTV.get("/screen").body; strings.Contains(body, "The door does not lock") {
		t.Error("the screen of another floor shows the report")
	}
}
