package web

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/rounds"
	"washboard/internal/trends"
	"washboard/views"
	"washboard/web/httpkit"
)

// trendPeriods are the periods the trends page offers, in days; the first
// is the default.
var trendPeriods = []int{30, 90}

// The most rows of the top lists, and the most buildings' heat maps, the
// page shows; their CSVs have them all.
const (
	trendsTop      = 10
	trendsHeatMaps = 12
)

// trendTables are the tables of the trends page that download as CSV.
var trendTables = []string{"perday", "resolve", "locations", "rooms", "heatmap"}

// trendsQuery is the trends' period and scope, read from the URL.
type trendsQuery struct {
	days      int
	every     time.Duration
	building  domain.Building // zero for the whole account
	buildings []domain.Building
}

// parseTrendsQuery reads period (30 or 90, by default 30) and building
// (none for the whole account).
func (s *Server) parseTrendsQuery(c echo.Context, account string) (trendsQuery, error) {
	q := trendsQuery{days: trendPeriods[0]}
	if v := c.QueryParam("period"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || !slices.Contains(trendPeriods, n) {
			return q, &httpkit.Error{Code: http.StatusBadRequest, Param: "period", Msg: tr(c, "trends.problem_period", "value", fmt.Sprintf("%q", httpkit.Clip(v)))}
		}
		q.days = n
	}
	var problem string
	if q.every, problem = parseEvery(c); problem != "" {
		return q, &httpkit.Error{Code: http.StatusBadRequest, Param: "every", Msg: problem}
	}
	var err error
	if q.buildings, err = s.dash.Buildings(c.Request().Context(), account, s.scopeOf(c)); err != nil {
		return q, err
	}
	if id := c.QueryParam("building"); id != "" {
		for _, b := range q.buildings {
			if b.ID == id {
				q.building = b
			}
		}
		if q.building.ID == "" {
			return q, &httpkit.Error{Code: http.StatusNotFound, Param: "building",
				Msg: tr(c, "trends.problem_building", "value", fmt.Sprintf("%q", httpkit.Clip(id)))}
		}
	}
	return q, nil
}

// values are the query's canonical parameters, for links.
func (q trendsQuery) values() url.Values {
	v := url.Values{}
	v.Set("period", strconv.Itoa(q.days))
	if q.building.ID != "" {
		v.Set("building", q.building.ID)
	}
	if q.every != 0 && q.every != rounds.DefaultEvery {
		v.Set("every", strconv.Itoa(int(q.every/time.Hour)))
	}
	return v
}

// trends reads the trends of the query, in the account's zone (the shift
// report's).
func (s *Server) trends(c echo.Context, account string, q trendsQuery) (dashboard.Trends, error) {
	ctx := c.Request().Context()
	_, zone, err := s.reportSettings(ctx, account)
	if err != nil {
		return dashboard.Trends{}, err
	}
	return s.dash.Trends(ctx, account, s.scopeOf(c), q.building.ID, q.days, zone)
}

// showTrends answers /trends.
func (s *Server) showTrends(c echo.Context) error {
	ss := sessionOf(c)
	q, err := s.parseTrendsQuery(c, ss.Account)
	if err != nil {
		return err
	}
	t, err := s.trends(c, ss.Account, q)
	if err != nil {
		return err
	}
	m := views.TrendsPage{Page: s.page(c, tr(c, "trends.title"), "trends"), Days: q.days, Zone: t.Period.Zone, Period: t.Period,
		Alerts: t.Alerts, Computed: t.Computed, HeatComputed: t.HeatComputed, Gaps: trendGaps(c, t.Gaps, t.Period.Zone), Top: trendsTop,
		KeptFor: dashboard.TrendsKeptFor}
	m.Page.Live, m.Page.Still = false, true // figures computed at most a few minutes ago, not pushed
	m.Page.Zone = t.Period.Zone
	m.Crumbs = []views.Crumb{{Label: tr(c, "report.crumb_overview"), Href: "/"}, {Label: tr(c, "trends.title")}}
	m.Scope = tr(c, "report.whole_account")
	if q.building.ID != "" {
		m.Scope = q.building.Name
	}
	for _, d := range trendPeriods {
		m.Periods = append(m.Periods, views.Option{Value: strconv.Itoa(d), Label: tr(c, "trends.last_days", "days", strconv.Itoa(d)), Selected: d == q.days})
	}
	m.Buildings = []views.Option{{Value: "", Label: tr(c, "report.whole_account"), Selected: q.building.ID == ""}}
	for _, b := range q.buildings {
		m.Buildings = append(m.Buildings, views.Option{Value: b.ID, Label: b.Name, Selected: b.ID == q.building.ID})
	}
	m.LocationsTied, m.RoomsTied = trends.Tied(t.Locations, trendsTop), trends.Tied(t.Rooms, trendsTop)
	ratingScope := s.scopeOf(c)
	if q.building.ID != "" {
		ratingScope = domain.OnlyBuildings(q.building.ID)
	}
	rt, err := s.dash.RatingTrends(c.Request().Context(), ss.Account, ratingScope, t.Period.Start, t.Period.End, t.Period.Zone)
	if err != nil {
		return err
	}
	m.Ratings = views.Ratings{Count: rt.Count, Average: rt.Average, Zone: t.Period.Zone}
	for _, w := range rt.Weeks {
		m.Ratings.Weeks = append(m.Ratings.Weeks, views.RatingWeek{Week: w.Week, Count: w.Count, Average: w.Average})
	}
	for _, r := range rt.Lowest {
		m.Ratings.Lowest = append(m.Ratings.Lowest, views.RatedRoom{Room: r.Room, Where: joinNonEmpty(" › ", r.Building, r.Floor), Href: "/rooms/" + url.PathEscape(r.RoomID),
			Count: r.Count, Average: r.Average})
	}

	// The heat maps: the scope's; at the account's, also each building's,
	// the first trendsHeatMaps by name.
	if q.building.ID != "" {
		m.HeatMaps = []views.HeatMap{{Title: q.building.Name, Heat: t.Heat}}
	} else {
		m.HeatMaps = []views.HeatMap{{Title: tr(c, "client.all_buildings"), Heat: t.Heat}}
		for i, b := range t.Buildings {
			if i == trendsHeatMaps {
				m.MoreHeatMaps = len(t.Buildings) - i
				break
			}
			v := q.values()
			v.Set("building", b.Building.ID)
			m.HeatMaps = append(m.HeatMaps, views.HeatMap{Title: b.Building.Name, Heat: b.Heat, Href: "/trends?" + v.Encode()})
		}
		if len(t.Buildings) == 1 {
			m.HeatMaps = m.HeatMaps[1:] // the building is the account
		}
	}
	m.Heat = t.Heat
	m.CSV = map[string]string{}
	for _, table := range trendTables {
		v := q.values()
		v.Set("table", table)
		m.CSV[table] = "/trends.csv?" + v.Encode()
	}
	l, zone, now := i18n.From(c.Request().Context()), t.Period.Zone, s.clock.Now()
	ctx := c.Request().Context()
	checks, err := s.dash.TrendChecks(ctx, ss.Account, s.scopeOf(c), q.building.ID, q.days, t.Period.Zone, t.Period.Start, t.Period.End, q.every)
	if err != nil {
		return err
	}
	m.Every, m.Checks = int(q.every/time.Hour), checksView(l, checks)
	m.Running = tr(c, "trends.running", "scope", m.Scope, "days", strconv.Itoa(q.days),
		"end", l.DateTime(t.Period.End, zone)+" "+t.Period.End.In(zone).Format("MST"), "printed", l.DateTime(now, zone)+" "+now.In(zone).Format("MST"))
	return render(c, http.StatusOK, views.TrendsPageView(m))
}

// exportTrends answers /trends.csv: one of the page's tables, with every
// row (every location and room with alerts, every building's heat map),
// for the same parameters as the page.
func (s *Server) exportTrends(c echo.Context) error {
	ss := sessionOf(c)
	table := c.QueryParam("table")
	if !slices.Contains(trendTables, table) {
		return httpkit.BadParam("table", "must be one of %s, not %q", strings.Join(trendTables, ", "), httpkit.Clip(table))
	}
	q, err := s.parseTrendsQuery(c, ss.Account)
	if err != nil {
		return err
	}
	t, err := s.trends(c, ss.Account, q)
	if err != nil {
		return err
	}
	name := fmt.Sprintf("trends-%s-%dd", table, q.days)
	if q.building.ID != "" {
		name += "-" + slug(q.building.ID)
	}
	w := csvResponse(c, name+".csv")
	types := make([]string, len(t.Types))
	for i, ty := range t.Types {
		types[i] = string(ty)
	}
	counts := func(byType []int) []string {
		out := make([]string, len(byType))
		for i, n := range byType {
			out[i] = strconv.Itoa(n)
		}
		return out
	}
	date := func(at time.Time) string { return at.In(t.Period.Zone).Format(time.DateOnly) }
	switch table {
	case "perday":
		w.Write(cells(append([]string{"date", "alerts"}, types...)...))
		for _, d := range t.Days {
			w.Write(append([]string{date(d.Start), strconv.Itoa(d.Total)}, counts(d.ByType)...))
		}
	case "resolve":
		w.Write([]string{"week_start", "week_end", "partial", "resolved", "median_minutes"})
		for _, wk := range t.Weeks {
			median := ""
			if wk.Resolved > 0 {
				median = strconv.Itoa(int(wk.Median / time.Minute))
			}
			// The end is the last day in the week, or the period's end
			// (today) when it is partial.
			w.Write([]string{date(wk.Start), date(wk.End.Add(-time.Nanosecond)), strconv.FormatBool(wk.Partial), strconv.Itoa(wk.Resolved), median})
		}
	case "locations", "rooms":
		rows := t.Locations
		header := []string{"rank", "location_id", "building", "floor", "room", "location", "alerts"}
		if table == "rooms" {
			rows = t.Rooms
			header = []string{"rank", "room_id", "building", "floor", "room", "alerts"}
		}
		w.Write(cells(append(header, types...)...))
		for i, r := range rows {
			p := r.Place
			cols := []string{strconv.Itoa(i + 1), r.ID, p.Building, p.Floor, p.Room}
			if table == "locations" {
				cols = append(cols, p.Location)
			}
			w.Write(cells(append(append(cols, strconv.Itoa(r.Alerts)), counts(r.ByType)...)...))
		}
	case "heatmap":
		w.Write([]string{"building_id", "building", "weekday", "hour", "percent_points", "hours_observed", "percent_points_per_week"})
		write := func(id, name string, h trends.Heat) {
			for d := range h.Used {
				for hr := range h.Used[d] {
					w.Write(cells(id, name, trends.Weekdays[d], fmt.Sprintf("%02d:00", hr), strconv.Itoa(h.Used[d][hr]), strconv.Itoa(h.Hours[d][hr]),
						strconv.FormatFloat(h.PerWeek(d, hr), 'f', 2, 64)))
				}
			}
		}
		for _, b := range t.Buildings {
			write(b.Building.ID, b.Building.Name, b.Heat)
		}
	}
	w.Flush()
	return w.Error()
}

// trendGaps says in words what the trends' figures may miss.
func trendGaps(c echo.Context, gaps []dashboard.TrendGap, zone *time.Location) []string {
	l := i18n.From(c.Request().Context())
	out := make([]string, 0, len(gaps))
	for _, g := range gaps {
		at := l.DateTime(g.At, zone)
		switch g.Kind {
		case dashboard.GapTooManyAlerts:
			out = append(out, tr(c, "trends.gap_too_many", "max", l.Number(g.N)))
		case dashboard.GapHistory:
			out = append(out, tr(c, "trends.gap_history", "days", l.Number(g.N), "since", at))
		case dashboard.GapLookback:
			out = append(out, tr(c, "trends.gap_lookback", "days", l.Number(g.N), "since", at))
		}
	}
	return out
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// slug makes an id fit a file name.
func slug(id string) string {
	s := unsafeName.ReplaceAllString(id, "-")
	if len(s) > 40 {
		s = s[:40]
	}
	return s
}
