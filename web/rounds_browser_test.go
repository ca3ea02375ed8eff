package web

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/rounds"
)

// TestBrowserRoundFitsAPhoneAndPrintsAPagePerFloor: a round of a
// building, and the list of rounds, fit a 360 px phone without sideways
// scrolling, in the light and the dark theme, and axe-core finds nothing;
// printed on A4, the round takes a page per floor, each with its floor's
// rooms.
func TestBrowserRoundFitsAPhoneAndPrintsAPagePerFloor(t *testing.T) {
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
	limits := rounds.DefaultLimits
	r, err := a.deps.Dashboard.MakeRound(context.Background(), acc.ID, domain.EveryBuilding(),
		dashboard.NewRound{Part: dashboard.RoundPart{Buildings: []string{acc.Buildings[0].ID}}, PersonID: owner.PersonID, Name: owner.Name, Limits: limits}, time.UTC)
	if err != nil {
		t.Fatal(err)
	}

	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(360, 740)), "emulating a phone")
	for _, scheme := range []string{"light", "dark"} {
		_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		must(t, err, "choosing the "+scheme+" theme")
		for _, path := range []string{"/rounds", "/rounds/" + r.ID, "/my"} {
			must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+path), chromedp.WaitVisible(chromedp.CSS("main"))), "opening "+path)
			over, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth - window.innerWidth`))
			must(t, err, "measuring "+path)
			if over > 0 {
				t.Errorf("%s (%s) is %d px wider than a 360 px phone", path, scheme, over)
			}
			checkAxe(t, ctx, path+" ("+scheme+")")
			if path != "/my" {
				name := map[bool]string{true: "rounds-list", false: "round"}[path == "/rounds"]
				saveScreenshot(t, ctx, name+"-phone-"+scheme, true, 100)
			}
		}
	}
	_, err = chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{})
	must(t, err, "back to the screen")

	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/rounds/"+r.ID), chromedp.WaitVisible(chromedp.CSS(".round"))), "opening the round")
	floors, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('.round-floor h2')].map(h => h.textContent.trim())`))
	must(t, err, "reading the floors")
	if len(floors) < 2 {
		t.Fatalf("the round has %d floors; the test needs 2 or more", len(floors))
	}
	res, err := chromedp.Call(ctx, page.PrintToPDF, page.PrintToPDFParams{PaperWidth: 8.27, PaperHeight: 11.69})
	must(t, err, "printing the round")
	path := filepath.Join(printsDir(t), "round-a4.pdf")
	must(t, os.WriteFile(path, res.Data, 0o644), "writing the PDF")
	out, err := exec.Command(pdftotext, "-layout", path, "-").Output()
	must(t, err, "reading the PDF's text")
	pages := strings.Split(strings.TrimRight(string(out), "\f"), "\f")
	if len(pages) != len(floors) {
		t.Errorf("the printed round has %d pages for %d floors", len(pages), len(floors))
	}
	for i, text := range pages {
		flat := strings.Join(strings.Fields(text), " ")
		for j, f := range floors {
			if has := strings.Contains(flat, strings.Join(strings.Fields(f), " ")); has != (i == j) {
				t.Errorf("printed page %d names floor %q: %v", i+1, f, has)
			}
		}
		if strings.Contains(text, "Done") && strings.Contains(text, "Skip") {
			t.Errorf("printed page %d shows the forms' buttons", i+1)
		}
	}
}
