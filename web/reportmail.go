package web

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/clientreport"
	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/reportmail"
	"washboard/views"
	"washboard/web/form"
)

// The client report by e-mail, at /reports/client/schedules: the
// account's schedules, a form to add one, and the last sendings
// (docs/service-levels.md#the-client-report-by-e-mail).

// showReportMail answers /reports/client/schedules.
func (s *Server) showReportMail(c echo.Context) error {
	m, err := s.reportMailView(c, views.ReportMail{Saved: c.QueryParam("saved") == "1", Changed: c.QueryParam("changed") == "1",
		Removed: c.QueryParam("removed") == "1", Language: i18n.From(c.Request().Context()).Lang()})
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.ReportMailPage(m))
}

// showReportScheduleForm answers /reports/client/schedules/:id: the page,
// its form filled with the schedule to change; one unknown is a 404.
func (s *Server) showReportScheduleForm(c echo.Context) error {
	rs, err := s.reportMail.Schedule(c.Request().Context(), sessionOf(c).Account, c.Param("id"))
	if err != nil {
		return err
	}
	m, err := s.reportMailView(c, views.ReportMail{Editing: rs.ID, Cadence: rs.Cadence, Addresses: strings.Join(rs.Addresses, ", "),
		Chosen: rs.Buildings, Language: rs.Language})
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.ReportMailPage(m))
}

// addReportSchedule answers the form: added and back to the page, or the
// page again with the form as typed and the field refused and why.
func (s *Server) addReportSchedule(c echo.Context) error {
	ss := sessionOf(c)
	in, refused, err := s.readReportSchedule(c, "")
	if in == nil {
		return err
	}
	rs, err := s.reportMail.AddSchedule(c.Request().Context(), ss.Account, *in, s.scopeOf(c), ss.PersonName)
	if err != nil {
		return scheduleRefused(c, err, refused)
	}
	s.audit(c, domain.AuditReportScheduleAdded, fmt.Sprintf("%s to %s", rs.Cadence, strings.Join(rs.Addresses, ", ")))
	return c.Redirect(http.StatusSeeOther, "/reports/client/schedules?saved=1")
}

// changeReportSchedule answers the form of a schedule changed: changed
// and back to the page, or the form again as typed with the field
// refused and why; a schedule unknown is a 404.
func (s *Server) changeReportSchedule(c echo.Context) error {
	ss := sessionOf(c)
	id := c.Param("id")
	if _, err := s.reportMail.Schedule(c.Request().Context(), ss.Account, id); err != nil {
		return err
	}
	in, refused, err := s.readReportSchedule(c, id)
	if in == nil {
		return err
	}
	rs, err := s.reportMail.ChangeSchedule(c.Request().Context(), ss.Account, id, *in, s.scopeOf(c), ss.PersonName)
	if err != nil {
		return scheduleRefused(c, err, refused)
	}
	s.audit(c, domain.AuditReportScheduleChanged, fmt.Sprintf("%s: %s to %s", rs.ID, rs.Cadence, strings.Join(rs.Addresses, ", ")))
	return c.Redirect(http.StatusSeeOther, "/reports/client/schedules?changed=1")
}

// readReportSchedule reads the schedule's form. It returns what was typed
// and how to refuse it (the page again, with the form of the schedule
// editing, or a new one's, as typed and the field named); no input when
// the form is refused already, with the error that says so.
func (s *Server) readReportSchedule(c echo.Context, editing string) (*reportmail.Input, func(field, msg string) error, error) {
	var in reportmail.Input
	problem, err := readForm(c,
		form.Text("cadence", tr(c, "reportmail.every"), &in.Cadence).OneOf(reportmail.Weekly, reportmail.Monthly).Says(tr(c, "reportmail.problem_cadence")),
		form.Text("addresses", tr(c, "reportmail.addresses"), &in.Addresses).MaxChars(reportmail.MaxAddresses*256),
		form.List("buildings", tr(c, "reportmail.buildings"), &in.Buildings),
		form.Text("language", tr(c, "reportmail.language"), &in.Language).OneOf(append([]string{""}, i18n.Codes()...)...).
			Says(tr(c, "reportmail.problem_language", "codes", strings.Join(i18n.Codes(), ", "))))
	if err != nil {
		return nil, nil, err
	}
	if in.Language == "" { // a form without the field: the language of whoever makes the schedule
		in.Language = i18n.From(c.Request().Context()).Lang()
	}
	refused := func(field, msg string) error {
		m, err := s.reportMailView(c, views.ReportMail{Editing: editing, Cadence: in.Cadence, Addresses: in.Addresses, Chosen: in.Buildings,
			Language: in.Language, Field: field, Problem: msg})
		if err != nil {
			return err
		}
		return render(c, http.StatusUnprocessableEntity, views.ReportMailPage(m))
	}
	if problem != nil {
		return nil, nil, refused(problem.Field, problem.Msg)
	}
	return &in, refused, nil
}

// scheduleRefused answers a schedule the service refused: the form again
// with the field and why, or the error.
func scheduleRefused(c echo.Context, err error, refused func(field, msg string) error) error {
	var bad *reportmail.Problem
	switch {
	case errors.As(err, &bad):
		return refused(bad.Field, bad.Msg)
	case errors.Is(err, reportmail.ErrNoMail):
		return refused("", tr(c, "reportmail.problem_no_mail"))
	case errors.Is(err, reportmail.ErrTooManySchedules):
		return refused("", tr(c, "reportmail.problem_too_many_schedules", "max", strconv.Itoa(reportmail.MaxSchedules)))
	}
	return err
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
	m.Page = s.page(c, tr(c, "reportmail.title"), "reports")
	m.Crumbs = []views.Crumb{{Label: tr(c, "report.crumb_overview"), Href: "/"}, {Label: tr(c, "client.title"), Href: "/reports/client"},
		{Label: tr(c, "client.by_email")}}
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
		m.Schedules = append(m.Schedules, views.ReportScheduleRow{ID: rs.ID, Every: everyWords(c, rs.Cadence),
			Addresses: strings.Join(rs.Addresses, ", "), Buildings: buildingWords(c, rs.Buildings, names), Language: rs.Language,
			Made: tr(c, "reportmail.made_by", "name", rs.CreatedBy, "date", i18n.From(c.Request().Context()).Date(rs.Created, o.Zone))})
	}
	for _, sd := range o.Sendings {
		m.Sendings = append(m.Sendings, sendingView(c, sd, schedules, o.Zone))
	}
	return m, nil
}

// everyWords is when a schedule sends, in words.
func everyWords(c echo.Context, cadence string) string {
	if cadence == reportmail.Weekly {
		return tr(c, "reportmail.every_week")
	}
	return tr(c, "reportmail.every_month")
}

// buildingWords names a schedule's buildings: all, or each by name.
func buildingWords(c echo.Context, ids []string, names map[string]string) string {
	if len(ids) == 0 {
		return tr(c, "client.all_buildings")
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = cmp.Or(names[id], tr(c, "reportmail.building_removed"))
	}
	return strings.Join(out, ", ")
}

// sendingPeriod is a sending's period in words, from its key: 2026-11
// is a month, 2026-11-16 the week from that Monday; the words kept with
// it (English) for a key that reads as neither.
func sendingPeriod(l *i18n.Localizer, sd reportmail.Sending, zone *time.Location) string {
	if t, err := time.ParseInLocation("2006-01", sd.Period, zone); err == nil {
		return clientreport.MonthOf(t, zone).In(l)
	}
	if t, err := time.ParseInLocation(time.DateOnly, sd.Period, zone); err == nil {
		return clientreport.Period{From: t, To: t.AddDate(0, 0, 7)}.In(l)
	}
	return sd.Words
}

// sendingView is a sending in words.
func sendingView(c echo.Context, sd reportmail.Sending, schedules map[string]reportmail.Schedule, zone *time.Location) views.ReportSendingRow {
	l := i18n.From(c.Request().Context())
	v := views.ReportSendingRow{Period: sendingPeriod(l, sd, zone), When: sd.Updated, State: strings.ReplaceAll(sd.State, " ", "-"), Attempts: sd.Attempts,
		Detail: sd.Detail, Schedule: tr(c, "reportmail.schedule_removed")}
	switch sd.Detail { // Washboard's own details, said in the reader's language
	case reportmail.DetailGone:
		v.Detail = tr(c, "reportmail.detail_gone")
	case reportmail.DetailNotMade:
		v.Detail = tr(c, "reportmail.detail_not_made")
	}
	if v.When.IsZero() || sd.State == reportmail.Taken {
		v.When = sd.Started
	}
	if rs, ok := schedules[sd.Schedule]; ok {
		n := len(rs.Addresses) - 1
		switch {
		case rs.Cadence == reportmail.Weekly && n > 0:
			v.Schedule = trn(c, "reportmail.weekly_to_more", n, "address", rs.Addresses[0])
		case rs.Cadence == reportmail.Weekly:
			v.Schedule = tr(c, "reportmail.weekly_to", "address", rs.Addresses[0])
		case n > 0:
			v.Schedule = trn(c, "reportmail.monthly_to_more", n, "address", rs.Addresses[0])
		default:
			v.Schedule = tr(c, "reportmail.monthly_to", "address", rs.Addresses[0])
		}
	}
	v.To = tr(c, "reportmail.delivered_of", "delivered", l.Number(sd.Delivered), "addresses", l.Number(sd.Addresses))
	if sd.Delivered == sd.Addresses {
		v.To = trn(c, "reportmail.addresses_count", sd.Addresses)
	}
	switch sd.State {
	case reportmail.Sent:
		v.Label = tr(c, "reportmail.state_sent")
	case reportmail.Partly:
		v.Label = tr(c, "reportmail.state_partly")
	case reportmail.Failed:
		v.Label = tr(c, "reportmail.state_failed")
	case reportmail.Retrying:
		v.Label = tr(c, "reportmail.state_retrying", "at", l.Time(sd.NextAttempt, zone))
	default:
		v.Label = tr(c, "reportmail.state_sending")
	}
	return v
}
