package web

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/forecast"
	"washboard/internal/runout"
	"washboard/internal/store"

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
	t.Parallel()
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
	t.Parallel()
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

// soonestOut is when the first of the MACs' dispensers runs out, or went
// out, by the estimates; false when none has one.
func soonestOut(estimates map[string]forecast.Estimate, macs []string) (forecast.Estimate, bool) {
	var first forecast.Estimate
	found := false
	for _, mac := range macs {
		if e, ok := estimates[mac]; ok && (!found || e.At.Before(first.At)) {
			first, found = e, true
		}
	}
	return first, found
}

// macsByLocation lists the simulated account's dispensers by location id.
func (a *app) macsByLocation() map[string][]string {
	out := map[string][]string{}
	for _, r := range a.world.Accounts()[0].Rooms {
		for _, l := range r.Locations {
			for _, d := range l.Devices {
				out[fmt.Sprint(l.ID)] = append(out[fmt.Sprint(l.ID)], d.MAC)
			}
		}
	}
	return out
}

// A floor page ordered by run-out puts first the room whose dispenser runs
// out first, and in each room the location that runs out first, those
// without an estimate last; the devices CSV of that view lists the
// locations in that order too.
func TestFloorPageOrdersWhatRunsOutFirst(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	a.clock.BlockUntil(1)
	f := a.useForecasts()
	estimates := f.Estimates(a.world.Accounts()[0].ID)
	macs := a.macsByLocation()
	when := func(loc string) (time.Time, bool) {
		e, ok := soonestOut(estimates, macs[loc])
		return e.At, ok
	}
	// inOrder checks that the locations' estimates never go back, and
	// that none with one comes after one without; it returns the first.
	inOrder := func(what string, locs []string) (first time.Time, ok bool) {
		var prev time.Time
		none := false
		for i, loc := range locs {
			at, has := when(loc)
			switch {
			case !has:
				none = true
			case none:
				t.Errorf("%s: location %s has an estimate but comes after one without", what, loc)
			case at.Before(prev):
				t.Errorf("%s: location %s runs out at %s, before the one above it (%s)", what, loc, at, prev)
			default:
				prev = at
			}
			if i == 0 {
				first, ok = at, has
			}
		}
		return first, ok
	}

	// The floor with the most locations that have an estimate.
	floors, err := a.store.Floors(context.Background(), a.world.Accounts()[0].ID, "")
	if err != nil || len(floors) == 0 {
		t.Fatalf("floors: %v, %v", floors, err)
	}
	best, bestCount := "", 0
	for _, fl := range floors {
		n := 0
		b.get("/floors/" + fl.ID).doc(t).Find(`article.card`).Each(func(_ int, s *goquery.Selection) {
			if _, ok := when(strings.TrimPrefix(s.AttrOr("id", ""), "card-")); ok {
				n++
			}
		})
		if n > bestCount {
			best, bestCount = fl.ID, n
		}
	}
	if bestCount < 3 {
		t.Fatalf("no floor has three locations with an estimate (best %d); the test proves nothing", bestCount)
	}

	doc := b.get("/floors/" + best + "?sort=runs_out").doc(t)
	var firsts []string // each room's first location, in page order
	doc.Find(`section.room-section`).Each(func(i int, sec *goquery.Selection) {
		var locs []string
		sec.Find(`article.card`).Each(func(_ int, s *goquery.Selection) {
			locs = append(locs, strings.TrimPrefix(s.AttrOr("id", ""), "card-"))
		})
		inOrder(fmt.Sprintf("room %d", i+1), locs)
		if len(locs) > 0 {
			firsts = append(firsts, locs[0])
		}
	})
	inOrder("the rooms", firsts)
	if got := doc.Find(`#filter-sort option[selected]`).AttrOr("value", ""); got != "runs_out" {
		t.Errorf("the order chosen shows as %q", got)
	}

	rows, err := csv.NewReader(strings.NewReader(b.get("/devices.csv?floor=" + best + "&sort=runs_out").body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var locs []string
	for _, r := range rows[1:] {
		if len(locs) == 0 || locs[len(locs)-1] != r[0] {
			locs = append(locs, r[0])
		}
	}
	if len(locs) < bestCount {
		t.Errorf("devices.csv?sort=runs_out lists %d locations; the floor has %d with an estimate", len(locs), bestCount)
	}
	inOrder("devices.csv?sort=runs_out", locs)

	if r := b.get("/floors/" + best + "?sort=soonest"); r.StatusCode != http.StatusBadRequest || !strings.Contains(r.body, "sort") {
		t.Errorf("a bad sort answered %d", r.StatusCode)
	}
}

// fixedForecasts are estimates a test chooses.
type fixedForecasts map[string]forecast.Estimate

func (f fixedForecasts) Estimates(string) map[string]forecast.Estimate { return f }

// useEstimates gives the app's dashboard these estimates, by MAC.
func (a *app) useEstimates(estimates map[string]forecast.Estimate) {
	a.t.Helper()
	a.deps.Dashboard = dashboard.New(dashboard.Deps{Store: a.store, Sync: a.engine, Upstream: a.client, Clock: a.clock, Keys: a.deps.Keys,
		Forecasts: fixedForecasts(estimates)})
	s, err := New(a.cfg, a.deps)
	if err != nil {
		a.t.Fatal(err)
	}
	a.handler.Store(s)
}

// The alerts page says of each open alert about supplies when its
// dispenser runs out, orders the alerts by it, and keeps those whose
// dispenser runs out within the hours chosen and is not out yet; the CSV
// of that view has the same alerts. It refuses the filter with closed alerts, and orders
// it does not know, naming the parameter.
func TestAlertsPageOrdersAndFiltersByRunOut(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	a.clock.BlockUntil(1)
	open, err := a.store.FindAlerts(context.Background(), store.AlertFilter{Account: a.world.Accounts()[0].ID, Status: domain.AlertOpen})
	if err != nil {
		t.Fatal(err)
	}
	open = slices.DeleteFunc(open, func(al domain.Alert) bool { return len(al.MACs) == 0 || !al.Type.Supplies() })
	if len(open) < 5 {
		t.Fatalf("%d open alerts about supplies name their device; the test needs five", len(open))
	}
	// The estimates, for the devices of five of the open alerts, in an
	// order that is not the page's own (overdue first, then oldest).
	now := a.clock.Now()
	at := func(h float64) forecast.Estimate {
		t := now.Add(time.Duration(h * float64(time.Hour)))
		return forecast.Estimate{At: t, Earliest: t.Add(-time.Hour), Latest: t.Add(time.Hour), Basis: forecast.FromLevels}
	}
	out := forecast.Estimate{At: now.Add(-2 * time.Hour), Earliest: now.Add(-2 * time.Hour), Latest: now.Add(-2 * time.Hour), Basis: forecast.ReportedOut}
	chosen := map[string]forecast.Estimate{
		open[4].ID: at(3),  // within 4 h
		open[3].ID: at(30), // within two days
		open[2].ID: out,    // out already: first in the order, in no filter
		open[1].ID: at(72), // later than two days
		open[0].ID: at(1),  // within 2 h
	}
	estimates := map[string]forecast.Estimate{}
	for _, al := range open[:5] {
		for _, mac := range al.MACs {
			estimates[mac] = chosen[al.ID]
		}
	}
	a.useEstimates(estimates)

	// ids lists the alerts of the page's rows, by their claim links.
	ids := func(doc *goquery.Document) []string {
		var out []string
		doc.Find(`table.alerts-table tbody tr`).Each(func(_ int, tr *goquery.Selection) {
			href := tr.Find(`a[href^="/alerts/"]`).AttrOr("href", "")
			id, _ := url.PathUnescape(strings.TrimPrefix(href[:max(strings.Index(href, "/claim"), 0)], "/alerts/"))
			out = append(out, id)
		})
		return out
	}

	doc := b.get("/alerts?sort=runs_out").doc(t)
	rows := ids(doc)
	want := []string{open[2].ID, open[0].ID, open[4].ID, open[3].ID, open[1].ID}
	if len(rows) < len(open) || !slices.Equal(rows[:5], want) {
		t.Errorf("ordered by run-out, the page lists %v…; want %v first, then the other %d", rows[:min(len(rows), 6)], want, len(open)-5)
	}
	if got := doc.Find(`#filter-alert-sort option[selected]`).AttrOr("value", ""); got != "runs_out" {
		t.Errorf("the order chosen shows as %q", got)
	}
	if says := doc.Find(`table.alerts-table tbody tr`).Eq(1).Find(`.runs-out`).Text(); says != "Runs out in about 1 h, between 0 and 2 h" && !strings.HasPrefix(says, "Runs out in about 1 h") {
		t.Errorf("the alert whose dispenser runs out in an hour says %q", says)
	}
	if says := doc.Find(`table.alerts-table tbody tr`).Eq(0).Find(`.runs-out`).Length(); says != 0 {
		t.Error("the alert whose dispenser is out says when it runs out")
	}

	// With closed alerts, the open ones come first in that order, then the
	// closed ones, as many as the page shows.
	all, err := a.store.CountAlerts(context.Background(), store.AlertFilter{Account: a.world.Accounts()[0].ID})
	if err != nil {
		t.Fatal(err)
	}
	rows = ids(b.get("/alerts?status=all&sort=runs_out").doc(t))
	if len(rows) != min(all, alertsLimit) || len(rows) < 5 || !slices.Equal(rows[:5], want) {
		t.Errorf("open and closed, ordered by run-out, the page lists %d alerts beginning %v; want %d beginning %v",
			len(rows), rows[:min(len(rows), 5)], min(all, alertsLimit), want)
	}

	for _, c := range []struct {
		within, words string
		want          []string
	}{
		{"2h", "Runs out within 2 h", []string{open[0].ID}},
		{"48h", "Runs out within two days", []string{open[3].ID, open[4].ID, open[0].ID}},
	} {
		doc = b.get("/alerts?runs_out=" + c.within).doc(t)
		rows = ids(doc)
		slices.Sort(rows)
		slices.Sort(c.want)
		if !slices.Equal(rows, c.want) {
			t.Errorf("filtered to %s, the page lists %v; want %v", c.within, rows, c.want)
		}
		if !strings.Contains(doc.Find(`#alert-filter-panel`).Text(), c.words) {
			t.Errorf("the filter's summary does not say %q", c.words)
		}
		records, err := csv.NewReader(strings.NewReader(b.get("/alerts.csv?runs_out=" + c.within).body)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(records)-1 != len(c.want) {
			t.Errorf("alerts.csv?runs_out=%s has %d alerts; want %d", c.within, len(records)-1, len(c.want))
		}
	}

	for _, bad := range []struct{ query, param string }{
		{"runs_out=48h&status=closed", "runs_out"},
		{"runs_out=3h", "runs_out"},
		{"sort=soonest", "sort"},
	} {
		if r := b.get("/alerts?" + bad.query); r.StatusCode != http.StatusBadRequest || !strings.Contains(r.body, bad.param) {
			t.Errorf("/alerts?%s answered %d; want 400 naming %s", bad.query, r.StatusCode, bad.param)
		}
	}
}

// A forecast shows only beside what it forecasts: of the open alerts of
// dispensers that all have an estimate, those about product and batteries
// say when the dispenser runs out, and a fault's or an offline device's
// do not, nor does the run-out filter keep them.
func TestAlertsPageForecastsOnlyBesideSupplies(t *testing.T) {
	t.Parallel()
	a := newAppWith(t, Config{}, appOptions{locations: 400}) // a fleet with open faults beside its product and battery alerts
	b := a.browser()
	b.signIn(credA)
	a.clock.BlockUntil(1)
	now := a.clock.Now()
	soon := forecast.Estimate{At: now.Add(3 * time.Hour), Earliest: now.Add(2 * time.Hour), Latest: now.Add(4 * time.Hour), Basis: forecast.FromLevels}
	estimates := map[string]forecast.Estimate{}
	for _, macs := range a.macsByLocation() {
		for _, mac := range macs {
			estimates[mac] = soon
		}
	}
	a.useEstimates(estimates)
	open, err := a.store.FindAlerts(context.Background(), store.AlertFilter{Account: a.world.Accounts()[0].ID, Status: domain.AlertOpen})
	if err != nil {
		t.Fatal(err)
	}
	types := map[string]domain.AlertType{}
	supplies, others := 0, 0
	for _, al := range open {
		types[al.ID] = al.Type
		if al.Type.Supplies() {
			supplies++
		} else {
			others++
		}
	}
	if supplies == 0 || others == 0 {
		t.Fatalf("%d open alerts about supplies and %d others; the test needs both", supplies, others)
	}

	said := map[domain.AlertType]int{}
	for _, query := range []string{"", "?runs_out=4h"} {
		doc := b.get("/alerts" + query).doc(t)
		rows := 0
		doc.Find(`table.alerts-table tbody tr`).Each(func(_ int, tr *goquery.Selection) {
			href := tr.Find(`a[href^="/alerts/"]`).AttrOr("href", "")
			id, _ := url.PathUnescape(strings.TrimPrefix(href[:max(strings.Index(href, "/claim"), 0)], "/alerts/"))
			typ, ok := types[id]
			if !ok {
				t.Errorf("/alerts%s: a row of alert %q, which is not open", query, id)
				return
			}
			rows++
			says := tr.Find(`.runs-out`).Text()
			switch {
			case typ.Supplies() && !strings.HasPrefix(says, "Runs out in about 3 h"):
				t.Errorf("/alerts%s: the %s alert %s says %q; want when its dispenser runs out", query, typ, id, says)
			case !typ.Supplies() && says != "":
				t.Errorf("/alerts%s: the %s alert %s says %q; a forecast belongs only beside product and battery alerts", query, typ, id, says)
			case !typ.Supplies() && query != "":
				t.Errorf("/alerts%s keeps the %s alert %s", query, typ, id)
			}
			said[typ]++
		})
		if want := min(len(open), alertsLimit); query == "" && rows != want {
			t.Errorf("/alerts lists %d open alerts; want %d", rows, want)
		}
	}
	if said[domain.AlertSystem]+said[domain.AlertJam]+said[domain.AlertSensor]+said[domain.AlertDeviceOff] == 0 {
		t.Errorf("no fault or offline alert was listed (%v); the test proves little", said)
	}
}
