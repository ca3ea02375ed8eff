package web

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/views"
	"washboard/web/httpkit"
)

// alertsLimit is how many alerts the alerts page lists; the CSV export has
// them all.
const alertsLimit = 500

// alertQuery is the alerts page's filter, read from the URL so that a
// filtered view can be bookmarked.
type alertQuery struct {
	dashboard.AlertsQuery
	scope    domain.BuildingScope // the buildings the person sees
	status   string               // open, closed or all
	from, to string               // as given, yyyy-mm-dd
	within   runsOutOption        // the runs_out parameter; zero for any
}

// at is the query as of now: runs_out counted from now.
func (q alertQuery) at(now time.Time) dashboard.AlertsQuery {
	d := q.AlertsQuery
	if q.within.within > 0 {
		d.RunsOutBy = now.Add(q.within.within)
	}
	return d
}

var alertTypePattern = regexp.MustCompile(`^[a-z0-9_]{1,64}$`)

func (s *Server) parseAlertQuery(c echo.Context, account string) (alertQuery, error) {
	ctx := c.Request().Context()
	q := alertQuery{AlertsQuery: dashboard.AlertsQuery{AlertFilter: dashboard.AlertFilter{Account: account}}, status: "open", scope: s.scopeOf(c)}
	q.BuildingID, q.FloorID, q.RoomID = c.QueryParam("building"), c.QueryParam("floor"), c.QueryParam("room")
	switch kind, err := s.dash.CheckScope(ctx, account, q.scope, dashboard.Scope{Building: q.BuildingID, Floor: q.FloorID, Room: q.RoomID}); {
	case err != nil:
		return q, err
	case kind == "floor":
		return q, httpkit.BadParamSaid(kind, tr(c, "alerts.bad_floor"))
	case kind == "room":
		return q, httpkit.BadParamSaid(kind, tr(c, "alerts.bad_room"))
	case kind != "":
		return q, httpkit.BadParamSaid(kind, tr(c, "alerts.bad_building"))
	}
	if t := c.QueryParam("type"); t != "" {
		if !alertTypePattern.MatchString(t) {
			return q, httpkit.BadParamSaid("type", tr(c, "alerts.bad_type", "value", clipQuoted(t)))
		}
		q.Type = domain.AlertType(t)
	}
	switch st := c.QueryParam("status"); st {
	case "", "open":
		q.Status = domain.AlertOpen
	case "closed":
		q.status, q.Status = st, domain.AlertClosed
	case "all":
		q.status = st
	default:
		return q, httpkit.BadParamSaid("status", tr(c, "alerts.bad_status", "value", clipQuoted(st)))
	}
	if r := c.QueryParam("resolution"); r != "" {
		res := domain.Resolution(strings.ToUpper(r))
		known := false
		for _, k := range domain.Resolutions {
			known = known || k == res
		}
		if !known {
			return q, httpkit.BadParamSaid("resolution", tr(c, "alerts.bad_resolution", "value", clipQuoted(r)))
		}
		q.Resolution = res
		if q.status == "open" {
			q.status, q.Status = "closed", domain.AlertClosed // a resolution implies closed alerts
		}
	}
	var err error
	if q.within, err = parseRunsOut(c); err != nil {
		return q, err
	}
	if q.within.value != "" && q.Status == domain.AlertClosed {
		return q, httpkit.BadParamSaid("runs_out", tr(c, "alerts.bad_runs_out_closed"))
	}
	if q.BySoonestOut, err = parseSortByRunOut(c); err != nil {
		return q, err
	}
	if q.From, q.from, err = s.parseDay(c, "from"); err != nil {
		return q, err
	}
	if q.To, q.to, err = s.parseDay(c, "to"); err != nil {
		return q, err
	}
	if !q.To.IsZero() {
		q.To = q.To.AddDate(0, 0, 1) // to is inclusive
	}
	if !q.From.IsZero() && !q.To.IsZero() && !q.From.Before(q.To) {
		return q, httpkit.BadParamSaid("to", tr(c, "alerts.bad_to", "to", q.to, "from", q.from))
	}
	return q, nil
}

// parseDay reads a yyyy-mm-dd date in the display time zone.
func (s *Server) parseDay(c echo.Context, param string) (time.Time, string, error) {
	v := c.QueryParam(param)
	if v == "" {
		return time.Time{}, "", nil
	}
	t, err := time.ParseInLocation("2006-01-02", v, s.cfg.Zone)
	if err != nil {
		if param == "to" {
			return time.Time{}, "", httpkit.BadParamSaid(param, tr(c, "alerts.bad_date_to", "value", clipQuoted(v)))
		}
		return time.Time{}, "", httpkit.BadParamSaid(param, tr(c, "alerts.bad_date_from", "value", clipQuoted(v)))
	}
	return t, v, nil
}

// clipQuoted is a value a message repeats, clipped and quoted as Go quotes
// it: "teapot".
func clipQuoted(v string) string { return fmt.Sprintf("%q", httpkit.Clip(v)) }

// values gives the filter back as URL parameters.
func (q alertQuery) values() url.Values {
	v := url.Values{}
	set := func(k, val string) {
		if val != "" {
			v.Set(k, val)
		}
	}
	set("building", q.BuildingID)
	set("floor", q.FloorID)
	set("room", q.RoomID)
	set("type", string(q.Type))
	if q.status != "open" {
		set("status", q.status)
	}
	set("resolution", strings.ToLower(string(q.Resolution)))
	set("from", q.from)
	set("to", q.to)
	set("runs_out", q.within.value)
	if q.BySoonestOut {
		v.Set("sort", "runs_out")
	}
	return v
}

func (s *Server) listAlerts(c echo.Context) error {
	ss := sessionOf(c)
	q, err := s.parseAlertQuery(c, ss.Account)
	if err != nil {
		return err
	}
	self := "/alerts"
	if v := q.values(); len(v) > 0 {
		self += "?" + v.Encode()
	}
	return s.servePage(c, self, func(ctx context.Context, now time.Time) (*renderedPage, error) {
		m, err := s.alerts(ctx, q, self, now)
		if err != nil {
			return nil, err
		}
		live, err := renderLive(ctx, views.AlertsContent(m))
		if err != nil {
			return nil, err
		}
		l := i18n.From(ctx)
		return &renderedPage{title: l.T("nav.alerts"), nav: "alerts", crumbs: []views.Crumb{{Label: l.T("nav.overview"), Href: "/"}, {Label: l.T("nav.alerts")}}, live: live}, nil
	})
}

// alerts builds the alerts page's live region for a filter; self is the
// page's URL.
func (s *Server) alerts(ctx context.Context, q alertQuery, self string, now time.Time) (views.Alerts, error) {
	pg, err := s.dash.Alerts(ctx, q.scope, q.at(now), alertsLimit)
	if err != nil {
		return views.Alerts{}, err
	}
	m := views.Alerts{Page: views.Page{Zone: s.cfg.Zone}, Total: pg.Total, Truncated: pg.Total > len(pg.Alerts.Alerts), Self: self,
		Rows: withLevels(withRunsOut(ctx, withClaims(alertRows(pg.Alerts, now), pg.Claims, self), pg.RunsOut, now), pg.Levels), Filter: alertFilterView(ctx, q, pg), RefillTotals: refillTotalsIn(ctx, pg.Refills)}
	m.CSVHref = "/alerts.csv"
	if v := q.values(); len(v) > 0 {
		m.CSVHref += "?" + v.Encode()
	}
	return m, nil
}

func alertFilterView(ctx context.Context, q alertQuery, pg dashboard.AlertsPage) views.AlertFilter {
	l := i18n.From(ctx)
	f := views.AlertFilter{From: q.from, To: q.to, Active: len(q.values()) > 0}
	f.Buildings = []views.Option{{Value: "", Label: l.T("alerts.all_buildings"), Selected: q.BuildingID == ""}}
	for _, b := range pg.Buildings {
		f.Buildings = append(f.Buildings, views.Option{Value: b.ID, Label: b.Name, Selected: b.ID == q.BuildingID})
	}
	f.Floors = []views.Option{{Value: "", Label: l.T("alerts.all_floors"), Selected: q.FloorID == ""}}
	for _, fl := range pg.Floors {
		f.Floors = append(f.Floors, views.Option{Value: fl.ID, Label: fl.Name, Selected: fl.ID == q.FloorID})
	}
	f.Rooms = []views.Option{{Value: "", Label: l.T("alerts.all_rooms"), Selected: q.RoomID == ""}}
	for _, r := range pg.Rooms {
		f.Rooms = append(f.Rooms, views.Option{Value: r.ID, Label: r.Name, Selected: r.ID == q.RoomID})
	}
	f.Types = []views.Option{{Value: "", Label: l.T("format.all_types"), Selected: q.Type == ""}}
	known := false
	// The service's types, then the visitors' reports (docs/visitors.md).
	for _, t := range append(slices.Clip(domain.AlertTypes), domain.AlertVisitor) {
		known = known || t == q.Type
		f.Types = append(f.Types, views.Option{Value: string(t), Label: views.AlertTypeName(ctx, t), Selected: t == q.Type})
	}
	if q.Type != "" && !known {
		f.Types = append(f.Types, views.Option{Value: string(q.Type), Label: q.Type.Label(), Selected: true})
	}
	for _, st := range []struct{ v, l string }{{"open", l.T("format.status_open")}, {"closed", l.T("format.status_closed")}, {"all", l.T("alerts.status_both")}} {
		f.Statuses = append(f.Statuses, views.Option{Value: st.v, Label: st.l, Selected: st.v == q.status})
	}
	f.RunsOut = runsOutOptions(ctx, q.within)
	f.Sorts = sortOptions(ctx, l.T("alerts.sort_default"), q.BySoonestOut)
	f.Resolutions = []views.Option{{Value: "", Label: l.T("alerts.any_resolution"), Selected: q.Resolution == ""}}
	for _, r := range domain.Resolutions {
		f.Resolutions = append(f.Resolutions, views.Option{Value: strings.ToLower(string(r)), Label: views.ResolutionName(ctx, r), Selected: r == q.Resolution})
	}
	return f
}

// refillTotalsIn is refillTotals with their words (RefillItem.Words) in
// the language of ctx.
func refillTotalsIn(ctx context.Context, refills []dashboard.FloorRefill) []views.RefillTotal {
	var out []views.RefillTotal
	for _, r := range refills {
		t := views.RefillTotal{Building: r.Building, Floor: r.Floor}
		for _, it := range r.Items {
			noun := domain.DeviceType(it.Kind).RefillNoun(it.Count)
			words := views.RefillCount(ctx, domain.DeviceType(it.Kind), it.Count)
			if it.Kind == dashboard.RefillBattery {
				noun = "battery sets"
				if it.Count == 1 {
					noun = "battery set"
				}
				words = views.BatterySets(ctx, it.Count)
			}
			t.Items = append(t.Items, views.RefillItem{Count: it.Count, Noun: noun, Words: words})
		}
		out = append(out, t)
	}
	return out
}
