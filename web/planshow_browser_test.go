package web

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/rounds"
	"washboard/internal/store"
	"washboard/internal/upstream"
)

// testPlanSVG is a plan a test puts on a floor: a plain drawing.
const testPlanSVG = `<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="1000" viewBox="0 0 2000 1000"><rect x="10" y="10" width="1980" height="980" fill="#eeeeee" stroke="#333333"/></svg>`

// putTestPlan gives a floor a 2000 × 1000 plan with each of its rooms
// drawn as a rectangle, in rows of five, and each of its locations
// placed in its room.
func putTestPlan(t *testing.T, a *app, account, floor string) {
	t.Helper()
	ctx := context.Background()
	plan := domain.FloorPlan{FloorID: floor, ContentType: "image/svg+xml", Width: 2000, Height: 1000, Updated: a.clock.Now()}
	if _, err := a.store.PutFloorPlan(ctx, account, plan, []byte(testPlanSVG)); err != nil {
		t.Fatal(err)
	}
	rooms, err := a.store.Rooms(ctx, account, floor)
	if err != nil {
		t.Fatal(err)
	}
	locs, err := a.store.LocationsIn(ctx, account, "", floor, "")
	if err != nil {
		t.Fatal(err)
	}
	p := domain.Placements{Locations: map[string]domain.PlanPoint{}, Rooms: map[string][]domain.PlanPoint{}}
	at := map[string]domain.PlanPoint{}
	for i, r := range rooms {
		x, y := 20+(i%5)*390, 20+(i/5%3)*320
		p.Rooms[r.ID] = []domain.PlanPoint{{X: x, Y: y}, {X: x + 370, Y: y}, {X: x + 370, Y: y + 300}, {X: x, Y: y + 300}}
		at[r.ID] = domain.PlanPoint{X: x + 40, Y: y + 40}
	}
	for _, l := range locs {
		q := at[l.RoomID]
		p.Locations[l.ID] = q
		at[l.RoomID] = domain.PlanPoint{X: q.X + 60, Y: q.Y}
	}
	if err := a.store.SavePlacements(ctx, account, floor, p, "test", a.clock.Now()); err != nil {
		t.Fatal(err)
	}
}

// printedPages prints the open page on A4 and returns the text of each
// page, its spaces folded.
func printedPages(t *testing.T, ctx context.Context, pdftotext, name string) []string {
	t.Helper()
	res, err := chromedp.Call(ctx, page.PrintToPDF, page.PrintToPDFParams{PaperWidth: 8.27, PaperHeight: 11.69})
	must(t, err, "printing "+name)
	path := filepath.Join(t.TempDir(), name+".pdf")
	must(t, os.WriteFile(path, res.Data, 0o644), "writing the PDF")
	out, err := exec.Command(pdftotext, "-layout", path, "-").Output()
	must(t, err, "reading the PDF's text")
	var pages []string
	for _, p := range strings.Split(strings.TrimRight(string(out), "\f"), "\f") {
		pages = append(pages, strings.Join(strings.Fields(p), " "))
	}
	return pages
}

// TestBrowserRoundPrintsThePlanOfAFloorWithOne: printed on A4, the page
// of a floor with a plan shows the plan, with a numbered mark for each of
// its rooms to visit, and still one page per floor; the page of a floor
// without a plan shows none.
func TestBrowserRoundPrintsThePlanOfAFloorWithOne(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	ctx := newChrome(t, 1280, 900)
	pdftotext := pdftotextPath(t)
	acc := a.world.Accounts()[0]
	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/signin"),
		chromedp.SendKeys(chromedp.ID("api_key"), credA.APIKey),
		chromedp.SendKeys(chromedp.ID("authorization"), credA.Authorization)), "typing the credentials")
	loadAfter(t, ctx, chromedp.Submit(chromedp.ID("api_key")), "signing in")
	a.clock.BlockUntil(1)
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("buildings-heading"))), "waiting for the overview")

	owner := a.owner(acc.ID)
	in := dashboard.NewRound{Part: dashboard.RoundPart{Buildings: []string{acc.Buildings[0].ID}}, PersonID: owner.PersonID, Name: owner.Name, Limits: rounds.DefaultLimits}
	planned, err := a.deps.Dashboard.PlanRound(context.Background(), acc.ID, domain.EveryBuilding(), in, time.UTC)
	if err != nil || len(planned.Stops) == 0 {
		t.Fatalf("planning the round: %d stops, %v", len(planned.Stops), err)
	}
	room, err := a.store.Room(context.Background(), acc.ID, planned.Stops[0].RoomID)
	if err != nil {
		t.Fatal(err)
	}
	putTestPlan(t, a, acc.ID, room.FloorID)
	r, err := a.deps.Dashboard.MakeRound(context.Background(), acc.ID, domain.EveryBuilding(), in, time.UTC)
	if err != nil {
		t.Fatal(err)
	}

	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/rounds/"+r.ID), chromedp.WaitVisible(chromedp.CSS(".round"))), "opening the round")
	checkAxe(t, ctx, "the round with a plan")
	floors, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('.round-floor')].map(f => f.querySelector('h2').textContent.trim().split(/\s+/).join(' ') + '|' + f.querySelectorAll('.round-stop').length + '|' + f.querySelectorAll('.print-plan-mark').length)`))
	must(t, err, "reading the floors")
	if len(floors) < 2 {
		t.Fatalf("the round has %d floors; the test needs 2 or more", len(floors))
	}
	pages := printedPages(t, ctx, pdftotext, "round-plan")
	if len(pages) != len(floors) {
		t.Errorf("the printed round has %d pages for %d floors", len(pages), len(floors))
	}
	for i, f := range floors {
		parts := strings.Split(f, "|")
		name, stops, marks := parts[0], parts[1], parts[2]
		withPlan := i == 0
		if withPlan && marks != stops {
			t.Errorf("the plan of %s has %s marks for %s rooms to visit", name, marks, stops)
		}
		if !withPlan && marks != "0" {
			t.Errorf("%s, without a plan, has %s marks", name, marks)
		}
		if i >= len(pages) {
			continue
		}
		if has := strings.Contains(pages[i], "Plan of "+name); has != withPlan {
			t.Errorf("printed page %d (%s) shows a plan: %v, want %v:\n%s", i+1, name, has, withPlan, pages[i])
		}
		if has := strings.Contains(pages[i], "The numbers on the plan are the rooms to visit, in walking order."); has != withPlan {
			t.Errorf("printed page %d (%s) says what the plan's numbers are: %v, want %v", i+1, name, has, withPlan)
		}
	}
}

// TestBrowserShiftReportPrintsThePlansOfFloorsWithOpenAlerts: printed on
// A4, the shift report shows the plan of each floor with alerts open at
// the end of the period that has a plan, its open alerts' locations
// numbered, and says what the numbers are; floors without a plan (here,
// those of the other buildings) print none.
func TestBrowserShiftReportPrintsThePlansOfFloorsWithOpenAlerts(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	ctx := newChrome(t, 1280, 900)
	pdftotext := pdftotextPath(t)
	acc := a.world.Accounts()[0]
	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/signin"),
		chromedp.SendKeys(chromedp.ID("api_key"), credA.APIKey),
		chromedp.SendKeys(chromedp.ID("authorization"), credA.Authorization)), "typing the credentials")
	loadAfter(t, ctx, chromedp.Submit(chromedp.ID("api_key")), "signing in")
	a.clock.BlockUntil(1)
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("buildings-heading"))), "waiting for the overview")

	const reportPath = "/reports/shift?from=2026-11-13T00:00&to=2026-11-18T09:00"
	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+reportPath), chromedp.WaitVisible(chromedp.CSS(".report-body"))), "opening the report")
	where, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...new Set([...document.querySelectorAll('#table-open tbody tr')].map(r => r.cells[2].textContent.trim().split(' › ').slice(0, 2).join(' › ')))]`))
	must(t, err, "reading the open alerts' floors")
	if len(where) < 2 {
		t.Fatalf("alerts are open at the end on %q; the test needs two floors or more", where)
	}
	// Every floor with open alerts gets a plan, but the last one named.
	withPlan := map[string]bool{}
	for _, b := range acc.Buildings {
		floors, err := a.store.Floors(context.Background(), acc.ID, b.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range floors {
			name := b.Name + " › " + f.Name
			if i := slices.Index(where, name); i >= 0 && i < len(where)-1 {
				putTestPlan(t, a, acc.ID, f.ID)
				withPlan[name] = true
			}
		}
	}
	if len(withPlan) != len(where)-1 {
		t.Fatalf("found %d of the floors %q", len(withPlan), where)
	}
	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+reportPath), chromedp.WaitVisible(chromedp.CSS(".report-body"))), "opening the report again")
	checkAxe(t, ctx, "the shift report with plans")
	plans, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('.print-plan')].map(p => p.querySelector('.print-plan-heading').textContent.trim() + '|' + p.querySelectorAll('.print-plan-mark').length + '|' + p.querySelectorAll('.print-plan-marks li').length)`))
	must(t, err, "reading the plans")
	if len(plans) == 0 {
		t.Fatal("the report has no plan for the floors with a plan and open alerts")
	}
	text := strings.Join(printedPages(t, ctx, pdftotext, "shift-report-plans"), " ")
	if len(plans) != len(withPlan) {
		t.Errorf("the report has %d plans; want one for each of the %d floors with a plan and open alerts", len(plans), len(withPlan))
	}
	for _, p := range plans {
		parts := strings.Split(p, "|")
		if !withPlan[strings.TrimPrefix(parts[0], "Plan of ")] {
			t.Errorf("a plan %q, of no floor with a plan", parts[0])
		}
		if parts[1] == "0" || parts[1] != parts[2] {
			t.Errorf("%s: %s marks, %s in its key; want as many, at least one", parts[0], parts[1], parts[2])
		}
		if !strings.Contains(text, parts[0]) {
			t.Errorf("the printed report has no %q", parts[0])
		}
	}
	if !strings.Contains(text, "The numbers on the plan are the places with open alerts:") {
		t.Error("the printed report does not say what the plan's numbers are")
	}
	if without := where[len(where)-1]; strings.Contains(text, "Plan of "+without) {
		t.Errorf("the printed report shows a plan of %s, which has none", without)
	}
}

// TestBrowserScreenPlansFitTheScreen: a wall screen showing the busy
// floors' plans, at 1080p and at 4K, shows one plan at a time as large as
// the space below its counts allows, nothing scrolls, the labels of what
// is wrong stand at least a fortieth of the screen's height, and
// axe-core finds nothing.
func TestBrowserScreenPlansFitTheScreen(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	ctx := newChrome(t, 1920, 1080)
	acc := a.world.Accounts()[0]
	b := acc.Buildings[0]
	user := a.browser()
	user.signIn(credA) // the first sync reads the layout
	for _, f := range b.Floors {
		putTestPlan(t, a, acc.ID, f.ID)
	}
	form := screenForm("Staff room", "building:"+b.ID)
	form.Set("plans", "busy")
	token := user.createScreen(form)
	loadAfter(t, ctx, chromedp.Navigate(a.srv.URL+"/s/"+token), "opening the screen's link")
	for _, size := range []struct{ w, h int64 }{{1920, 1080}, {3840, 2160}} {
		name := strconv.FormatInt(size.w, 10) + "×" + strconv.FormatInt(size.h, 10)
		must(t, chromedp.Do(ctx, chromedp.EmulateViewport(size.w, size.h), chromedp.Reload(),
			chromedp.WaitVisible(chromedp.CSS(".screen-plan:not(.screen-off) .screen-plan-map"))), "showing the screen at "+name)
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => {
			const shown = [...document.querySelectorAll('.screen-plan')].filter(p => getComputedStyle(p).display !== 'none');
			const map = shown[0].querySelector('.screen-plan-map').getBoundingClientRect();
			const image = shown[0].querySelector('.screen-plan-map image').getBoundingClientRect();
			const labels = [...shown[0].querySelectorAll('.screen-plan-label')].map(l => l.getBoundingClientRect().height);
			return [shown.length, document.documentElement.scrollWidth - innerWidth, document.documentElement.scrollHeight - innerHeight,
				map.bottom - innerHeight, image.width / innerWidth, image.height / innerHeight, labels.length ? Math.min(...labels) : 0];
		})()`))
		must(t, err, "measuring the screen at "+name)
		if got[0] != 1 {
			t.Errorf("%s: %v plans shown at once; want one", name, got[0])
		}
		if got[1] > 0 || got[2] > 0 || got[3] > 0 {
			t.Errorf("%s: the screen scrolls (%v px sideways, %v px down) or the plan ends %v px below it", name, got[1], got[2], got[3])
		}
		if got[4] < 0.9 && got[5] < 0.6 {
			t.Errorf("%s: the plan takes %.0f%% of the width and %.0f%% of the height; want it as large as the screen allows", name, got[4]*100, got[5]*100)
		}
		if got[6] < float64(size.h)/40 {
			t.Errorf("%s: the smallest label of what is wrong is %.0f px tall; want %d px or more, to read from across a room", name, got[6], size.h/40)
		}
		checkAxe(t, ctx, "the screen's plans at "+name)
	}
}

// TestBrowserALocationsChangeUpdatesItsMarkerAlone: on a floor's page
// with a plan, an alert opening at one location changes that location's
// marker, live; the plan itself and every other marker stay the very
// elements they were.
func TestBrowserALocationsChangeUpdatesItsMarkerAlone(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	ctx := newChrome(t, 1280, 900)
	acc := a.world.Accounts()[0]
	floor := acc.Buildings[0].Floors[0]
	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/signin"),
		chromedp.SendKeys(chromedp.ID("api_key"), credA.APIKey),
		chromedp.SendKeys(chromedp.ID("authorization"), credA.Authorization)), "typing the credentials")
	loadAfter(t, ctx, chromedp.Submit(chromedp.ID("api_key")), "signing in")
	a.clock.BlockUntil(1)
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("buildings-heading"))), "waiting for the overview")
	putTestPlan(t, a, acc.ID, floor.ID)
	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/floors/"+floor.ID), chromedp.WaitVisible(chromedp.CSS(".plan-map .plan-spot"))), "opening the floor")
	must(t, chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`!!document.body['htmx-internal-data']?.sseEventSource`,
		chromedp.WithPollingTimeout(5*time.Second))), "waiting for the page's event stream")
	// Every marker and the map are tagged; a quiet marker is chosen.
	spot, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		document.querySelector('.plan-map').washboardKept = true;
		document.querySelectorAll('.plan-spot').forEach(a => { a.washboardKept = true; });
		const quiet = [...document.querySelectorAll('.plan-spot')].find(a => !a.querySelector('.plan-badge'));
		return quiet ? quiet.id : '';
	})()`))
	must(t, err, "tagging the markers")
	if spot == "" {
		t.Fatal("no marker without alerts on the floor; the test needs one")
	}
	location := strings.TrimPrefix(spot, "plan-marker-")
	devices, err := a.store.FindDevices(context.Background(), store.DeviceFilter{Account: acc.ID, LocationID: location})
	if err != nil {
		t.Fatal(err)
	}
	var macs []string
	for _, d := range devices {
		if d.LocationID == location {
			macs = append(macs, d.MAC)
		}
	}
	jam := upstream.Alert{ID: "test-jam", LocationID: location, MacIDs: macs, Status: upstream.StatusOpen, Type: upstream.AlertJam, Created: a.clock.Now()}
	if _, err := a.engine.ApplyAlerts(context.Background(), acc.ID, []upstream.Alert{jam}); err != nil {
		t.Fatal(err)
	}
	must(t, chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`!!document.querySelector('#`+spot+` .plan-badge')`,
		chromedp.WithPollingTimeout(10*time.Second))), "waiting for the marker's badge")
	kept, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`[
		document.querySelector('.plan-map').washboardKept ? 1 : 0,
		document.getElementById('`+spot+`').washboardKept ? 1 : 0,
		[...document.querySelectorAll('.plan-spot')].filter(a => a.id !== '`+spot+`' && !a.washboardKept).length,
		document.querySelectorAll('.plan-spot').length,
	]`))
	must(t, err, "reading which elements stayed")
	if kept[0] != 1 {
		t.Error("the live update replaced the whole plan")
	}
	if kept[1] != 0 {
		t.Error("the changed location's marker is the element it was")
	}
	if kept[2] != 0 {
		t.Errorf("%d of the %d other markers were replaced though their locations did not change", kept[2], kept[3]-1)
	}
}
