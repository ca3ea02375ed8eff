package web

import (
	"net/http"
	"net/url"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/i18n"
	"washboard/internal/servicerecord"
	"washboard/views"
	"washboard/web/httpkit"
)

// The service record (docs/service-record.md): a room's recent visits on
// its page, its record of a period of days on /rooms/:id/service and as
// CSV, and the whole account's as CSV on /reports/service.csv.

// serviceDays is a record's period of whole days in the page's zone:
// [from, to), to the day after the last.
type serviceDays struct {
	from, to time.Time
}

func (p serviceDays) days() int       { return int(p.to.Sub(p.from).Round(24*time.Hour) / (24 * time.Hour)) }
func (p serviceDays) last() time.Time { return p.to.AddDate(0, 0, -1) }

// values is the period as the parameters from and to, both days
// included.
func (p serviceDays) values() url.Values {
	return url.Values{"from": {p.from.Format(time.DateOnly)}, "to": {p.last().Format(time.DateOnly)}}
}

// parseServiceDays reads the parameters from and to, days written
// 2026-11-01, both included, at most servicerecord.MaxDays; the last 7
// days up to today when neither is given, the 7 days from or to the one
// given when one is.
func (s *Server) parseServiceDays(c echo.Context) (serviceDays, error) {
	zone := s.cfg.Zone
	y, m, d := s.clock.Now().In(zone).Date()
	today := time.Date(y, m, d, 0, 0, 0, 0, zone)
	p := serviceDays{from: today.AddDate(0, 0, -6), to: today.AddDate(0, 0, 1)}
	day := func(name string, into *time.Time, shift int) error {
		v := c.QueryParam(name)
		if v == "" {
			return nil
		}
		t, err := time.ParseInLocation(time.DateOnly, v, zone)
		if err != nil {
			return httpkit.BadParamSaid(name, tr(c, "servicerecord.bad_day", "name", name, "value", clipQuoted(v)))
		}
		*into = t.AddDate(0, 0, shift)
		return nil
	}
	if err := day("from", &p.from, 0); err != nil {
		return p, err
	}
	if err := day("to", &p.to, 1); err != nil {
		return p, err
	}
	// One day given: the week it begins, or the week it ends.
	switch from, to := c.QueryParam("from"), c.QueryParam("to"); {
	case to == "" && from != "":
		p.to = p.from.AddDate(0, 0, 7)
	case from == "" && to != "":
		p.from = p.to.AddDate(0, 0, -7)
	}
	switch {
	case !p.to.After(p.from):
		return p, httpkit.BadParamSaid("to", tr(c, "servicerecord.reversed"))
	case servicerecord.CheckPeriod(p.from, p.to) != nil:
		return p, httpkit.BadParamSaid("to", tr(c, "servicerecord.too_long", "days", servicerecord.MaxDays))
	}
	return p, nil
}

// showRoomService answers /rooms/:id/service: the room's record of a
// period of days.
func (s *Server) showRoomService(c echo.Context) error {
	ss, ctx, id := sessionOf(c), c.Request().Context(), c.Param("id")
	p, err := s.parseServiceDays(c)
	if err != nil {
		return err
	}
	rec, err := s.dash.RoomServiceRecord(ctx, ss.Account, s.scopeOf(c), id, p.from, p.to, servicerecord.MaxVisits)
	if err != nil {
		return err
	}
	b, f, r, _ := rec.Places.Path(id)
	self := "/rooms/" + url.PathEscape(id)
	m := views.RoomService{Page: s.page(c, tr(c, "servicerecord.page_heading", "room", r.Name), ""), Room: r.Name, Where: b.Name + " › " + f.Name,
		RoomHref: self, From: p.from.Format(time.DateOnly), To: p.last().Format(time.DateOnly), Record: serviceVisits(rec, s.cfg.Zone),
		CSVHref: self + "/service.csv?" + p.values().Encode(), MaxDays: servicerecord.MaxDays}
	l := i18n.From(ctx)
	m.Period = tr(c, "servicerecord.period", "from", l.Date(p.from, s.cfg.Zone), "to", l.Date(p.last(), s.cfg.Zone))
	n := p.days()
	earlier := serviceDays{from: p.from.AddDate(0, 0, -n), to: p.from}
	m.EarlierHref = self + "/service?" + earlier.values().Encode()
	if now := s.clock.Now(); p.to.Before(now) {
		later := serviceDays{from: p.to, to: p.to.AddDate(0, 0, n)}
		m.LaterHref = self + "/service?" + later.values().Encode()
	}
	m.Crumbs = []views.Crumb{{Label: tr(c, "nav.overview"), Href: "/"}, {Label: b.Name, Href: "/buildings/" + b.ID},
		{Label: f.Name, Href: "/floors/" + f.ID}, {Label: r.Name, Href: self}, {Label: tr(c, "servicerecord.heading")}}
	return render(c, http.StatusOK, views.RoomServicePage(m))
}

// exportRoomService answers /rooms/:id/service.csv: the room's record of
// the period, a row per visit and dispenser.
func (s *Server) exportRoomService(c echo.Context) error {
	ss, ctx, id := sessionOf(c), c.Request().Context(), c.Param("id")
	p, err := s.parseServiceDays(c)
	if err != nil {
		return err
	}
	rec, err := s.dash.RoomServiceRecord(ctx, ss.Account, s.scopeOf(c), id, p.from, p.to, servicerecord.MaxVisits)
	if err != nil {
		return err
	}
	return writeServiceCSV(c, "room-service-"+p.from.Format(time.DateOnly)+"_"+p.last().Format(time.DateOnly)+".csv", rec)
}

// exportService answers /reports/service.csv: the record of every room
// the person sees over the period.
func (s *Server) exportService(c echo.Context) error {
	ss, ctx := sessionOf(c), c.Request().Context()
	p, err := s.parseServiceDays(c)
	if err != nil {
		return err
	}
	rec, err := s.dash.AccountServiceRecord(ctx, ss.Account, s.scopeOf(c), p.from, p.to, true)
	if err != nil {
		return err
	}
	return writeServiceCSV(c, "service-"+p.from.Format(time.DateOnly)+"_"+p.last().Format(time.DateOnly)+".csv", rec)
}

func writeServiceCSV(c echo.Context, name string, rec dashboard.ServiceRecord) error {
	w := csvResponse(c, name)
	w.Write(servicerecord.CSVHeader)
	for _, row := range rec.CSVRows(servicerecord.Names{Room: rec.Places.Parts, Location: rec.Where}) {
		w.Write(cells(row...))
	}
	w.Flush()
	return w.Error()
}

// serviceVisits presents a record's visits.
func serviceVisits(rec dashboard.ServiceRecord, zone *time.Location) views.ServiceVisits {
	out := views.ServiceVisits{Since: rec.Since, Zone: zone}
	for _, v := range rec.Visits {
		sv := views.ServiceVisit{Who: v.Name, Start: v.Start, End: v.End}
		for _, e := range v.Entries {
			sv.Entries = append(sv.Entries, views.ServiceEntry{Kind: string(e.Kind), At: e.At, Outcome: e.Outcome, Reason: e.Reason,
				AlertType: e.AlertType, Location: rec.Where(e.LocationID), TookOver: e.TookOver})
		}
		at := map[string]int{}
		for _, d := range v.Dispensers {
			at[d.LocationID]++
		}
		for _, d := range v.Dispensers {
			sv.Dispensers = append(sv.Dispensers, views.ServiceDispenser{Location: d.Location, Position: d.Position, Type: d.Type,
				Several: at[d.LocationID] > 1, Before: serviceState(d.Before), After: serviceState(d.After)})
		}
		out.Visits = append(out.Visits, sv)
	}
	return out
}

func serviceState(s servicerecord.State) views.ServiceState {
	return views.ServiceState{Level: string(s.Level()), Lowest: s.Lowest()}
}
