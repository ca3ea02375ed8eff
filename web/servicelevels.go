package web

import (
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/servicelevel"
	"washboard/views"
	"washboard/web/form"
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
	m := s.serviceLevelsView(c, f)
	m.Saved = c.QueryParam("saved") == "1"
	return render(c, http.StatusOK, views.ServiceLevelsPage(m))
}

// saveServiceLevels answers the form: saved and back to it, or the form
// again as typed with the field refused and why.
func (s *Server) saveServiceLevels(c echo.Context) error {
	ss := sessionOf(c)
	f := dashboard.ServiceLevelForm{Claim: map[domain.AlertType]string{}, Resolve: map[domain.AlertType]string{}}
	fields := []*form.Field{form.Text("week", "Service hours", &f.Week), form.Text("holidays", "Holidays", &f.Holidays),
		form.Text("zone", "Time zone", &f.Zone)}
	claims, resolves := make([]string, len(domain.AlertTypes)), make([]string, len(domain.AlertTypes))
	for i, t := range domain.AlertTypes {
		fields = append(fields, form.Text("claim_"+string(t), t.Label()+", time to claim", &claims[i]),
			form.Text("resolve_"+string(t), t.Label()+", time to resolve", &resolves[i]))
	}
	problem, err := readForm(c, fields...)
	if err != nil {
		return err
	}
	for i, t := range domain.AlertTypes {
		f.Claim[t], f.Resolve[t] = claims[i], resolves[i]
	}
	if problem != nil {
		m := s.serviceLevelsView(c, f)
		m.Field, m.Problem = problem.Field, problem.Msg
		return render(c, http.StatusUnprocessableEntity, views.ServiceLevelsPage(m))
	}
	words, err := s.dash.SaveServiceLevel(c.Request().Context(), ss.Account, f)
	var refused *dashboard.FieldProblem
	if errors.As(err, &refused) {
		m := s.serviceLevelsView(c, f)
		m.Field, m.Problem = refused.Field, refused.Msg
		return render(c, http.StatusUnprocessableEntity, views.ServiceLevelsPage(m))
	}
	if err != nil {
		return err
	}
	s.audit(c, domain.AuditServiceLevelsChanged, words)
	return c.Redirect(http.StatusSeeOther, "/service-levels?saved=1")
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
	m := views.ServiceLevels{Page: s.page(c, "Service levels", "service-levels"), Week: f.Week, Holidays: f.Holidays, Zone: f.Zone,
		Updated: f.Updated}
	m.Crumbs = []views.Crumb{{Label: "Overview", Href: "/"}, {Label: "Service levels"}}
	m.Zones = zoneOptions(f.Zone)
	for _, t := range domain.AlertTypes {
		m.Targets = append(m.Targets, views.TargetRow{Type: string(t), Label: t.Label(), Claim: f.Claim[t], Resolve: f.Resolve[t]})
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
	v := &views.Level{State: worst.String(), Claim: outcomeView(l.Claim), Resolve: outcomeView(l.Resolve), Explanation: l.Explanation}
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
