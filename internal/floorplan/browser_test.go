package floorplan

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"washboard/internal/chromium"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestBrowserRunsNothingOfASanitizedSVG opens each SVG of the hostile
// corpus in Chromium, as a page of its own and served without the policy
// that would stop scripts anyway: sanitised, none opens a dialog (every
// script of the corpus calls alert) and none makes a request. The same
// files as uploaded show that the test sees both.
func TestBrowserRunsNothingOfASanitizedSVG(t *testing.T) {
	t.Parallel()
	ctx := chromeTab(t)
	var files sync.Map // path → SVG
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		svg, ok := files.Load(r.URL.Path)
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "image/svg+xml")
		w.Write(svg.([]byte)) //nolint:errcheck // the test reads what the browser did, not this
	}))
	defer srv.Close()

	var mu sync.Mutex
	var seen []string // dialogs and requests of the page open now
	err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *page.EventJavascriptDialogOpening:
			seen = append(seen, "a dialog: "+ev.Message)
			go chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{}) //nolint:errcheck // a page that is gone has no dialog
		case *network.EventRequestWillBeSent:
			// A data: URL is an image embedded in the plan, not a request
			// that leaves it.
			if !strings.HasPrefix(ev.Request.URL, "data:") {
				seen = append(seen, "a request for "+ev.Request.URL)
			}
		}
	})
	if err != nil {
		t.Fatalf("listening to the tab: %v", err)
	}
	open := func(path string, svg []byte) []string {
		files.Store(path, svg)
		mu.Lock()
		seen = nil
		mu.Unlock()
		// Two frames after the load event: handlers of load and
		// animations that begin at once have run.
		err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+path))
		if err == nil {
			_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](
				`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, chromedp.EvalAwaitPromise))
		}
		if err != nil {
			t.Fatalf("opening %s: %v", path, err)
		}
		mu.Lock()
		defer mu.Unlock()
		var out []string
		for _, s := range seen {
			// The page itself, and the icon a browser asks its site for.
			if s != "a request for "+srv.URL+path && s != "a request for "+srv.URL+"/favicon.ico" {
				out = append(out, s)
			}
		}
		return out
	}

	for i, tc := range hostileSVGs(t) {
		p := mustAccept(t, []byte(svgDoc(tc.body)))
		if ran := open(fmt.Sprintf("/plan/%d.svg", i), p.Data); len(ran) > 0 {
			t.Errorf("%s: sanitised, the SVG made %s", tc.name, strings.Join(ran, ", "))
		}
	}
	for _, raw := range []struct{ body, want string }{
		{`<script>alert('ran')</script>`, "a dialog: ran"},
		{`<image width="5" height="5" href="https://evil.test/track.png"/>`, "a request for https://evil.test/track.png"},
	} {
		if ran := open("/raw.svg", []byte(svgDoc(raw.body))); !strings.Contains(strings.Join(ran, ", "), raw.want) {
			t.Errorf("as uploaded, %s made %v, want %s: the test does not see what a page does", raw.body, ran, raw.want)
		}
	}
}

// chromeTab starts Debian's Chromium, headless, for the test, and returns
// its tab. Without Chromium the test is skipped, unless
// WASHBOARD_BROWSER_TESTS is "required" (as .ci/run sets it).
func chromeTab(t *testing.T) context.Context {
	t.Helper()
	path := chromium.Path()
	if path == "" {
		msg := "needs " + chromium.Missing + "; .ci/run installs it"
		if os.Getenv("WASHBOARD_BROWSER_TESTS") == "required" {
			t.Fatal("WASHBOARD_BROWSER_TESTS=required, and this test " + msg)
		}
		t.Skip(msg)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-component-update", true), chromedp.UserDataDir(t.TempDir()))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(func() { cancelTimeout(); cancelCtx(); cancelAlloc() })
	return ctx
}
