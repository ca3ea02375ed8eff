package web

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/people"
	"washboard/views"
	"washboard/web/httpkit"
)

// errNoOrganisation answers the portfolio's pages for a person of no
// organisation.
var errNoOrganisation = errNotFound("You belong to no organisation: the portfolio shows the accounts of an organisation. See Organisation in your accounts' page.")

// showPortfolio shows every account of the person's organisation they
// see, worst first, filtered; an htmx request gets the live part alone.
func (s *Server) showPortfolio(c echo.Context) error {
	m, err := s.portfolio(c)
	if err != nil {
		return err
	}
	if isHTMX(c) {
		return render(c, 200, views.PortfolioContent(m))
	}
	return render(c, 200, views.PortfolioPage(m))
}

// exportPortfolio answers /portfolio.csv: the rows of the portfolio, with
// the same filter.
func (s *Server) exportPortfolio(c echo.Context) error {
	m, err := s.portfolio(c)
	if err != nil {
		return err
	}
	w := csvResponse(c, "portfolio.csv")
	w.Write([]string{"account_id", "client", "region", "state", "open_alerts", "overdue_alerts", "unclaimed_alerts", "dispensers_out",
		"devices_offline", "runs_out_before_shift_end", "shift", "shift_end", "service_level_week", "problem"})
	for _, r := range m.Rows {
		end := ""
		if !r.ShiftEnd.IsZero() {
			end = isoTime(r.ShiftEnd)
		}
		w.Write(cells(r.Account, r.Client, r.Region, r.Health.String(), strconv.Itoa(r.Open), strconv.Itoa(r.Overdue), strconv.Itoa(r.Unclaimed),
			strconv.Itoa(r.Out), strconv.Itoa(r.Offline), strconv.Itoa(r.RunOuts), r.Shift, end, r.ServiceLevel, r.Problem))
	}
	w.Flush()
	return w.Error()
}

// portfolioFilter reads the portfolio's filter from the query.
func portfolioFilter(c echo.Context) (views.PortfolioFilter, error) {
	f := views.PortfolioFilter{Client: strings.TrimSpace(c.QueryParam("client")), Region: strings.TrimSpace(c.QueryParam("region")),
		State: c.QueryParam("state")}
	switch {
	case len([]rune(f.Client)) > domain.MaxClientName:
		return f, httpkit.BadParam("client", "is longer than %d characters", domain.MaxClientName)
	case len([]rune(f.Region)) > domain.MaxRegion:
		return f, httpkit.BadParam("region", "is longer than %d characters", domain.MaxRegion)
	}
	if _, ok := domain.ParseHealth(f.State); f.State != "" && !ok {
		return f, httpkit.BadParam("state", "must be action, offline, attention or ok, not %q", httpkit.Clip(f.State))
	}
	return f, nil
}

// portfolio builds the portfolio's model: each account's state as the
// person's role there sees it.
func (s *Server) portfolio(c echo.Context) (views.Portfolio, error) {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	f, err := portfolioFilter(c)
	if err != nil {
		return views.Portfolio{}, err
	}
	p, err := s.people.PortfolioOf(ctx, ss.PersonID)
	if errors.Is(err, domain.ErrNotFound) {
		return views.Portfolio{}, errNoOrganisation
	}
	if err != nil {
		return views.Portfolio{}, err
	}
	now := s.clock.Now()
	m := views.Portfolio{Page: s.page(c, "Portfolio", "portfolio"), Organisation: p.Organisation.Name, Filter: f, Hidden: p.Hidden,
		Total: len(p.Accounts), Now: now, Query: portfolioQuery(f)}
	m.Crumbs = []views.Crumb{{Label: "Portfolio"}}
	clients, regions := map[string]bool{}, map[string]bool{}
	for _, a := range p.Accounts {
		r := s.portfolioRow(ctx, c, a, now)
		r.Current = a.Account == ss.Account
		clients[r.Client] = true
		if r.Region != "" {
			regions[r.Region] = true
		}
		if (f.Client == "" || f.Client == r.Client) && (f.Region == "" || f.Region == r.Region) && (f.State == "" || f.State == r.Health.String()) {
			m.Rows = append(m.Rows, r)
		}
	}
	m.Clients, m.Regions = sortedKeys(clients), sortedKeys(regions)
	slices.SortStableFunc(m.Rows, worstFirst)
	return m, nil
}

// portfolioRow is one account's row: its state as the person's role in it
// sees it (their buildings, when their own role there limits them).
func (s *Server) portfolioRow(ctx context.Context, c echo.Context, a people.PortfolioAccount, now time.Time) views.PortfolioRow {
	r, _, _ := s.clientRow(ctx, c, a, now)
	return r
}

// clientRow is one account's row of the portfolio, with the state it
// was read from; false when it could not be read (the row says so).
func (s *Server) clientRow(ctx context.Context, c echo.Context, a people.PortfolioAccount, now time.Time) (views.PortfolioRow, dashboard.ClientState, bool) {
	r := views.PortfolioRow{Account: a.Account, Client: a.ClientName(), Region: a.Region}
	st, err := s.dash.ClientState(ctx, a.Account, domain.ScopeOf(a.Membership), s.cfg.Zone, now)
	if err != nil {
		s.logOf(c).Error("reading an account's state for the portfolio", "account", a.Account, "error", err.Error())
		r.Problem = "Its state could not be read just now."
		return r, st, false
	}
	r.Health, r.Open, r.Overdue, r.Unclaimed = st.Health, st.Rollup.OpenAlerts, st.Rollup.OverdueAlerts, st.Unclaimed
	r.Out, r.Offline, r.RunOuts, r.Shift, r.ShiftEnd = st.DispensersOut, st.DevicesOffline, st.RunOuts, st.Shift, st.ShiftEnd
	r.ServiceLevel = weekLevelWords(st.Level)
	return r, st, true
}

// weekLevelWords says how an account kept its service level this week:
// "" without targets (the page says none are set).
func weekLevelWords(l dashboard.WeekLevel) string {
	switch closed := l.Met + l.Missed; {
	case !l.Set:
		return ""
	case closed == 0:
		return "no measured alert closed yet"
	default:
		return fmt.Sprintf("%d %% met (%d of %s closed)", l.Met*100/closed, l.Met, plural(closed, "alert"))
	}
}

// worstFirst orders the portfolio's rows: the worst state first, then the
// most overdue alerts, dispensers out, unclaimed and open alerts, then by
// client.
func worstFirst(a, b views.PortfolioRow) int {
	return cmp.Or(cmp.Compare(b.Health, a.Health), cmp.Compare(b.Overdue, a.Overdue), cmp.Compare(b.Out, a.Out),
		cmp.Compare(b.Unclaimed, a.Unclaimed), cmp.Compare(b.Open, a.Open), cmp.Compare(b.RunOuts, a.RunOuts),
		cmp.Compare(strings.ToLower(a.Client), strings.ToLower(b.Client)), cmp.Compare(a.Account, b.Account))
}

// portfolioQuery is the filter as a query string: "" for none.
func portfolioQuery(f views.PortfolioFilter) string {
	q := url.Values{}
	for k, v := range map[string]string{"client": f.Client, "region": f.Region, "state": f.State} {
		if v != "" {
			q.Set(k, v)
		}
	}
	if len(q) == 0 {
		return ""
	}
	return "?" + q.Encode()
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b string) int { return cmp.Compare(strings.ToLower(a), strings.ToLower(b)) })
	return out
}

// portfolioSearchLimit is how many locations a search across the
// portfolio shows of each account.
const portfolioSearchLimit = 20

// searchPortfolio finds device locations by their name, their room's name
// or a device's MAC address in every account of the organisation the
// person sees, each as their role there sees it.
func (s *Server) searchPortfolio(c echo.Context) error {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	q := strings.TrimSpace(c.QueryParam("q"))
	if len([]rune(q)) > 100 {
		return httpkit.BadParam("q", "is longer than 100 characters")
	}
	p, err := s.people.PortfolioOf(ctx, ss.PersonID)
	if errors.Is(err, domain.ErrNotFound) {
		return errNoOrganisation
	}
	if err != nil {
		return err
	}
	m := views.PortfolioSearch{Page: s.page(c, "Search every account", "portfolio"), Query: q}
	m.Crumbs = []views.Crumb{{Label: "Portfolio", Href: "/portfolio"}, {Label: "Search every account"}}
	if q == "" {
		return render(c, 200, views.PortfolioSearchPage(m))
	}
	for _, a := range p.Accounts {
		cards, places, more, err := s.dash.Search(ctx, a.Account, domain.ScopeOf(a.Membership), q, portfolioSearchLimit)
		if err != nil {
			return err
		}
		m.Searched++
		m.Truncated = m.Truncated || more
		for _, cd := range cards {
			m.Results = append(m.Results, views.PortfolioHit{Account: a.Account, Client: a.ClientName(), LocationID: cd.Location.ID,
				Name: cd.Location.Name, Where: places.Where(cd.Location.RoomID), Health: cd.Health, Current: a.Account == ss.Account})
		}
	}
	return render(c, 200, views.PortfolioSearchPage(m))
}
