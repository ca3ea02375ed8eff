package web

import (
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/views"
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
		return errBadParam("q", "is longer than 100 characters")
	}
	m := views.Search{Page: s.page(c, "Search", "search"), Query: q}
	m.Crumbs = []views.Crumb{{Label: "Overview", Href: "/"}, {Label: "Search"}}
	if q == "" {
		return render(c, 200, views.SearchPage(m))
	}
	locs, err := s.store.SearchLocations(ctx, ss.Account, q, searchLimit+1)
	if err != nil {
		return err
	}
	if len(locs) > searchLimit {
		locs, m.Truncated = locs[:searchLimit], true
	}
	ids := make([]string, len(locs))
	for i, l := range locs {
		ids[i] = l.ID
	}
	n, _, err := s.namesFor(ctx, ss.Account, ids)
	if err != nil {
		return err
	}
	var devices []domain.Device
	var open []domain.Alert
	for _, l := range locs {
		ds, err := s.store.FindDevices(ctx, store.DeviceFilter{Account: ss.Account, LocationID: l.ID})
		if err != nil {
			return err
		}
		devices = append(devices, ds...)
		as, err := s.store.FindAlerts(ctx, store.AlertFilter{Account: ss.Account, LocationID: l.ID, Status: domain.AlertOpen})
		if err != nil {
			return err
		}
		open = append(open, as...)
	}
	m.Results = s.cards(locs, devices, open, n)
	return render(c, 200, views.SearchPage(m))
}
