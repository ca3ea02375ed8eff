package main

import (
	"context"
	"encoding/csv"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestDemoForecastsMostDispensers: the demo estimates when most
// dispensers run out within 100 simulated hours of starting, what
// `washboard demo --speed 600` runs in 10 minutes: /devices.csv has a
// run-out time for at least 90 % of the demo account's dispensers. The
// estimates wait for 72 hours of levels (forecast.MinObserved), or for
// three run-outs among the simulator's past alerts, and so for the demo's
// clock, not for the machine: the test runs the demo five times faster,
// for two minutes.
func TestDemoForecastsMostDispensers(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the demo for up to two minutes")
	}
	const (
		speed  = 3000
		budget = 100 * time.Hour // of the demo's clock
	)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := time.Now()
	base, done, stderr := startCommand(t, ctx, demoOpens, []string{"demo", "--speed", strconv.Itoa(speed), "--listen", "127.0.0.1:0", "--data", t.TempDir()})
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

	deadline := started.Add(budget / speed)
	var estimated, dispensers int
	for ; time.Now().Before(deadline); time.Sleep(2 * time.Second) {
		estimated, dispensers = forecastsIn(t, c, base+"/devices.csv")
		if dispensers > 0 && estimated*10 >= dispensers*9 {
			t.Logf("%d of %d dispensers have a run-out time %s after the demo started (%.0f h of its clock)",
				estimated, dispensers, time.Since(started).Round(time.Second), time.Since(started).Hours()*speed)
			break
		}
	}
	if dispensers == 0 || estimated*10 < dispensers*9 {
		t.Errorf("%s of the demo's clock after it started, %d of %d dispensers have a run-out time in /devices.csv; want at least 90 %%", budget, estimated, dispensers)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("the demo exited with %d; stderr:\n%s", code, stderr.String())
	}
}

// forecastsIn counts the devices of /devices.csv with product levels, and
// those of them with a run-out time; none while the first sync runs.
func forecastsIn(t *testing.T, c *http.Client, u string) (estimated, dispensers int) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv") {
		return 0, 0 // the sync's progress page until the first sync is done
	}
	rows, err := csv.NewReader(resp.Body).ReadAll()
	if err != nil || len(rows) == 0 {
		t.Fatalf("reading /devices.csv: %v", err)
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	for _, r := range rows[1:] {
		if r[col["product_levels"]] == "" {
			continue
		}
		dispensers++
		if r[col["runs_out_at"]] != "" {
			estimated++
		}
	}
	return estimated, dispensers
}
