package web

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/heapprofiler"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"washboard/internal/sim"
)

// TestBrowserScreen runs a wall screen in Chromium: opened from its link,
// it shows its scope, follows a change in the simulator, says when the
// server is gone and recovers without a reload when it is back, keeps its
// DOM from growing across updates, fits 1080p and 4K without scrolling,
// passes axe-core, and says when it is unlinked. Opened at night, it is
// dimmed at once, not faded in.
func TestBrowserScreen(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{ScreenHeartbeat: time.Second})
	ctx := newChrome(t, 1920, 1080)
	acc := a.world.Accounts()[0]
	floor := acc.Buildings[0].Floors[0]

	// The dashboard on a fixed address, so that it can be stopped and
	// started again under the screen.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	handler := a.srv.Config.Handler
	serve := func(l net.Listener) *http.Server {
		srv := &http.Server{Handler: handler}
		go srv.Serve(l)
		return srv
	}
	srv := serve(ln)
	defer func() { srv.Close() }()
	base := "http://" + addr

	user := a.browser()
	user.signIn(credA)
	form := screenForm("Staff room", "floor:"+floor.ID)
	form.Set("page_seconds", "5")
	form.Set("dim_from", "00:00") // dimmed all day long, to see the dimming
	form.Set("dim_to", "23:59")
	token := user.createScreen(form)

	loadAfter(t, ctx, chromedp.Navigate(base+"/s/"+token), "opening the screen's link")
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("screen-live"))), "waiting for the screen")
	// Dimmed and in its place as it opens: nothing fades or slides.
	opening, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[getComputedStyle(document.body).filter,
		...document.getAnimations().filter(a => a instanceof CSSTransition).map(a => a.transitionProperty)]`))
	must(t, err, "reading the screen as it opens")
	if opening[0] != "brightness(0.35)" || len(opening) > 1 {
		t.Errorf("a screen opened at night shows filter %q and transitions %q; want it dimmed at once, nothing moving", opening[0], opening[1:])
	}
	if loc, _ := chromedp.Run(ctx, chromedp.Location()); strings.Contains(loc, token) {
		t.Errorf("the token stays in the address bar: %s", loc)
	}
	if got := text(t, ctx, "body"); !strings.Contains(got, floor.Name) {
		t.Errorf("the screen does not show its floor %q", floor.Name)
	}
	checkAxe(t, ctx, "the screen")
	must(t, chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`document.documentElement.classList.contains('dimmed')`,
		chromedp.WithPollingTimeout(3*time.Second))), "waiting for the night dimming")
	must(t, chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`window.__washboardMark = 1`)), "marking the page")

	// A towel on the floor runs out: the screen shows it after the next
	// sync, within 2 s.
	var target string
	for _, r := range floor.Rooms {
		for _, l := range r.Locations {
			if l.Type == "towel" && target == "" {
				target = l.Name
				a.world.Empty(l.Devices[0].MAC)
			}
		}
	}
	if target == "" {
		t.Fatal("no towel dispenser on the floor")
	}
	a.clock.Advance(time.Minute)
	a.clock.BlockUntil(1) // the sync is over
	must(t, chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`document.getElementById('screen-live').textContent.includes('Product out')`,
		chromedp.WithPollingTimeout(2*time.Second))), "waiting for the screen to show the product out")

	// The dashboard goes away: a banner says so once the reconnection's
	// grace of 5 s is over.
	srv.Close()
	must(t, chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`/Connection lost since/.test(document.getElementById('screen-banner').textContent)`,
		chromedp.WithPollingTimeout(10*time.Second))), "waiting for the connection-lost banner")

	// It comes back: the banner goes and data flows again, without a reload.
	ln2, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listening again on %s: %v", addr, err)
	}
	srv = serve(ln2)
	must(t, chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`!/Connection lost/.test(document.getElementById('screen-banner').textContent)`,
		chromedp.WithPollingTimeout(90*time.Second))), "waiting for the banner to go")
	mark, err := chromedp.Run(ctx, chromedp.Evaluate[int](`window.__washboardMark || 0`))
	must(t, err, "reading the mark")
	if mark != 1 {
		t.Error("the screen reloaded to recover")
	}

	// The server is upgraded: the screen reloads itself, once.
	srv.Close()
	cfg := a.cfg
	cfg.Version = "next"
	upgraded, err := New(cfg, a.deps)
	if err != nil {
		t.Fatal(err)
	}
	handler = upgraded
	ln3, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listening again on %s: %v", addr, err)
	}
	reloaded := make(chan error, 1)
	subscribed := make(chan struct{})
	go func() {
		// WaitEvent subscribes before its trigger runs: the trigger says
		// the subscription is in place, so no reload can be missed.
		_, err := chromedp.Run(ctx, chromedp.WaitEvent(page.LoadEventFired, nil, chromedp.Action[chromedp.Void](
			func(context.Context, *chromedp.Target) (chromedp.Void, error) {
				close(subscribed)
				return chromedp.Void{}, nil
			})))
		reloaded <- err
	}()
	<-subscribed
	srv = serve(ln3)
	must(t, <-reloaded, "waiting for the screen to reload on the new version")
	must(t, chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`!window.__washboardMark && document.querySelector('meta[name="washboard-version"]')?.content === 'next' && !!document.getElementById('screen-live')`,
		chromedp.WithPollingTimeout(10*time.Second))), "checking the reloaded screen")
	must(t, chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`window.__washboardMark = 2`)), "marking the reloaded page")

	// The new version reloaded the page only once.
	if mark, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`window.__washboardMark || 0`)); mark != 2 {
		t.Error("the screen reloaded more than once for one new version")
	}

	// More items than fit: every dispenser on the floor runs out, and the
	// screen, a 4:3 one (a column), pages through them, and goes on.
	out := 0
	for _, r := range floor.Rooms {
		for _, l := range r.Locations {
			for _, d := range l.Devices {
				if l.Type != "collector" && a.world.Empty(d.MAC) {
					out++
				}
			}
		}
	}
	a.clock.Advance(time.Minute)
	a.clock.BlockUntil(1) // the sync is over
	must(t, chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`document.querySelectorAll('.screen-part-action .screen-item').length >= `+itoa(int64(out)),
		chromedp.WithPollingTimeout(5*time.Second))), "waiting for the screen to show every dispenser out")
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(1200, 900)), "making the screen 4:3")
	must(t, chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`/^\d+ \/ \d+$/.test(document.getElementById('screen-pages').textContent.trim())`,
		chromedp.WithPollingTimeout(3*time.Second))), "waiting for the page indicator")
	first, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('screen-pages').textContent.trim()`))
	must(t, err, "reading the page indicator")
	// Another page within two page intervals (of 5 s).
	if err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`(() => {
		const p = document.getElementById('screen-pages').textContent.trim();
		return /^\d+ \/ \d+$/.test(p) && p !== `+strconv.Quote(first)+`;
	})()`, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(11*time.Second))); err != nil {
		t.Errorf("the screen did not page on: it showed only %s for 11 s (%v)", first, err)
	}

	// 1080p and 4K: no scrolling.
	for _, size := range []struct {
		name string
		w, h int64
	}{{"1080p", 1920, 1080}, {"4k", 3840, 2160}} {
		must(t, chromedp.Do(ctx, chromedp.EmulateViewport(size.w, size.h)), "resizing to "+size.name)
		must(t, chromedp.Do(ctx, chromedp.Sleep(300*time.Millisecond)), "letting the layout settle")
		over, err := chromedp.Run(ctx, chromedp.Evaluate[int](`Math.max(document.documentElement.scrollHeight - window.innerHeight, document.documentElement.scrollWidth - window.innerWidth)`))
		must(t, err, "measuring")
		if over > 0 {
			t.Errorf("at %s the screen overflows by %d px", size.name, over)
		}
		saveScreenshot(t, ctx, "screen-"+size.name, false, 0)
	}

	// Unlinked: the screen says so within a heartbeat.
	list := user.get("/screens")
	id := screenIDPattern.FindStringSubmatch(list.body)
	user.post("/screens/"+id[1]+"/revoke", formWith("csrf_token", csrfInput.FindStringSubmatch(list.body)[1]))
	must(t, chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`document.body.textContent.includes('This screen was unlinked')`,
		chromedp.WithPollingTimeout(5*time.Second))), "waiting for the unlinked message")
}

// TestBrowserScreenUpdatesGrowNothing: a screen that hangs for weeks takes
// thousands of updates; they grow neither its DOM nor its JavaScript heap.
// A test of its own, for its thousand updates keep a browser busy for a
// while: a minute alone, and over three beside the other tests on a
// crowded 2-core machine, so its browser is given six. The screen is a
// 720p one: the size changes nothing that could grow, and a smaller
// screen is quicker to lay out and paint a thousand times.
func TestBrowserScreenUpdatesGrowNothing(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	ctx := newChromeWithin(t, 1280, 720, 6*time.Minute)
	floor := a.world.Accounts()[0].Buildings[0].Floors[0]
	user := a.browser()
	user.signIn(credA)
	token := user.createScreen(screenForm("Staff room", "floor:"+floor.ID))
	loadAfter(t, ctx, chromedp.Navigate(a.srv.URL+"/s/"+token), "opening the screen's link")
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("screen-live"))), "waiting for the screen")
	must(t, chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`!!document.body['htmx-internal-data']?.sseEventSource`,
		chromedp.WithPollingTimeout(5*time.Second))), "waiting for the screen's event stream")

	update := func(n int) (nodes int, heap float64) {
		// Each update is what the server's "changed" event starts: the
		// event, dispatched on the page's own stream, then the swap. htmx
		// settles a swap 20 ms after it, on a timer like the screen's own:
		// here it settles at once, which halves the time of the loop.
		nodes, err := chromedp.Run(ctx, chromedp.Evaluate[int](`(async () => {
			const source = document.body['htmx-internal-data'].sseEventSource;
			const settleDelay = htmx.config.defaultSettleDelay;
			htmx.config.defaultSettleDelay = 0;
			for (let i = 0; i < `+itoa(int64(n))+`; i++) {
				const swapped = new Promise(r => document.addEventListener('htmx:afterSettle', r, {once: true}));
				source.dispatchEvent(new MessageEvent('changed', {data: ''}));
				await swapped;
			}
			htmx.config.defaultSettleDelay = settleDelay;
			await new Promise(r => setTimeout(r, 200));
			return document.getElementsByTagName('*').length;
		})()`, chromedp.EvalAwaitPromise))
		must(t, err, "updating the screen")
		_, err = chromedp.Call(ctx, heapprofiler.CollectGarbage, cdp.Empty{})
		must(t, err, "collecting garbage")
		usage, err := chromedp.Call(ctx, runtime.GetHeapUsage, cdp.Empty{})
		must(t, err, "measuring the heap")
		return nodes, usage.UsedSize
	}
	nodes10, _ := update(10)
	nodes200, _ := update(190)
	// The heap grows while the engine warms up (compiled code, caches)
	// for a few hundred updates: compare it after 600 updates and 1,000.
	_, heapWarm := update(400)
	_, heapLater := update(400)
	t.Logf("DOM nodes: %d after 10 updates, %d after 200; JS heap after garbage collection: %.0f KB after 600, %.0f KB after 1,000",
		nodes10, nodes200, heapWarm/1024, heapLater/1024)
	if d := nodes200 - nodes10; d*20 > nodes10 || -d*20 > nodes10 {
		t.Errorf("DOM nodes: %d after 10 updates, %d after 200; want within 5%%", nodes10, nodes200)
	}
	if heapLater > heapWarm*1.05 {
		t.Errorf("JS heap after garbage collection: %.0f KB after 600 updates, %.0f KB after 1,000; want within 5%%", heapWarm/1024, heapLater/1024)
	}

}

// TestBrowserScreenBurnIn runs a screen's clock a hundred times faster
// (every one-second timer fires every 10 ms) and watches the content
// against burn-in: it moves by at most 4 px, no more often than every ten
// minutes of screen time, and slowly. On a 720p screen, as the move is
// the same on any, and each slow move repaints the whole screen for 5 s.
func TestBrowserScreenBurnIn(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	ctx := newChrome(t, 1280, 720)
	user := a.browser()
	user.signIn(credA)
	token := user.createScreen(screenForm("Office", "account"))

	// The screen's one-second timer fires a hundred times a second and
	// stops after 1,500 ticks: 25 minutes of screen time, however slowly
	// a crowded machine lets the timer run.
	const speed, minutes = 100, 25
	_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `(() => {
		const every = window.setInterval;
		window.__ticks = 0;
		window.setInterval = (fn, ms, ...args) => ms === 1000
			? every(() => { if (window.__ticks < ` + itoa(minutes*60) + `) { window.__ticks++; fn(...args); } }, 1000 / ` + itoa(speed) + `)
			: every(fn, ms, ...args);
	})()`})
	must(t, err, "speeding up the screen's clock")
	loadAfter(t, ctx, chromedp.Navigate(a.srv.URL+"/s/"+token), "opening the screen's link")
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("screen-live"))), "waiting for the screen")

	transition, err := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.getElementById('screen-root')).transitionDuration`))
	must(t, err, "reading the transition")
	if d, err := time.ParseDuration(strings.TrimSpace(transition)); err != nil || d < 3*time.Second {
		t.Errorf("the content moves in %q; want a slow move of at least 3 s", transition)
	}

	// Sample the offset for the 25 minutes of screen time (some 15 s),
	// every 100 ms.
	type offset struct{ x, y string }
	var seen []offset
	moves := 0
	for ticks := 0; ticks < minutes*60; {
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
			const s = document.getElementById('screen-root').style;
			return [s.getPropertyValue('--shift-x'), s.getPropertyValue('--shift-y'), String(window.__ticks)];
		})()`))
		must(t, err, "reading the offset")
		ticks, _ = strconv.Atoi(got[2])
		got = got[:2]
		o := offset{got[0], got[1]}
		for _, v := range got {
			n, err := strconv.Atoi(strings.TrimSuffix(v, "px"))
			if err != nil || n < 0 || n > 4 {
				t.Fatalf("offset %q; want 0 to 4 px", v)
			}
		}
		if len(seen) > 0 && seen[len(seen)-1] != o {
			moves++
		}
		seen = append(seen, o)
		must(t, chromedp.Do(ctx, chromedp.Sleep(100*time.Millisecond)), "waiting")
	}
	// 25 minutes hold two shifts at most (at 10 and 20 minutes); each picks
	// a new offset of 25, so seeing none at all means it does not move.
	if moves == 0 {
		t.Errorf("the content did not move in 25 minutes of screen time: %v", seen[0])
	}
	if moves > 2 {
		t.Errorf("the content moved %d times in 25 minutes of screen time; want at most one move every 10 minutes", moves)
	}

	// A system that asks for less motion gets the moves, and the
	// dimming, at once.
	_, err = chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}})
	must(t, err, "asking for less motion")
	for _, el := range []string{"document.body", "document.getElementById('screen-root')"} {
		if d, err := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(`+el+`).transitionDuration`)); err != nil || d != "0s" {
			t.Errorf("with less motion asked for, %s moves in %q (%v); want at once", el, d, err)
		}
	}
}

// TestBrowserScreenKeepsTheServersClock: when the server's clock is not
// the real one (the demo's runs an hour a minute), a screen's clock shows
// the server's time, the time its data is in, and moves at its speed.
func TestBrowserScreenKeepsTheServersClock(t *testing.T) {
	t.Parallel()
	// The test's clock stands still unless told; heartbeats, which set the
	// screen's clock again, come every 5 s.
	a := newApp(t, Config{ScreenHeartbeat: 5 * time.Second, ClockSpeed: 60})
	ctx := newChrome(t, 1920, 1080)
	_, err := chromedp.Call(ctx, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: "UTC"})
	must(t, err, "setting the browser's time zone")
	user := a.browser()
	user.signIn(credA)
	token := user.createScreen(screenForm("Office", "account"))
	loadAfter(t, ctx, chromedp.Navigate(a.srv.URL+"/s/"+token), "opening the screen's link")
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("screen-clock"))), "waiting for the screen")

	minutes := func() int {
		hm := text(t, ctx, "#screen-clock")
		tm, err := time.Parse("15:04", hm)
		if err != nil {
			t.Fatalf("the screen's clock reads %q", hm)
		}
		return tm.Hour()*60 + tm.Minute()
	}
	first := minutes()
	at := a.clock.Now() // the server's time: 09:30 on the day of the test data
	if want := at.Hour()*60 + at.Minute(); first < want || first > want+10 {
		t.Fatalf("the screen's clock reads %02d:%02d; want the server's %s, not the real time", first/60, first%60, at.Format("15:04"))
	}
	// A minute a second, until the next heartbeat.
	must(t, chromedp.Do(ctx, chromedp.Sleep(3*time.Second)), "waiting")
	if later := minutes(); later < first+2 || later > first+10 {
		t.Errorf("three seconds later the clock reads %02d:%02d, from %02d:%02d; want about three minutes on", later/60, later%60, first/60, first%60)
	}
	// The heartbeat keeps it with the server's clock: within two
	// heartbeats it is two hours on, where its own pace would have taken
	// it ten minutes.
	a.clock.Advance(2 * time.Hour)
	must(t, chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`(() => {
		const [h, m] = document.getElementById('screen-clock').textContent.split(':').map(Number);
		return h * 60 + m >= `+itoa(int64(first+120))+`;
	})()`, chromedp.WithPollingTimeout(10*time.Second))), "waiting for the clock to follow the server's")
}

// screenState is what a wall screen shows at a moment, read in the page.
type screenState struct {
	Action      int      `json:"action"`      // items that need action
	ActionShown int      `json:"actionShown"` // of them, shown and inside the viewport
	Attention   int      `json:"attention"`   // attention items listed and shown
	Summaries   int      `json:"summaries"`   // attention lines shown
	Summarised  bool     `json:"summarised"`
	Columns     int      `json:"columns"` // distinct left edges of the items shown
	Page        string   `json:"page"`
	Outside     []string `json:"outside"` // items shown but outside the viewport
	Levels      int      `json:"levels"`  // items shown that say where they stand against their targets
}

func readScreen(t *testing.T, ctx context.Context) screenState {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[screenState](`(() => {
		const shown = el => el.getClientRects().length > 0;
		const inside = el => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; };
		const action = [...document.querySelectorAll('.screen-part-action .screen-item')];
		const listed = [...document.querySelectorAll('.screen-item')].filter(shown);
		return {
			action: action.length,
			actionShown: action.filter(el => shown(el) && inside(el)).length,
			attention: [...document.querySelectorAll('.screen-part-attention .screen-item')].filter(shown).length,
			summaries: [...document.querySelectorAll('.screen-attention-summary')].filter(shown).length,
			summarised: !!document.querySelector('.screen-summarised'),
			columns: new Set(listed.map(el => Math.round(el.getBoundingClientRect().left))).size,
			page: document.getElementById('screen-pages').textContent,
			outside: listed.filter(el => !inside(el)).map(el => el.textContent.trim()),
			levels: listed.filter(el => el.querySelector('.screen-item-level')).length,
		};
	})()`))
	must(t, err, "reading the screen")
	return s
}

// TestBrowserScreenFitsTheDemoFleetsActionItemsOnOnePage: the demo's
// fleet of 400 locations, on a 1080p TV, shows every item that needs
// action on the first page, in two columns, and sums up what only needs
// attention, room by room.
func TestBrowserScreenFitsTheDemoFleetsActionItemsOnOnePage(t *testing.T) {
	t.Parallel()
	a := newAppWith(t, Config{}, appOptions{locations: 400, seed: 1, history: 14 * 24 * time.Hour}) // the demo's world
	user := a.browser()
	user.signIn(credA)
	token := user.createScreen(screenForm("Staff room", "account"))
	ctx := newChrome(t, 1920, 1080)
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(1920, 1080)), "a 1080p TV")
	delayScript(t, ctx, "/static/js/screen.js", 500*time.Millisecond) // a TV on a slow network: the page shows before its script runs
	// Every frame painted notes whether it showed what needs doing before
	// the script fitted it to the screen.
	_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `(() => {
		window.__unfittedFrames = 0;
		const check = () => {
			const box = document.querySelector(".screen-groups");
			if (box && !box.classList.contains("screen-fitted") && getComputedStyle(box).visibility === "visible") window.__unfittedFrames++;
			requestAnimationFrame(check);
		};
		requestAnimationFrame(check);
	})()`})
	must(t, err, "watching the frames")
	loadAfter(t, ctx, chromedp.Navigate(a.srv.URL+"/s/"+token), "opening the screen's link")
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(".screen-groups.screen-summarised")), "waiting for the screen to sum up what needs attention")
	s := readScreen(t, ctx)
	if s.Action < 10 {
		t.Fatalf("the demo fleet has %d items that need action; the test needs a fleet with more", s.Action)
	}
	if s.ActionShown != s.Action {
		t.Errorf("%d of the %d items that need action show on the first page", s.ActionShown, s.Action)
	}
	if s.Columns != 2 {
		t.Errorf("the items are laid out in %d columns on a 16:9 screen, want 2", s.Columns)
	}
	if !s.Summarised || s.Attention != 0 {
		t.Errorf("what only needs attention is not summed up by room: summarised %v, %d attention items listed", s.Summarised, s.Attention)
	}
	if len(s.Outside) > 0 {
		t.Errorf("items outside the screen: %q", s.Outside)
	}
	unfitted, err := chromedp.Run(ctx, chromedp.Evaluate[int](`window.__unfittedFrames`))
	must(t, err, "reading the frames")
	if unfitted > 0 {
		t.Errorf("%d frames showed what needs doing before the script had fitted it to the screen, which then moved it (a layout shift); it must show only once fitted", unfitted)
	}
	checkAxe(t, ctx, "the demo fleet's screen")
}

// TestBrowserScreenShowsWithoutItsScript: a screen whose script does not
// load still shows what needs doing, unfitted, two seconds on.
func TestBrowserScreenShowsWithoutItsScript(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	user := a.browser()
	user.signIn(credA)
	token := user.createScreen(screenForm("Staff room", "account"))
	ctx := newChrome(t, 1920, 1080)
	must(t, chromedp.Listen(ctx, func(ev any) {
		if ev, ok := ev.(*fetch.EventRequestPaused); ok {
			go chromedp.Call(ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonConnectionFailed})
		}
	}), "listening for the browser's requests")
	_, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/static/js/screen.js*"}}})
	must(t, err, "failing the screen's script")
	loadAfter(t, ctx, chromedp.Navigate(a.srv.URL+"/s/"+token), "opening the screen's link")
	visibility := func() string {
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.querySelector(".screen-groups")).visibility`))
		must(t, err, "reading the content's visibility")
		return v
	}
	if v := visibility(); v != "hidden" {
		t.Errorf("right after it loads, the unfitted content is %s; want hidden while the script may still fit it", v)
	}
	must(t, chromedp.Do(ctx, chromedp.Sleep(2500*time.Millisecond)), "waiting")
	if v := visibility(); v != "visible" {
		t.Errorf("2.5 s after it loads without its script, the content is %s; want visible", v)
	}
}

// delayScript holds the browser's requests of the script at path for
// delay before they go to the server.
func delayScript(t *testing.T, ctx context.Context, path string, delay time.Duration) {
	t.Helper()
	must(t, chromedp.Listen(ctx, func(ev any) {
		if ev, ok := ev.(*fetch.EventRequestPaused); ok {
			go func() {
				time.Sleep(delay)
				_, _ = chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
			}()
		}
	}), "listening for the browser's requests")
	_, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*" + path + "*"}}})
	must(t, err, "holding back "+path)
}

// TestBrowserScreenKeepsActionItemsOnEveryPage: when what needs attention
// does not fit, the items that need action stay on every page and the
// attention lines page beneath them; a floor where everything fits lists
// it all, attention items included, on one page. Items past their service
// level's target, a line taller for saying so, are paged all the same.
func TestBrowserScreenKeepsActionItemsOnEveryPage(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	user := a.browser()
	user.signIn(credA)
	targets := serviceLevelForm(user.pageCSRF("/service-levels"), "always", "", "UTC", "", "")
	targets.Set("claim_consumable_out", "1") // every product out unclaimed for a minute is past its target
	if r := user.post("/service-levels", targets); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("saving targets: %d\n%s", r.StatusCode, r.body)
	}
	acc := a.world.Accounts()[0]
	account := user.createScreen(screenForm("Office", "account"))
	var floor *sim.Floor
	for _, f := range acc.Buildings[0].Floors {
		if f.Name == "Level 1" {
			floor = f
		}
	}
	if floor == nil {
		t.Fatal("no Level 1 in the first building")
	}
	oneFloor := user.createScreen(screenForm("Level 1", "floor:"+floor.ID))

	ctx := newChrome(t, 1920, 1080)
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(1920, 1080)), "a 1080p TV")
	const speed = 50 // each one-second timer fires every 20 ms: a page a 0.3 s
	_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `(() => {
		const every = window.setInterval;
		window.setInterval = (fn, ms, ...args) => every(fn, ms === 1000 ? 1000 / ` + itoa(speed) + ` : ms, ...args);
	})()`})
	must(t, err, "speeding up the screen's timer")

	loadAfter(t, ctx, chromedp.Navigate(a.srv.URL+"/s/"+account), "opening the account screen")
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("screen-live"))), "waiting for the screen")
	pages := map[string]bool{}
	for range 40 {
		s := readScreen(t, ctx)
		if s.Action == 0 || s.Page == "" {
			t.Fatalf("the account screen: %d action items, page %q; the test needs some and more than a page", s.Action, s.Page)
		}
		if s.ActionShown != s.Action {
			t.Fatalf("page %s shows %d of the %d items that need action", s.Page, s.ActionShown, s.Action)
		}
		if s.Summaries == 0 {
			t.Errorf("page %s shows no line of what needs attention", s.Page)
		}
		if s.Levels == 0 || len(s.Outside) > 0 {
			t.Fatalf("page %s: %d items say they are past their target; items outside the screen: %q", s.Page, s.Levels, s.Outside)
		}
		pages[s.Page] = true
		must(t, chromedp.Do(ctx, chromedp.Sleep(100*time.Millisecond)), "waiting")
	}
	if len(pages) < 2 {
		t.Errorf("the screen did not page: %v", pages)
	}

	// Without targets, the floor's items are a line each again.
	if r := user.post("/service-levels", serviceLevelForm(user.pageCSRF("/service-levels"), "always", "", "UTC", "", "")); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("removing the targets: %d\n%s", r.StatusCode, r.body)
	}
	loadAfter(t, ctx, chromedp.Navigate(a.srv.URL+"/s/"+oneFloor), "opening the floor screen")
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("screen-live"))), "waiting for the screen")
	s := readScreen(t, ctx)
	if s.Page != "" || s.Summarised || s.Attention == 0 || s.ActionShown != s.Action {
		t.Errorf("a floor whose items all fit: page %q, summarised %v, %d attention items listed, %d of %d action items shown; want one page listing everything",
			s.Page, s.Summarised, s.Attention, s.ActionShown, s.Action)
	}
}

// TestBrowserScreenRollingRestart restarts the replica a wall screen is
// connected to, behind a load balancer that sends new connections to
// another: the screen reconnects to the other, never shows the
// connection-lost banner, and goes on showing changes.
func TestBrowserScreenRollingRestart(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{ScreenHeartbeat: time.Second})
	ctx := newChrome(t, 1920, 1080)
	acc := a.world.Accounts()[0]
	floor := acc.Buildings[0].Floors[0]

	// Two replicas on the same data, and a balancer in front of them that
	// sends every new request to the one in service, counting the
	// screen's event streams each replica opened.
	second, err := New(a.cfg, a.deps)
	if err != nil {
		t.Fatal(err)
	}
	replicas := []*Server{a.handler.Load(), second}
	var inService atomic.Int32
	var streams [2]atomic.Int32
	balancer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := inService.Load()
		if r.URL.Path == "/screen/events" {
			streams[i].Add(1)
		}
		replicas[i].ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		second.CloseStreams()
		balancer.CloseClientConnections() // the screen's stream stays open until its client goes
		balancer.Close()
	})

	user := a.browser()
	user.signIn(credA)
	token := user.createScreen(screenForm("Staff room", "floor:"+floor.ID))
	loadAfter(t, ctx, chromedp.Navigate(balancer.URL+"/s/"+token), "opening the screen's link")
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("screen-live"))), "waiting for the screen")
	must(t, chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`!!document.body['htmx-internal-data']?.sseEventSource && document.body['htmx-internal-data'].sseEventSource.readyState === 1`,
		chromedp.WithPollingTimeout(5*time.Second))), "waiting for the screen's event stream")
	// Every banner line the screen ever shows, from here on.
	must(t, chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`window.__banners = [];
		new MutationObserver(() => {
			const t = document.getElementById('screen-banner').textContent.trim();
			if (t) window.__banners.push(t);
		}).observe(document.getElementById('screen-banner'), {childList: true, subtree: true, characterData: true});`)),
		"watching the banner")

	// The first replica is restarted: the balancer takes it out of service
	// and it closes its streams as it shuts down.
	inService.Store(1)
	replicas[0].CloseStreams()
	deadline := time.Now().Add(10 * time.Second)
	for streams[1].Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if streams[1].Load() == 0 {
		t.Fatal("the screen did not reconnect to the other replica within 10 s")
	}
	// A change after the restart reaches the screen through the other
	// replica's stream.
	var target string
	for _, r := range floor.Rooms {
		for _, l := range r.Locations {
			if l.Type == "towel" && target == "" {
				target = l.Name
				a.world.Empty(l.Devices[0].MAC)
			}
		}
	}
	if target == "" {
		t.Fatal("no towel dispenser on the floor")
	}
	a.clock.Advance(time.Minute)
	must(t, chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`document.getElementById('screen-live').textContent.includes('Product out')`,
		chromedp.WithPollingTimeout(5*time.Second))), "waiting for the screen to show the product out")
	// Past the grace a lost connection would have shown in.
	time.Sleep(6 * time.Second)
	banners, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.__banners`))
	must(t, err, "reading the banners")
	for _, b := range banners {
		if strings.Contains(b, "Connection lost") {
			t.Errorf("the screen showed %q while reconnecting to another replica", b)
			break
		}
	}
	if n := streams[1].Load(); n != 1 {
		t.Errorf("the screen opened %d streams on the replica in service; want 1", n)
	}
}
