package web

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/clientreport"
	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/rounds"
	"washboard/internal/servicelevel"
	"washboard/internal/servicerecord"
	"washboard/views"
	"washboard/web/httpkit"
)

// The client report, at /reports/client and as CSV and PDF: how the
// account kept to its service levels over a month or a range of days
// (docs/service-levels.md#the-client-report).

// clientQuery is the client report's period read from the URL: month, or
// from and to (days, both included); without them, the month before the
// current one, in the report's zone.
type clientQuery struct {
	period                clientreport.Period
	every                 time.Duration
	month, from, to       string
	problem, problemField string
}

func parseClientQuery(c echo.Context, zone *time.Location, now time.Time) clientQuery {
	q := clientQuery{month: c.QueryParam("month"), from: c.QueryParam("from"), to: c.QueryParam("to")}
	fail := func(field, problem string) clientQuery {
		q.problemField, q.problem = field, tr(c, "client.bad_param", "param", field, "problem", problem)
		return q
	}
	var problem string
	if q.every, problem = parseEvery(c); problem != "" {
		return fail("every", problem)
	}
	var err error
	switch {
	case q.from != "" || q.to != "":
		if q.from == "" || q.to == "" {
			field := map[bool]string{true: "from", false: "to"}[q.from == ""]
			return fail(field, tr(c, "client.range_needs_both"))
		}
		if q.period, err = clientreport.ParseDays(q.from, q.to, zone); err != nil {
			field := "to"
			if _, e := time.Parse(time.DateOnly, q.from); e != nil {
				field = "from"
			}
			return fail(field, clientRangeProblem(c, field, q.from, q.to))
		}
	case q.month != "":
		if q.period, err = clientreport.ParseMonth(q.month, zone); err != nil {
			return fail("month", tr(c, "client.not_a_month", "value", fmt.Sprintf("%q", httpkit.Clip(q.month))))
		}
	default:
		q.period = clientreport.MonthOf(clientreport.MonthOf(now, zone).From.AddDate(0, 0, -1), zone)
		q.month = q.period.From.Format("2006-01")
	}
	return q
}

// values are the query's parameters, for the CSV and PDF links.
func (q clientQuery) values() url.Values {
	v := url.Values{}
	if q.period.Month {
		v.Set("month", q.period.From.Format("2006-01"))
	} else {
		v.Set("from", q.from)
		v.Set("to", q.to)
	}
	if q.every != rounds.DefaultEvery {
		v.Set("every", strconv.Itoa(int(q.every/time.Hour)))
	}
	return v
}

// clientReport reads the query and builds the report; a query that names
// no period is a 400 naming the parameter at fault.
func (s *Server) clientReport(c echo.Context) (clientQuery, *clientreport.Report, *time.Location, error) {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	zone, err := s.dash.ClientReportZone(ctx, ss.Account, s.defaultZone())
	if err != nil {
		return clientQuery{}, nil, nil, err
	}
	q := parseClientQuery(c, zone, s.clock.Now())
	if q.problem != "" {
		return q, nil, zone, nil
	}
	r, err := s.dash.ClientReport(ctx, ss.Account, s.scopeOf(c), q.period, q.every)
	if errors.Is(err, domain.ErrNotConnected) {
		return q, nil, zone, &httpkit.Error{Code: http.StatusGone, Err: err,
			Msg: tr(c, "client.disconnected")}
	}
	return q, &r, zone, err
}

// scopeWords is who the report covers: all buildings, or those the
// person sees, by name.
func scopeWords(c echo.Context, s *Server, r *clientreport.Report) string {
	return r.ScopeWords(i18n.From(c.Request().Context()), s.scopeOf(c).Limited())
}

// showClientReport answers /reports/client.
func (s *Server) showClientReport(c echo.Context) error {
	now := s.clock.Now()
	q, r, zone, err := s.clientReport(c)
	if err != nil {
		return err
	}
	l := i18n.From(c.Request().Context())
	m := views.ClientReport{Page: s.page(c, tr(c, "client.title"), "reports"), Month: q.month, From: q.from, To: q.to,
		Error: q.problem, ErrorFor: q.problemField, Zone: zone, PrintedAt: now, Every: int(q.every / time.Hour)}
	m.Page.Live, m.Page.Still = false, true // a record of a period: it does not change under the reader
	m.Crumbs = []views.Crumb{{Label: tr(c, "report.crumb_overview"), Href: "/"}, {Label: tr(c, "client.title")}}
	if r == nil {
		return render(c, http.StatusBadRequest, views.ClientReportPage(m))
	}
	m.Report = clientReportView(l, *r)
	m.Scope = scopeWords(c, s, r)
	v := q.values().Encode()
	m.CSVHref, m.PDFHref = "/reports/client.csv?"+v, "/reports/client.pdf?"+v
	m.Running = tr(c, "client.running", "account", m.AccountName, "scope", m.Scope, "period", r.Period.In(l),
		"printed", l.DateTime(now, zone)+" "+now.In(zone).Format("MST"))
	return render(c, http.StatusOK, views.ClientReportPage(m))
}

// exportClientReport answers /reports/client.csv: one row per building
// and alert type measured.
func (s *Server) exportClientReport(c echo.Context) error {
	q, r, _, err := s.clientReport(c)
	if err != nil {
		return err
	}
	if r == nil {
		return badClientQuery(q)
	}
	w := csvResponse(c, "client-report-"+q.period.FileDate()+".csv")
	w.Write(clientreport.CSVHeader)
	for _, row := range r.CSVRows() {
		w.Write(cells(row...))
	}
	w.Flush()
	return w.Error()
}

// printClientReport answers /reports/client.pdf: the report as an A4 PDF.
func (s *Server) printClientReport(c echo.Context) error {
	q, r, zone, err := s.clientReport(c)
	if err != nil {
		return err
	}
	if r == nil {
		return badClientQuery(q)
	}
	ss := sessionOf(c)
	var buf bytes.Buffer
	meta := clientreport.PDF{Account: ss.AccountName, Scope: scopeWords(c, s, r), Zone: zone, Generated: s.clock.Now(),
		Words: i18n.From(c.Request().Context())}
	if err := r.WritePDF(&buf, meta); err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="client-report-`+q.period.FileDate()+`.pdf"`)
	return c.Blob(http.StatusOK, "application/pdf", buf.Bytes())
}

func badClientQuery(q clientQuery) error {
	return &httpkit.Error{Code: http.StatusBadRequest, Param: q.problemField, Msg: q.problem}
}

// clientRangeProblem says what is wrong with a range of days: the day
// at fault is not a date, or the range is backwards or too long.
func clientRangeProblem(c echo.Context, field, from, to string) string {
	_, errFrom := time.Parse(time.DateOnly, from)
	_, errTo := time.Parse(time.DateOnly, to)
	switch {
	case field == "from" && errFrom != nil:
		return tr(c, "client.not_a_date", "value", fmt.Sprintf("%q", httpkit.Clip(from)), "example", "2026-11-01")
	case errTo != nil:
		return tr(c, "client.not_a_date", "value", fmt.Sprintf("%q", httpkit.Clip(to)), "example", "2026-11-30")
	case to < from:
		return tr(c, "client.range_backwards", "from", from, "to", to)
	}
	return tr(c, "client.range_too_long", "days", strconv.Itoa(clientreport.MaxDays))
}

// clientReportView is the report's figures in words of l's language, for
// the page.
func clientReportView(l *i18n.Localizer, r clientreport.Report) *views.ClientReportBody {
	v := &views.ClientReportBody{Period: r.Period.In(l), Prior: r.Prior.In(l), Set: r.Set, Measured: r.Now.All.Alerts > 0,
		Summary: r.Summary(l), Unmeasured: r.Now.Unmeasured}
	row := func(name string, g servicelevel.Group) views.ClientRow {
		return views.ClientRow{Name: name, Alerts: g.Alerts,
			ClaimShare: clientreport.Share(l, g.Claim), ClaimMedian: clientreport.Time(l, g.Claim, g.Claim.Median), ClaimP90: clientreport.Time(l, g.Claim, g.Claim.P90),
			ResolveShare: clientreport.Share(l, g.Resolve), ResolveMedian: clientreport.Time(l, g.Resolve, g.Resolve.Median), ResolveP90: clientreport.Time(l, g.Resolve, g.Resolve.P90)}
	}
	for _, g := range r.Now.ByType {
		v.ByType = append(v.ByType, row(clientreport.AlertType(l, g.Type), g.Group))
	}
	for _, g := range r.Now.ByBuilding {
		v.ByBuilding = append(v.ByBuilding, row(r.BuildingNameIn(l, g.Building), g.Group))
	}
	for _, c := range r.Against() {
		v.Against = append(v.Against, views.ClientAgainst{Type: clientreport.AlertType(l, c.Type), ClaimNow: clientreport.Share(l, c.Now.Claim),
			ClaimBefore: clientreport.Share(l, c.Then.Claim), ResolveNow: clientreport.Share(l, c.Now.Resolve), ResolveBefore: clientreport.Share(l, c.Then.Resolve)})
	}
	for _, w := range r.Worst {
		v.Worst = append(v.Worst, views.ClientWorst{Place: w.Place(l), Building: r.BuildingNameIn(l, w.Location.Building), Alerts: w.Alerts, Missed: w.Missed,
			Longest: w.LongestWords(l)})
	}
	v.OutSummary, v.ServiceHours = r.OutSummary(l), r.Outs.ServiceHours
	if r.Outs.Now.Dispensers > 0 {
		unknown := l.T("client.not_known")
		for _, b := range r.Outs.ByBuilding {
			before := clientreport.OutWords(l, b.Then.Out)
			if b.Then.Dispensers == 0 {
				before = unknown
			}
			out, in := clientreport.OutWords(l, b.Now.Out), clientreport.OutWords(l, b.Now.InService)
			if b.Now.Dispensers == 0 {
				out, in = unknown, unknown
			}
			v.OutBuildings = append(v.OutBuildings, views.ClientOut{Name: r.BuildingNameIn(l, b.Building), Dispensers: b.Now.Dispensers,
				Out: out, InService: in, Before: before})
		}
		for _, w := range r.Outs.Worst {
			v.OutWorst = append(v.OutWorst, views.ClientOut{Name: w.Place(l), Building: r.BuildingNameIn(l, w.Building),
				Out: clientreport.OutWords(l, w.Out), InService: clientreport.OutWords(l, w.InService)})
		}
	}
	g := r.Ratings
	v.Ratings = views.Ratings{Count: g.Count, Average: g.Average}
	for _, b := range g.ByBuilding {
		v.Ratings.Buildings = append(v.Ratings.Buildings, views.RatedRoom{Room: r.BuildingNameIn(l, b.Building), Count: b.Count, Average: b.Average})
	}
	for _, room := range g.Lowest {
		v.Ratings.Lowest = append(v.Ratings.Lowest, views.RatedRoom{Room: room.Room, Where: joinNonEmpty(" › ", room.Building, room.Floor),
			Count: room.Count, Average: room.Average})
	}
	v.Service = clientServiceView(l, r)
	if r.Checks.Read {
		checks := checksView(l, r.Checks)
		v.Checks = &checks
	}
	return v
}

// clientServiceView is the report's service record section in words of
// l's language; nil when it was not read.
func clientServiceView(l *i18n.Localizer, r clientreport.Report) *views.ClientService {
	if !r.Service.Read {
		return nil
	}
	v := &views.ClientService{Summary: r.ServiceSummary(l)}
	for _, b := range r.Service.ByBuilding {
		v.Buildings = append(v.Buildings, views.ClientServiceRow{Name: r.BuildingNameIn(l, b.Building), Visits: b.Visits,
			Rooms: l.T("servicerecord.client_of", "visited", l.Number(b.RoomsVisited), "rooms", l.Number(b.Rooms))})
	}
	for _, room := range r.Service.Least {
		v.Least = append(v.Least, views.ClientServiceRow{Name: room.Place(), Building: room.BuildingName, Visits: room.Visits,
			Last: room.LastVisitWords(l, r.Period.From.Location())})
	}
	if servicerecord.CheckPeriod(r.Period.From, r.Period.To) == nil {
		v.CSVHref = "/reports/service.csv?" + url.Values{"from": {r.Period.From.Format(time.DateOnly)}, "to": {r.Period.Last().Format(time.DateOnly)}}.Encode()
	}
	return v
}
