package web

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/people"
	"washboard/views"
	"washboard/web/httpkit"
)

// errNoOrganisation answers the portfolio's pages for a person of no
// organisation.
func errNoOrganisation(c echo.Context) error {
	return errNotFound(tr(c, "portfolio.no_organisation"))
}

// showPortfolio shows every account of the person's organisation they
// see, worst first, filtered; an htmx request gets the page's body, of
// which it takes the live part. The body is kept (see servePage) for
// everyone in the same account who sees the same accounts in the same
// scopes, while none of the accounts changes.
func (s *Server) showPortfolio(c echo.Context) error {
	ss := sessionOf(c)
	f, err := portfolioFilter(c)
	if err != nil {
		return err
	}
	p, scope, err := s.portfolioOf(c)
	if err != nil {
		return err
	}
	var generation uint64 // the accounts' generations only grow, and so does their sum
	for _, a := range p.Accounts {
		generation += s.sync.Generation(a.Account)
	}
	key := pageKey{account: ss.Account, path: "/portfolio" + portfolioQuery(f), name: ss.AccountName, scope: scope, lang: i18n.From(c.Request().Context()).Lang()}
	log := s.logOf(c)
	return s.serveKept(c, key, generation, func(ctx context.Context, now time.Time) (*renderedPage, error) {
		m := s.portfolio(ctx, log, ss, p, f, now)
		live, err := renderLive(ctx, views.PortfolioBody(m))
		if err != nil {
			return nil, err
		}
		return &renderedPage{title: i18n.From(ctx).T("layout.portfolio"), nav: "portfolio", crumbs: m.Crumbs, live: live}, nil
	})
}

// portfolioScope names what a person sees of their portfolio, for the
// key of the page kept: the organisation's name, how many accounts they
// do not see, and each account they see, as its client, region and the
// buildings their role there sees.
func portfolioScope(p people.Portfolio) string {
	h := sha256.New()
	fmt.Fprintf(h, "%q %d\n", p.Organisation.Name, p.Hidden)
	for _, a := range p.Accounts {
		fmt.Fprintf(h, "%q %q %q %q\n", a.Account, a.ClientName(), a.Region, domain.ScopeOf(a.Membership).Key())
	}
	return hex.EncodeToString(h.Sum(nil))
}

// portfolioOf returns the signed-in person's portfolio, and what names
// it (portfolioScope), as read within the last portfolioKeep.
func (s *Server) portfolioOf(c echo.Context) (people.Portfolio, string, error) {
	ctx := c.Request().Context()
	token, now := s.sessions.Token(ctx), s.clock.Now()
	if k, ok := s.portfolios.get(token, now); ok {
		return k.portfolio, k.scope, nil
	}
	p, err := s.people.PortfolioOf(ctx, sessionOf(c).PersonID)
	if errors.Is(err, domain.ErrNotFound) {
		return p, "", errNoOrganisation(c)
	}
	if err != nil {
		return p, "", err
	}
	k := keptPortfolio{at: now, portfolio: p, scope: portfolioScope(p)}
	s.portfolios.put(token, k)
	return p, k.scope, nil
}

// A person's portfolio is five reads, one of them of every account of the
// organisation, and the portfolio page is asked for again at every change
// to any of its accounts, by every page open on it. So what was read is
// kept for portfolioKeep, by session: a session never sees another's, and
// a session that a change of role ends takes nothing kept with it. A
// change to the organisation (a client's name, an account added or
// removed) shows within portfolioKeep.

// portfolioKeep is how long a portfolio read is kept.
const portfolioKeep = time.Second

// maxKeptPortfolios bounds the portfolios kept.
const maxKeptPortfolios = 10_000

// keptPortfolio is a person's portfolio as read at a moment.
type keptPortfolio struct {
	at        time.Time
	portfolio people.Portfolio
	scope     string // portfolioScope
}

// keptPortfolios are the portfolios read lately, by session token.
type keptPortfolios struct {
	mu sync.Mutex
	m  map[string]keptPortfolio
}

func (k *keptPortfolios) get(token string, now time.Time) (keptPortfolio, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	p, ok := k.m[token]
	if !ok || now.Sub(p.at) >= portfolioKeep || now.Before(p.at) {
		return keptPortfolio{}, false
	}
	return p, true
}

// put keeps p for the session, letting go of those too old when
// maxKeptPortfolios are kept, and of any if none is.
func (k *keptPortfolios) put(token string, p keptPortfolio) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.m == nil {
		k.m = map[string]keptPortfolio{}
	}
	if len(k.m) >= maxKeptPortfolios {
		for t, old := range k.m {
			if p.at.Sub(old.at) >= portfolioKeep {
				delete(k.m, t)
			}
		}
		for t := range k.m {
			if len(k.m) < maxKeptPortfolios {
				break
			}
			delete(k.m, t)
		}
	}
	k.m[token] = p
}

// exportPortfolio answers /portfolio.csv: the rows of the portfolio, with
// the same filter.
func (s *Server) exportPortfolio(c echo.Context) error {
	f, err := portfolioFilter(c)
	if err != nil {
		return err
	}
	p, _, err := s.portfolioOf(c)
	if err != nil {
		return err
	}
	m := s.portfolio(c.Request().Context(), s.logOf(c), sessionOf(c), p, f, s.clock.Now())
	w := csvResponse(c, "portfolio.csv")
	w.Write([]string{"account_id", "client", "region", "state", "open_alerts", "overdue_alerts", "unclaimed_alerts", "visitor_reports",
		"dispensers_out", "devices_offline", "runs_out_before_shift_end", "shift", "shift_end", "service_level_week", "problem"})
	for _, r := range m.Rows {
		end := ""
		if !r.ShiftEnd.IsZero() {
			end = isoTime(r.ShiftEnd)
		}
		w.Write(cells(r.Account, r.Client, r.Region, r.Health.String(), strconv.Itoa(r.Open), strconv.Itoa(r.Overdue), strconv.Itoa(r.Unclaimed),
			strconv.Itoa(r.Visitors), strconv.Itoa(r.Out), strconv.Itoa(r.Offline), strconv.Itoa(r.RunOuts), r.Shift, end, r.ServiceLevel, r.Problem))
	}
	w.Flush()
	return w.Error()
}

// portfolioFilter reads the portfolio's filter from the query; a bad
// parameter is refused in the request's language.
func portfolioFilter(c echo.Context) (views.PortfolioFilter, error) {
	f := views.PortfolioFilter{Client: strings.TrimSpace(c.QueryParam("client")), Region: strings.TrimSpace(c.QueryParam("region")),
		State: c.QueryParam("state")}
	bad := func(param, msg string) error {
		return &httpkit.Error{Code: http.StatusBadRequest, Param: param, Msg: msg}
	}
	switch {
	case len([]rune(f.Client)) > domain.MaxClientName:
		return f, bad("client", tr(c, "portfolio.client_too_long", "max", strconv.Itoa(domain.MaxClientName)))
	case len([]rune(f.Region)) > domain.MaxRegion:
		return f, bad("region", tr(c, "portfolio.region_too_long", "max", strconv.Itoa(domain.MaxRegion)))
	}
	if _, ok := domain.ParseHealth(f.State); f.State != "" && !ok {
		return f, bad("state", tr(c, "portfolio.state_unknown", "state", httpkit.Clip(f.State)))
	}
	return f, nil
}

// portfolio builds the portfolio's model at now: each account's state as
// the person's role there sees it. Its Page holds only what the page's
// body shows, nothing of the client's.
func (s *Server) portfolio(ctx context.Context, log *slog.Logger, ss session, p people.Portfolio, f views.PortfolioFilter, now time.Time) views.Portfolio {
	m := views.Portfolio{Page: views.Page{Zone: s.cfg.Zone}, Organisation: p.Organisation.Name, Filter: f, Hidden: p.Hidden,
		Total: len(p.Accounts), Now: now, Query: portfolioQuery(f)}
	m.Crumbs = []views.Crumb{{Label: i18n.From(ctx).T("layout.portfolio")}}
	clients, regions := map[string]bool{}, map[string]bool{}
	for _, a := range p.Accounts {
		r := s.portfolioRow(ctx, log, a, now)
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
	return m
}

// portfolioRow is one account's row: its state as the person's role in it
// sees it (their buildings, when their own role there limits them).
func (s *Server) portfolioRow(ctx context.Context, log *slog.Logger, a people.PortfolioAccount, now time.Time) views.PortfolioRow {
	r, _, _ := s.clientRow(ctx, log, a, now)
	return r
}

// clientRow is one account's row of the portfolio, with the state it
// was read from; false when it could not be read (the row says so).
func (s *Server) clientRow(ctx context.Context, log *slog.Logger, a people.PortfolioAccount, now time.Time) (views.PortfolioRow, dashboard.ClientState, bool) {
	r := views.PortfolioRow{Account: a.Account, Client: a.ClientName(), Region: a.Region}
	st, err := s.dash.ClientState(ctx, a.Account, domain.ScopeOf(a.Membership), s.cfg.Zone, now)
	if err != nil {
		log.Error("reading an account's state for the portfolio", "account", a.Account, "error", err.Error())
		r.Problem = i18n.From(ctx).T("portfolio.state_unreadable")
		return r, st, false
	}
	r.Health, r.Open, r.Overdue, r.Unclaimed, r.Visitors = st.Health, st.Rollup.OpenAlerts, st.Rollup.OverdueAlerts, st.Unclaimed, st.Visitors
	r.Out, r.Offline, r.RunOuts, r.Shift, r.ShiftEnd = st.DispensersOut, st.DevicesOffline, st.RunOuts, st.Shift, st.ShiftEnd
	r.ServiceLevel = weekLevelWords(i18n.From(ctx), st.Level)
	return r, st, true
}

// weekLevelWords says how an account kept its service level this week,
// in the page's language: "" without targets (the page says none are
// set).
func weekLevelWords(loc *i18n.Localizer, l dashboard.WeekLevel) string {
	switch closed := l.Met + l.Missed; {
	case !l.Set:
		return ""
	case closed == 0:
		return loc.T("portfolio.level_none_closed")
	default:
		return loc.N("portfolio.level_week", closed, "percent", loc.Number(l.Met*100/closed), "met", loc.Number(l.Met))
	}
}

// worstFirst orders the portfolio's rows: the worst state first, then the
// most overdue alerts, dispensers out, unclaimed alerts, visitors'
// reports and open alerts, then by client.
func worstFirst(a, b views.PortfolioRow) int {
	return cmp.Or(cmp.Compare(b.Health, a.Health), cmp.Compare(b.Overdue, a.Overdue), cmp.Compare(b.Out, a.Out),
		cmp.Compare(b.Unclaimed, a.Unclaimed), cmp.Compare(b.Visitors, a.Visitors), cmp.Compare(b.Open, a.Open), cmp.Compare(b.RunOuts, a.RunOuts),
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
