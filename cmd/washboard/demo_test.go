package main

import (
	"context"
	"encoding/csv"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestDemoForecastsMostDispensers: `washboard demo`, as the README
// starts it, estimates when most dispensers run out within a minute of
// starting: /devices.csv has a run-out time for at least 90 % of the demo
// account's dispensers. The cache begins with the simulator's past
// readings, as if it had watched the fleet; without them the estimates
// would wait for 72 hours of levels (forecast.MinObserved), 72 minutes of
// the demo.
func TestDemoForecastsMostDispensers(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := time.Now()
	base, done, stderr := startCommand(t, ctx, demoOpens, []string{"demo", "--listen", "127.0.0.1:0", "--data", t.TempDir()})
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

	deadline := started.Add(time.Minute)
	var estimated, dispensers int
	for ; time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		estimated, dispensers = forecastsIn(t, c, base+"/devices.csv")
		if dispensers > 0 && estimated*10 >= dispensers*9 {
			t.Logf("%d of %d dispensers have a run-out time %s after the demo started", estimated, dispensers, time.Since(started).Round(time.Millisecond))
			break
		}
	}
	if dispensers == 0 || estimated*10 < dispensers*9 {
		t.Errorf("a minute after the demo started, %d of %d dispensers have a run-out time in /devices.csv; want at least 90 %%", estimated, dispensers)
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

// TestDemoPortfolioConnectsItsAccounts: `washboard demo --accounts 3`
// signs whoever uses the demo account in as the demo's person, who belongs
// to the three accounts of the portfolio, each connected and synced.
func TestDemoPortfolioConnectsItsAccounts(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	for run := 1; run <= 2; run++ {
		if n := strings.Count(demoPortfolioRun(t, data), `data-label="Name">Demo supervisor `); n != 1 {
			t.Errorf("run %d on the same data: the first account's people list the demo's person %d times; want once", run, n)
		}
	}
}

// demoPortfolioRun starts the demo of a portfolio of three on the data,
// checks its person has the three accounts, and returns the first
// account's people page.
func demoPortfolioRun(t *testing.T, data string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	base, done, stderr := startCommand(t, ctx, demoOpens, []string{"demo", "--listen", "127.0.0.1:0", "--data", data,
		"--accounts", "3", "--devices", "20", "--sim-history", "1d"})
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
	page := get(t, c, base+"/accounts")
	for _, name := range []string{"Northwind Property Services", "Bluebird Hospital Trust", "Contoso Campus"} {
		if !strings.Contains(page, name) {
			t.Errorf("/accounts does not list %q:\n%s", name, page)
		}
	}
	people := get(t, c, base+"/people")
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("the demo exited with %d; stderr:\n%s", code, stderr.String())
	}
	return people
}
