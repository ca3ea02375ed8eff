package web

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/people"
	"washboard/internal/report"
	"washboard/views"
	"washboard/web/httpkit"
)

// portfolioChoice is the accounts a page of several accounts covers: those
// of the person's organisation of the portfolio's filter (client and
// region), where their role reaches the route's least role.
type portfolioChoice struct {
	organisation string
	filter       views.PortfolioFilter
	accounts     []people.PortfolioAccount
	scopes       []dashboard.AccountScope
	// notes say in words which accounts are left out and why; tooMany
	// that they are more than a page covers (then accounts is empty).
	notes   []string
	tooMany string
}

// choosePortfolioAccounts reads the filter and chooses the accounts.
func (s *Server) choosePortfolioAccounts(c echo.Context) (portfolioChoice, error) {
	var ch portfolioChoice
	f, err := portfolioFilter(c)
	if err != nil {
		return ch, err
	}
	if f.State != "" {
		return ch, &httpkit.Error{Code: http.StatusBadRequest, Param: "state", Msg: tr(c, "preport.state_param")}
	}
	p, err := s.people.PortfolioOf(c.Request().Context(), sessionOf(c).PersonID)
	if errors.Is(err, domain.ErrNotFound) {
		return ch, errNoOrganisation(c)
	}
	if err != nil {
		return ch, err
	}
	least := leastRoleOf(c)
	sel := p.Select(f.Client, f.Region, least)
	ch.organisation, ch.filter = p.Organisation.Name, f
	if sel.Hidden > 0 {
		ch.notes = append(ch.notes, trn(c, "preport.left_out_hidden", sel.Hidden))
	}
	if sel.BelowRole > 0 {
		ch.notes = append(ch.notes, trn(c, "preport.left_out_role", sel.BelowRole, "role", roleWord(c, least)))
	}
	if n := len(sel.Accounts); n > dashboard.MaxReportAccounts {
		ch.tooMany = trn(c, "preport.too_many", n, "max", i18n.From(c.Request().Context()).Number(dashboard.MaxReportAccounts))
		return ch, nil
	}
	ch.accounts = sel.Accounts
	for _, a := range sel.Accounts {
		ch.scopes = append(ch.scopes, dashboard.AccountScope{Account: a.Account, Scope: domain.ScopeOf(a.Membership)})
	}
	return ch, nil
}

// roleWord is a role's word in the request's language: "Aufsicht".
func roleWord(c echo.Context, r domain.Role) string {
	switch r {
	case domain.Viewer:
		return tr(c, "role.viewer")
	case domain.Staff:
		return tr(c, "role.staff")
	case domain.Supervisor:
		return tr(c, "role.supervisor")
	case domain.Admin:
		return tr(c, "role.admin")
	case domain.Owner:
		return tr(c, "role.owner")
	}
	return r.String()
}

// filterValues are the portfolio's filter as parameters.
func (ch portfolioChoice) filterValues() url.Values {
	v := url.Values{}
	if ch.filter.Client != "" {
		v.Set("client", ch.filter.Client)
	}
	if ch.filter.Region != "" {
		v.Set("region", ch.filter.Region)
	}
	return v
}

// scopeWords says what the person sees of an account: "Whole account", or
// the buildings their role is limited to.
func (s *Server) scopeWords(c echo.Context, sc dashboard.AccountScope) (string, error) {
	if !sc.Scope.Limited() {
		return tr(c, "screens.whole_account"), nil
	}
	bs, err := s.dash.Buildings(c.Request().Context(), sc.Account, sc.Scope)
	if err != nil {
		return "", err
	}
	names := make([]string, len(bs))
	for i, b := range bs {
		names[i] = b.Name
	}
	return tr(c, "preport.your_buildings", "buildings", strings.Join(names, ", ")), nil
}

// portfolioShiftReport builds the shift report of the chosen accounts, for
// the page and its CSV: one period for all, of the shifts and time zone of
// the account the session is in.
func (s *Server) portfolioShiftReport(c echo.Context) (views.PortfolioShiftReport, *dashboard.AccountsReport, error) {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	now := s.clock.Now()
	ch, err := s.choosePortfolioAccounts(c)
	if err != nil {
		return views.PortfolioShiftReport{}, nil, err
	}
	shifts, zone, err := s.reportSettings(ctx, ss.Account)
	if err != nil {
		return views.PortfolioShiftReport{}, nil, err
	}
	m := views.PortfolioShiftReport{Page: s.page(c, tr(c, "preport.shift_title"), "portfolio"), Organisation: ch.organisation,
		Filter: ch.filter, Notes: ch.notes, TooMany: ch.tooMany, Zone: zone, PrintedAt: now, ShiftsOf: ss.AccountName}
	m.Page.Live, m.Page.Still = false, true
	m.Crumbs = []views.Crumb{{Label: tr(c, "layout.portfolio"), Href: "/portfolio" + encodeQuery(ch.filterValues())}, {Label: tr(c, "preport.shift_report")}}
	q := reportQuery{values: ch.filterValues()}
	err = parseReportPeriod(c, shifts, zone, now, &q)
	m.Form = q.form
	m.Form.Action, m.Form.Hidden = "/portfolio/reports/shift", hiddenParams(ch.filterValues())
	if err != nil || ch.tooMany != "" {
		return m, nil, err
	}
	built, err := s.dash.AccountsReport(ctx, ch.scopes, q.period, now)
	if err != nil {
		return m, nil, err
	}
	m.Sum = &built.Sum
	m.InProgress = q.period.End.After(now)
	own := url.Values{}
	for _, k := range []string{"date", "shift", "from", "to"} {
		if v := q.values.Get(k); v != "" {
			own.Set(k, v)
		}
	}
	for i, a := range ch.accounts {
		r := built.Accounts[i]
		scope, err := s.scopeWords(c, ch.scopes[i])
		if err != nil {
			return m, nil, err
		}
		m.Accounts = append(m.Accounts, views.PortfolioAccountReport{ID: a.Account, Client: a.ClientName(), Region: a.Region, Scope: scope,
			Report: &built.Accounts[i].Report, AsOf: r.AsOf, Sources: r.Sources, Gaps: r.Gaps, Own: "/reports/shift?" + own.Encode()})
	}
	for _, t := range portfolioShiftTables() {
		v := url.Values{}
		for k, vs := range q.values {
			v[k] = vs
		}
		v.Set("table", t.Name)
		m.CSV = append(m.CSV, views.ReportCSV{Table: t.Name, Label: t.Label, Href: "/portfolio/reports/shift.csv?" + v.Encode()})
	}
	p := q.period
	loc := i18n.From(ctx)
	name := tr(c, "preport.shift_title")
	if p.Shift != "" {
		name += " · " + tr(c, "preport.shift", "shift", p.Shift)
	}
	m.Running = tr(c, "preport.running", "name", name, "accounts", trn(c, "preport.accounts", len(m.Accounts)),
		"start", loc.DateTime(p.Start, zone), "end", loc.DateTime(p.End, zone), "printed", loc.DateTime(now, zone))
	return m, &built, nil
}

// showPortfolioShiftReport answers /portfolio/reports/shift: the summed
// report of the chosen accounts, then each account's.
func (s *Server) showPortfolioShiftReport(c echo.Context) error {
	m, _, err := s.portfolioShiftReport(c)
	if errors.Is(err, errReportForm) {
		return render(c, http.StatusBadRequest, views.PortfolioShiftReportPage(m))
	}
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.PortfolioShiftReportPage(m))
}

// portfolioShiftTables are the tables of the portfolio's shift report
// that download as CSV: the summary, a row per account and one for all,
// then each table of the shift report, with the account first.
func portfolioShiftTables() []report.CSVTable {
	return append([]report.CSVTable{{Name: "summary", Label: "Summary per account"}}, report.CSVTables()...)
}

// summaryHeader is the header of the summary table of the portfolio's
// shift report.
var summaryHeader = []string{"account_id", "client", "region", "scope", "open_at_start", "opened_during", "resolved_during",
	"open_at_end", "overdue_at_end", "devices_offline_at_end", "refills", "battery_sets"}

// exportPortfolioShiftReport answers /portfolio/reports/shift.csv: one
// table, each account's rows under its id and client; the summary and
// the pick list end with the rows of all the accounts ("All accounts",
// no account id).
func (s *Server) exportPortfolioShiftReport(c echo.Context) error {
	name := c.QueryParam("table")
	var table report.CSVTable
	var names []string
	for _, t := range portfolioShiftTables() {
		names = append(names, t.Name)
		if t.Name == name {
			table = t
		}
	}
	if table.Name == "" {
		return httpkit.BadParam("table", "must be one of %s, not %q", strings.Join(names, ", "), httpkit.Clip(name))
	}
	m, built, err := s.portfolioShiftReport(c)
	if errors.Is(err, errReportForm) {
		return &httpkit.Error{Code: http.StatusBadRequest, Param: m.Form.ErrorFor, Msg: m.Form.Error}
	}
	if err != nil {
		return err
	}
	if m.TooMany != "" {
		return &httpkit.Error{Code: http.StatusBadRequest, Param: "client", Msg: m.TooMany}
	}
	w := csvResponse(c, "portfolio-shift-report-"+table.Name+".csv")
	if table.Name == "summary" {
		w.Write(summaryHeader)
		for _, a := range m.Accounts {
			w.Write(cells(append([]string{a.ID, a.Client, a.Region, a.Scope}, summaryCells(a.Report, len(a.Report.Offline))...)...))
		}
		offline := 0
		for _, a := range m.Accounts {
			offline += len(a.Report.Offline)
		}
		w.Write(cells(append([]string{"", "All accounts", "", ""}, summaryCells(&built.Sum, offline)...)...))
		w.Flush()
		return w.Error()
	}
	w.Write(cells(append([]string{"account_id", "client"}, table.Header...)...))
	for _, a := range m.Accounts {
		for row := range table.Rows(*a.Report) {
			w.Write(cells(append([]string{a.ID, a.Client}, row...)...))
		}
	}
	if table.Name == "picklist" {
		for _, rf := range built.Sum.PickList.Refills {
			w.Write(cells("", "All accounts", "", "", string(rf.Type), strconv.Itoa(rf.Count), ""))
		}
		if n := built.Sum.PickList.BatterySets; n > 0 {
			w.Write(cells("", "All accounts", "", "", "", "", strconv.Itoa(n)))
		}
	}
	w.Flush()
	return w.Error()
}

// summaryCells are the headline figures of a report, as the summary table
// writes them.
func summaryCells(r *report.Report, offline int) []string {
	refills := 0
	for _, rf := range r.PickList.Refills {
		refills += rf.Count
	}
	s := r.Summary
	return []string{strconv.Itoa(s.OpenAtStart), strconv.Itoa(s.OpenedDuring), strconv.Itoa(s.ResolvedDuring), strconv.Itoa(s.OpenAtEnd),
		strconv.Itoa(s.OverdueAtEnd), strconv.Itoa(offline), strconv.Itoa(refills), strconv.Itoa(r.PickList.BatterySets)}
}

// hiddenParams are parameters a form carries unchanged.
func hiddenParams(v url.Values) []views.Param {
	var out []views.Param
	for _, k := range []string{"client", "region"} {
		if x := v.Get(k); x != "" {
			out = append(out, views.Param{Name: k, Value: x})
		}
	}
	return out
}

// encodeQuery is v as a query string: "" for none.
func encodeQuery(v url.Values) string {
	if len(v) == 0 {
		return ""
	}
	return "?" + v.Encode()
}
