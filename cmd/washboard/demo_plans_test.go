package main

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The demo's floors come with the plans the simulator draws, every
// location placed: a floor's page shows its markers on the plan, served as
// an SVG under the plan's policy.
func TestDemoFloorsComeWithPlans(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	base, done, stderr := startCommand(t, ctx, demoOpens, []string{"demo", "--listen", "127.0.0.1:0", "--devices", "20", "--sim-history", "1d"})
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 30 * time.Second}
	m := csrfField.FindStringSubmatch(get(t, c, base+"/signin"))
	if m == nil {
		t.Fatal("no CSRF token on the sign-in page")
	}
	resp, err := c.PostForm(base+"/signin/demo", url.Values{"csrf_token": {m[1]}, "next": {"/"}})
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	// The overview shows the first sync's progress until it is done, as
	// TestDemoForecastsMostDispensers waits for it.
	link := regexp.MustCompile(`href="(/buildings/[^"]+)"`)
	var building []string
	for deadline := time.Now().Add(time.Minute); building == nil && time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		building = link.FindStringSubmatch(get(t, c, base+"/"))
	}
	if building == nil {
		t.Fatal("the overview links no building a minute after the demo started")
	}
	floor := regexp.MustCompile(`href="(/floors/[^"]+)"`).FindStringSubmatch(get(t, c, base+building[1]))
	if floor == nil {
		t.Fatal("the building links no floor")
	}
	page := get(t, c, base+floor[1])
	if !strings.Contains(page, `class="plan-map"`) || strings.Count(page, `class="plan-spot `) == 0 || strings.Count(page, `class="plan-spot `) != strings.Count(page, `class="card `) {
		t.Errorf("the floor's page shows %d markers on its plan for %d cards", strings.Count(page, `class="plan-spot `), strings.Count(page, `class="card `))
	}
	img, err := c.Get(base + floor[1] + "/plan/image")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(img.Body)
	img.Body.Close()
	if img.Header.Get("Content-Type") != "image/svg+xml" || !strings.HasPrefix(string(body), "<svg") || !strings.Contains(img.Header.Get("Content-Security-Policy"), "default-src 'none'") {
		t.Errorf("the floor's plan: %q, %q, %.40q", img.Header.Get("Content-Type"), img.Header.Get("Content-Security-Policy"), body)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("the demo exited with %d; stderr:\n%s", code, stderr.String())
	}
}
