package web

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"image"
	"image/png"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/views"
)

// pngOf is a PNG image of w × h pixels.
func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// uploadPlan sends a file as the plan of a floor, with the form's token of
// the plan's page.
func (b *browser) uploadPlan(floor, name string, file []byte) response {
	b.a.t.Helper()
	path := "/floors/" + floor + "/plan"
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	w.WriteField("csrf_token", b.pageCSRF(path))
	if name != "" {
		f, _ := w.CreateFormFile("plan", name)
		f.Write(file)
	}
	w.Close()
	req, _ := http.NewRequest(http.MethodPost, b.a.srv.URL+path, &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	return b.do(req)
}

// savePlacements sends placements as the plan page's form does.
func (b *browser) savePlacements(floor, placements string) response {
	b.a.t.Helper()
	path := "/floors/" + floor + "/plan"
	return b.post(path+"/placements", url.Values{"csrf_token": {b.pageCSRF(path)}, "placements": {placements}})
}

// aFloor is the first floor of the first account, its rooms and its
// locations.
func (a *app) aFloor() (domain.Floor, []domain.Room, []domain.Location) {
	a.t.Helper()
	ctx := context.Background()
	account := a.accountOf(false)
	f, err := a.store.Floor(ctx, account, a.world.Accounts()[0].Buildings[0].Floors[0].ID)
	if err != nil {
		a.t.Fatal(err)
	}
	rooms, err := a.store.Rooms(ctx, account, f.ID)
	if err != nil || len(rooms) == 0 {
		a.t.Fatalf("the floor's rooms: %v, %v", rooms, err)
	}
	locs, err := a.store.LocationsIn(ctx, account, "", f.ID, "")
	if err != nil || len(locs) < 2 {
		a.t.Fatalf("the floor's locations: %v, %v", locs, err)
	}
	return f, rooms, locs
}

// saysOnce reads the page a change went back to, and whether it says msg.
func (b *browser) saysOnce(r response, msg string) bool {
	b.a.t.Helper()
	if r.StatusCode != http.StatusSeeOther {
		b.a.t.Fatalf("the change answered %d, not back to its page\n%.800s", r.StatusCode, r.body)
	}
	return strings.Contains(html.UnescapeString(b.get(r.Header.Get("Location")).body), msg)
}

// TestFloorPlanUploadReplaceRemove: a supervisor uploads a floor's plan,
// which is served as it was kept under a policy that runs nothing;
// places a location and a room on it; a new plan of the same size keeps
// them; one of another size scales them and asks for a review; removing
// the plan leaves nothing of it.
func TestFloorPlanUploadReplaceRemove(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	a.browser().signIn(credA)
	b := a.browserAs(domain.Supervisor, "Sam Supervisor")
	f, rooms, locs := a.aFloor()
	path := "/floors/" + f.ID + "/plan"
	if page := b.get(path); page.StatusCode != http.StatusOK || !strings.Contains(page.body, "This floor has no plan yet.") {
		t.Fatalf("the plan page of a floor without one: %d", page.StatusCode)
	}
	if !b.saysOnce(b.uploadPlan(f.ID, "level 1.png", pngOf(t, 400, 300)), "The plan was kept.") {
		t.Error("the page does not say the plan was kept")
	}
	img := b.get(path + "/image")
	if img.StatusCode != http.StatusOK || img.Header.Get("Content-Type") != "image/png" || img.Header.Get("X-Content-Type-Options") != "nosniff" ||
		img.Header.Get("Content-Security-Policy") != "default-src 'none'; style-src 'unsafe-inline'; img-src data:" {
		t.Errorf("the plan served: %d, %q, %q, %q", img.StatusCode, img.Header.Get("Content-Type"), img.Header.Get("X-Content-Type-Options"),
			img.Header.Get("Content-Security-Policy"))
	}
	if cfg, err := png.DecodeConfig(strings.NewReader(img.body)); err != nil || cfg.Width != 400 || cfg.Height != 300 {
		t.Errorf("the plan served is not the 400 × 300 PNG: %+v, %v", cfg, err)
	}

	placed := fmt.Sprintf(`{"locations":{%q:[100,50]},"rooms":{%q:[[0,0],[200,0],[200,150],[0,150]]}}`, locs[0].ID, rooms[0].ID)
	if !b.saysOnce(b.savePlacements(f.ID, placed), "The places were saved.") {
		t.Error("the page does not say the places were saved")
	}
	page := b.get(path).doc(t)
	if n := page.Find(`#plan-svg .plan-marker[data-location="` + locs[0].ID + `"][transform="translate(100 50)"]`).Length(); n != 1 {
		t.Errorf("the placed location's markers: %d", n)
	}
	if got := page.Find(`#plan-svg .plan-room[data-room="`+rooms[0].ID+`"]`).AttrOr("points", ""); got != "0,0 200,0 200,150 0,150" {
		t.Errorf("the room's shape = %q", got)
	}
	if page.Find(`#plan-unplaced [data-location="`+locs[0].ID+`"]`).Length() != 0 || page.Find(`#plan-unplaced [data-location="`+locs[1].ID+`"]`).Length() != 1 {
		t.Error("the list of locations not yet placed is not those without a place")
	}

	// The floor's page shows the plan, with the placed location a link to
	// it, in the live region its updates replace.
	for _, hx := range []bool{false, true} {
		var headers []string
		if hx {
			headers = []string{"HX-Request", "true"}
		}
		floorPage := b.get("/floors/"+f.ID, headers...).doc(t)
		if m := floorPage.Find(`#live .plan-map a#plan-marker-` + locs[0].ID); m.AttrOr("href", "") != "/locations/"+locs[0].ID ||
			!strings.HasPrefix(m.AttrOr("aria-label", ""), locs[0].Name+" · ") {
			t.Errorf("the floor's page (htmx %v): the placed location's marker %q, %q", hx, m.AttrOr("href", ""), m.AttrOr("aria-label", ""))
		}
		if n := floorPage.Find(`.plan-map .plan-spot`).Length(); n != 1 {
			t.Errorf("the floor's page (htmx %v) shows %d markers; one location is placed", hx, n)
		}
		if img := floorPage.Find(`.plan-map image`).AttrOr("href", ""); !strings.HasPrefix(img, path+"/image?v=") {
			t.Errorf("the floor's page shows the plan from %q", img)
		}
	}

	b.uploadPlan(f.ID, "level 1, redrawn.png", pngOf(t, 400, 300))
	page = b.get(path).doc(t)
	if page.Find(`.plan-marker[transform="translate(100 50)"]`).Length() != 1 || strings.Contains(page.Text(), "placements were scaled") {
		t.Error("a new plan of the same size did not keep the places as they were")
	}
	if !b.saysOnce(b.uploadPlan(f.ID, "level 1, larger.png", pngOf(t, 800, 600)), "It is of another size than the last") {
		t.Error("a plan of another size does not ask for a review")
	}
	page = b.get(path).doc(t)
	if page.Find(`.plan-marker[transform="translate(200 100)"]`).Length() != 1 || !strings.Contains(page.Text(), "the places were scaled to it") {
		t.Errorf("under a plan twice the size, the places were not scaled and offered for review:\n%s", page.Find("#plan-svg").Text())
	}

	if !b.saysOnce(b.post(path+"/remove", url.Values{"csrf_token": {b.pageCSRF(path)}}), "The plan was removed") {
		t.Error("the page does not say the plan was removed")
	}
	if r := b.get(path + "/image"); r.StatusCode != http.StatusNotFound {
		t.Errorf("the image of a removed plan: %d", r.StatusCode)
	}
	if fl := b.get("/floors/" + f.ID).doc(t); fl.Find(".place-plan").Length() != 0 || fl.Find(`.toolbar a[href="`+path+`"]`).Length() != 1 {
		t.Error("the floor's page still shows a removed plan, or does not offer to add one")
	}
	if _, err := a.store.FloorPlan(context.Background(), a.accountOf(false), f.ID); err == nil {
		t.Error("the store keeps a removed plan")
	}
}

// TestFloorPlanRefusals: an upload that is no file, no PNG, too wide or
// too large, and placements of what is not on the floor, beyond the plan
// or of too many corners are refused in words, keeping nothing.
func TestFloorPlanRefusals(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	a.browser().signIn(credA)
	b := a.browserAs(domain.Supervisor, "Sam Supervisor")
	f, rooms, locs := a.aFloor()
	path := "/floors/" + f.ID + "/plan"
	for _, c := range []struct {
		name string
		file []byte
		says string
	}{
		{"", nil, "Choose a plan file to upload."},
		{"plan.png", []byte("<html><script>alert(1)</script></html>"), "This file is not an SVG, PNG, JPEG or PDF."},
		{"wide.png", pngOf(t, domain.MaxPlanSide+1, 1), "a plan may be at most 8,000 px a side"},
		{"huge.png", append(pngOf(t, 10, 10), make([]byte, domain.MaxPlanBytes)...), "This file is larger than 10 MB"},
	} {
		r := b.uploadPlan(f.ID, c.name, c.file)
		if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(html.UnescapeString(r.body), c.says) {
			t.Errorf("uploading %q: %d; want 422 saying %q", c.name, r.StatusCode, c.says)
		}
	}
	if r := b.get(path + "/image"); r.StatusCode != http.StatusNotFound {
		t.Errorf("after refused uploads, the floor's plan: %d; want none", r.StatusCode)
	}
	if r := b.savePlacements(f.ID, `{"locations":{}}`); r.StatusCode != http.StatusUnprocessableEntity ||
		!strings.Contains(html.UnescapeString(r.body), "This floor has no plan to place anything on") {
		t.Errorf("placing without a plan: %d", r.StatusCode)
	}

	b.uploadPlan(f.ID, "plan.png", pngOf(t, 400, 300))
	corners := strings.Repeat("[1,1],", domain.MaxRoomPoints) + "[1,1]"
	for _, c := range []struct{ json, says string }{
		{`{"locations":{"someone-else's":[1,1]}}`, `"someone-else's" is not a location of this floor`},
		{fmt.Sprintf(`{"locations":{%q:[401,10]}}`, locs[0].ID), locs[0].Name + " is placed outside the plan, which is 400 × 300 pixels"},
		{fmt.Sprintf(`{"rooms":{%q:[%s]}}`, rooms[0].ID, corners), rooms[0].Name + " has more than 32 corners"},
		{fmt.Sprintf(`{"rooms":{%q:[[1,1],[2,2]]}}`, rooms[0].ID), rooms[0].Name + " needs at least 3 corners"},
		{`{"rooms":{"x":"a"}}`, "The places sent could not be read."},
		{`not json`, "The places sent could not be read."},
	} {
		r := b.savePlacements(f.ID, c.json)
		if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(html.UnescapeString(r.body), c.says) {
			t.Errorf("placements %.60s: %d; want 422 saying %q\n%.300s", c.json, r.StatusCode, c.says, r.body)
		}
	}
	if p, err := a.store.FloorPlan(context.Background(), a.accountOf(false), f.ID); err != nil || len(p.Placements.Locations)+len(p.Placements.Rooms) != 0 {
		t.Errorf("refused placements were kept: %+v, %v", p.Placements, err)
	}
}

// TestFloorPlanRoles: a viewer sees a plan but may not change it; a
// person limited to one building can neither see nor change the plan of
// another building's floor, whose answers are those of a floor nobody
// has.
func TestFloorPlanRoles(t *testing.T) {
	t.Parallel()
	a := newTwoBuildingsApp(t)
	owner := a.browser()
	owner.signIn(credA)
	acc := a.world.Accounts()[0]
	own, other := acc.Buildings[0].Floors[0].ID, acc.Buildings[1].Floors[0].ID
	for _, f := range []string{own, other} {
		if r := owner.uploadPlan(f, "plan.png", pngOf(t, 40, 30)); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("the owner uploading a plan: %d", r.StatusCode)
		}
	}
	viewer := a.browserAs(domain.Viewer, "Vera Viewer")
	if r := viewer.get("/floors/" + own + "/plan/image"); r.StatusCode != http.StatusOK {
		t.Errorf("a viewer seeing the plan: %d", r.StatusCode)
	}
	if r := viewer.get("/floors/" + own + "/plan"); r.StatusCode != http.StatusForbidden {
		t.Errorf("a viewer opening the plan's editor: %d; want 403", r.StatusCode)
	}

	limited := a.browserAs(domain.Supervisor, "Lina Limited")
	limited.limitTo(acc.Buildings[0].ID)
	if r := limited.get("/floors/" + own + "/plan"); r.StatusCode != http.StatusOK {
		t.Errorf("a supervisor of the building opening its floor's plan: %d", r.StatusCode)
	}
	csrf := limited.pageCSRF("/floors/" + own + "/plan")
	for _, floor := range []string{other, "zz-unknown"} {
		p := "/floors/" + floor + "/plan"
		for _, r := range []response{limited.get(p), limited.get(p + "/image"), limited.uploadPlan(floor, "plan.png", pngOf(t, 40, 30)),
			limited.post(p+"/remove", url.Values{"csrf_token": {csrf}}),
			limited.post(p+"/placements", url.Values{"csrf_token": {csrf}, "placements": {`{}`}})} {
			if r.StatusCode != http.StatusNotFound {
				t.Errorf("%s %s by a person of another building: %d; want 404", r.Request.Method, r.Request.URL.Path, r.StatusCode)
			}
		}
	}
	if _, err := a.store.FloorPlan(context.Background(), a.accountOf(false), other); err != nil {
		t.Errorf("the other building's plan is gone: %v", err)
	}
}

// TestAHostileSVGPlanIsKeptHarmless: an SVG plan that carries a script, an
// event handler, a foreign object and an external image is kept without
// them, served as an image under a policy that runs nothing; one with an
// entity (XXE) is refused in words, and the floor keeps no plan of it.
func TestAHostileSVGPlanIsKeptHarmless(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	a.browser().signIn(credA)
	b := a.browserAs(domain.Supervisor, "Sam Supervisor")
	f, _, _ := a.aFloor()
	path := "/floors/" + f.ID + "/plan"
	xxe := `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&x;</text></svg>`
	if r := b.uploadPlan(f.ID, "plan.svg", []byte(xxe)); r.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("an SVG with an entity: %d; want 422", r.StatusCode)
	}
	if r := b.get(path + "/image"); r.StatusCode != http.StatusNotFound {
		t.Errorf("after the refused SVG the floor's plan answers %d; want none", r.StatusCode)
	}
	hostile := `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="800" height="600" onload="alert(1)">
<script>alert(2)</script><rect x="10" y="10" width="100" height="50" onclick="alert(3)"/>
<foreignObject width="100" height="100"><div xmlns="http://www.w3.org/1999/xhtml">hi</div></foreignObject>
<image xlink:href="http://198.51.100.7/track.png" width="10" height="10"/><a href="javascript:alert(4)"><text x="5" y="20">Restroom</text></a></svg>`
	if r := b.uploadPlan(f.ID, "plan.png", []byte(hostile)); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("a drawing with scripts in it: %d; want it kept, made harmless\n%s", r.StatusCode, r.body)
	}
	img := b.get(path + "/image")
	if img.StatusCode != http.StatusOK || img.Header.Get("Content-Type") != "image/svg+xml" ||
		!strings.Contains(img.Header.Get("Content-Security-Policy"), "default-src 'none'") || img.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("the SVG plan served: %d, %q, %q", img.StatusCode, img.Header.Get("Content-Type"), img.Header.Get("Content-Security-Policy"))
	}
	for _, bad := range []string{"script", "onload", "onclick", "foreignObject", "198.51.100.7", "javascript:"} {
		if strings.Contains(img.body, bad) {
			t.Errorf("the plan kept %q:\n%s", bad, img.body)
		}
	}
	if !strings.Contains(img.body, "<rect") || !strings.Contains(img.body, "Restroom") {
		t.Errorf("the plan lost its drawing:\n%s", img.body)
	}
}

// TestAPlansMarkerSaysWhatRunsOutSoonest: a location with several
// dispensers says on its marker when the first of them runs out, not
// the first one listed; one without an estimate says none.
func TestAPlansMarkerSaysWhatRunsOutSoonest(t *testing.T) {
	now := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	pl := dashboard.Place{Floor: domain.Floor{ID: "f1"}, HasPlan: true, Plan: domain.FloorPlan{Width: 800, Height: 600,
		Placements: domain.Placements{Locations: map[string]domain.PlanPoint{"l1": {X: 10, Y: 20}, "l2": {X: 30, Y: 40}}}}}
	sections := []views.RoomSection{{Cards: []views.DeviceCard{
		{LocationID: "l1", Name: "Towels by the door", Devices: []views.DeviceView{
			{MAC: "A", RunsOut: "Runs out in about 3 days", RunsOutAt: now.Add(72 * time.Hour)},
			{MAC: "B"}, // out already, or no estimate
			{MAC: "C", RunsOut: "Runs out in about 2 h", RunsOutAt: now.Add(2 * time.Hour)},
			{MAC: "D", RunsOut: "Runs out in about 5 h", RunsOutAt: now.Add(5 * time.Hour)},
		}},
		{LocationID: "l2", Name: "Soap", Devices: []views.DeviceView{{MAC: "E"}}},
	}}}
	p := placePlan(pl, sections)
	if p == nil || len(p.Markers) != 2 {
		t.Fatalf("the plan's markers = %+v; want one for each of the 2 placed locations", p)
	}
	if got, want := p.Markers[0].RunsOut, "Runs out in about 2 h"; got != want {
		t.Errorf("the marker of 3 dispensers with estimates says %q; want the soonest, %q", got, want)
	}
	if got := p.Markers[1].RunsOut; got != "" {
		t.Errorf("the marker of a dispenser without an estimate says %q; want nothing", got)
	}
}
