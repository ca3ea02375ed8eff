package web

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/people"
	"washboard/views"
)

// A portfolio screen shows the clients of an organisation, a line each,
// worst first, as the person who made it sees them now.

// portfolioScreenView builds what a portfolio screen shows: its clients
// in the portfolio's order, and the freshness of the oldest's data.
func (s *Server) portfolioScreenView(c echo.Context, sc screenCtx, m views.ScreenView) (views.ScreenView, error) {
	ctx := c.Request().Context()
	p, err := s.people.ScreenPortfolio(ctx, sc.screen)
	if errors.Is(err, domain.ErrScreenMakerLeft) {
		m.Stopped = views.StopMakerLeft
		return m, nil
	}
	if err != nil {
		return m, err
	}
	m.Portfolio = true
	m.ScopeName = p.Organisation.Name
	now := s.clock.Now()
	rows := make([]views.PortfolioRow, 0, len(p.Accounts))
	states := map[string]screenClientLevel{}
	ids, names := make([]string, 0, len(p.Accounts)), map[string]string{}
	for _, a := range p.Accounts {
		r, st, ok := s.clientRow(ctx, s.logOf(c), a, now)
		rows = append(rows, r)
		ids, names[a.Account] = append(ids, a.Account), r.Client
		if !ok {
			continue
		}
		l := screenClientLevel{week: st.Level}
		if l.open, err = s.dash.OpenLevels(ctx, a.Account, domain.ScopeOf(a.Membership)); err != nil {
			s.logOf(c).Error("reading an account's service level for a screen", "account", a.Account, "error", err.Error())
		}
		states[a.Account] = l
	}
	slices.SortStableFunc(rows, worstFirst)
	for _, r := range rows {
		m.Counts.Add(r.Health)
		m.OpenAlerts += r.Open
		m.OverdueAlerts += r.Overdue
		l := states[r.Account]
		cl := views.ScreenClient{PortfolioRow: r, Level: l.words(i18n.From(ctx)), LevelWarning: l.warning()}
		if r.Problem != "" {
			cl.Level = ""
		}
		m.Clients = append(m.Clients, cl)
	}
	m.Freshness = s.dash.FreshnessOf(ctx, ids, names)
	return m, nil
}

// screenClientLevel is where a client's service level stands: this
// week's closed alerts, and its open ones.
type screenClientLevel struct {
	week dashboard.WeekLevel
	open dashboard.LevelCounts
}

// words says it on the screen, in its language: "This week: 13 met, 2
// missed · 1 open alert at risk"; "No service level targets" without
// them.
func (l screenClientLevel) words(loc *i18n.Localizer) string {
	if !l.week.Set {
		return loc.T("screen.level_none")
	}
	out := loc.T("screen.level_week", "met", loc.Number(l.week.Met), "missed", loc.Number(l.week.Missed))
	if l.open.AtRisk > 0 {
		out += " · " + loc.N("screen.level_open_at_risk", l.open.AtRisk)
	}
	if l.open.Missed > 0 {
		out += " · " + loc.N("screen.level_open_past", l.open.Missed)
	}
	return out
}

// warning: something of the service level needs an eye.
func (l screenClientLevel) warning() bool {
	return l.week.Missed > 0 || l.open.AtRisk > 0 || l.open.Missed > 0
}

// portfolioBeat is what a portfolio screen's heartbeat knows: the
// freshness of its clients' data, why it stopped ("" when it did not),
// and a key of the accounts it shows and their generations, which moves
// when one of them changes or one comes or goes.
func (s *Server) portfolioBeat(ctx context.Context, sc domain.Screen) (domain.Freshness, views.ScreenStop, uint64, error) {
	p, err := s.people.ScreenPortfolio(ctx, sc)
	if errors.Is(err, domain.ErrScreenMakerLeft) {
		return domain.Freshness{}, views.StopMakerLeft, 0, nil
	}
	if err != nil {
		return domain.Freshness{}, "", 0, err
	}
	return s.dash.FreshnessOf(ctx, accountIDs(p.Accounts), nil), "", generationsKey(s, p.Accounts), nil
}

func accountIDs(as []people.PortfolioAccount) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.Account
	}
	return out
}

// generationsKey hashes the accounts and their generations.
func generationsKey(s *Server, as []people.PortfolioAccount) uint64 {
	h := fnv.New64a()
	for _, a := range as {
		fmt.Fprintf(h, "%s:%d,", a.Account, s.sync.Generation(a.Account))
	}
	return h.Sum64()
}
