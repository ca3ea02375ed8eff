package web

import (
	"fmt"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/views"
)

// overviewAlerts is how many of the most urgent alerts the overview lists.
const overviewAlerts = 10

func (s *Server) showOverview(c echo.Context) error {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	rollup, err := s.store.Rollup(ctx, ss.Account, store.ScopeAccount, ss.Account)
	if err != nil {
		return err
	}
	buildings, err := s.store.Buildings(ctx, ss.Account)
	if err != nil {
		return err
	}
	rollups, err := s.store.Rollups(ctx, ss.Account, store.ScopeBuilding)
	if err != nil {
		return err
	}
	floors, err := s.store.Floors(ctx, ss.Account, "")
	if err != nil {
		return err
	}
	floorsOf := map[string]int{}
	for _, f := range floors {
		floorsOf[f.BuildingID]++
	}
	m := views.Overview{Page: s.page(c, ss.AccountName, "overview"), Rollup: rollup}
	m.Crumbs = []views.Crumb{{Label: "Overview"}}
	for _, b := range buildings {
		m.Buildings = append(m.Buildings, placeCard(b.ID, b.Name, "/buildings/"+b.ID, plural(floorsOf[b.ID], "floor"), rollups[b.ID]))
	}
	open, err := s.store.FindAlerts(ctx, store.AlertFilter{Account: ss.Account, Status: domain.AlertOpen, Limit: overviewAlerts})
	if err != nil {
		return err
	}
	if m.Alerts, err = s.alertRows(c, ss.Account, open); err != nil {
		return err
	}
	m.MoreAlerts = max(0, rollup.OpenAlerts-len(m.Alerts))
	return pick(c, views.OverviewPage(m), views.OverviewContent(m))
}

// alertRows turns alerts into rows saying where each is.
func (s *Server) alertRows(c echo.Context, account string, alerts []domain.Alert) ([]views.AlertRow, error) {
	ctx := c.Request().Context()
	ids := make([]string, 0, len(alerts))
	for _, a := range alerts {
		ids = append(ids, a.LocationID)
	}
	n, locs, err := s.namesFor(ctx, account, ids)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	rows := make([]views.AlertRow, 0, len(alerts))
	for _, a := range alerts {
		rows = append(rows, alertRow(a, locs[a.LocationID], n, now))
	}
	return rows, nil
}

func plural(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
