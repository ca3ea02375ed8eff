package web

import (
	"cmp"
	"context"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/forecast"
	"washboard/internal/store"
	"washboard/internal/upstream"
)

// myItems are the element ids of the items of a section of /my.
func myItems(t *testing.T, r response, section string) []string {
	t.Helper()
	var ids []string
	r.doc(t).Find("#" + section + "-heading").Closest("section").Find("li.work-item").Each(func(_ int, li *goquery.Selection) {
		id, _ := li.Attr("id")
		ids = append(ids, id)
	})
	return ids
}

// myForm reads the hidden fields of the form of an item of /my posting to
// the action's path, as a browser would send them.
func myForm(t *testing.T, r response, itemID, action string) (string, url.Values) {
	t.Helper()
	f := r.doc(t).Find("#" + itemID + ` form[action$="/` + action + `"]`)
	if f.Length() == 0 {
		t.Fatalf("item %s of /my has no %s form", itemID, action)
	}
	path, _ := f.Attr("action")
	v := url.Values{}
	f.Find(`input[type="hidden"]`).Each(func(_ int, in *goquery.Selection) {
		name, _ := in.Attr("name")
		value, _ := in.Attr("value")
		v.Set(name, value)
	})
	return path, v
}

// walkPlace is where an alert is in the layout's order: its building's,
// floor's and room's places in the account's lists of them.
func (a *app) walkPlace(account, alertID string) [3]int {
	a.t.Helper()
	ctx := context.Background()
	alerts, err := a.store.FindAlerts(ctx, store.AlertFilter{Account: account, AlertID: alertID, Limit: 1})
	if err != nil || len(alerts) == 0 {
		a.t.Fatalf("alert %s: %v", alertID, err)
	}
	loc, err := a.store.Location(ctx, account, alerts[0].LocationID)
	if err != nil {
		a.t.Fatal(err)
	}
	room, _ := a.store.Room(ctx, account, loc.RoomID)
	floor, _ := a.store.Floor(ctx, account, room.FloorID)
	bs, _ := a.store.Buildings(ctx, account)
	fs, _ := a.store.Floors(ctx, account, "")
	rs, _ := a.store.Rooms(ctx, account, "")
	return [3]int{
		slices.IndexFunc(bs, func(b domain.Building) bool { return b.ID == floor.BuildingID }),
		slices.IndexFunc(fs, func(f domain.Floor) bool { return f.ID == floor.ID }),
		slices.IndexFunc(rs, func(r domain.Room) bool { return r.ID == room.ID }),
	}
}

// "My work" lists the alerts the person is on first, then every other
// open alert of the account, each in the order one walks (building,
// floor, room in the layout's order); "I'm on it" sent twice with the
// same key is one claim, and the page then lists the alert as theirs.
func TestMyWorkListsClaimsFirstThenTheRestInWalkingOrder(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	a.browser().signIn(credA)
	maria := a.browserAs(domain.Staff, "Maria")
	account := a.accountOf(false)
	ctx := context.Background()

	page := maria.get("/my")
	if page.StatusCode != http.StatusOK {
		t.Fatalf("GET /my = %d", page.StatusCode)
	}
	open := myItems(t, page, "my-open")
	alerts, err := a.store.FindAlerts(ctx, store.AlertFilter{Account: account, Status: domain.AlertOpen})
	if err != nil || len(alerts) < 3 {
		t.Fatalf("the account has %d open alerts (%v); the test needs 3", len(alerts), err)
	}
	if len(open) != len(alerts) || len(myItems(t, page, "my-mine")) != 0 {
		t.Fatalf("/my lists %d open alerts and %d of Maria's; the account has %d open, none claimed", len(open), len(myItems(t, page, "my-mine")), len(alerts))
	}
	walked := func(ids []string) bool {
		return slices.IsSortedFunc(ids, func(x, y string) int {
			p, q := a.walkPlace(account, strings.TrimPrefix(x, "alert-")), a.walkPlace(account, strings.TrimPrefix(y, "alert-"))
			return cmp.Or(cmp.Compare(p[0], q[0]), cmp.Compare(p[1], q[1]), cmp.Compare(p[2], q[2]))
		})
	}
	if !walked(open) {
		t.Errorf("the open alerts of /my are not in walking order: %v", open)
	}

	// Maria says she is on the last one, twice with the same key (a
	// second tap); Ali takes it over meanwhile, and the second post
	// changes nothing.
	last := open[len(open)-1]
	path, form := myForm(t, page, last, "claim")
	if r := maria.post(path, form); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/my" {
		t.Fatalf("I'm on it: %d to %q; want a redirect back to /my", r.StatusCode, r.Header.Get("Location"))
	}
	alertID := strings.TrimPrefix(last, "alert-")
	if err := a.store.ClaimAlert(ctx, account, domain.Claim{AlertID: alertID, Name: "Ali", At: a.clock.Now()}); err != nil {
		t.Fatal(err)
	}
	if r := maria.post(path, form); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("I'm on it sent again with its key: %d; want the same answer as the first", r.StatusCode)
	}
	claims, err := a.store.ClaimsDuring(ctx, account, a.clock.Now().Add(-time.Hour), a.clock.Now().Add(time.Hour), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range claims {
		names = append(names, c.Name)
	}
	if !slices.Equal(names, []string{"Maria", "Ali"}) {
		t.Fatalf("claims after I'm on it twice with one key and Ali's: %v; want Maria then Ali", names)
	}

	// Maria takes it back through the page, with a new key, by htmx: the
	// answer is the item, now hers, to swap in; on the page it comes
	// first.
	page = maria.get("/my")
	path, form = myForm(t, page, last, "claim")
	r := maria.postHX(path, form)
	if item := r.doc(t).Find("li#" + last); r.StatusCode != http.StatusOK || item.Length() != 1 || strings.Contains(r.body, "<html") ||
		!strings.Contains(item.Find(".work-claim").Text(), "You are on it") {
		t.Fatalf("I'm on it by htmx: %d, want the item alone saying You are on it:\n%s", r.StatusCode, r.body)
	}
	page = maria.get("/my")
	if mine := myItems(t, page, "my-mine"); !slices.Equal(mine, []string{last}) {
		t.Errorf("Maria's claims on /my: %v; want %v", mine, []string{last})
	}
	if rest := myItems(t, page, "my-open"); slices.Contains(rest, last) || len(rest) != len(open)-1 || !walked(rest) {
		t.Errorf("the other open alerts: %v; want the %d others in walking order", rest, len(open)-1)
	}
}

// bringCounts adds up "2 tissue rolls, 1 battery set" by noun, singular
// and plural as one.
func bringCounts(t *testing.T, texts []string) map[string]int {
	t.Helper()
	out := map[string]int{}
	part := regexp.MustCompile(`^(\d+) (.+?)s?$`)
	for _, text := range texts {
		for _, p := range strings.Split(strings.TrimPrefix(strings.TrimSpace(text), "Bring "), ", ") {
			m := part.FindStringSubmatch(strings.TrimSpace(p))
			if m == nil {
				t.Fatalf("%q is not a number of things to bring", p)
			}
			n, _ := strconv.Atoi(m[1])
			out[m[2]] += n
		}
	}
	return out
}

// The pick list at the top of "My work" is what its items ask to bring,
// added up, and each consumable_out alert asks for its refill count.
func TestMyWorkPickListAddsUpItsItems(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	a.browser().signIn(credA)
	maria := a.browserAs(domain.Staff, "Maria")
	doc := maria.get("/my").doc(t)
	var items, totals []string
	doc.Find(".work-bring").Each(func(_ int, s *goquery.Selection) { items = append(items, s.Text()) })
	doc.Find(".my-bring li").Each(func(_ int, s *goquery.Selection) { totals = append(totals, s.Text()) })
	if len(items) == 0 {
		t.Fatal("no item of /my asks to bring anything; the test needs some")
	}
	got, want := bringCounts(t, totals), bringCounts(t, items)
	if len(got) == 0 || !mapsEqual(got, want) {
		t.Errorf("the pick list says %v; its items add up to %v", got, want)
	}
	// The first consumable_out alert listed asks for its refill count.
	alerts, _ := a.store.FindAlerts(context.Background(), store.AlertFilter{Account: a.accountOf(false), Status: domain.AlertOpen, Type: domain.AlertConsumableOut, Limit: 1})
	if len(alerts) == 1 {
		line := strings.Join(strings.Fields(doc.Find("#alert-"+alerts[0].ID+" .work-bring").Text()), " ")
		if !strings.HasPrefix(line, "Bring "+strconv.Itoa(max(alerts[0].RefillCount, 1))+" ") {
			t.Errorf("a consumable_out alert of refill count %d asks to %q", alerts[0].RefillCount, line)
		}
	}
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// "Done" is kept once per key, in the person's name; "could not fix"
// needs a reason, said in words (422); a supervisor sees the report on
// the alert's page, and once the alert stays open well past it, that the
// service contradicts it.
func TestMyWorkDoneIsKeptOnceAndAContradictionIsShown(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	a.browser().signIn(credA)
	boss := a.browserAs(domain.Supervisor, "Sue")
	maria := a.browserAs(domain.Staff, "Maria")
	page := maria.get("/my")
	open := myItems(t, page, "my-open")
	if len(open) == 0 {
		t.Fatal("no open alert on /my")
	}
	item := open[0]
	alertID := strings.TrimPrefix(item, "alert-")
	path, form := myForm(t, page, item, "done")

	// Could not fix, without a reason: refused in words, nothing kept.
	form.Set("outcome", string(domain.CouldNotFix))
	r := maria.post(path, form)
	if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.body, "The reason is needed when it could not be fixed") {
		t.Fatalf("could not fix without a reason: %d, saying the reason is needed: %v", r.StatusCode, strings.Contains(r.body, "The reason is needed"))
	}
	form.Set("outcome", "painted")
	if r := maria.post(path, form); r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.body, "What was done is not one of the choices") {
		t.Errorf("an outcome not offered: %d", r.StatusCode)
	}
	// In German, both refusals are German.
	maria.get("/my?lang=de")
	if r := maria.post(path, form); r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.body, "Was getan wurde, ist keine der Auswahlen") {
		t.Errorf("an outcome not offered, in German: %d", r.StatusCode)
	}
	form.Set("outcome", string(domain.CouldNotFix))
	if r := maria.post(path, form); r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.body, "Der Grund ist nötig, wenn es nicht behoben werden konnte") {
		t.Errorf("could not fix without a reason, in German: %d", r.StatusCode)
	}
	maria.get("/my?lang=en")

	// Refilled, sent twice with one key; the second says fault cleared,
	// and is not kept.
	form.Set("outcome", string(domain.Refilled))
	if r := maria.post(path, form); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/my" {
		t.Fatalf("done: %d to %q; want a redirect back to /my", r.StatusCode, r.Header.Get("Location"))
	}
	form.Set("outcome", string(domain.FaultCleared))
	if r := maria.postHX(path, form); r.StatusCode != http.StatusOK {
		t.Fatalf("done sent again with its key, by htmx: %d", r.StatusCode)
	}
	done, err := a.store.LastDoneReports(context.Background(), a.accountOf(false), []string{alertID})
	if err != nil || done[alertID].Outcome != domain.Refilled || done[alertID].Name != "Maria" {
		t.Fatalf("the report kept: %+v, %v; want Maria's refilled alone", done[alertID], err)
	}
	at := done[alertID].At.In(a.cfg.Zone).Format("15:04")
	said := "Marked done by Maria at " + at + " (refilled)"
	if got := strings.Join(strings.Fields(maria.get("/my").doc(t).Find("#"+item).Text()), " "); !strings.Contains(got, said) {
		t.Errorf("the item on /my says %q; want %q", got, said)
	}

	claimPage := "/alerts/" + alertID + "/claim"
	report := func() string {
		return strings.Join(strings.Fields(boss.get(claimPage).doc(t).Find(".claim-done p").Text()), " ")
	}
	if got := report(); got != said {
		t.Errorf("right after, the supervisor's page of the alert says %q; want %q", got, said)
	}
	a.clock.Advance(time.Hour)
	if got, want := report(), said+", but the alert is still open"; got != want {
		t.Errorf("an hour later, the alert open, the supervisor's page says %q; want %q", got, want)
	}
	if got := strings.Join(strings.Fields(maria.get(claimPage).doc(t).Find(".claim-done p").Text()), " "); got != "" {
		t.Errorf("staff's page of the alert says %q of the report; it is the supervisors'", got)
	}

	// The shift report of the time lists the report, contradicted, in
	// words; its CSV says how.
	period := url.Values{"from": {done[alertID].At.Add(-time.Hour).In(a.cfg.Zone).Format("2006-01-02T15:04")},
		"to": {a.clock.Now().Add(time.Minute).In(a.cfg.Zone).Format("2006-01-02T15:04")}}
	row := boss.get("/reports/shift?" + period.Encode()).doc(t).Find("#table-done tbody tr")
	if got := strings.Join(row.Find("td").Map(func(_ int, td *goquery.Selection) string { return strings.TrimSpace(td.Text()) }), " | "); row.Length() != 1 || !strings.HasPrefix(got, "Maria | Refilled | ") ||
		!strings.Contains(got, "Contradicted: the alert is still open") {
		t.Errorf("the shift report's reported done: %d rows, %q; want Maria's refill, contradicted as still open", row.Length(), got)
	}
	period.Set("table", "done")
	if csv := boss.get("/reports/shift.csv?" + period.Encode()).body; !strings.Contains(csv, "Maria,refilled,,"+alertID+",") ||
		!strings.Contains(csv, ",still_open,") {
		t.Errorf("the report's CSV of reported done:\n%s", csv)
	}
}

// A viewer sees "My work" without its actions, and the server refuses
// their actions (403) even with a valid form.
func TestMyWorkViewerSeesNoActions(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	a.browser().signIn(credA)
	maria := a.browserAs(domain.Staff, "Maria")
	vic := a.browserAs(domain.Viewer, "Vic")
	page := vic.get("/my")
	if page.StatusCode != http.StatusOK || len(myItems(t, page, "my-open")) == 0 {
		t.Fatalf("a viewer's /my: %d with %d open alerts", page.StatusCode, len(myItems(t, page, "my-open")))
	}
	if n := page.doc(t).Find("li.work-item form").Length(); n != 0 {
		t.Errorf("a viewer's /my offers %d action forms; want none", n)
	}
	item := myItems(t, page, "my-open")[0]
	for _, action := range []string{"claim", "done"} {
		path, form := myForm(t, maria.get("/my"), item, action)
		form.Set("csrf_token", vic.pageCSRF("/my"))
		form.Set("outcome", string(domain.Refilled))
		if r := vic.post(path, form); r.StatusCode != http.StatusForbidden {
			t.Errorf("a viewer posting %s: %d; want 403", action, r.StatusCode)
		}
	}
}

// A person limited to one building sees on "My work" that building's open
// alerts alone, and cannot act on another's.
func TestMyWorkKeepsToThePersonsBuildings(t *testing.T) {
	t.Parallel()
	a := newTwoBuildingsApp(t)
	boss := a.browser()
	boss.signIn(credA)
	o := a.otherBuilding(boss)
	maria := a.browserAs(domain.Staff, "Maria")
	own := a.world.Accounts()[0].Buildings[0].ID
	maria.limitTo(own)
	page := maria.get("/my")
	items := myItems(t, page, "my-open")
	if len(items) == 0 {
		t.Fatal("no open alert of the person's building on /my")
	}
	for _, id := range items {
		if p := a.walkPlace(a.accountOf(false), strings.TrimPrefix(id, "alert-")); p[0] != 0 {
			t.Errorf("item %s of /my is in building %d of the layout; the person sees the first alone", id, p[0])
		}
	}
	for _, s := range o.secrets {
		if strings.Contains(page.body, s) {
			t.Errorf("/my of a person limited to one building names %q of the other", s)
		}
	}
	_, form := myForm(t, page, items[0], "claim")
	if r := maria.post("/my/alerts/"+o.alert+"/claim", form); r.StatusCode != http.StatusNotFound {
		t.Errorf("claiming an alert of the other building: %d; want 404", r.StatusCode)
	}
}

// What runs out before the account's current shift ends is listed after
// the open alerts, with one refill to bring; what runs out after it is
// not.
func TestMyWorkListsWhatRunsOutBeforeTheShiftEnds(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	a.browser().signIn(credA)
	ctx := context.Background()
	account := a.accountOf(false)
	shifts, zone, err := a.deps.Dashboard.ReportSettings(ctx, account, a.cfg.Zone)
	if err != nil {
		t.Fatal(err)
	}
	shift, ok := shifts.At(a.clock.Now(), zone)
	if !ok {
		t.Fatal("no shift now; the default shifts cover the day")
	}
	alerts, err := a.store.FindAlerts(ctx, store.AlertFilter{Account: account, Status: domain.AlertOpen})
	if err != nil {
		t.Fatal(err)
	}
	alerted := map[string]bool{}
	for _, al := range alerts {
		alerted[al.LocationID] = true
	}
	devices, err := a.store.FindDevices(ctx, store.DeviceFilter{Account: account})
	if err != nil {
		t.Fatal(err)
	}
	var in []domain.Device
	for _, d := range devices {
		out := false
		for _, c := range d.Compartments {
			out = out || c.Out
		}
		if !out && len(d.Compartments) > 0 && !alerted[d.LocationID] {
			in = append(in, d)
		}
	}
	if len(in) < 2 {
		t.Fatalf("%d dispensers not out and without alerts; the test needs 2", len(in))
	}
	soon := forecast.Estimate{At: shift.End.Add(-time.Minute), Basis: forecast.FromLevels}
	later := forecast.Estimate{At: shift.End.Add(time.Minute), Basis: forecast.FromLevels}
	a.deps.Dashboard = dashboard.New(dashboard.Deps{Store: a.store, Sync: a.engine, Upstream: a.client, Clock: a.clock, Keys: a.deps.Keys,
		Forecasts: forecastsOf{account: {in[0].MAC: soon, in[1].MAC: later}}})
	s, err := New(a.cfg, a.deps)
	if err != nil {
		t.Fatal(err)
	}
	a.handler.Store(s)

	page := a.browserAs(domain.Staff, "Maria").get("/my")
	want := []string{"device-" + strings.ReplaceAll(in[0].MAC, ":", "")}
	if got := myItems(t, page, "my-runs-out"); !slices.Equal(got, want) {
		t.Errorf("what runs out before %s ends: %v; want %v (not the one running out a minute after)", shift.Shift, got, want)
	}
	line := strings.Join(strings.Fields(page.doc(t).Find("#"+want[0]).Text()), " ")
	if wantAt := "Runs out at " + soon.At.In(a.cfg.Zone).Format("15:04"); !strings.Contains(line, wantAt) || !strings.Contains(line, "Bring 1 ") {
		t.Errorf("the item says %q; want %q and one refill to bring", line, wantAt)
	}
}

// An action sent again after its alert closed (a phone sending late) is
// answered as done once; a new "I'm on it" of the closed alert is refused
// (404, saying so), and a "done" of it is kept: the refill closed it.
func TestMyWorkActionsSentAgainAfterTheAlertClosed(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	a.browser().signIn(credA)
	maria := a.browserAs(domain.Staff, "Maria")
	account := a.accountOf(false)
	// Her role names the buildings (all of them): the scope is checked.
	var all []string
	for _, b := range a.world.Accounts()[0].Buildings {
		all = append(all, b.ID)
	}
	maria.limitTo(all...)
	page := maria.get("/my")
	item := myItems(t, page, "my-open")[0]
	alertID := strings.TrimPrefix(item, "alert-")
	claimPath, claimForm := myForm(t, page, item, "claim")
	if r := maria.post(claimPath, claimForm); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("I'm on it: %d", r.StatusCode)
	}
	donePath, doneForm := myForm(t, page, item, "done")
	doneForm.Set("outcome", string(domain.Refilled))

	alerts, err := a.store.FindAlerts(context.Background(), store.AlertFilter{Account: account, AlertID: alertID, Limit: 1})
	if err != nil || len(alerts) != 1 {
		t.Fatalf("alert %s: %v", alertID, err)
	}
	al := alerts[0]
	closed := upstream.Alert{ID: al.ID, LocationID: al.LocationID, MacIDs: al.MACs, Status: upstream.StatusClosed,
		Type: string(al.Type), Created: al.Created, Resolved: a.clock.Now(), ResolutionType: upstream.ResolvedByDevice, RefillCount: al.RefillCount}
	if _, err := a.engine.ApplyAlerts(context.Background(), account, []upstream.Alert{closed}); err != nil {
		t.Fatal(err)
	}

	if r := maria.post(claimPath, claimForm); r.StatusCode != http.StatusSeeOther {
		t.Errorf("I'm on it sent again after the alert closed: %d; want the answer of the first", r.StatusCode)
	}
	claimForm.Set("key", "a-new-key-0123456789")
	if r := maria.post(claimPath, claimForm); r.StatusCode != http.StatusNotFound || !strings.Contains(r.body, "no longer open") {
		t.Errorf("a new I'm on it of the closed alert: %d; want 404 saying it is no longer open", r.StatusCode)
	}
	for i := range 2 {
		if r := maria.post(donePath, doneForm); r.StatusCode != http.StatusSeeOther {
			t.Errorf("done of the closed alert, the %d. time: %d; want a redirect back to /my", i+1, r.StatusCode)
		}
	}
	done, err := a.store.LastDoneReports(context.Background(), account, []string{alertID})
	if err != nil || done[alertID].Outcome != domain.Refilled {
		t.Errorf("the report of the closed alert: %+v, %v; want refilled", done[alertID], err)
	}
}
