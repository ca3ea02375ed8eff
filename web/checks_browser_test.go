package web

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"washboard/internal/domain"
)

// TestBrowserChecksSaved: checks saved, with rooms ticked on a round, on
// the trends page and in the client report, in the light and the dark
// theme, on a desktop and on a 360 px phone: axe-core finds nothing and
// the phone needs no sideways scrolling.
func TestBrowserChecksSaved(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	ctx := newChrome(t, 1280, 900)
	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/signin"),
		chromedp.SendKeys(chromedp.ID("api_key"), credA.APIKey),
		chromedp.SendKeys(chromedp.ID("authorization"), credA.Authorization)), "typing the credentials")
	loadAfter(t, ctx, chromedp.Submit(chromedp.ID("api_key")), "signing in")
	a.clock.BlockUntil(1)
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("buildings-heading"))), "waiting for the overview")

	acc := a.world.Accounts()[0]
	bg := context.Background()
	floors, err := a.store.Floors(bg, acc.ID, acc.Buildings[0].ID)
	must(t, err, "reading the floors")
	rooms, err := a.store.Rooms(bg, acc.ID, floors[0].ID)
	must(t, err, "reading the rooms")
	now := a.clock.Now()
	round := domain.Round{ID: "rnd_browser", Buildings: []string{acc.Buildings[0].ID}, InBuildings: []string{acc.Buildings[0].ID}, PersonID: "p-ana", Name: "Ana",
		MadeBy: "p-sup", MadeAt: now.Add(-2 * time.Hour), Stops: []domain.RoundStop{{RoomID: rooms[0].ID, Status: domain.StopToDo}}}
	must(t, a.store.SaveRound(bg, acc.ID, round, time.Time{}, 0), "saving a round")
	must(t, a.store.TickRoundStop(bg, acc.ID, round.ID, 0, domain.RoundStop{Status: domain.StopDone, PersonID: "p-ana", Name: "Ana", At: now.Add(-time.Hour)}), "ticking a room")

	for _, scheme := range []string{"light", "dark"} {
		_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		must(t, err, "emulating the "+scheme+" theme")
		for _, size := range []struct {
			name string
			w, h int64
		}{{"desktop", 1280, 900}, {"phone", 360, 740}} {
			must(t, chromedp.Do(ctx, chromedp.EmulateViewport(size.w, size.h)), "emulating the "+size.name)
			for _, path := range []string{"/trends?every=3", "/reports/client?month=" + now.Format("2006-01") + "&every=3", "/reports/client?every=25"} {
				must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+path), chromedp.WaitVisible(chromedp.CSS("main"))), "opening "+path)
				checkAxe(t, ctx, path+" ("+scheme+", "+size.name+")")
				over, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth - window.innerWidth`))
				must(t, err, "measuring the page")
				if over > 0 {
					t.Errorf("%s, %s, %s: the page is %d px wider than the screen", path, scheme, size.name, over)
				}
			}
		}
	}
}
