package web

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/reportmail"
	"washboard/views"
	"washboard/web/form"
)

// The client report by e-mail, at /reports/client/schedules: the
// account's schedules, a form to add one, and the last sendings
// (docs/service-levels.md#the-client-report-by-e-mail).

// showReportMail answers /reports/client/schedules.
func (s *Server) showReportMail(c echo.Context) error {
	m, err := s.reportMailView(c, views.ReportMail{Saved: c.QueryParam("saved") == "1", Removed: c.QueryParam("removed") == "1"})
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.ReportMailPage(m))
}

// addReportSchedule answers the form: added and back to the page, or the
// page again with the form as typed and the field refused and why.
func (s *Server) addReportSchedule(c echo.Context) error {
	ss := sessionOf(c)
	var in reportmail.Input
	problem, err := readForm(c,
		form.Text("cadence", "Every", &in.Cadence).OneOf(reportmail.Weekly, reportmail.Monthly),
		form.Text("addresses", "Addresses", &in.Addresses).MaxChars(reportmail.MaxAddresses*256),
		form.List("buildings", "Buildings", &in.Buildings))
	if err != nil {
		return err
	}
	refused := func(field, msg string) error {
		m, err := s.reportMailView(c, views.ReportMail{Cadence: in.Cadence, Addresses: in.Addresses, Chosen: in.Buildings, Field: field, Problem: msg})
		if err != nil {
			return err
		}
		return render(c, http.StatusUnprocessableEntity, views.ReportMailPage(m))
	}
	if problem != nil {
		return refused(problem.Field, problem.Msg)
	}
	rs, err := s.reportMail.AddSchedule(c.Request().Context(), ss.Account, in, s.scopeOf(c), ss.PersonName)
	var bad *reportmail.Problem
	switch {
	case errors.As(err, &bad):
		return refused(bad.Field, bad.Msg)
	case errors.Is(err, reportmail.ErrNoMail), errors.Is(err, reportmail.ErrTooManySchedules):
		return refused("", err.Error())
	case err != nil:
		return err
	}
	s.audit(c, domain.AuditReportScheduleAdded, fmt.Sprintf("%s to %s", rs.Cadence, strings.Join(rs.Addresses, ", ")))
	return c.Redirect(http.StatusSeeOther, "/reports/client/schedules?saved=1")
}

// removeReportSchedule removes a schedule; one unknown is a 404.
func (s *Server) removeReportSchedule(c echo.Context) error {
	ss := sessionOf(c)
	id := c.Param("id")
	if err := s.reportMail.RemoveSchedule(c.Request().Context(), ss.Account, id); err != nil {
		return err
	}
	s.audit(c, domain.AuditReportScheduleRemoved, id)
	return c.Redirect(http.StatusSeeOther, "/reports/client/schedules?removed=1")
}

// reportMailView fills the page's model m with the account's schedules,
// sendings and the buildings the person may choose.
func (s *Server) reportMailView(c echo.Context, m views.ReportMail) (views.ReportMail, error) {
	ss := sessionOf(c)
	o, err := s.reportMail.Overview(c.Request().Context(), ss.Account)
	if err != nil {
		return m, err
	}
	m.Page = s.page(c, "Client report by e-mail", "reports")
	m.Crumbs = []views.Crumb{{Label: "Overview", Href: "/"}, {Label: "Client report", Href: "/reports/client"}, {Label: "By e-mail"}}
	m.Ready, m.Zone, m.MaxAddresses, m.MaxSchedules = s.reportMail.Ready(), o.Zone, reportmail.MaxAddresses, reportmail.MaxSchedules
	sc := s.scopeOf(c)
	m.Limited = sc.Limited()
	names := map[string]string{}
	for _, b := range o.Buildings {
		names[b.ID] = b.Name
		if sc.Sees(b.ID) {
			m.Buildings = append(m.Buildings, views.Option{Value: b.ID, Label: b.Name, Selected: slices.Contains(m.Chosen, b.ID)})
		}
	}
	schedules := map[string]reportmail.Schedule{}
	for _, rs := range o.Schedules {
		schedules[rs.ID] = rs
		m.Schedules = append(m.Schedules, views.ReportScheduleRow{ID: rs.ID, Every: everyWords(rs.Cadence),
			Addresses: strings.Join(rs.Addresses, ", "), Buildings: buildingWords(rs.Buildings, names),
			Made: fmt.Sprintf("by %s, %s", rs.CreatedBy, rs.Created.In(o.Zone).Format("2 Jan 2006"))})
	}
	for _, sd := range o.Sendings {
		m.Sendings = append(m.Sendings, sendingView(sd, schedules, o.Zone))
	}
	return m, nil
}

// everyWords is when a schedule sends, in words.
func everyWords(cadence string) string {
	if cadence == reportmail.Weekly {
		return "Every week (Monday to Sunday), sent on Monday at 06:00"
	}
	return "Every month, sent on the 1st at 06:00"
}

// buildingWords names a schedule's buildings: all, or each by name.
func buildingWords(ids []string, names map[string]string) string {
	if len(ids) == 0 {
		return "All buildings"
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = cmp.Or(names[id], "a building since removed")
	}
	return strings.Join(out, ", ")
}

// sendingView is a sending in words.
func sendingView(sd reportmail.Sending, schedules map[string]reportmail.Schedule, zone *time.Location) views.ReportSendingRow {
	v := views.ReportSendingRow{Period: sd.Words, When: sd.Updated, State: strings.ReplaceAll(sd.State, " ", "-"), Attempts: sd.Attempts,
		Detail: sd.Detail, Schedule: "A schedule since removed"}
	if v.When.IsZero() || sd.State == reportmail.Taken {
		v.When = sd.Started
	}
	if rs, ok := schedules[sd.Schedule]; ok {
		v.Schedule = map[string]string{reportmail.Weekly: "Weekly", reportmail.Monthly: "Monthly"}[rs.Cadence] + " to " + rs.Addresses[0]
		if n := len(rs.Addresses) - 1; n > 0 {
			v.Schedule += fmt.Sprintf(" and %d more", n)
		}
	}
	v.To = fmt.Sprintf("%d of %d addresses", sd.Delivered, sd.Addresses)
	if sd.Delivered == sd.Addresses {
		v.To = fmt.Sprintf("%d addresses", sd.Addresses)
		if sd.Addresses == 1 {
			v.To = "1 address"
		}
	}
	switch sd.State {
	case reportmail.Sent:
		v.Label = "Sent"
	case reportmail.Partly:
		v.Label = "Partly sent"
	case reportmail.Failed:
		v.Label = "Failed"
	case reportmail.Retrying:
		v.Label = "To be tried again at " + sd.NextAttempt.In(zone).Format("15:04")
	default:
		v.Label = "Being sent"
	}
	return v
}
