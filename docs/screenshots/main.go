// Command screenshots makes the screenshots of the documentation again,
// from the demo: it builds washboard, starts `washboard demo` on a free
// loopback port with a data directory of its own, signs in with the demo
// account in Chromium as a person would, and saves the main pages as PNG
// files beside this program (docs/screenshots). Run it from the
// repository's root:
//
//	go run ./docs/screenshots
//
// It needs Chromium: apt-get install chromium-headless-shell (or
// chromium), or WASHBOARD_CHROMIUM set to its path. The demo's fleet is
// the same on every run (its seed is fixed); the times and the levels
// shown are those of the moment it runs.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"washboard/internal/chromium"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// shot is one screenshot: a page at a size.
type shot struct {
	file   string
	path   func(p places) string
	width  int64
	height int64
	scale  float64 // device pixels per CSS pixel
}

// places are the pages of the demo fleet worth showing, found as the
// program goes: a location with an open alert, and its floor (shown with
// the dispensers that run out first at the top).
type places struct {
	location, floor string
}

var shots = []shot{
	{file: "overview.png", path: func(places) string { return "/" }, width: 1280, height: 800, scale: 1},
	{file: "floor.png", path: func(p places) string { return p.floor + "?sort=runs_out" }, width: 1280, height: 1000, scale: 1},
	{file: "location.png", path: func(p places) string { return p.location }, width: 1280, height: 1000, scale: 1},
	{file: "alerts.png", path: func(places) string { return "/alerts" }, width: 1280, height: 800, scale: 1},
	{file: "shift-report.png", path: func(places) string { return "/reports/shift" }, width: 1280, height: 1000, scale: 1},
	{file: "trends.png", path: func(places) string { return "/trends" }, width: 1280, height: 1000, scale: 1},
	{file: "phone.png", path: func(p places) string { return p.floor + "?sort=runs_out" }, width: 360, height: 780, scale: 2},
	{file: "floor-plan.png", path: func(p places) string { return p.floor }, width: 1280, height: 1000, scale: 1},
}

func main() {
	out := flag.String("out", filepath.Join("docs", "screenshots"), "directory to write the PNG files into")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "screenshots:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	if _, err := os.Stat(filepath.Join("cmd", "washboard")); err != nil {
		return errors.New("run it from the repository's root: go run ./docs/screenshots")
	}
	browser := chromium.Path()
	if browser == "" {
		return errors.New("needs " + chromium.Missing)
	}
	work, err := os.MkdirTemp("", "washboard-screenshots-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)

	base, stop, err := startDemo(work)
	if err != nil {
		return err
	}
	defer stop()

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browser),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(filepath.Join(work, "chromium")),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancelCtx := chromedp.NewContext(actx)
	defer cancelCtx()
	ctx, cancelTimeout := context.WithTimeout(ctx, 5*time.Minute)
	defer cancelTimeout()

	if err := signIn(ctx, base); err != nil {
		return err
	}
	if err := waitForForecasts(ctx); err != nil {
		return err
	}
	p, err := findPlaces(ctx, base)
	if err != nil {
		return err
	}
	for _, s := range shots {
		if err := take(ctx, base+s.path(p), s.width, s.height, s.scale, filepath.Join(out, s.file)); err != nil {
			return fmt.Errorf("%s: %w", s.file, err)
		}
	}
	screen, err := newScreenLink(ctx, base)
	if err != nil {
		return err
	}
	// A wall screen is built for a 1920×1080 TV; the picture is half that.
	if err := take(ctx, screen, 1920, 1080, 0.5, filepath.Join(out, "wall-screen.png")); err != nil {
		return fmt.Errorf("wall-screen.png: %w", err)
	}
	return nil
}

// startDemo builds washboard into work and starts `washboard demo` on a
// free loopback port, in real time so that pages hold still while they
// are taken. It returns the demo's address once its sign-in page answers,
// and a function that stops it.
func startDemo(work string) (string, func(), error) {
	bin := filepath.Join(work, "washboard")
	build := exec.Command("go", "build", "-o", bin, "./cmd/washboard")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return "", nil, fmt.Errorf("building washboard: %w", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	addr := l.Addr().String()
	l.Close()
	demo := exec.Command(bin, "demo", "--listen", addr, "--data", filepath.Join(work, "data"), "--speed", "1", "--log-format", "text")
	logFile, err := os.Create(filepath.Join(work, "demo.log"))
	if err != nil {
		return "", nil, err
	}
	demo.Stdout, demo.Stderr = logFile, logFile
	if err := demo.Start(); err != nil {
		return "", nil, fmt.Errorf("starting washboard demo: %w", err)
	}
	exited := make(chan struct{})
	go func() { demo.Wait(); close(exited) }()
	stop := func() {
		demo.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(20 * time.Second):
			demo.Process.Kill()
			<-exited
		}
		logFile.Close()
	}
	base := "http://" + addr
	deadline := time.Now().Add(time.Minute)
	for {
		select {
		case <-exited:
			return "", nil, fmt.Errorf("washboard demo stopped; its log is in %s", logFile.Name())
		default:
		}
		if res, err := http.Get(base + "/signin"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return base, stop, nil
			}
		}
		if time.Now().After(deadline) {
			stop()
			return "", nil, errors.New("washboard demo did not answer within a minute")
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// signIn signs in with the demo account, as its button does, and waits
// until the first sync is done and the overview shows.
func signIn(ctx context.Context, base string) error {
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/signin")); err != nil {
		return fmt.Errorf("opening the sign-in page: %w", err)
	}
	if err := loadAfter(ctx, chromedp.Click(chromedp.CSS(".demo-form button"))); err != nil {
		return fmt.Errorf("signing in with the demo account: %w", err)
	}
	deadline := time.Now().Add(3 * time.Minute)
	for {
		if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"), chromedp.WaitReady(chromedp.CSS("main"))); err != nil {
			return err
		}
		loc, err := chromedp.Run(ctx, chromedp.Location())
		if err != nil {
			return err
		}
		if u, err := url.Parse(loc); err == nil && u.Path == "/" {
			return nil
		}
		if time.Now().After(deadline) {
			return errors.New("the first sync did not finish within 3 minutes")
		}
		time.Sleep(time.Second)
	}
}

// countForecasts reads /devices.csv as the signed-in browser and counts
// the dispensers (devices with product levels) and those of them with an
// estimate of when they run out.
const countForecasts = `(async () => {
  const text = await (await fetch('/devices.csv')).text();
  const rows = text.trim().split('\n').map((line) => {
    const cells = []; let cell = '', quoted = false;
    for (const ch of line) {
      if (ch === '"') quoted = !quoted;
      else if (ch === ',' && !quoted) { cells.push(cell); cell = ''; }
      else cell += ch;
    }
    cells.push(cell);
    return cells;
  });
  const levels = rows[0].indexOf('product_levels'), at = rows[0].indexOf('runs_out_at');
  const dispensers = rows.slice(1).filter((r) => r[levels] !== '');
  return [dispensers.filter((r) => r[at] !== '').length, dispensers.length];
})()`

// waitForForecasts waits, for up to two minutes, until nine dispensers in
// ten have an estimate of when they run out, so that the pages show them:
// the estimates are made just after the first sync.
func waitForForecasts(ctx context.Context) error {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		n, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](countForecasts, chromedp.EvalAwaitPromise))
		if err != nil {
			return fmt.Errorf("counting the estimates in /devices.csv: %w", err)
		}
		if n[1] > 0 && n[0]*10 >= n[1]*9 {
			return nil
		}
		if time.Now().After(deadline) {
			fmt.Fprintf(os.Stderr, "screenshots: only %d of %d dispensers have an estimate after two minutes; taking the pages as they are\n", n[0], n[1])
			return nil
		}
		time.Sleep(time.Second)
	}
}

// findPlaces finds a location with an open alert (the first the alerts page
// lists) and its floor, from the links on their pages.
func findPlaces(ctx context.Context, base string) (places, error) {
	var p places
	var err error
	if err = chromedp.Do(ctx, chromedp.Navigate(base+"/alerts"), chromedp.WaitReady(chromedp.CSS("main"))); err != nil {
		return p, err
	}
	if p.location, err = firstLink(ctx, "main a[href^='/locations/']"); err != nil {
		return p, err
	}
	if err = chromedp.Do(ctx, chromedp.Navigate(base+p.location), chromedp.WaitReady(chromedp.CSS("main"))); err != nil {
		return p, err
	}
	p.floor, err = firstLink(ctx, "a[href^='/floors/']")
	return p, err
}

// firstLink is the path of the first link on the page that sel selects.
func firstLink(ctx context.Context, sel string) (string, error) {
	href, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector("`+sel+`") || {}).pathname || ""`))
	if err != nil {
		return "", err
	}
	if href == "" {
		return "", fmt.Errorf("found no link %s", sel)
	}
	return href, nil
}

// newScreenLink makes a wall screen of the whole account on the Screens
// page and returns its link, which is shown once. The link holds the
// screen's secret token: it is never printed.
func newScreenLink(ctx context.Context, base string) (string, error) {
	if err := chromedp.Do(ctx,
		chromedp.Navigate(base+"/screens"),
		chromedp.SendKeys(chromedp.ID("screen-name"), "Staff room, ground floor"),
	); err != nil {
		return "", fmt.Errorf("opening the Screens page: %w", err)
	}
	if err := loadAfter(ctx, chromedp.Submit(chromedp.ID("screen-name"))); err != nil {
		return "", fmt.Errorf("making a wall screen: %w", err)
	}
	link, err := chromedp.Run(ctx, chromedp.Value(chromedp.ID("new-link")))
	if err != nil || link == "" {
		return "", fmt.Errorf("the Screens page showed no link for the new screen (%v)", err)
	}
	return link, nil
}

// loadAfter runs the action and waits for the page it leads to to load.
func loadAfter(ctx context.Context, action chromedp.Action[chromedp.Void]) error {
	_, err := chromedp.Run(ctx, chromedp.WaitEvent(page.LoadEventFired, nil, action))
	return err
}

// take opens the page at the size given and saves what shows as a PNG.
func take(ctx context.Context, page string, width, height int64, scale float64, file string) error {
	if err := chromedp.Do(ctx,
		chromedp.EmulateViewport(width, height, chromedp.EmulateScale(scale)),
		chromedp.Navigate(page),
		chromedp.WaitReady(chromedp.CSS("main")),
		chromedp.Evaluate[chromedp.Void](`document.fonts.ready`, chromedp.EvalAwaitPromise),
	); err != nil {
		return err
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		return err
	}
	return os.WriteFile(file, png, 0o644)
}
