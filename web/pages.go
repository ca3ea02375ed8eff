package web

import (
	"context"
	"net/url"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/forecast"
	"washboard/internal/i18n"
	"washboard/views"
)

// page builds what every page carries: who is signed in, the CSRF token,
// how fresh the data is.
func (s *Server) page(c echo.Context, title, nav string) views.Page {
	p := views.Page{Title: title, Nav: nav, CSRFToken: csrfToken(c), Version: s.version, Zone: s.cfg.Zone, NotificationsLink: s.notifier != nil}
	if loaded, _ := c.Get(ctxSessionLoaded).(bool); !loaded {
		return p
	}
	ctx := c.Request().Context()
	if ss, ok := s.currentSession(ctx); ok {
		p.SignedIn, p.AccountName = true, ss.AccountName
		p.PersonName, p.Role, p.SwitchAccounts, p.Portfolio = ss.PersonName, ss.Role, ss.Accounts > 1, ss.Portfolio
		p.Freshness = s.freshness(ctx, ss)
		p.Live = true
	}
	return p
}

// freshness says how old the account's data is, and why it may be out of
// date.
func (s *Server) freshness(ctx context.Context, ss session) views.Freshness {
	return s.dash.Freshness(ctx, ss.Account, ss.Cred)
}

// firstSyncDone reports whether the account's cache has been filled once.
func (s *Server) firstSyncDone(c echo.Context, account string) (bool, error) {
	return s.dash.FirstSyncDone(c.Request().Context(), account)
}

// cardViews presents the cards of locations, with their ages as of now.
func (s *Server) cardViews(ctx context.Context, now time.Time, cards []dashboard.Card, p dashboard.Places) []views.DeviceCard {
	out := make([]views.DeviceCard, 0, len(cards))
	for _, c := range cards {
		out = append(out, s.cardView(ctx, now, c, p))
	}
	return out
}

func (s *Server) cardView(ctx context.Context, now time.Time, cd dashboard.Card, p dashboard.Places) views.DeviceCard {
	l := cd.Location
	c := views.DeviceCard{
		LocationID: l.ID, Name: l.Name, Href: "/locations/" + l.ID, Type: l.Type,
		Where: p.Where(l.RoomID), Now: now, Zone: s.cfg.Zone, Health: cd.Health,
	}
	for _, a := range cd.Alerts {
		c.Alerts = append(c.Alerts, alertRow(a, l, p, now))
	}
	c.Alerts = withClaims(c.Alerts, cd.Claims, c.Href)
	for _, d := range cd.Devices {
		v := views.DeviceView{
			MAC: d.MAC, Position: d.Position, Generation: d.Generation, Compartments: d.Compartments,
			Battery: d.Battery, BatteryState: d.BatteryState, Faults: d.Faults, Offline: d.Offline,
			LastSeen: d.LastSeen, Health: domain.Classify(d, false), RunsOut: runsOut(ctx, cd.RunsOut, d.MAC, now),
		}
		if v.RunsOut != "" {
			v.RunsOutAt = cd.RunsOut[d.MAC].At
		}
		c.Devices = append(c.Devices, v)
	}
	return c
}

// alertRows presents alerts as rows saying where each is, with their ages
// as of now.
func alertRows(al dashboard.Located, now time.Time) []views.AlertRow {
	rows := make([]views.AlertRow, 0, len(al.Alerts))
	for _, a := range al.Alerts {
		rows = append(rows, alertRow(a, al.Locations[a.LocationID], al.Places, now))
	}
	return rows
}

func alertRow(a domain.Alert, l domain.Location, p dashboard.Places, now time.Time) views.AlertRow {
	r := views.AlertRow{
		ID: a.ID, Type: a.Type, Open: a.Open(), Overdue: a.Overdue, Created: a.Created, Resolved: a.Resolved,
		Resolution: a.Resolution, TimeToResolve: a.TimeToResolve(), RefillCount: a.RefillCount,
		LocationName: l.Name, LocationID: a.LocationID, Where: p.Where(l.RoomID), MACs: a.MACs, Now: now,
	}
	if l.ID != "" {
		r.LocationHref = "/locations/" + l.ID
	}
	if v := a.Visitor; v != nil {
		// A visitor's report is of a room: the row names the room.
		_, _, room, ok := p.Path(v.RoomID)
		r.Visitor, r.VisitorText, r.LocationID, r.LocationName, r.Where = v.Kind, v.Text, v.RoomID, room.Name, p.Where(v.RoomID)
		if ok {
			r.LocationHref = "/rooms/" + url.PathEscape(v.RoomID)
		}
	}
	return r
}

// withClaims adds to the rows of open alerts who is on them, and their
// claim page, which leads back to the page at back.
func withClaims(rows []views.AlertRow, claims map[string]domain.Claim, back string) []views.AlertRow {
	for i := range rows {
		if !rows[i].Open {
			continue
		}
		rows[i].ClaimHref = "/alerts/" + url.PathEscape(rows[i].ID) + "/claim?back=" + url.QueryEscape(back)
		if c, ok := claims[rows[i].ID]; ok {
			rows[i].Claim = claimView(c)
		}
	}
	return rows
}

// withRunsOut adds to the rows of open alerts when their dispenser runs
// out, in words, from the estimates by alert id.
func withRunsOut(ctx context.Context, rows []views.AlertRow, estimates map[string]forecast.Estimate, now time.Time) []views.AlertRow {
	for i := range rows {
		if rows[i].Open {
			rows[i].RunsOut = runsOut(ctx, estimates, rows[i].ID, now)
		}
	}
	return rows
}

func claimView(c domain.Claim) *views.ClaimView {
	return &views.ClaimView{Name: c.Name, Note: c.Note, Since: c.At}
}

// placeCard is a building or floor card with its counts.
func placeCard(sum dashboard.Summary, href, detail string) views.PlaceCard {
	return views.PlaceCard{ID: sum.ID, Name: sum.Name, Href: href, Detail: detail, Rollup: sum.Rollup}
}

// runsOut says when a device will run out, as its card shows it, from the
// estimates by key (a MAC, or an alert id): empty without an estimate and
// for a device out already.
func runsOut(ctx context.Context, estimates map[string]forecast.Estimate, key string, now time.Time) string {
	e, ok := estimates[key]
	if !ok || e.Basis == forecast.ReportedOut {
		return ""
	}
	l := i18n.From(ctx)
	p := e.Phrase(now)
	amount := func(a forecast.Amount) string {
		switch a.Unit {
		case "min":
			return l.N("format.minutes", a.N)
		case "h":
			return l.N("format.hours", a.N)
		}
		return l.N("format.days", a.N)
	}
	var point string
	switch p.Point {
	case forecast.PointNone:
		return ""
	case forecast.PointAnyTime:
		point = l.T("format.forecast_any_time")
	case forecast.PointRoughly:
		point = l.T("format.forecast_roughly", "amount", amount(p.At))
	default:
		point = l.T("format.forecast_about", "amount", amount(p.At))
	}
	switch {
	case p.Upper.N == 0:
	case p.Lower.N < 0:
		point = l.T("format.forecast_within", "point", point, "upper", amount(p.Upper))
	default:
		upper := amount(p.Upper)
		point = l.T("format.forecast_between", "point", point, "lower", forecast.Between(amount(p.Lower), upper), "upper", upper)
	}
	if p.Point == forecast.PointAnyTime {
		return l.T("format.runs_out_any_time", "when", point)
	}
	return l.T("format.runs_out_in", "when", point)
}
