package web

import (
	"context"
	"fmt"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/views"
)

// overviewAlerts is how many of the most urgent alerts the overview lists.
const overviewAlerts = 10

func (s *Server) showOverview(c echo.Context) error {
	ss := sessionOf(c)
	return s.servePage(c, "/", func(ctx context.Context, now time.Time) (*renderedPage, error) {
		m, err := s.overview(ctx, ss, now)
		if err != nil {
			return nil, err
		}
		live, err := renderLive(ctx, views.OverviewContent(m))
		if err != nil {
			return nil, err
		}
		return &renderedPage{title: ss.AccountName, nav: "overview", crumbs: m.Crumbs, live: live}, nil
	})
}

// overview builds the front page's model. Its Page holds only what the
// live region shows, nothing of the client's: the region is kept and
// shown to every session of the account.
func (s *Server) overview(ctx context.Context, ss session, now time.Time) (views.Overview, error) {
	m := views.Overview{Page: views.Page{AccountName: ss.AccountName, Zone: s.cfg.Zone}}
	m.Crumbs = []views.Crumb{{Label: "Overview"}}
	var err error
	if m.Rollup, err = s.store.Rollup(ctx, ss.Account, domain.ScopeAccount, ss.Account); err != nil {
		return m, err
	}
	buildings, err := s.store.Buildings(ctx, ss.Account)
	if err != nil {
		return m, err
	}
	rollups, err := s.store.Rollups(ctx, ss.Account, domain.ScopeBuilding)
	if err != nil {
		return m, err
	}
	floors, err := s.store.Floors(ctx, ss.Account, "")
	if err != nil {
		return m, err
	}
	floorsOf := map[string]int{}
	for _, f := range floors {
		floorsOf[f.BuildingID]++
	}
	for _, b := range buildings {
		m.Buildings = append(m.Buildings, placeCard(b.ID, b.Name, "/buildings/"+b.ID, plural(floorsOf[b.ID], "floor"), rollups[b.ID]))
	}
	open, err := s.store.FindAlerts(ctx, store.AlertFilter{Account: ss.Account, Status: domain.AlertOpen, Limit: overviewAlerts})
	if err != nil {
		return m, err
	}
	if m.Alerts, err = s.alertRowsAt(ctx, ss.Account, open, now); err != nil {
		return m, err
	}
	m.MoreAlerts = max(0, m.Rollup.OpenAlerts-len(m.Alerts))
	return m, nil
}

// alertRowsAt turns alerts into rows saying where each is, with their ages
// as of now.
func (s *Server) alertRowsAt(ctx context.Context, account string, alerts []domain.Alert, now time.Time) ([]views.AlertRow, error) {
	ids := make([]string, 0, len(alerts))
	for _, a := range alerts {
		ids = append(ids, a.LocationID)
	}
	n, locs, err := s.namesFor(ctx, account, ids)
	if err != nil {
		return nil, err
	}
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
