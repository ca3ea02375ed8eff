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

	"washboard/internal/store"
)

// TestBrowserTrends opens the trends page with every table of numbers
// open, in the light and the dark theme, on a desktop and on a 360 px
// phone: axe-core finds nothing, the phone needs no sideways scrolling
// (wide tables scroll in their own box), and the printed page holds the
// tables of numbers, though their disclosures are closed, each hour of a
// heat map's days within the paper's width.
func TestBrowserTrends(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	ctx := newChrome(t, 1280, 900)
	must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/signin"),
		chromedp.SendKeys(chromedp.ID("api_key"), credA.APIKey),
		chromedp.SendKeys(chromedp.ID("authorization"), credA.Authorization)), "typing the credentials")
	loadAfter(t, ctx, chromedp.Submit(chromedp.ID("api_key")), "signing in")
	a.clock.BlockUntil(1)
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("buildings-heading"))), "waiting for the overview")

	// A day of one dispenser's levels, for a heat map with values.
	acc := a.world.Accounts()[0]
	devices, err := a.store.FindDevices(context.Background(), store.DeviceFilter{Account: acc.ID})
	must(t, err, "reading the devices")
	var mac string
	for _, d := range devices {
		if len(d.Compartments) == 1 {
			mac = d.MAC
			break
		}
	}
	day := time.Date(2026, 11, 17, 0, 0, 0, 0, time.UTC)
	var levels []int
	var at []time.Time
	for h := 6; h < 23; h++ {
		levels = append(levels, 100-4*(h-6))
		at = append(at, day.Add(time.Duration(h)*time.Hour))
	}
	a.writeReadings(acc.ID, mac, levels, at)

	openAll := chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('details').forEach(d => d.open = true)`)
	for _, scheme := range []string{"light", "dark"} {
		_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		must(t, err, "emulating the "+scheme+" theme")
		for _, size := range []struct {
			name string
			w, h int64
		}{{"desktop", 1280, 900}, {"phone", 360, 740}} {
			must(t, chromedp.Do(ctx, chromedp.EmulateViewport(size.w, size.h)), "emulating the "+size.name)
			must(t, chromedp.Do(ctx, chromedp.Navigate(a.srv.URL+"/trends?period=90"), chromedp.WaitVisible(chromedp.CSS("main"))), "opening the trends")
			must(t, chromedp.Do(ctx, openAll), "opening the tables")
			checkAxe(t, ctx, "/trends ("+scheme+", "+size.name+")")
			over, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth - window.innerWidth`))
			must(t, err, "measuring the page")
			if over > 0 {
				t.Errorf("%s, %s: the page is %d px wider than the screen", scheme, size.name, over)
			}
			saveScreenshot(t, ctx, "trends-"+scheme+"-"+size.name, true, 90)
		}
	}

	// Printed, from a page whose disclosures are closed.
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(a.srv.URL+"/trends"), chromedp.WaitVisible(chromedp.CSS("main"))), "opening the trends to print")
	pdftotext, dir := pdftotextPath(t), printsDir(t)
	for _, paper := range []struct {
		name string
		w, h float64 // inches
	}{{"a4", 8.27, 11.69}, {"letter", 8.5, 11}} {
		res, err := chromedp.Call(ctx, page.PrintToPDF, page.PrintToPDFParams{PaperWidth: paper.w, PaperHeight: paper.h})
		must(t, err, "printing on "+paper.name)
		path := filepath.Join(dir, "trends-"+paper.name+".pdf")
		must(t, os.WriteFile(path, res.Data, 0o644), "writing the PDF")
		out, err := exec.Command(pdftotext, "-layout", path, "-").Output()
		must(t, err, "reading the PDF's text")
		text := string(out)
		for _, want := range []string{"Tue 17 Nov", "Median time to resolve", "Percent points used a week", "All day", "Trends · Whole account"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: the printed page does not hold %q", paper.name, want)
			}
		}
		if strings.Contains(text, "The numbers of") || strings.Contains(text, "(CSV)") {
			t.Errorf("%s: the printed page holds the disclosures' buttons or the download links", paper.name)
		}
	}
}
