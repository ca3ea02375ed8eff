package web

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"

	"github.com/labstack/echo/v4"

	"washboard/views"
	"washboard/web/httpkit"
)

// showPortfolioTrends answers /portfolio/trends: the alerts of the chosen
// accounts added up, per day and per week, and each account's figures with
// its share, over the periods the trends page offers, in the time zone of
// the account the session is in.
func (s *Server) showPortfolioTrends(c echo.Context) error {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	days := trendPeriods[0]
	if v := c.QueryParam("period"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || !slices.Contains(trendPeriods, n) {
			return httpkit.BadParam("period", "must be 30 or 90 (days), not %q", httpkit.Clip(v))
		}
		days = n
	}
	ch, err := s.choosePortfolioAccounts(c)
	if err != nil {
		return err
	}
	_, zone, err := s.reportSettings(ctx, ss.Account)
	if err != nil {
		return err
	}
	m := views.PortfolioTrends{Page: s.page(c, "Trends of the portfolio", "portfolio"), Organisation: ch.organisation, Filter: ch.filter,
		Notes: ch.notes, TooMany: ch.tooMany, Days: days, Zone: zone, ZoneOf: ss.AccountName, Hidden: hiddenParams(ch.filterValues())}
	m.Page.Live, m.Page.Still = false, true
	m.Page.Zone = zone
	m.Crumbs = []views.Crumb{{Label: "Portfolio", Href: "/portfolio" + encodeQuery(ch.filterValues())}, {Label: "Trends"}}
	for _, d := range trendPeriods {
		m.Periods = append(m.Periods, views.Option{Value: strconv.Itoa(d), Label: fmt.Sprintf("Last %d days", d), Selected: d == days})
	}
	if ch.tooMany != "" {
		return render(c, http.StatusOK, views.PortfolioTrendsPage(m))
	}
	t, err := s.dash.AccountsTrends(ctx, ch.scopes, days, zone)
	if err != nil {
		return err
	}
	m.Period, m.Sum, m.Total, m.Computed, m.Gaps = t.Period, t.Sum, t.Total, t.Computed, t.Gaps
	for i, a := range ch.accounts {
		at := t.Accounts[i]
		scope, err := s.scopeWords(c, ch.scopes[i])
		if err != nil {
			return err
		}
		m.Accounts = append(m.Accounts, views.PortfolioAccountTrends{ID: a.Account, Client: a.ClientName(), Region: a.Region, Scope: scope,
			Totals: at.Totals, Share: share(at.Created, t.Sum.Created), WeekShare: share(at.LastWeek, t.Total.LastWeek)})
	}
	m.Running = fmt.Sprintf("Trends of the portfolio · %s · last %d days to %s · printed %s", plural(len(m.Accounts), "account"), days,
		t.Period.End.In(zone).Format("Mon 2 Jan 2006 15:04 MST"), s.clock.Now().In(zone).Format("2 Jan 2006 15:04 MST"))
	return render(c, http.StatusOK, views.PortfolioTrendsPage(m))
}

// share is n of all in words: "34 %", "—" when all is zero.
func share(n, all int) string {
	if all == 0 {
		return "—"
	}
	return fmt.Sprintf("%d %%", (n*100+all/2)/all)
}
