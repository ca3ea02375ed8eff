package web

import (
	"context"
	"html"
	"net/http"
	"strings"
	"testing"
	"time"

	"washboard/internal/domain"
)

// Checks saved on the trends page and in the client report: said in
// words when there were no rounds from need; once rooms were ticked done
// on a round, the visits of both with fixed rounds every N hours as
// asked, on the page, in the CSV's columns and in the PDF.
func TestChecksSavedOnTrendsAndTheClientReport(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	ctx := context.Background()
	acc := a.world.Accounts()[0]
	now := a.clock.Now()
	month := now.Format("2006-01")

	page := html.UnescapeString(b.get("/trends").body)
	if !strings.Contains(page, "Checks saved") || !strings.Contains(page, "No rounds from need in this period.") || strings.Contains(page, "fewer room visits") {
		t.Errorf("the trends page without rounds from need does not say there were none")
	}

	floors, err := a.store.Floors(ctx, acc.ID, acc.Buildings[0].ID)
	if err != nil || len(floors) == 0 {
		t.Fatalf("floors: %v, %v", floors, err)
	}
	rooms, err := a.store.Rooms(ctx, acc.ID, floors[0].ID)
	if err != nil || len(rooms) < 2 {
		t.Fatalf("rooms: %d, %v", len(rooms), err)
	}
	round := domain.Round{ID: "rnd_test", Buildings: []string{acc.Buildings[0].ID}, InBuildings: []string{acc.Buildings[0].ID}, PersonID: "p-ana", Name: "Ana",
		MadeBy: "p-sup", MadeAt: now.Add(-2 * time.Hour), Stops: []domain.RoundStop{{RoomID: rooms[0].ID, Status: domain.StopToDo}, {RoomID: rooms[1].ID, Status: domain.StopToDo}}}
	if err := a.store.SaveRound(ctx, acc.ID, round, time.Time{}, 0); err != nil {
		t.Fatal(err)
	}
	for i := range round.Stops {
		if err := a.store.TickRoundStop(ctx, acc.ID, round.ID, i, domain.RoundStop{Status: domain.StopDone, PersonID: "p-ana", Name: "Ana", At: now.Add(-time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	doc := b.get("/trends?every=3").doc(t)
	section := doc.Find("section.checks-saved")
	if got := section.Find("#table-checks tbody tr").First().Find("td").First().Text(); got != "2" {
		t.Errorf("the trends' room visits of rounds from need = %q; want the 2 rooms ticked", got)
	}
	if got := section.Find(".checks-figure").Text(); !strings.Contains(got, "fewer room visits than fixed rounds every 3 h") {
		t.Errorf("the trends' checks saved say %q; want the visits saved against fixed rounds every 3 h", got)
	}
	if got := doc.Find("#trends-every").AttrOr("value", ""); got != "3" {
		t.Errorf("the form's every = %q; want 3", got)
	}

	client := html.UnescapeString(b.get("/reports/client?month=" + month + "&every=4").body)
	if !strings.Contains(client, "fewer room visits than fixed rounds every 4 h") {
		t.Errorf("the client report does not say what rounds from need saved against fixed rounds every 4 h")
	}
	rows := csvRows(t, b.get("/reports/client.csv?month="+month+"&every=4"))
	var need string
	for _, row := range rows[1:] {
		if row[0] == acc.Buildings[0].Name && row[1] == "all" {
			need = row[slicesIndex(rows[0], "need_visits")] + "/" + row[slicesIndex(rows[0], "fixed_every_hours")]
		}
	}
	if need != "2/4" {
		t.Errorf("the CSV's need_visits/fixed_every_hours of %s = %q; want 2/4", acc.Buildings[0].Name, need)
	}
	if r := b.get("/reports/client.pdf?month=" + month + "&every=4"); r.StatusCode != http.StatusOK {
		t.Errorf("the PDF with every=4: %d", r.StatusCode)
	}
}

func slicesIndex(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return len(list) // out of range: the test fails loudly
}

// How often fixed rounds would visit is a whole number of hours from 1
// to 24: anything else is refused with 400, naming the parameter.
func TestChecksSavedRefuseAnEveryOutOfBounds(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	for _, v := range []string{"0", "25", "two", "1.5", "-2"} {
		for _, path := range []string{"/trends", "/reports/client", "/reports/client.csv", "/reports/client.pdf"} {
			r := b.get(path + "?every=" + v)
			body := html.UnescapeString(r.body)
			if r.StatusCode != http.StatusBadRequest || !strings.Contains(body, "every") || !strings.Contains(body, "from 1 to 24") {
				t.Errorf("%s?every=%s: %d, want 400 saying every is from 1 to 24:\n%.300s", path, v, r.StatusCode, body)
			}
		}
	}
	if r := b.get("/trends?every=24"); r.StatusCode != http.StatusOK {
		t.Errorf("/trends?every=24: %d, want 200", r.StatusCode)
	}
}

// A room a visitor's report put on a round says what the visitor said,
// in the page's language.
func TestARoundSaysWhatAVisitorReported(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	ctx := context.Background()
	acc := a.world.Accounts()[0]
	floors, err := a.store.Floors(ctx, acc.ID, acc.Buildings[0].ID)
	if err != nil || len(floors) == 0 {
		t.Fatalf("floors: %v, %v", floors, err)
	}
	rooms, err := a.store.Rooms(ctx, acc.ID, floors[0].ID)
	if err != nil || len(rooms) < 2 {
		t.Fatalf("rooms: %d, %v", len(rooms), err)
	}
	round := domain.Round{ID: "rnd_visitor", Buildings: []string{acc.Buildings[0].ID}, InBuildings: []string{acc.Buildings[0].ID}, PersonID: "p-ana", Name: "Ana",
		MadeBy: "p-sup", MadeAt: a.clock.Now(), Stops: []domain.RoundStop{
			{RoomID: rooms[0].ID, Status: domain.StopToDo, Needs: []domain.RoundNeed{{Kind: "visitor", AlertID: "visitor-1", Visitor: domain.VisitorNoSoap, DeviceType: domain.Soap, Refills: 1}}},
			{RoomID: rooms[1].ID, Status: domain.StopToDo, Needs: []domain.RoundNeed{{Kind: "visitor", AlertID: "visitor-2", Visitor: domain.VisitorOther, VisitorText: "The door <does not> lock"}}},
		}}
	if err := a.store.SaveRound(ctx, acc.ID, round, time.Time{}, 0); err != nil {
		t.Fatal(err)
	}
	page := html.UnescapeString(b.get("/rounds/rnd_visitor").body)
	for _, want := range []string{"A visitor says: out of soap", "A visitor says: The door <does not> lock"} {
		if !strings.Contains(page, want) {
			t.Errorf("the round's page does not say %q", want)
		}
	}
	if page := html.UnescapeString(b.get("/rounds/rnd_visitor?lang=de").body); !strings.Contains(page, "Ein Besucher meldet: keine Seife") {
		t.Errorf("the round's page in German does not say what the visitor reported")
	}
}
