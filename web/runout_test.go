package web

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"washboard/internal/dashboard"
	"washboard/internal/forecast"
	"washboard/internal/runout"

	"github.com/PuerkitoBio/goquery"
)

// useForecasts gives the app's dashboard the estimates of when dispensers
// run out, made now from what the cache holds.
func (a *app) useForecasts() *runout.Service {
	a.t.Helper()
	f := runout.New(a.store, a.clock, time.UTC, nil)
	if err := f.Refresh(context.Background(), a.world.Accounts()[0].ID); err != nil {
		a.t.Fatal(err)
	}
	a.deps.Dashboard = dashboard.New(dashboard.Deps{Store: a.store, Sync: a.engine, Upstream: a.client, Clock: a.clock, Keys: a.deps.Keys, Forecasts: f})
	s, err := New(a.cfg, a.deps)
	if err != nil {
		a.t.Fatal(err)
	}
	a.handler.Store(s)
	return f
}

// Dispensers whose past run-outs say how fast they empty show on their
// cards when they will run out, in words; devices.csv has the estimate and
// its range, empty for a device without one, and the time it went out for
// a device out.
func TestCardsAndTheCSVSayWhenDispensersRunOut(t *testing.T) {
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	a.clock.BlockUntil(1)
	f := a.useForecasts()
	estimates := f.Estimates(a.world.Accounts()[0].ID)
	if len(estimates) == 0 {
		t.Fatal("no dispenser of the simulated fleet has an estimate; the test proves nothing")
	}

	rows, err := csv.NewReader(strings.NewReader(b.get("/devices.csv").body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	header := rows[0]
	col := func(name string) int {
		for i, h := range header {
			if h == name {
				return i
			}
		}
		t.Fatalf("devices.csv has no %s column: %v", name, header)
		return -1
	}
	at, earliest, latest, offline, levels := col("runs_out_at"), col("runs_out_earliest"), col("runs_out_latest"), col("offline"), col("product_levels")
	if at != len(header)-3 || latest != len(header)-1 {
		t.Errorf("the estimate is not in the last three columns: %v", header)
	}
	with := 0
	for _, r := range rows[1:] {
		if r[at] == "" {
			if r[earliest] != "" || r[latest] != "" {
				t.Errorf("a row with a range but no estimate: %v", r)
			}
			continue
		}
		with++
		tAt, err1 := time.Parse(time.RFC3339, r[at])
		tE, err2 := time.Parse(time.RFC3339, r[earliest])
		tL, err3 := time.Parse(time.RFC3339, r[latest])
		if err1 != nil || err2 != nil || err3 != nil || tE.After(tAt) || tL.Before(tAt) || !strings.HasSuffix(r[at], "Z") {
			t.Errorf("not an estimate in ISO 8601 UTC with its range around it: %v %v %v", r[earliest], r[at], r[latest])
		}
		if strings.Contains(";"+r[levels]+";", ";0;") && r[offline] == "false" {
			if !tE.Equal(tAt) || !tL.Equal(tAt) || tAt.After(a.clock.Now()) {
				t.Errorf("a device out has %v, %v, %v; want when it went out in all three", r[earliest], r[at], r[latest])
			}
		}
	}
	if with == 0 {
		t.Error("devices.csv gives no estimate")
	}

	// A card of a dispenser with an estimate says it in words.
	var loc string
	for mac, e := range estimates {
		if e.Basis != forecast.ReportedOut {
			for _, r := range a.world.Accounts()[0].Rooms {
				for _, l := range r.Locations {
					for _, d := range l.Devices {
						if d.MAC == mac {
							loc = fmt.Sprint(l.ID)
						}
					}
				}
			}
			break
		}
	}
	if loc == "" {
		t.Fatal("no dispenser not out has an estimate")
	}
	page := b.get("/locations/" + loc).body
	if !strings.Contains(page, `class="runs-out">Runs out `) {
		t.Errorf("the card of location %s does not say when it runs out", loc)
	}

	// The report of the shift under way lists what will run out during the
	// next shift, apart from what is out or low now.
	report := b.get("/reports/shift?date=2026-11-18&shift=Early")
	if !strings.Contains(report.body, `id="report-runningout">Will run out before`) {
		t.Error("the shift report does not list what will run out during the next shift")
	}
	rows, err = csv.NewReader(strings.NewReader(b.get("/reports/shift.csv?date=2026-11-18&shift=Early&table=runningout").body)).ReadAll()
	if err != nil || strings.Join(rows[0], ",") != "building,floor,product,refills,runs_out_before" {
		t.Errorf("the report's runningout CSV: %v, %v", rows, err)
	}
}

// A floor page filtered to what runs out within two days shows the
// locations with a dispenser estimated to run out by then, and only those.
func TestFloorPageFiltersWhatRunsOutSoon(t *testing.T) {
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	a.clock.BlockUntil(1)
	f := a.useForecasts()
	account := a.world.Accounts()[0].ID
	soon := map[string]bool{} // locations with a dispenser running out within two days
	var floor string
	locs := map[string]string{} // location of each MAC
	for _, r := range a.world.Accounts()[0].Rooms {
		for _, l := range r.Locations {
			for _, d := range l.Devices {
				locs[d.MAC] = fmt.Sprint(l.ID)
			}
		}
	}
	for mac, e := range f.Estimates(account) {
		if e.Basis != forecast.ReportedOut && !e.At.After(a.clock.Now().Add(48*time.Hour)) {
			soon[locs[mac]] = true
		}
	}
	for loc := range soon {
		paths, err := a.store.Paths(context.Background(), account, []string{loc})
		if err != nil {
			t.Fatal(err)
		}
		floor = paths[loc].Floor.ID
		break
	}
	if floor == "" {
		var ins []string
		for _, e := range f.Estimates(account) {
			ins = append(ins, e.At.Sub(a.clock.Now()).Round(time.Hour).String())
		}
		t.Fatalf("no dispenser runs out within two days (%v); the test proves nothing", ins)
	}
	doc := b.get("/floors/" + floor + "?runs_out=48h").doc(t)
	shown := 0
	doc.Find(`article.card`).Each(func(_ int, s *goquery.Selection) {
		id, _ := s.Attr("id")
		shown++
		if !soon[strings.TrimPrefix(id, "card-")] {
			t.Errorf("the filtered floor shows %s, which runs out later or has no estimate", id)
		}
	})
	if shown == 0 {
		t.Error("the filtered floor shows no location")
	}
	if got := doc.Find(`#filter-runs-out option[selected]`).AttrOr("value", ""); got != "48h" {
		t.Errorf("the filter shows %q as chosen", got)
	}
	if r := b.get("/floors/" + floor + "?runs_out=soon"); r.StatusCode != http.StatusBadRequest || !strings.Contains(r.body, "runs_out") {
		t.Errorf("a bad runs_out answered %d", r.StatusCode)
	}
}
