package web

import (
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/notify"
	"washboard/internal/servicelevel"
	"washboard/views"
	"washboard/web/form"
	"washboard/web/httpkit"
)

// The account's service level, at /service-levels: the hours the clock
// runs and the targets by alert type (docs/service-levels.md).

// showServiceLevels answers /service-levels.
func (s *Server) showServiceLevels(c echo.Context) error {
	ss := sessionOf(c)
	f, err := s.dash.ServiceLevelForm(c.Request().Context(), ss.Account, s.defaultZone())
	if err != nil {
		return err
	}
	m, err := s.accountLevelsView(c, f)
	if err != nil {
		return err
	}
	m.Saved = c.QueryParam("saved") == "1"
	return render(c, http.StatusOK, views.ServiceLevelsPage(m))
}

// readServiceLevelForm reads the service level form as typed; problem is
// a field the form reader refused.
func readServiceLevelForm(c echo.Context) (dashboard.ServiceLevelForm, *form.Problem, error) {
	f := dashboard.ServiceLevelForm{Claim: map[domain.AlertType]string{}, Resolve: map[domain.AlertType]string{}}
	loc := i18n.From(c.Request().Context())
	fields := []*form.Field{form.Text("week", tr(c, "levels.week"), &f.Week), form.Text("holidays", tr(c, "levels.holidays"), &f.Holidays),
		form.Text("zone", tr(c, "levels.zone"), &f.Zone)}
	claims, resolves := make([]string, len(domain.AlertTypes)), make([]string, len(domain.AlertTypes))
	for i, t := range domain.AlertTypes {
		label := notify.AlertTypeIn(loc, t)
		fields = append(fields, form.Text("claim_"+string(t), tr(c, "levels.target_label", "type", label, "target", tr(c, "levels.claim")), &claims[i]),
			form.Text("resolve_"+string(t), tr(c, "levels.target_label", "type", label, "target", tr(c, "levels.resolve")), &resolves[i]))
	}
	problem, err := readForm(c, fields...)
	for i, t := range domain.AlertTypes {
		f.Claim[t], f.Resolve[t] = claims[i], resolves[i]
	}
	return f, problem, err
}

// saveServiceLevels answers the form: saved and back to it, or the form
// again as typed with the field refused and why.
func (s *Server) saveServiceLevels(c echo.Context) error {
	ss := sessionOf(c)
	f, problem, err := readServiceLevelForm(c)
	if err != nil {
		return err
	}
	refuse := func(field, msg string) error {
		m, err := s.accountLevelsView(c, f)
		if err != nil {
			return err
		}
		m.Field, m.Problem = field, msg
		return render(c, http.StatusUnprocessableEntity, views.ServiceLevelsPage(m))
	}
	if problem != nil {
		return refuse(problem.Field, problem.Msg)
	}
	words, err := s.dash.SaveServiceLevel(c.Request().Context(), ss.Account, s.scopeOf(c), f)
	var refused *dashboard.FieldProblem
	if errors.As(err, &refused) {
		return refuse(refused.Field, levelProblemIn(c, refused))
	}
	var forbidden *domain.ForbiddenError
	if errors.As(err, &forbidden) {
		return &httpkit.Error{Code: http.StatusForbidden, Msg: forbidden.Why}
	}
	if err != nil {
		return err
	}
	s.audit(c, domain.AuditServiceLevelsChanged, words)
	return c.Redirect(http.StatusSeeOther, "/service-levels?saved=1")
}

// accountLevelsView is the account's service level page: its form, and
// the buildings the person sees, each following it or with its own.
func (s *Server) accountLevelsView(c echo.Context, f dashboard.ServiceLevelForm) (views.ServiceLevels, error) {
	m := s.serviceLevelsView(c, f)
	m.Locked, m.Words = s.scopeOf(c).Limited(), f.Words
	bs, err := s.dash.BuildingLevels(c.Request().Context(), sessionOf(c).Account, s.scopeOf(c))
	for _, b := range bs {
		m.Buildings = append(m.Buildings, views.BuildingLevelRow{Name: b.Name, Href: buildingLevelPath(b.ID), Own: b.Own, Words: b.Words})
	}
	return m, err
}

// buildingLevelPath is the address of a building's service level.
func buildingLevelPath(id string) string { return "/service-levels/buildings/" + url.PathEscape(id) }

// showBuildingServiceLevel answers /service-levels/buildings/:id: the
// building's own service level, or the account's to start one from.
func (s *Server) showBuildingServiceLevel(c echo.Context) error {
	ss := sessionOf(c)
	b, f, own, err := s.dash.BuildingServiceLevelForm(c.Request().Context(), ss.Account, s.scopeOf(c), c.Param("id"), s.defaultZone())
	if err != nil {
		return err
	}
	m := s.buildingLevelView(c, b, f, own)
	m.Saved, m.Followed = c.QueryParam("saved") == "1", c.QueryParam("followed") == "1"
	return render(c, http.StatusOK, views.ServiceLevelsPage(m))
}

// saveBuildingServiceLevel gives a building its own service level: saved
// and back to its page, or the form again as typed with the field
// refused and why.
func (s *Server) saveBuildingServiceLevel(c echo.Context) error {
	ss, sc, id := sessionOf(c), s.scopeOf(c), c.Param("id")
	ctx := c.Request().Context()
	f, problem, err := readServiceLevelForm(c)
	if err != nil {
		return err
	}
	refuse := func(field, msg string) error {
		b, _, own, err := s.dash.BuildingServiceLevelForm(ctx, ss.Account, sc, id, s.defaultZone())
		if err != nil {
			return err
		}
		m := s.buildingLevelView(c, b, f, own)
		m.Field, m.Problem = field, msg
		return render(c, http.StatusUnprocessableEntity, views.ServiceLevelsPage(m))
	}
	if problem != nil {
		return refuse(problem.Field, problem.Msg)
	}
	b, words, err := s.dash.SaveBuildingServiceLevel(ctx, ss.Account, sc, id, f)
	var refused *dashboard.FieldProblem
	if errors.As(err, &refused) {
		return refuse(refused.Field, levelProblemIn(c, refused))
	}
	if err != nil {
		return err
	}
	s.audit(c, domain.AuditServiceLevelsChanged, b.Name+" has its own: "+words)
	return c.Redirect(http.StatusSeeOther, buildingLevelPath(id)+"?saved=1")
}

// followAccountLevel removes a building's own service level: its alerts
// follow the account's again.
func (s *Server) followAccountLevel(c echo.Context) error {
	ss, id := sessionOf(c), c.Param("id")
	if _, err := readForm(c); err != nil {
		return err
	}
	b, err := s.dash.FollowAccountLevel(c.Request().Context(), ss.Account, s.scopeOf(c), id)
	if err != nil {
		return err
	}
	s.audit(c, domain.AuditServiceLevelsChanged, b.Name+" follows the account's service level")
	return c.Redirect(http.StatusSeeOther, buildingLevelPath(id)+"?followed=1")
}

func (s *Server) buildingLevelView(c echo.Context, b domain.Building, f dashboard.ServiceLevelForm, own bool) views.ServiceLevels {
	m := s.serviceLevelsView(c, f)
	m.Page.Title = tr(c, "levels.building_heading", "building", b.Name)
	m.Building, m.Own, m.Action = b.Name, own, buildingLevelPath(b.ID)
	m.Crumbs = []views.Crumb{{Label: tr(c, "nav.overview"), Href: "/"}, {Label: tr(c, "levels.title"), Href: "/service-levels"}, {Label: b.Name}}
	return m
}

// defaultZone is the zone an account without a service level starts
// with: the server's, by its name.
func (s *Server) defaultZone() *time.Location {
	if s.cfg.Zone == nil || s.cfg.Zone.String() == "Local" {
		return time.UTC
	}
	return s.cfg.Zone
}

func (s *Server) serviceLevelsView(c echo.Context, f dashboard.ServiceLevelForm) views.ServiceLevels {
	m := views.ServiceLevels{Page: s.page(c, tr(c, "levels.title"), "service-levels"), Week: f.Week, Holidays: f.Holidays, Zone: f.Zone,
		Updated: f.Updated}
	m.Crumbs = []views.Crumb{{Label: tr(c, "nav.overview"), Href: "/"}, {Label: tr(c, "levels.title")}}
	m.Action = "/service-levels"
	m.Zones = zoneOptions(c, f.Zone)
	for _, t := range domain.AlertTypes {
		m.Targets = append(m.Targets, views.TargetRow{Type: string(t), Label: notify.AlertTypeIn(i18n.From(c.Request().Context()), t), Claim: f.Claim[t], Resolve: f.Resolve[t]})
	}
	return m
}

// levelView is an alert measured against its targets, for a page; nil
// when it has none.
func levelView(l dashboard.AlertLevel, ok bool) *views.Level {
	if !ok {
		return nil
	}
	worst := l.Worst()
	if worst == servicelevel.NotApplicable {
		return nil
	}
	v := &views.Level{State: worst.String(), Claim: outcomeView(l.Claim), Resolve: outcomeView(l.Resolve), Explanation: l.Explanation, Clock: clockView(l.Clock)}
	switch worst {
	case servicelevel.Met:
		v.Label = "Target met"
	case servicelevel.Missed:
		v.Label = "Target missed"
	case servicelevel.AtRisk:
		v.Label = "Target at risk"
	default:
		v.Label = "Within target"
	}
	return v
}

func outcomeView(o servicelevel.Outcome) views.LevelOutcome {
	if o.State == servicelevel.NotApplicable {
		return views.LevelOutcome{}
	}
	v := views.LevelOutcome{State: o.State.String(), Label: o.State.Label(), Target: o.Target, Used: o.Used}
	if !o.State.Outcome() {
		v.Deadline = o.Deadline
	}
	return v
}

// withLevels adds to the rows where each alert stands against its
// targets, from the measures by alert id.
func withLevels(rows []views.AlertRow, levels map[string]dashboard.AlertLevel) []views.AlertRow {
	for i := range rows {
		l, ok := levels[rows[i].ID]
		rows[i].Level = levelView(l, ok)
	}
	return rows
}

// clockView is where a service level's clock stopped, for a page to say
// in its language; nil without it.
func clockView(e *servicelevel.Explanation) *views.ClockStops {
	if e == nil {
		return nil
	}
	v := &views.ClockStops{More: e.More, Stopped: e.Stopped, Resumes: e.Resumes, Zone: e.Zone()}
	for _, s := range e.Stops {
		stop := views.ClockStop{From: s.From, To: s.To, OnlyHolidays: e.OnlyHolidays(s)}
		for _, d := range s.Holidays {
			stop.Holidays = append(stop.Holidays, time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC))
		}
		v.Stops = append(v.Stops, stop)
	}
	return v
}
