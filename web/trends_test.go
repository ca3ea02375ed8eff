package web

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"washboard/internal/domain"
	"washboard/internal/report"
	"washboard/internal/sim"
	"washboard/internal/store"
)

// readCSV reads a CSV download, failing unless it is one.
func (b *browser) readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	r := b.get(path)
	if r.StatusCode != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/csv") {
		t.Fatalf("%s: status %d, Content-Type %q\n%s", path, r.StatusCode, r.Header.Get("Content-Type"), r.body)
	}
	if cd := r.Header.Get("Content-Disposition"); !strings.HasPrefix(cd, `attachment; filename="trends-`) || !strings.HasSuffix(cd, `.csv"`) {
		t.Errorf("%s: Content-Disposition %q", path, cd)
	}
	rows, err := csv.NewReader(strings.NewReader(r.body)).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

// column returns a function reading a named column of a CSV's rows.
func column(t *testing.T, header []string) func(row []string, name string) string {
	return func(row []string, name string) string {
		t.Helper()
		i := slices.Index(header, name)
		if i < 0 {
			t.Fatalf("no column %s in %v", name, header)
		}
		return row[i]
	}
}

// simCounts are the simulator's alerts counted as the trends page counts
// them: created per local day and type in the days ending now, resolved
// per week in the period (medians in whole minutes), per location.
type simCounts struct {
	perDay     map[string]map[string]int // date → type → alerts
	medians    map[string]string         // week's first day in the period → median minutes
	resolved   map[string]int
	locations  map[string]int
	roomsOf    map[string]string // location → room
	buildingOf map[string]string // location → building
	total      int
}

func countSim(acc *sim.Account, days int, now time.Time, zone *time.Location) simCounts {
	n := now.In(zone)
	start := time.Date(n.Year(), n.Month(), n.Day()-(days-1), 0, 0, 0, 0, zone)
	c := simCounts{perDay: map[string]map[string]int{}, medians: map[string]string{}, resolved: map[string]int{},
		locations: map[string]int{}, roomsOf: map[string]string{}, buildingOf: map[string]string{}}
	for _, l := range acc.Locations {
		c.roomsOf[fmt.Sprint(l.ID)] = l.Room.ID
		c.buildingOf[fmt.Sprint(l.ID)] = l.Room.Floor.Building.ID
	}
	durations := map[string][]time.Duration{}
	for _, rec := range acc.AlertRecords() {
		if !rec.Created.Before(start) && rec.Created.Before(now) {
			day := rec.Created.In(zone).Format(time.DateOnly)
			if c.perDay[day] == nil {
				c.perDay[day] = map[string]int{}
			}
			c.perDay[day][string(rec.Type)]++
			c.locations[fmt.Sprint(rec.LocationID)]++
			c.total++
		}
		if !rec.Resolved.IsZero() && !rec.Resolved.Before(start) && rec.Resolved.Before(now) {
			r := rec.Resolved.In(zone)
			monday := time.Date(r.Year(), r.Month(), r.Day()-(int(r.Weekday())+6)%7, 0, 0, 0, 0, zone)
			if monday.Before(start) {
				monday = start
			}
			week := monday.Format(time.DateOnly)
			durations[week] = append(durations[week], rec.Resolved.Sub(rec.Created))
			c.resolved[week]++
		}
	}
	for w, ds := range durations {
		c.medians[w] = strconv.Itoa(int(report.Median(ds) / time.Minute))
	}
	return c
}

// The trends page and its CSVs count the alerts the simulator made: per
// day and type, the median time to resolve per week, the places with the
// most alerts; in the account's time zone once it has one.
func TestTrendsCountTheSimulatorsAlerts(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	acc := a.world.Accounts()[0]
	now := a.clock.Now()

	r := b.get("/trends")
	if r.StatusCode != http.StatusOK {
		t.Fatalf("/trends: %d\n%s", r.StatusCode, r.body)
	}
	doc := r.doc(t)
	want := countSim(acc, 30, now, time.UTC)
	if want.total == 0 {
		t.Fatal("the simulator made no alert: the test shows nothing")
	}
	if got := strings.TrimSpace(doc.Find("#trend-perday .count").Text()); got != "("+strconv.Itoa(want.total)+")" {
		t.Errorf("the page counts %s alerts; the simulator made %d", got, want.total)
	}
	if n := doc.Find("#table-perday tbody tr").Length(); n != 30 {
		t.Errorf("the table of days has %d rows; want 30", n)
	}
	if doc.Find(`nav a[href="/trends"][aria-current=page]`).Length() != 1 {
		t.Error("the menu does not mark Trends as the current page")
	}
	if svg := doc.Find(`svg[role=img][aria-labelledby^="resolve-title"]`); svg.Length() != 1 || strings.TrimSpace(svg.Find("desc").Text()) == "" {
		t.Error("no chart of the time to resolve labelled, with a description in words")
	}
	// The alerts per day: a strip for all alerts, then one per type, each
	// an image named in words, the figure described.
	strips := doc.Find(`figure.day-strips svg[role=img]`)
	types := doc.Find("#table-perday thead th").Length() - 2
	if strips.Length() != 1+types || !strings.HasPrefix(strips.First().AttrOr("aria-label", ""), "All alerts: "+strconv.Itoa(want.total)+" in all") {
		t.Errorf("%d strips, the first named %q; want all alerts and %d types", strips.Length(), strips.First().AttrOr("aria-label", ""), types)
	}
	if got := doc.Find("figure.day-strips figcaption").Text(); !strings.HasPrefix(got, strconv.Itoa(want.total)+" alerts in 30 days") {
		t.Errorf("the alerts per day in words: %q", got)
	}

	checkPerDay := func(zone *time.Location, want simCounts) {
		t.Helper()
		rows := b.readCSV(t, "/trends.csv?table=perday")
		col := column(t, rows[0])
		if rows[0][0] != "date" || rows[0][1] != "alerts" {
			t.Errorf("perday header %v", rows[0])
		}
		if len(rows) != 31 {
			t.Fatalf("perday has %d rows; want a header and 30 days", len(rows))
		}
		last := now.In(zone).Format(time.DateOnly)
		if got := rows[30][0]; got != last {
			t.Errorf("the last day is %s; want today in %s, %s", got, zone, last)
		}
		for _, row := range rows[1:] {
			day := col(row, "date")
			total := 0
			for _, typ := range rows[0][2:] {
				n, _ := strconv.Atoi(col(row, typ))
				total += n
				if n != want.perDay[day][typ] {
					t.Errorf("%s (%s): %d %s; the simulator made %d", day, zone, n, typ, want.perDay[day][typ])
				}
			}
			if strconv.Itoa(total) != col(row, "alerts") {
				t.Errorf("%s: alerts %s, but its types add up to %d", day, col(row, "alerts"), total)
			}
			for typ, n := range want.perDay[day] {
				if !slices.Contains(rows[0], typ) && n > 0 {
					t.Errorf("%s: no column for %s", day, typ)
				}
			}
		}
	}
	checkPerDay(time.UTC, want)

	// The median time to resolve, per week.
	rows := b.readCSV(t, "/trends.csv?table=resolve")
	if strings.Join(rows[0], ",") != "week_start,week_end,partial,resolved,median_minutes" {
		t.Errorf("resolve header %v", rows[0])
	}
	weeks := 0
	for _, row := range rows[1:] {
		if row[3] != strconv.Itoa(want.resolved[row[0]]) || row[4] != want.medians[row[0]] {
			t.Errorf("week of %s: %s resolved, median %s min; the simulator: %d, %s", row[0], row[3], row[4], want.resolved[row[0]], want.medians[row[0]])
		}
		if want.resolved[row[0]] > 0 {
			weeks++
		}
	}
	if weeks == 0 || weeks != len(want.resolved) {
		t.Errorf("%d weeks with alerts resolved; the simulator resolved alerts in %d", weeks, len(want.resolved))
	}
	if rows[1][2] != "true" || rows[len(rows)-1][2] != "true" || rows[len(rows)-1][1] != now.Format(time.DateOnly) {
		t.Errorf("the first and last weeks %v, %v: want both partial, the last ending today", rows[1], rows[len(rows)-1])
	}

	// The locations and rooms with the most alerts: every one in the CSV,
	// the first ten on the page, linked.
	rows = b.readCSV(t, "/trends.csv?table=locations")
	col := column(t, rows[0])
	if len(rows)-1 != len(want.locations) {
		t.Errorf("the locations CSV has %d rows; %d locations had alerts", len(rows)-1, len(want.locations))
	}
	prev := 1 << 30
	rooms := map[string]int{}
	for i, row := range rows[1:] {
		n, _ := strconv.Atoi(col(row, "alerts"))
		if id := col(row, "location_id"); n != want.locations[id] {
			t.Errorf("location %s: %d alerts; the simulator made %d", id, n, want.locations[id])
		}
		if n > prev || col(row, "rank") != strconv.Itoa(i+1) {
			t.Errorf("row %d (%v) is out of order", i+1, row)
		}
		prev = n
		rooms[want.roomsOf[col(row, "location_id")]] += n
	}
	top := doc.Find("#table-locations tbody tr")
	if top.Length() != min(10, len(want.locations)) {
		t.Errorf("the page lists %d locations; want the first 10", top.Length())
	}
	if href := top.First().Find("a").AttrOr("href", ""); href != "/locations/"+rows[1][1] {
		t.Errorf("the first location links to %q; want /locations/%s", href, rows[1][1])
	}
	if got := top.First().Find("td").Eq(2).Text(); strings.TrimSpace(got) != rows[1][6] {
		t.Errorf("the first location's count %q; the CSV says %s", got, rows[1][6])
	}
	rows = b.readCSV(t, "/trends.csv?table=rooms")
	col = column(t, rows[0])
	if len(rows)-1 != len(rooms) {
		t.Errorf("the rooms CSV has %d rows; %d rooms had alerts", len(rows)-1, len(rooms))
	}
	for _, row := range rows[1:] {
		if n, _ := strconv.Atoi(col(row, "alerts")); n != rooms[col(row, "room_id")] {
			t.Errorf("room %s: %d alerts; its locations had %d", col(row, "room_id"), n, rooms[col(row, "room_id")])
		}
	}
	if href := doc.Find("#table-rooms tbody tr a").First().AttrOr("href", ""); href != "/rooms/"+rows[1][1] {
		t.Errorf("the first room links to %q; want /rooms/%s", href, rows[1][1])
	}

	// In the account's zone (the shift report's), days are New York's.
	page := b.get("/reports/settings")
	m := csrfInput.FindStringSubmatch(page.body)
	if m == nil {
		t.Fatal("no CSRF token on the settings page")
	}
	if r := b.post("/reports/settings", url.Values{"csrf_token": {m[1]}, "shifts": {"Day 07:00-19:00, Night 19:00-07:00"}, "zone": {"America/New_York"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("saving the zone: %d", r.StatusCode)
	}
	ny, _ := time.LoadLocation("America/New_York")
	checkPerDay(ny, countSim(acc, 30, now, ny))
	if got := b.get("/trends").doc(t).Find(".report-facts").Text(); !strings.Contains(got, "America/New_York") {
		t.Errorf("the page does not name the zone: %q", got)
	}
}

// A building's trends count its alerts only; the buildings' add up to the
// account's. Bad parameters are refused, naming the parameter.
func TestTrendsOfABuildingAndBadParameters(t *testing.T) {
	t.Parallel()
	a := newAppOf(t, Config{}, 600)
	b := a.browser()
	b.signIn(credA)
	acc := a.world.Accounts()[0]
	if len(acc.Buildings) < 2 {
		t.Fatal("the simulated account has one building: the test shows nothing")
	}
	// An hour on, the first sync's readings are in the heat maps' window.
	a.clock.Advance(time.Hour)
	a.clock.BlockUntil(1)
	want := countSim(acc, 90, a.clock.Now(), time.UTC)
	all := b.readCSV(t, "/trends.csv?table=locations&period=90")
	sum := 0
	for _, bl := range acc.Buildings {
		doc := b.get("/trends?period=90&building=" + bl.ID).doc(t)
		if got := doc.Find("h1").Text(); !strings.Contains(got, bl.Name) {
			t.Errorf("the trends of %s do not name it: %q", bl.Name, got)
		}
		if doc.Find(`#trends-building option[selected]`).AttrOr("value", "") != bl.ID || doc.Find(`#trends-period option[selected]`).AttrOr("value", "") != "90" {
			t.Errorf("the form does not show the building and period chosen")
		}
		rows := b.readCSV(t, "/trends.csv?table=locations&period=90&building="+url.QueryEscape(bl.ID))
		col := column(t, rows[0])
		for _, row := range rows[1:] {
			if id := col(row, "location_id"); want.buildingOf[id] != bl.ID || col(row, "building") != bl.Name {
				t.Errorf("the trends of %s list location %s, of building %s", bl.Name, id, want.buildingOf[id])
			}
			n, _ := strconv.Atoi(col(row, "alerts"))
			sum += n
		}
		if href := doc.Find(`a[href^="/trends.csv?"]`).First().AttrOr("href", ""); !strings.Contains(href, "building="+url.QueryEscape(bl.ID)) || !strings.Contains(href, "period=90") {
			t.Errorf("the CSV link %q does not keep the building and period", href)
		}
	}
	// Each building has a heat map, after all buildings' together; each
	// links to its building's trends.
	maps := b.get("/trends?period=90").doc(t).Find("figure.heat-map")
	if maps.Length() != 1+len(acc.Buildings) || !strings.Contains(maps.First().Find("h3").Text(), "All buildings") {
		t.Errorf("%d heat maps, the first %q; want all buildings' and each of the %d", maps.Length(), maps.First().Find("h3").Text(), len(acc.Buildings))
	}
	names := map[string]string{} // building names by id
	for _, bl := range acc.Buildings {
		names[bl.ID] = bl.Name
	}
	maps.Slice(1, maps.Length()).Each(func(i int, m *goquery.Selection) {
		a := m.Find("h3 a")
		u, err := url.Parse(a.AttrOr("href", ""))
		if err != nil || u.Path != "/trends" || u.Query().Get("period") != "90" || names[u.Query().Get("building")] != a.Text() {
			t.Errorf("the heat map of %q links to %q; want its building's trends of 90 days", a.Text(), a.AttrOr("href", ""))
		}
	})
	if sum != want.total || len(all)-1 != len(want.locations) {
		t.Errorf("the buildings count %d alerts; the simulator made %d in 90 days (the account's CSV has %d locations of %d)", sum, want.total, len(all)-1, len(want.locations))
	}

	for _, tt := range []struct {
		path   string
		status int
		says   string
	}{
		{"/trends?period=7", http.StatusBadRequest, "The period parameter must be 30 or 90"},
		{"/trends?period=thirty", http.StatusBadRequest, `not &#34;thirty&#34;`},
		{"/trends.csv?table=perday&period=365", http.StatusBadRequest, "The period parameter"},
		{"/trends.csv?table=everything", http.StatusBadRequest, "The table parameter must be one of perday, resolve, locations, rooms, heatmap"},
		{"/trends.csv", http.StatusBadRequest, "The table parameter"},
		{"/trends?building=" + a.world.Accounts()[1].Buildings[0].ID, http.StatusNotFound, "The building parameter names no building of this account"},
		{"/trends.csv?table=rooms&building=nowhere", http.StatusNotFound, "The building parameter names no building of this account: &#34;nowhere&#34;"},
	} {
		r := b.get(tt.path)
		if r.StatusCode != tt.status || !strings.Contains(r.body, tt.says) {
			t.Errorf("%s: %d, want %d saying %q\n%.600s", tt.path, r.StatusCode, tt.status, tt.says, r.body)
		}
	}
}

// writeReadings writes levels of one device as refreshes of the account's
// devices seen at the given times, the others as the cache holds them.
func (a *app) writeReadings(account, mac string, levels []int, at []time.Time) {
	a.t.Helper()
	ctx := context.Background()
	for i, t := range at {
		devices, err := a.store.FindDevices(ctx, store.DeviceFilter{Account: account})
		if err != nil {
			a.t.Fatal(err)
		}
		for j := range devices {
			if devices[j].MAC == mac {
				devices[j].Compartments = []domain.Compartment{{Level: levels[i], Low: levels[i] <= 15, Out: levels[i] == 0}}
			}
		}
		r, err := a.store.BeginDevices(ctx, account)
		if err != nil {
			a.t.Fatal(err)
		}
		r.SeenAt(t)
		if err := r.Write(ctx, devices); err != nil {
			a.t.Fatal(err)
		}
		if _, err := r.Commit(ctx); err != nil {
			a.t.Fatal(err)
		}
	}
}

// The heat map counts a dispenser's use in the hours of its readings: a
// refill is not negative use, a small rise is noise; it averages over the
// hours observed since the first reading, and its CSV has every
// building's hours.
func TestTrendsHeatMap(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	acc := a.world.Accounts()[0]
	ctx := context.Background()
	devices, err := a.store.FindDevices(ctx, store.DeviceFilter{Account: acc.ID})
	if err != nil {
		t.Fatal(err)
	}
	var mac, building string
	for _, d := range devices {
		if len(d.Compartments) == 1 && !d.Offline {
			mac = d.MAC
			for _, l := range acc.Locations {
				if fmt.Sprint(l.ID) == d.LocationID {
					building = l.Room.Floor.Building.ID
				}
			}
			break
		}
	}
	if mac == "" || building == "" {
		t.Fatal("no dispenser of one compartment in a building")
	}
	// The day before the first sync (Wednesday 18 November, 09:30).
	tue := func(hm string) time.Time {
		t, _ := time.Parse("2006-01-02 15:04", "2026-11-17 "+hm)
		return t
	}
	a.writeReadings(acc.ID, mac, []int{50, 40, 43, 41, 38, 90, 80},
		[]time.Time{tue("10:00"), tue("11:00"), tue("11:30"), tue("12:00"), tue("12:15"), tue("13:00"), tue("14:00")})

	rows := b.readCSV(t, "/trends.csv?table=heatmap")
	if strings.Join(rows[0], ",") != "building_id,building,weekday,hour,percent_points,hours_observed,percent_points_per_week" {
		t.Fatalf("heatmap header %v", rows[0])
	}
	if want := len(acc.Buildings) * 7 * 24; len(rows)-1 != want {
		t.Errorf("the heatmap CSV has %d rows; want 168 for each of %d buildings", len(rows)-1, len(acc.Buildings))
	}
	got := map[string]string{}
	for _, row := range rows[1:] {
		if row[0] == building && row[2] == "Tuesday" || row[0] == building && row[2] == "Monday" && row[3] == "10:00" {
			got[row[2]+" "+row[3]] = strings.Join(row[4:], " ")
		} else if row[4] != "0" {
			t.Errorf("use where none was recorded: %v", row)
		}
	}
	for hour, want := range map[string]string{
		"Tuesday 10:00": "0 1 0.00",
		"Tuesday 11:00": "10 1 10.00", // 50 to 40
		"Tuesday 12:00": "2 1 2.00",   // 43 and 41 are noise; 38 is 2 below 40
		"Tuesday 13:00": "0 1 0.00",   // the refill
		"Tuesday 14:00": "10 1 10.00", // 90 to 80
		"Tuesday 09:00": "0 0 0.00",   // before the first reading
		"Monday 10:00":  "0 0 0.00",
	} {
		if got[hour] != want {
			t.Errorf("%s: %q; want %q (points, hours observed, per week)", hour, got[hour], want)
		}
	}

	doc := b.get("/trends").doc(t)
	// One building: its heat map is the account's.
	maps := doc.Find("figure.heat-map")
	if len(acc.Buildings) != 1 || maps.Length() != 1 {
		t.Fatalf("%d heat maps of %d buildings; want the one building's", maps.Length(), len(acc.Buildings))
	}
	first := maps.First()
	if got := strings.TrimSpace(first.Find("h3").Text()); got != acc.Buildings[0].Name {
		t.Errorf("the heat map is titled %q; want the building's name", got)
	}
	cell := func(m *goquery.Selection, day, hour int) string {
		return strings.TrimSpace(m.Find("table tbody tr").Eq(day).Find("td").Eq(hour).Text())
	}
	if cell(first, 1, 11) != "10" || cell(first, 1, 12) != "2" || cell(first, 1, 13) != "0" || cell(first, 0, 10) != "–" {
		t.Errorf("all buildings' Tuesday 11, 12, 13 and Monday 10: %q %q %q %q; want 10, 2, 0 and – (not observed)",
			cell(first, 1, 11), cell(first, 1, 12), cell(first, 1, 13), cell(first, 0, 10))
	}
	if desc := first.Find("svg.heat-wide desc").Text(); !strings.Contains(desc, "by 1 dispenser") || !strings.Contains(desc, "Tuesday 11:00 (10)") {
		t.Errorf("the heat map in words: %q", desc)
	}
	if n := first.Find("svg.heat-wide text.heat-text").Length(); n != 3 {
		t.Errorf("%d cells carry a value; want the three hours with use", n)
	}
	if note := doc.Find("section[aria-labelledby=trend-heat] .report-note").Text(); !strings.Contains(note, "Tue 17 Nov 2026, 10:00 UTC") {
		t.Errorf("the page does not say the levels were recorded from Tuesday 10:00: %q", note)
	}
	bdoc := b.get("/trends?building=" + building).doc(t)
	if m := bdoc.Find("figure.heat-map"); m.Length() != 1 || cell(m, 1, 14) != "10" {
		t.Errorf("the building's page: %d heat maps, Tuesday 14 %q", m.Length(), cell(m, 1, 14))
	}
}
