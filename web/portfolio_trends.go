package web

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/i18n"
	"washboard/internal/trends"
	"washboard/views"
	"washboard/web/httpkit"
)

// showPortfolioTrends answers /portfolio/trends: the alerts of the chosen
// accounts added up, per day and per week, and each account's figures with
// its share, over the periods the trends page offers, in the time zone of
// the account the session is in.
func (s *Server) showPortfolioTrends(c echo.Context) error {
	m, err := s.portfolioTrends(c)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.PortfolioTrendsPage(m))
}

// portfolioTrendTables are the tables of the portfolio's trends that
// download as CSV.
var portfolioTrendTables = []string{"accounts", "perday"}

// portfolioTrends builds the model of the portfolio's trends, for the page
// and its CSV.
func (s *Server) portfolioTrends(c echo.Context) (views.PortfolioTrends, error) {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	days := trendPeriods[0]
	if v := c.QueryParam("period"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || !slices.Contains(trendPeriods, n) {
			return views.PortfolioTrends{}, httpkit.BadParam("period", "must be 30 or 90 (days), not %q", httpkit.Clip(v))
		}
		days = n
	}
	ch, err := s.choosePortfolioAccounts(c)
	if err != nil {
		return views.PortfolioTrends{}, err
	}
	_, zone, err := s.reportSettings(ctx, ss.Account)
	if err != nil {
		return views.PortfolioTrends{}, err
	}
	m := views.PortfolioTrends{Page: s.page(c, tr(c, "preport.trends_title"), "portfolio"), Organisation: ch.organisation, Filter: ch.filter,
		Notes: ch.notes, TooMany: ch.tooMany, Days: days, Zone: zone, ZoneOf: ss.AccountName, Hidden: hiddenParams(ch.filterValues())}
	m.Page.Live, m.Page.Still = false, true
	m.Page.Zone = zone
	m.Crumbs = []views.Crumb{{Label: tr(c, "layout.portfolio"), Href: "/portfolio" + encodeQuery(ch.filterValues())}, {Label: tr(c, "nav.trends")}}
	for _, d := range trendPeriods {
		m.Periods = append(m.Periods, views.Option{Value: strconv.Itoa(d), Label: trn(c, "preport.last_days", d), Selected: d == days})
	}
	if ch.tooMany != "" {
		return m, nil
	}
	t, err := s.dash.AccountsTrends(ctx, ch.scopes, days, zone)
	if err != nil {
		return m, err
	}
	m.Period, m.Sum, m.Total, m.Computed, m.Gaps = t.Period, t.Sum, t.Total, t.Computed, t.Gaps
	for i, a := range ch.accounts {
		at := t.Accounts[i]
		scope, err := s.scopeWords(c, ch.scopes[i])
		if err != nil {
			return m, err
		}
		m.Accounts = append(m.Accounts, views.PortfolioAccountTrends{ID: a.Account, Client: a.ClientName(), Region: a.Region, Scope: scope, WholeAccount: !ch.scopes[i].Scope.Limited(),
			Totals: at.Totals, Share: share(at.Created, t.Total.Created), WeekShare: share(at.LastWeek, t.Total.LastWeek)})
	}
	m.CSV = map[string]string{}
	for _, table := range portfolioTrendTables {
		v := ch.filterValues()
		v.Set("period", strconv.Itoa(days))
		v.Set("table", table)
		m.CSV[table] = "/portfolio/trends.csv?" + v.Encode()
	}
	loc := i18n.From(ctx)
	m.Running = tr(c, "preport.trends_running", "accounts", trn(c, "preport.accounts", len(m.Accounts)), "period", trn(c, "preport.last_days", days),
		"end", loc.DateTime(t.Period.End, zone), "printed", loc.DateTime(s.clock.Now(), zone))
	return m, nil
}

// exportPortfolioTrends answers /portfolio/trends.csv: the accounts'
// figures, a row each and one of all the accounts (table=accounts), or
// the alerts per day of all of them (table=perday), for the same
// parameters as the page.
func (s *Server) exportPortfolioTrends(c echo.Context) error {
	table := c.QueryParam("table")
	if !slices.Contains(portfolioTrendTables, table) {
		return httpkit.BadParam("table", "must be one of %s, not %q", strings.Join(portfolioTrendTables, ", "), httpkit.Clip(table))
	}
	m, err := s.portfolioTrends(c)
	if err != nil {
		return err
	}
	if m.TooMany != "" {
		return &httpkit.Error{Code: http.StatusBadRequest, Param: "client", Msg: m.TooMany}
	}
	w := csvResponse(c, fmt.Sprintf("portfolio-trends-%s-%dd.csv", table, m.Days))
	minutes := func(t trends.Totals) string {
		if t.Resolved == 0 {
			return ""
		}
		return strconv.Itoa(int(t.Median / time.Minute))
	}
	switch table {
	case "accounts":
		w.Write([]string{"account_id", "client", "region", "scope", "alerts_created", "share", "alerts_last_7_days", "share_last_7_days", "resolved", "median_minutes_to_resolve"})
		for _, a := range m.Accounts {
			w.Write(cells(a.ID, a.Client, a.Region, a.Scope, strconv.Itoa(a.Created), a.Share, strconv.Itoa(a.LastWeek), a.WeekShare,
				strconv.Itoa(a.Resolved), minutes(a.Totals)))
		}
		t := m.Total
		w.Write(cells("", "All accounts", "", "", strconv.Itoa(t.Created), share(t.Created, t.Created), strconv.Itoa(t.LastWeek),
			share(t.LastWeek, t.LastWeek), strconv.Itoa(t.Resolved), minutes(t)))
	case "perday":
		header := []string{"date", "alerts"}
		for _, ty := range m.Sum.Types {
			header = append(header, string(ty))
		}
		w.Write(cells(header...))
		for _, d := range m.Sum.Days {
			row := []string{d.Start.In(m.Zone).Format(time.DateOnly), strconv.Itoa(d.Total)}
			for _, n := range d.ByType {
				row = append(row, strconv.Itoa(n))
			}
			w.Write(row)
		}
	}
	w.Flush()
	return w.Error()
}

// share is n of all in words: "34 %", "—" when all is zero.
func share(n, all int) string {
	if all == 0 {
		return "—"
	}
	return fmt.Sprintf("%d %%", (n*100+all/2)/all)
}
