package web

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/clientreport"
	"washboard/internal/domain"
	"washboard/internal/servicelevel"
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
	month, from, to       string
	problem, problemField string
}

func parseClientQuery(c echo.Context, zone *time.Location, now time.Time) clientQuery {
	q := clientQuery{month: c.QueryParam("month"), from: c.QueryParam("from"), to: c.QueryParam("to")}
	fail := func(field string, err error) clientQuery {
		q.problemField, q.problem = field, fmt.Sprintf("The %s parameter: %s.", field, err)
		return q
	}
	var err error
	switch {
	case q.from != "" || q.to != "":
		if q.from == "" || q.to == "" {
			field := map[bool]string{true: "from", false: "to"}[q.from == ""]
			return fail(field, fmt.Errorf("a range of days needs both its first day (from) and its last (to)"))
		}
		if q.period, err = clientreport.ParseDays(q.from, q.to, zone); err != nil {
			field := "to"
			if _, e := time.Parse(time.DateOnly, q.from); e != nil {
				field = "from"
			}
			return fail(field, err)
		}
	case q.month != "":
		if q.period, err = clientreport.ParseMonth(q.month, zone); err != nil {
			return fail("month", err)
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
	r, err := s.dash.ClientReport(ctx, ss.Account, s.scopeOf(c), q.period)
	if errors.Is(err, domain.ErrNotConnected) {
		return q, nil, zone, &httpkit.Error{Code: http.StatusGone, Err: err,
			Msg: "The account was disconnected while its report was being made: there is no report of it, and what was kept of it is gone."}
	}
	return q, &r, zone, err
}

// scopeWords is who the report covers: all buildings, or those the
// person sees, by name.
func scopeWords(c echo.Context, s *Server, r *clientreport.Report) string {
	return r.ScopeWords(s.scopeOf(c).Limited())
}

// showClientReport answers /reports/client.
func (s *Server) showClientReport(c echo.Context) error {
	now := s.clock.Now()
	q, r, zone, err := s.clientReport(c)
	if err != nil {
		return err
	}
	m := views.ClientReport{Page: s.page(c, "Client report", "reports"), Month: q.month, From: q.from, To: q.to,
		Error: q.problem, ErrorFor: q.problemField, Zone: zone, PrintedAt: now}
	m.Page.Live, m.Page.Still = false, true // a record of a period: it does not change under the reader
	m.Crumbs = []views.Crumb{{Label: "Overview", Href: "/"}, {Label: "Client report"}}
	if r == nil {
		return render(c, http.StatusBadRequest, views.ClientReportPage(m))
	}
	m.Report = clientReportView(*r)
	m.Scope = scopeWords(c, s, r)
	v := q.values().Encode()
	m.CSVHref, m.PDFHref = "/reports/client.csv?"+v, "/reports/client.pdf?"+v
	m.Running = fmt.Sprintf("Client report · %s · %s · %s · printed %s", m.AccountName, m.Scope, r.Period,
		now.In(zone).Format("2 Jan 2006 15:04 MST"))
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
	meta := clientreport.PDF{Account: ss.AccountName, Scope: scopeWords(c, s, r), Zone: zone, Generated: s.clock.Now()}
	if err := r.WritePDF(&buf, meta); err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="client-report-`+q.period.FileDate()+`.pdf"`)
	return c.Blob(http.StatusOK, "application/pdf", buf.Bytes())
}

func badClientQuery(q clientQuery) error {
	return &httpkit.Error{Code: http.StatusBadRequest, Param: q.problemField, Msg: q.problem}
}

// clientReportView is the report's figures in words, for the page.
func clientReportView(r clientreport.Report) *views.ClientReportBody {
	v := &views.ClientReportBody{Period: r.Period.String(), Prior: r.Prior.String(), Set: r.Set, Measured: r.Now.All.Alerts > 0,
		Summary: r.Summary(), Unmeasured: r.Now.Unmeasured}
	row := func(name string, g servicelevel.Group) views.ClientRow {
		return views.ClientRow{Name: name, Alerts: g.Alerts,
			ClaimShare: clientreport.Share(g.Claim), ClaimMedian: clientreport.Time(g.Claim, g.Claim.Median), ClaimP90: clientreport.Time(g.Claim, g.Claim.P90),
			ResolveShare: clientreport.Share(g.Resolve), ResolveMedian: clientreport.Time(g.Resolve, g.Resolve.Median), ResolveP90: clientreport.Time(g.Resolve, g.Resolve.P90)}
	}
	for _, g := range r.Now.ByType {
		v.ByType = append(v.ByType, row(g.Type.Label(), g.Group))
	}
	for _, g := range r.Now.ByBuilding {
		v.ByBuilding = append(v.ByBuilding, row(r.BuildingName(g.Building), g.Group))
	}
	for _, c := range r.Against() {
		v.Against = append(v.Against, views.ClientAgainst{Type: c.Type.Label(), ClaimNow: clientreport.Share(c.Now.Claim),
			ClaimBefore: clientreport.Share(c.Then.Claim), ResolveNow: clientreport.Share(c.Now.Resolve), ResolveBefore: clientreport.Share(c.Then.Resolve)})
	}
	for _, l := range r.Worst {
		v.Worst = append(v.Worst, views.ClientWorst{Place: l.Place(), Building: l.Building, Alerts: l.Alerts, Missed: l.Missed, Longest: l.LongestWords()})
	}
	v.OutSummary, v.ServiceHours = r.OutSummary(), r.Outs.ServiceHours
	if r.Outs.Now.Dispensers > 0 {
		for _, b := range r.Outs.ByBuilding {
			before := clientreport.OutWords(b.Then.Out)
			if b.Then.Dispensers == 0 {
				before = "not known"
			}
			out, in := clientreport.OutWords(b.Now.Out), clientreport.OutWords(b.Now.InService)
			if b.Now.Dispensers == 0 {
				out, in = "not known", "not known"
			}
			v.OutBuildings = append(v.OutBuildings, views.ClientOut{Name: r.BuildingName(b.Building), Dispensers: b.Now.Dispensers,
				Out: out, InService: in, Before: before})
		}
		for _, l := range r.Outs.Worst {
			v.OutWorst = append(v.OutWorst, views.ClientOut{Name: l.Place(), Building: l.BuildingName,
				Out: clientreport.OutWords(l.Out), InService: clientreport.OutWords(l.InService)})
		}
	}
	return v
}
