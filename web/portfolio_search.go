package web

import (
	"errors"
	"strings"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/views"
	"washboard/web/httpkit"
)

// Search across the portfolio (docs/portfolio.md).

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
		return errNoOrganisation(c)
	}
	if err != nil {
		return err
	}
	m := views.PortfolioSearch{Page: s.page(c, tr(c, "portfolio.search_title"), "portfolio"), Query: q}
	m.Crumbs = []views.Crumb{{Label: tr(c, "layout.portfolio"), Href: "/portfolio"}, {Label: tr(c, "portfolio.search_title")}}
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
