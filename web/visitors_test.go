package web

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/visitors"
)

// roomCodes are a floor's rooms and the paths of their codes, as its
// sheet shows them to b (a supervisor or above).
type sheetCode struct{ id, name, path string }

func (b *browser) roomCodes(floor string) []sheetCode {
	t := b.a.t
	t.Helper()
	r := b.get("/floors/" + floor + "/codes")
	if r.StatusCode != http.StatusOK {
		t.Fatalf("the sheet of floor %s: %d\n%s", floor, r.StatusCode, r.text(t))
	}
	var out []sheetCode
	doc := r.doc(t)
	for _, li := range doc.Find(".room-code").EachIter() {
		link := strings.TrimSpace(li.Find("code").Text())
		u, err := url.Parse(link)
		if err != nil || !strings.HasPrefix(u.Path, "/r/") {
			t.Fatalf("the sheet's link %q", link)
		}
		out = append(out, sheetCode{id: li.Find("input[name=room]").AttrOr("value", ""), name: li.Find(".room-code-room").Text(), path: u.Path})
	}
	if len(out) == 0 {
		t.Fatalf("the sheet of floor %s shows no code", floor)
	}
	return out
}

// firstFloor is the first floor of the first account, as the simulator
// has it.
func (a *app) firstFloor() string { return a.world.Accounts()[0].Buildings[0].Floors[0].ID }

// visitorForm is the form of a code's page: its token, with the choices
// given.
func (b *browser) visitorForm(path string, choices url.Values) url.Values {
	b.a.t.Helper()
	r := b.get(path)
	token := r.doc(b.a.t).Find("input[name=form]").AttrOr("value", "")
	if token == "" {
		b.a.t.Fatalf("no visitors' form on %s: %d\n%s", path, r.StatusCode, r.text(b.a.t))
	}
	f := url.Values{"form": {token}}
	for k, v := range choices {
		f[k] = v
	}
	return f
}

// text is what a page says, its spaces made one.
func (r response) text(t *testing.T) string {
	t.Helper()
	return strings.Join(strings.Fields(r.doc(t).Text()), " ")
}

func (a *app) visitorReports() []domain.VisitorReport {
	a.t.Helper()
	rs, err := a.store.VisitorReports(context.Background(), a.accountOf(false), store.VisitorReportFilter{})
	if err != nil {
		a.t.Fatal(err)
	}
	return rs
}

// A visitor, never signed in, opens a room's code: a page without script
// that sets no cookie, and what they send is recorded and thanked for.
func TestAVisitorReportsWithoutSigningIn(t *testing.T) {
	t.Parallel()
	a := newAppOf(t, Config{}, 10)
	sup := a.browser()
	sup.signIn(credA)
	code := sup.roomCodes(a.firstFloor())[0]

	v := a.browser()
	r := v.get(code.path)
	if r.StatusCode != http.StatusOK || !strings.Contains(r.text(t), "Something wrong here?") || !strings.Contains(r.text(t), code.name) {
		t.Fatalf("the code's page: %d\n%s", r.StatusCode, r.text(t))
	}
	if cc := r.Header.Get("Cache-Control"); !strings.Contains(cc, "no-store") || len(r.Header.Values("Vary")) != 1 {
		t.Errorf("the visitors' page: Cache-Control %q, Vary %q; want no-store and one Vary line", cc, r.Header.Values("Vary"))
	}
	if r.Header.Get("Set-Cookie") != "" || strings.Contains(r.body, "<script") {
		t.Errorf("the visitors' page sets %q, script: %v", r.Header.Get("Set-Cookie"), strings.Contains(r.body, "<script"))
	}
	doc := r.doc(t)
	for _, k := range domain.VisitorKinds {
		if doc.Find("input[name=kind][value="+string(k)+"]").Length() != 1 {
			t.Errorf("no choice of %s", k)
		}
	}
	if n := doc.Find(".rating input[name=rating]").Length(); n != 5 || !strings.Contains(doc.Find(".rating").Text(), "Very good") {
		t.Errorf("the rating has %d choices, in words: %q", n, doc.Find(".rating").Text())
	}

	// Nothing chosen: said, and nothing kept.
	r = v.post(code.path, v.visitorForm(code.path, nil))
	if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.body, "Choose what is wrong, or rate the washroom.") {
		t.Errorf("nothing chosen: %d\n%s", r.StatusCode, r.text(t))
	}
	r = v.post(code.path, v.visitorForm(code.path, url.Values{"kind": {"other"}, "text": {strings.Repeat("a", 201)}, "rating": {"2"}}))
	if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.body, "Write at most 200 characters.") ||
		r.doc(t).Find("input[name=rating][value='2']").AttrOr("checked", "no") == "no" {
		t.Errorf("a text too long: %d, the form not kept as sent\n%s", r.StatusCode, r.text(t))
	}
	if got := a.visitorReports(); len(got) != 0 {
		t.Fatalf("refused reports are kept: %+v", got)
	}

	r = v.post(code.path, v.visitorForm(code.path, url.Values{"kind": {"other"}, "text": {"The door does not lock"}, "rating": {"2"}}))
	if r.StatusCode != http.StatusOK || !strings.Contains(r.body, "Thank you. The staff of this building will see it.") {
		t.Fatalf("sending a report: %d\n%s", r.StatusCode, r.text(t))
	}
	if r.Header.Get("Set-Cookie") != "" {
		t.Errorf("sending a report sets %q", r.Header.Get("Set-Cookie"))
	}
	got := a.visitorReports()
	if len(got) != 1 || got[0].RoomID != code.id || got[0].Kind != domain.VisitorOther || got[0].Text != "The door does not lock" ||
		got[0].Rating != 2 || !got[0].Open() {
		t.Errorf("the report kept = %+v", got)
	}
	if strings.Contains(a.logs.String(), strings.TrimPrefix(code.path, "/r/")) {
		t.Error("the log holds a room's code")
	}
}

// The visitors' page speaks the visitor's language, from ?lang= or their
// browser's, and remembers nothing of it.
func TestAVisitorsPageSpeaksTheirLanguage(t *testing.T) {
	t.Parallel()
	a := newAppOf(t, Config{}, 10)
	sup := a.browser()
	sup.signIn(credA)
	code := sup.roomCodes(a.firstFloor())[0]
	v := a.browser()
	if r := v.get(code.path + "?lang=de"); !strings.Contains(r.body, "Stimmt hier etwas nicht?") || r.Header.Get("Set-Cookie") != "" {
		t.Errorf("?lang=de: %q, cookie %q", r.doc(t).Find("h1").Text(), r.Header.Get("Set-Cookie"))
	}
	if r := v.get(code.path, "Accept-Language", "es-MX,es;q=0.9"); !strings.Contains(r.body, "¿Algo va mal aquí?") || !strings.Contains(r.Header.Get("Vary"), "Accept-Language") {
		t.Errorf("Accept-Language es: %q, Vary %q", r.doc(t).Find("h1").Text(), r.Header.Get("Vary"))
	}
	if r := v.get(code.path); !strings.Contains(r.body, "Something wrong here?") {
		t.Errorf("the language asked before is remembered: %q", r.doc(t).Find("h1").Text())
	}
}

// The page a room's code opens, with everything it loads, weighs less
// than 15 KB.
func TestTheVisitorsPageWeighsUnder15KB(t *testing.T) {
	t.Parallel()
	a := newAppOf(t, Config{}, 10)
	sup := a.browser()
	sup.signIn(credA)
	code := sup.roomCodes(a.firstFloor())[0]
	v := a.browser()
	// Uncompressed, as the heaviest a phone may get it.
	r := v.get(code.path, "Accept-Encoding", "identity")
	total := len(r.body)
	doc := r.doc(t)
	for _, sel := range []string{"link[href]", "script[src]", "img[src]", "iframe[src]", "source[src]"} {
		for _, el := range doc.Find(sel).EachIter() {
			ref := el.AttrOr("href", el.AttrOr("src", ""))
			res := v.get(ref, "Accept-Encoding", "identity")
			if res.StatusCode != http.StatusOK {
				t.Errorf("%s: %d", ref, res.StatusCode)
			}
			total += len(res.body)
		}
	}
	t.Logf("the visitors' page and what it loads: %d bytes", total)
	if total >= 15*1024 {
		t.Errorf("the page and what it loads weigh %d bytes; want under %d", total, 15*1024)
	}
}

// A form posted to a code from elsewhere (no form token, an old one,
// another site's) is refused, and nothing is kept.
func TestAVisitorsFormFromElsewhereIsRefused(t *testing.T) {
	t.Parallel()
	a := newAppOf(t, Config{}, 10)
	sup := a.browser()
	sup.signIn(credA)
	codes := sup.roomCodes(a.firstFloor())
	v := a.browser()
	good := v.visitorForm(codes[0].path, url.Values{"kind": {"soap"}})
	post := func(path string, f url.Values, headers ...string) response {
		req, _ := http.NewRequest(http.MethodPost, a.srv.URL+path, strings.NewReader(f.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		return v.do(req)
	}
	for _, c := range []struct {
		name    string
		path    string
		form    url.Values
		headers []string
	}{
		{"without a token", codes[0].path, url.Values{"kind": {"soap"}}, nil},
		{"with a made-up token", codes[0].path, url.Values{"kind": {"soap"}, "form": {"1.00"}}, nil},
		{"from another site", codes[0].path, good, []string{"Sec-Fetch-Site", "cross-site"}},
		{"from another origin", codes[0].path, good, []string{"Origin", "https://evil.example"}},
	} {
		if r := post(c.path, c.form, c.headers...); r.StatusCode != http.StatusForbidden || !strings.Contains(r.body, "This page was open too long") {
			t.Errorf("%s: %d\n%s", c.name, r.StatusCode, r.text(t))
		}
	}
	if len(codes) > 1 {
		if r := post(codes[1].path, good); r.StatusCode != http.StatusForbidden {
			t.Errorf("another room's form token: %d", r.StatusCode)
		}
	}
	a.clock.Advance(visitors.FormTokenLife + time.Minute)
	if r := post(codes[0].path, good); r.StatusCode != http.StatusForbidden {
		t.Errorf("a form token past its life: %d", r.StatusCode)
	}
	if got := a.visitorReports(); len(got) != 0 {
		t.Errorf("refused forms kept reports: %+v", got)
	}
}

// A room takes a few reports a minute: the rest are refused politely, and
// the flood is kept as one marker, not one per report.
func TestVisitorReportsAreThrottledAndAFloodSaidOnce(t *testing.T) {
	t.Parallel()
	a := newAppOf(t, Config{}, 10)
	sup := a.browser()
	sup.signIn(credA)
	code := sup.roomCodes(a.firstFloor())[0]
	v := a.browser()
	f := v.visitorForm(code.path, url.Values{"kind": {"dirty"}})
	ok, refused := 0, 0
	for range 40 {
		switch r := v.post(code.path, f); r.StatusCode {
		case http.StatusOK:
			ok++
		case http.StatusTooManyRequests:
			refused++
			if !strings.Contains(r.body, "many reports in the last minutes") {
				t.Fatalf("a refused report says:\n%s", r.text(t))
			}
		default:
			t.Fatalf("a report: %d\n%s", r.StatusCode, r.text(t))
		}
	}
	if ok != visitors.DefaultLimits.PerRoom || refused != 40-ok {
		t.Errorf("%d reports taken and %d refused in a minute; want %d taken", ok, refused, visitors.DefaultLimits.PerRoom)
	}
	got := a.visitorReports()
	floods := 0
	for _, r := range got {
		if r.Kind == domain.VisitorFlood {
			floods++
		}
	}
	if len(got) != ok+1 || floods != 1 {
		t.Errorf("kept %d reports with %d flood markers; want %d with one", len(got), floods, ok+1)
	}
	a.clock.Advance(time.Minute)
	if r := v.post(code.path, v.visitorForm(code.path, url.Values{"kind": {"broken"}})); r.StatusCode != http.StatusOK {
		t.Errorf("a report a minute later: %d", r.StatusCode)
	}
}

// A replaced code, and the code of a room no longer in the layout, say
// so in words (410); a code nobody has is not found (404); none is ever
// answered with a server error.
func TestReplacedRemovedAndForgedCodesSaySo(t *testing.T) {
	t.Parallel()
	a := newAppOf(t, Config{}, 10)
	sup := a.browser()
	sup.signIn(credA)
	floor := a.firstFloor()
	codes := sup.roomCodes(floor)
	csrf := sup.pageCSRF("/floors/" + floor + "/codes")
	r := sup.post("/floors/"+floor+"/codes", url.Values{"csrf_token": {csrf}, "room": {codes[0].id}})
	if r.StatusCode != http.StatusOK || !strings.Contains(r.text(t), "The code of "+codes[0].name+" was replaced") {
		t.Fatalf("replacing a code: %d\n%s", r.StatusCode, r.text(t))
	}
	renewed := sup.roomCodes(floor)
	if renewed[0].path == codes[0].path || renewed[0].id != codes[0].id {
		t.Fatalf("the sheet after replacing: %+v, before %+v", renewed[0], codes[0])
	}
	v := a.browser()
	if r := v.get(codes[0].path); r.StatusCode != http.StatusGone || !strings.Contains(r.body, "This code was replaced.") {
		t.Errorf("the replaced code: %d\n%s", r.StatusCode, r.text(t))
	}
	if r := v.post(codes[0].path, url.Values{"kind": {"soap"}}); r.StatusCode != http.StatusGone {
		t.Errorf("a report to the replaced code: %d", r.StatusCode)
	}
	if r := v.get(renewed[0].path); r.StatusCode != http.StatusOK {
		t.Errorf("the new code: %d", r.StatusCode)
	}
	for _, token := range []string{"nothing", strings.Repeat("A", 22), "%00%ff", strings.Repeat("x", 3000), "..%2F..%2Fetc"} {
		r := v.get("/r/" + token)
		if r.StatusCode != http.StatusNotFound || !strings.Contains(r.body, "Washboard does not know this code.") {
			t.Errorf("/r/%.30s: %d", token, r.StatusCode)
		}
	}
	if r := sup.post("/floors/"+floor+"/codes", url.Values{"csrf_token": {csrf}, "room": {"no-such-room"}}); r.StatusCode != http.StatusNotFound {
		t.Errorf("replacing the code of no room: %d", r.StatusCode)
	}

	// The layout changes: the second room is gone.
	ctx := context.Background()
	l, err := a.store.Layout(ctx, a.accountOf(false))
	if err != nil {
		t.Fatal(err)
	}
	var rooms []domain.Room
	for _, room := range l.Rooms {
		if room.ID != renewed[1].id {
			rooms = append(rooms, room)
		}
	}
	l.Rooms = rooms
	var locations []domain.Location
	for _, loc := range l.Locations {
		if loc.RoomID != renewed[1].id {
			locations = append(locations, loc)
		}
	}
	l.Locations = locations
	if _, err := a.store.ReplaceLayout(ctx, l); err != nil {
		t.Fatal(err)
	}
	if r := v.get(renewed[1].path); r.StatusCode != http.StatusGone || !strings.Contains(r.text(t), "no longer in the building's plan") {
		t.Errorf("the code of a room gone: %d\n%s", r.StatusCode, r.text(t))
	}
}

// A person of the account (staff or above) who opens a room's code is
// recorded as there, once a minute, and told so; a viewer gets the
// visitors' page; a link from another site asks before recording.
func TestStaffWhoScanARoomsCodeAreRecordedThere(t *testing.T) {
	t.Parallel()
	a := newAppOf(t, Config{}, 10)
	sup := a.browser()
	sup.signIn(credA)
	code := sup.roomCodes(a.firstFloor())[0]
	account := a.accountOf(false)
	scans := func() []domain.PresenceScan {
		t.Helper()
		got, err := a.store.PresenceScans(context.Background(), account, code.id, start.Add(-time.Hour), start.Add(24*time.Hour), 100)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}

	viewer := a.browserAs(domain.Viewer, "Vera Viewer")
	if r := viewer.get(code.path); r.StatusCode != http.StatusOK || !strings.Contains(r.body, "Something wrong here?") {
		t.Errorf("a viewer's scan: %d\n%s", r.StatusCode, r.text(t))
	}
	if got := scans(); len(got) != 0 {
		t.Errorf("a viewer's scan is recorded: %+v", got)
	}

	staff := a.browserAs(domain.Staff, "Sam Staff")
	at := a.clock.Now().In(time.UTC).Format("15:04")
	for range 2 {
		r := staff.get(code.path)
		want := "Recorded: you were in " + code.name + " at " + at + "."
		if r.StatusCode != http.StatusOK || !strings.Contains(r.text(t), want) {
			t.Fatalf("staff's scan: %d, want %q\n%s", r.StatusCode, want, r.text(t))
		}
		doc := r.doc(t)
		if doc.Find(`a[href="/rooms/`+code.id+`"]`).Length() != 1 || doc.Find(`a[href="`+code.path+`?report"]`).Length() != 1 {
			t.Errorf("the scan's page links to neither the room nor the visitors' form:\n%s", r.text(t))
		}
	}
	if got := scans(); len(got) != 1 || got[0].Name != "Sam Staff" {
		t.Errorf("two scans in a minute = %+v; want Sam Staff's once", got)
	}
	if r := staff.get(code.path + "?report"); !strings.Contains(r.body, "Something wrong here?") {
		t.Errorf("?report: %d\n%s", r.StatusCode, r.text(t))
	}

	// From another site: asked, then recorded by the form.
	a.clock.Advance(time.Minute)
	r := staff.get(code.path, "Sec-Fetch-Site", "cross-site")
	if !strings.Contains(r.body, "This link came from another site.") || len(scans()) != 1 {
		t.Fatalf("a link from another site: %d, %d scans\n%s", r.StatusCode, len(scans()), r.text(t))
	}
	token := r.doc(t).Find("input[name=form]").AttrOr("value", "")
	if r := staff.post(code.path, url.Values{"form": {token}, "here": {"1"}}); !strings.Contains(r.body, "Recorded: you were in") || len(scans()) != 2 {
		t.Errorf("confirming: %d, %d scans\n%s", r.StatusCode, len(scans()), r.text(t))
	}
}

// A floor's sheet of codes is offered to supervisors from the floor's
// page, one QR code per room; a person limited to one building gets
// neither the sheet nor a new code of another's.
func TestAFloorsSheetOfRoomCodes(t *testing.T) {
	t.Parallel()
	a := newTwoBuildingsApp(t)
	sup := a.browser()
	sup.signIn(credA)
	acc := a.world.Accounts()[0]
	floor := acc.Buildings[0].Floors[0]
	if r := sup.get("/floors/" + floor.ID); r.doc(t).Find(`a[href="/floors/`+floor.ID+`/codes"]`).Length() != 1 {
		t.Errorf("the floor's page offers no sheet of codes to its supervisor")
	}
	staff := a.browserAs(domain.Staff, "Sam Staff")
	if r := staff.get("/floors/" + floor.ID); r.doc(t).Find(`a[href="/floors/`+floor.ID+`/codes"]`).Length() != 0 {
		t.Errorf("the floor's page offers the sheet of codes to staff")
	}
	r := sup.get("/floors/" + floor.ID + "/codes")
	doc := r.doc(t)
	if n := doc.Find(".room-code svg.room-code-qr").Length(); n != len(floor.Rooms) {
		t.Errorf("the sheet has %d QR codes; the floor has %d rooms", n, len(floor.Rooms))
	}
	for _, room := range floor.Rooms {
		if !strings.Contains(doc.Find(".room-code-sheet").Text(), room.Name) {
			t.Errorf("the sheet does not name %s", room.Name)
		}
	}
	if !strings.Contains(doc.Find(".room-code-where").First().Text(), acc.Buildings[0].Name) {
		t.Errorf("the sheet does not say the building: %q", doc.Find(".room-code-where").First().Text())
	}

	other := acc.Buildings[1]
	sup.limitTo(acc.Buildings[0].ID)
	if r := sup.get("/floors/" + other.Floors[0].ID + "/codes"); r.StatusCode != http.StatusNotFound || strings.Contains(r.body, other.Floors[0].Rooms[0].Name) {
		t.Errorf("the other building's sheet: %d", r.StatusCode)
	}
	csrf := sup.pageCSRF("/floors/" + floor.ID + "/codes")
	if r := sup.post("/floors/"+floor.ID+"/codes", url.Values{"csrf_token": {csrf}, "room": {other.Floors[0].Rooms[0].ID}}); r.StatusCode != http.StatusNotFound {
		t.Errorf("replacing a code of the other building: %d", r.StatusCode)
	}
}
