package web

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserPlacesOnThePlan: on a floor's plan, a location not yet
// placed goes in the middle with Enter and moves with the arrow keys
// (Shift for larger steps); another is placed by a tap on the plan and
// its marker dragged; Ctrl+Z takes back the drag; the form saves what is
// left, which the page shows again.
func TestBrowserPlacesOnThePlan(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	user := a.browser()
	user.signIn(credA)
	f, rooms, locs := a.aFloor()
	if r := user.uploadPlan(f.ID, "plan.png", pngOf(t, 400, 300)); r.StatusCode != 303 {
		t.Fatalf("uploading the plan: %d", r.StatusCode)
	}
	ctx := newChrome(t, 1280, 900)
	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/signin"),
		chromedp.SendKeys(chromedp.ID("api_key"), credA.APIKey),
		chromedp.SendKeys(chromedp.ID("authorization"), credA.Authorization)), "typing the credentials")
	loadAfter(t, ctx, chromedp.Submit(chromedp.ID("api_key")), "signing in")
	a.clock.BlockUntil(1)
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("buildings-heading"))), "waiting for the overview")
	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/floors/"+f.ID+"/plan"), chromedp.WaitVisible(chromedp.ID("plan-svg"))), "opening the plan")

	placed := func() map[string][2]int {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("plan-placements").value`))
		must(t, err, "reading the placements")
		var p struct{ Locations map[string][2]int }
		if err := json.Unmarshal([]byte(v), &p); err != nil {
			t.Fatal(err)
		}
		return p.Locations
	}
	// onScreen is where a point of the plan is in the window, the plan
	// scrolled into view.
	onScreen := func(x, y int) (float64, float64) {
		t.Helper()
		p, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](fmt.Sprintf(
			`(() => { const s = document.getElementById("plan-svg"); s.scrollIntoView({block: "center"}); const p = new DOMPoint(%d, %d).matrixTransform(s.getScreenCTM()); return [p.x, p.y] })()`, x, y)))
		must(t, err, "finding a point of the plan")
		return p[0], p[1]
	}
	item := func(id string) string { return `.plan-item[data-location="` + id + `"]` }

	// The keyboard: Enter places, arrows move by 2 px (a 200th of the
	// plan's width), Shift+arrows by 20.
	must(t, chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(item(locs[0].ID))), chromedp.KeyEvent(kb.Enter),
		chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowDown, chromedp.KeyModifiers(chromedp.ModifierShift))), "placing by keyboard")
	if got := placed()[locs[0].ID]; got != [2]int{202, 170} {
		t.Errorf("placed by keyboard at %v; want [202 170]", got)
	}
	if n := text(t, ctx, "#plan-placed"); n == "" {
		t.Error("the location placed is not listed among those on the plan")
	}

	// The pointer: select the second, tap the plan, drag its marker.
	must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(item(locs[1].ID)))), "selecting the second location")
	x, y := onScreen(50, 60)
	must(t, chromedp.Do(ctx, chromedp.MouseClickXY(x, y)), "tapping the plan")
	if got := placed()[locs[1].ID]; abs(got[0]-50) > 1 || abs(got[1]-60) > 1 {
		t.Fatalf("placed by a tap at %v; want about [50 60]", got)
	}
	held := func(p *input.DispatchMouseEventParams) { p.Button, p.Buttons = input.MouseButtonLeft, 1 }
	tx, ty := onScreen(300, 250)
	must(t, chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MousePressed, x, y, held, chromedp.ClickCount(1)),
		chromedp.MouseEvent(chromedp.MouseMoved, (x+tx)/2, (y+ty)/2, held), chromedp.MouseEvent(chromedp.MouseMoved, tx, ty, held),
		chromedp.MouseEvent(chromedp.MouseReleased, tx, ty, held, chromedp.ClickCount(1))), "dragging the marker")
	if got := placed()[locs[1].ID]; abs(got[0]-300) > 1 || abs(got[1]-250) > 1 {
		t.Fatalf("dragged to %v; want about [300 250]", got)
	}

	// Undo takes back the drag, and only it.
	must(t, chromedp.Do(ctx, chromedp.KeyEvent("z", chromedp.KeyModifiers(chromedp.ModifierCtrl))), "undoing")
	if got := placed(); abs(got[locs[1].ID][0]-50) > 1 || got[locs[0].ID] != [2]int{202, 170} {
		t.Errorf("after undoing the drag: %v", got)
	}

	// A room drawn as a rectangle by dragging across the plan; another as
	// a polygon of three clicks closed with Enter.
	shapes := func() map[string][][2]int {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("plan-placements").value`))
		must(t, err, "reading the placements")
		var p struct{ Rooms map[string][][2]int }
		if err := json.Unmarshal([]byte(v), &p); err != nil {
			t.Fatal(err)
		}
		return p.Rooms
	}
	room := func(id string) string { return `.plan-item[data-room="` + id + `"]` }
	must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(room(rooms[0].ID)))), "selecting a room")
	x0, y0 := onScreen(10, 20)
	x1, y1 := onScreen(150, 120)
	must(t, chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MousePressed, x0, y0, held, chromedp.ClickCount(1)),
		chromedp.MouseEvent(chromedp.MouseMoved, x1, y1, held), chromedp.MouseEvent(chromedp.MouseReleased, x1, y1, held, chromedp.ClickCount(1))),
		"drawing a rectangle")
	if got := shapes()[rooms[0].ID]; len(got) != 4 || abs(got[0][0]-10) > 1 || abs(got[2][1]-120) > 1 {
		t.Errorf("the rectangle drawn: %v; want corners about [10 20] and [150 120]", got)
	}
	if len(rooms) > 1 {
		must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`input[name="plan-shape"][value="polygon"]`)),
			chromedp.Click(chromedp.CSS(room(rooms[1].ID)))), "choosing polygons")
		for _, p := range [][2]int{{200, 200}, {300, 200}, {250, 280}} {
			px, py := onScreen(p[0], p[1])
			must(t, chromedp.Do(ctx, chromedp.MouseClickXY(px, py)), "clicking a corner")
		}
		must(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter)), "closing the polygon")
		if got := shapes()[rooms[1].ID]; len(got) != 3 {
			t.Errorf("the polygon drawn: %v; want 3 corners", got)
		}
	}

	loadAfter(t, ctx, chromedp.Click(chromedp.CSS(`form[action$="/placements"] button`)), "saving")
	if got := text(t, ctx, ".flash"); got != "The places were saved." {
		t.Errorf("after saving, the page says %q", got)
	}
	if got := placed(); got[locs[0].ID] != [2]int{202, 170} || abs(got[locs[1].ID][1]-60) > 1 {
		t.Errorf("saved and shown again: %v", got)
	}
	checkAxe(t, ctx, "the plan's page")

	// The floor's page shows the plan, its markers and zoom, on a phone
	// without sideways scrolling.
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(360, 780), chromedp.Navigate(a.srv.URL+"/floors/"+f.ID),
		chromedp.WaitVisible(chromedp.CSS(".plan-map"))), "opening the floor on a phone")
	if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll(".plan-map a.plan-spot").length`)); err != nil || n != 2 {
		t.Errorf("the floor's plan shows %d markers (%v); want 2", n, err)
	}
	must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`[data-zoom="1"]`))), "zooming in")
	wide, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`[document.querySelector(".plan-map").getBoundingClientRect().width,
		document.querySelector(".plan-view").clientWidth, document.documentElement.scrollWidth]`))
	must(t, err, "measuring the plan")
	if wide[0] < 1.9*wide[1] || wide[2] > 360 {
		t.Errorf("zoomed in on a phone: the plan %.0f px in a frame of %.0f, the page %.0f px wide", wide[0], wide[1], wide[2])
	}
	checkAxe(t, ctx, "a floor with a plan on a phone")
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
