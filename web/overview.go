package web

import (
	"context"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/views"
)

// overviewAlerts is how many of the most urgent alerts the overview lists.
const overviewAlerts = 10

func (s *Server) showOverview(c echo.Context) error {
	ss, sc := sessionOf(c), s.scopeOf(c)
	return s.servePage(c, "/", func(ctx context.Context, now time.Time) (*renderedPage, error) {
		m, err := s.overview(ctx, ss, sc, now)
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
// shown to every session of the account that sees the same buildings.
func (s *Server) overview(ctx context.Context, ss session, sc domain.BuildingScope, now time.Time) (views.Overview, error) {
	o, err := s.dash.Overview(ctx, ss.Account, sc, overviewAlerts)
	if err != nil {
		return views.Overview{}, err
	}
	m := views.Overview{Page: views.Page{AccountName: ss.AccountName, Zone: s.cfg.Zone}, Rollup: o.Rollup}
	l := i18n.From(ctx)
	m.Crumbs = []views.Crumb{{Label: l.T("nav.overview")}}
	for _, b := range o.Buildings {
		card := placeCard(b, "/buildings/"+b.ID, l.N("place.floors_count", b.Parts))
		if o.Levels.Set {
			c := o.BuildingLevels[b.ID]
			card.Levels = &views.LevelCounts{AtRisk: c.AtRisk, Missed: c.Missed}
		}
		m.Buildings = append(m.Buildings, card)
	}
	if o.Levels.Set {
		m.Levels = &views.LevelCounts{AtRisk: o.Levels.AtRisk, Missed: o.Levels.Missed}
	}
	m.Alerts = withLevels(alertRows(o.Alerts, now), o.AlertLevels)
	m.MoreAlerts = max(0, m.Rollup.OpenAlerts-len(m.Alerts))
	return m, nil
}
