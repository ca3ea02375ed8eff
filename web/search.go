package web

import (
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"washboard/views"
	"washboard/web/httpkit"
)

// searchLimit is how many locations a search shows.
const searchLimit = 50

// searchLocations finds device locations by their name, their room's name
// or a device's MAC address.
func (s *Server) searchLocations(c echo.Context) error {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	q := c.QueryParam("q")
	if utf8.RuneCountInString(q) > 100 {
		return httpkit.BadParamSaid("q", tr(c, "search.too_long"))
	}
	m := views.Search{Page: s.page(c, tr(c, "layout.search_button"), "search"), Query: q}
	m.Crumbs = []views.Crumb{{Label: tr(c, "nav.overview"), Href: "/"}, {Label: tr(c, "layout.search_button")}}
	if q == "" {
		return render(c, 200, views.SearchPage(m))
	}
	cards, places, more, err := s.dash.Search(ctx, ss.Account, s.scopeOf(c), q, searchLimit)
	if err != nil {
		return err
	}
	m.Results, m.Truncated = s.cardViews(ctx, s.clock.Now(), cards, places), more
	return render(c, 200, views.SearchPage(m))
}
