package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/report"
	"washboard/views"
	"washboard/web/httpkit"
)

// reportSettings returns the account's shifts and their time zone, or the
// defaults: three 8-hour shifts in the server's zone.
func (s *Server) reportSettings(ctx context.Context, account string) (report.Shifts, *time.Location, error) {
	return s.dash.ReportSettings(ctx, account, s.cfg.Zone)
}

// reportQuery is a report's period and scope, read from the URL.
type reportQuery struct {
	period   report.Period
	building domain.Building // zero for the whole account
	form     views.ReportForm
	values   url.Values // the canonical parameters, for links
}

// customLayout is the format of the custom range's ends (an HTML
// datetime-local value), in the report's zone.
const customLayout = "2006-01-02T15:04"

// parseReportQuery reads date, shift, building, from and to. Without them
// the report is of the shift that ended last. A value that names nothing
// gives the form back with a message and the values as typed.
func (s *Server) parseReportQuery(c echo.Context, account string, shifts report.Shifts, zone *time.Location, now time.Time) (reportQuery, error) {
	ctx := c.Request().Context()
	q := reportQuery{values: url.Values{}}
	f := &q.form
	buildingID := c.QueryParam("building")
	buildings, err := s.dash.Buildings(ctx, account, s.scopeOf(c))
	if err != nil {
		return q, err
	}
	f.Buildings = []views.Option{{Value: "", Label: tr(c, "report.whole_account"), Selected: buildingID == ""}}
	for _, b := range buildings {
		f.Buildings = append(f.Buildings, views.Option{Value: b.ID, Label: b.Name, Selected: b.ID == buildingID})
		if b.ID == buildingID {
			q.building = b
		}
	}
	if buildingID != "" && q.building.ID == "" {
		_ = parseReportPeriod(c, shifts, zone, now, &q) // the form keeps the period as typed; the building is the fault
		f.Error, f.ErrorFor = tr(c, "report.problem_building"), "building"
		return q, errReportForm
	}
	if err := parseReportPeriod(c, shifts, zone, now, &q); err != nil {
		return q, err
	}
	if q.building.ID != "" {
		q.values.Set("building", q.building.ID)
	}
	return q, nil
}

// parseReportPeriod reads date, shift, from and to into q: its period, the
// form's values and the canonical parameters. A value that names nothing
// sets the form's message and answers errReportForm.
func parseReportPeriod(c echo.Context, shifts report.Shifts, zone *time.Location, now time.Time, q *reportQuery) error {
	f := &q.form
	f.Date, f.From, f.To = c.QueryParam("date"), c.QueryParam("from"), c.QueryParam("to")
	shiftName := c.QueryParam("shift")
	fail := func(field, msg string) error {
		f.Error, f.ErrorFor = msg, field
		f.Shifts = shiftOptions(shifts, shiftName)
		return errReportForm
	}
	switch {
	case f.From != "" || f.To != "":
		f.Custom = true
		if f.From == "" || f.To == "" {
			return fail(map[bool]string{true: "from", false: "to"}[f.From == ""], tr(c, "report.problem_range_both"))
		}
		start, err := time.ParseInLocation(customLayout, f.From, zone)
		if err != nil {
			return fail("from", tr(c, "report.problem_start", "value", fmt.Sprintf("%q", httpkit.Clip(f.From))))
		}
		end, err := time.ParseInLocation(customLayout, f.To, zone)
		if err != nil {
			return fail("to", tr(c, "report.problem_end", "value", fmt.Sprintf("%q", httpkit.Clip(f.To))))
		}
		if q.period, err = report.Custom(start, end); err != nil {
			return fail("to", customRangeProblem(c, start, end))
		}
		q.values.Set("from", f.From)
		q.values.Set("to", f.To)
	default:
		last := shifts.LastEnded(now, zone)
		date := last.Date
		if f.Date != "" {
			var err error
			if date, err = report.ParseDate(f.Date); err != nil {
				return fail("date", tr(c, "report.problem_date", "value", fmt.Sprintf("%q", httpkit.Clip(f.Date))))
			}
		}
		name := shiftName
		if name == "" {
			name = last.Shift
		}
		i, ok := shifts.Find(name)
		if !ok {
			return fail("shift", tr(c, "report.problem_shift", "name", fmt.Sprintf("%q", httpkit.Clip(name)), "shifts", shifts.String()))
		}
		q.period = shifts.On(date, i, zone)
		f.Date = date.String()
		shiftName = name
		q.values.Set("date", f.Date)
		q.values.Set("shift", name)
	}
	f.Shifts = shiftOptions(shifts, shiftName)
	return nil
}

// errReportForm says the report form's values name no report; the form
// says why.
var errReportForm = errors.New("the report form's values name no report")

func shiftOptions(shifts report.Shifts, selected string) []views.Option {
	opts := make([]views.Option, len(shifts))
	for i, sh := range shifts {
		opts[i] = views.Option{Value: sh.Name, Label: sh.String(), Selected: sh.Name == selected}
	}
	return opts
}

// showReports answers /reports: its one report is the shift report.
func showReports(c echo.Context) error { return c.Redirect(http.StatusSeeOther, "/reports/shift") }

// showShiftReport answers /reports/shift.
func (s *Server) showShiftReport(c echo.Context) error {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	now := s.clock.Now()
	shifts, zone, err := s.reportSettings(ctx, ss.Account)
	if err != nil {
		return err
	}
	m := views.ShiftReport{Page: s.page(c, tr(c, "report.title"), "reports"), Zone: zone, PrintedAt: now}
	m.Page.Live, m.Page.Still = false, true // a report is a record of a period: it does not change under the reader
	m.Crumbs = []views.Crumb{{Label: tr(c, "report.crumb_overview"), Href: "/"}, {Label: tr(c, "report.title")}}
	q, err := s.parseReportQuery(c, ss.Account, shifts, zone, now)
	m.Form = q.form
	if errors.Is(err, errReportForm) {
		return render(c, http.StatusBadRequest, views.ShiftReportPage(m))
	}
	if err != nil {
		return err
	}
	built, err := s.dash.Report(ctx, ss.Account, s.scopeOf(c), ss.Cred, q.building.ID, q.period, now)
	if err != nil {
		return err
	}
	m.Report = &built.Report
	m.Sources, m.Gaps, m.AsOf = built.Sources, built.Gaps, built.AsOf
	m.InProgress = q.period.End.After(now)
	m.Scope = tr(c, "report.whole_account")
	if q.building.ID != "" {
		m.Scope = q.building.Name
	}
	if prev, ok := shifts.Previous(q.period); ok && q.period.Shift != "" {
		m.PrevHref = shiftHref(prev, q.building.ID)
	}
	if next, ok := shifts.Next(q.period); ok && q.period.Shift != "" && !next.Start.After(now) {
		m.NextHref = shiftHref(next, q.building.ID)
	}
	for _, t := range report.CSVTables() {
		v := url.Values{}
		for k, vs := range q.values {
			v[k] = vs
		}
		v.Set("table", t.Name)
		m.CSV = append(m.CSV, views.ReportCSV{Table: t.Name, Label: csvTableLabel(c, t), Href: "/reports/shift.csv?" + v.Encode()})
	}
	if m.Plans, err = s.reportPlans(c, ss.Account, built.Report.StillOpen); err != nil {
		return err
	}
	m.Running = runningHeader(c, m, zone)
	return render(c, http.StatusOK, views.ShiftReportPage(m))
}

// runningHeader is the line at the top of every printed page.
func runningHeader(c echo.Context, m views.ShiftReport, zone *time.Location) string {
	p := m.Report.Period
	l := i18n.From(c.Request().Context())
	name := tr(c, "report.title")
	if p.Shift != "" {
		name += " · " + tr(c, "report.shift_named", "name", p.Shift)
	}
	at := func(t time.Time) string { return l.DateTime(t, zone) }
	return tr(c, "report.running", "report", name, "scope", m.Scope, "start", at(p.Start), "end", at(p.End)+" "+p.End.In(zone).Format("MST"),
		"printed", at(m.PrintedAt)+" "+m.PrintedAt.In(zone).Format("MST"))
}

// customRangeProblem says why a custom range is no period: it ends
// before it starts, or is longer than a report covers.
func customRangeProblem(c echo.Context, start, end time.Time) string {
	if !end.After(start) {
		return tr(c, "report.problem_range_backwards")
	}
	return tr(c, "report.problem_range_long", "days", strconv.Itoa(int(report.MaxRange/(24*time.Hour))))
}

// csvTableLabel names a table of the report that downloads as CSV.
func csvTableLabel(c echo.Context, t report.CSVTable) string {
	switch t.Name {
	case "opened":
		return tr(c, "report.csv_opened")
	case "resolved":
		return tr(c, "report.csv_resolved")
	case "open":
		return tr(c, "report.csv_open")
	case "offline":
		return tr(c, "report.csv_offline")
	case "top":
		return tr(c, "report.top")
	case "picklist":
		return tr(c, "report.csv_picklist")
	case "runningout":
		return tr(c, "report.csv_runningout")
	case "handled":
		return tr(c, "report.handled")
	case "done":
		return tr(c, "report.done")
	}
	return t.Label
}

func shiftHref(p report.Period, building string) string {
	v := url.Values{}
	v.Set("date", p.Date.String())
	v.Set("shift", p.Shift)
	if building != "" {
		v.Set("building", building)
	}
	return "/reports/shift?" + v.Encode()
}

// exportShiftReport answers /reports/shift.csv: one of the report's tables
// (report.CSVTables), all its rows, for the same parameters as the page.
func (s *Server) exportShiftReport(c echo.Context) error {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	now := s.clock.Now()
	table, ok := report.FindCSVTable(c.QueryParam("table"))
	if !ok {
		var names []string
		for _, t := range report.CSVTables() {
			names = append(names, t.Name)
		}
		return httpkit.BadParam("table", "must be one of %s, not %q", strings.Join(names, ", "), httpkit.Clip(c.QueryParam("table")))
	}
	shifts, zone, err := s.reportSettings(ctx, ss.Account)
	if err != nil {
		return err
	}
	q, err := s.parseReportQuery(c, ss.Account, shifts, zone, now)
	if errors.Is(err, errReportForm) {
		return &httpkit.Error{Code: http.StatusBadRequest, Param: q.form.ErrorFor, Msg: q.form.Error}
	}
	if err != nil {
		return err
	}
	built, err := s.dash.Report(ctx, ss.Account, s.scopeOf(c), ss.Cred, q.building.ID, q.period, now)
	if err != nil {
		return err
	}
	w := csvResponse(c, "shift-report-"+table.Name+".csv")
	w.Write(table.Header)
	for row := range table.Rows(built.Report) {
		w.Write(cells(row...))
	}
	w.Flush()
	return w.Error()
}
