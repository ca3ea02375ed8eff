package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/report"
	"washboard/views"
	"washboard/web/form"
	"washboard/web/httpkit"
)

// The shift times of the shift report, and their time zone, at
// /reports/settings.

// showReportSettings answers /reports/settings.
func (s *Server) showReportSettings(c echo.Context) error {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	shifts, zone, err := s.reportSettings(ctx, ss.Account)
	if err != nil {
		return err
	}
	m := views.ReportSettings{Page: s.page(c, tr(c, "report.shift_times"), "reports"), Shifts: shifts.String(), Zone: zone.String(),
		Saved: c.QueryParam("saved") == "1"}
	m.Crumbs = settingsCrumbs(c)
	m.Zones = zoneOptions(c, m.Zone)
	return render(c, http.StatusOK, views.ReportSettingsPage(m))
}

// saveReportSettings answers the settings form: saved and back to the
// form, or the form again with what was typed and what is wrong.
func (s *Server) saveReportSettings(c echo.Context) error {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	m := views.ReportSettings{Page: s.page(c, tr(c, "report.shift_times"), "reports")}
	if _, err := readForm(c, form.Text("shifts", tr(c, "report.shifts"), &m.Shifts), form.Text("zone", tr(c, "report.zone"), &m.Zone)); err != nil {
		return err
	}
	m.Crumbs = settingsCrumbs(c)
	m.Zones = zoneOptions(c, m.Zone)
	shifts, err := report.ParseShifts(m.Shifts)
	if err != nil {
		m.Error = tr(c, "report.problem_shifts", "problem", shiftProblemWords(c, err))
		return render(c, http.StatusBadRequest, views.ReportSettingsPage(m))
	}
	zone, err := loadZone(m.Zone)
	if err != nil {
		m.Error = tr(c, "report.problem_zone", "zone", fmt.Sprintf("%q", httpkit.Clip(m.Zone)))
		return render(c, http.StatusBadRequest, views.ReportSettingsPage(m))
	}
	if err := s.dash.SaveReportSettings(ctx, ss.Account, shifts, zone); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/reports/settings?saved=1")
}

// shiftProblemWords says what is wrong with the shifts typed, in the
// reader's language.
func shiftProblemWords(c echo.Context, err error) string {
	var p *report.ShiftProblem
	if !errors.As(err, &p) {
		return err.Error()
	}
	q := func(s string) string { return fmt.Sprintf("%q", httpkit.Clip(s)) }
	var s string
	switch p.Kind {
	case report.NoShifts:
		return tr(c, "report.shifts_none")
	case report.TooMany:
		return tr(c, "report.shifts_too_many", "max", strconv.Itoa(report.MaxShifts), "count", strconv.Itoa(p.Count))
	case report.SameName:
		return tr(c, "report.shifts_same_name", "first", strconv.Itoa(p.Other), "second", strconv.Itoa(p.Shift), "name", q(p.Value))
	case report.Overlap:
		return tr(c, "report.shifts_overlap", "first", strconv.Itoa(p.Other), "first_shift", p.OtherValue, "second", strconv.Itoa(p.Shift), "second_shift", p.Value)
	case report.EmptyShift:
		s = tr(c, "report.shift_empty")
	case report.NoRange:
		s = tr(c, "report.shift_no_range", "text", q(p.Value))
	case report.NotClock:
		s = tr(c, "report.shift_not_clock", "text", q(p.Value))
	case report.NoName:
		s = tr(c, "report.shift_no_name")
	case report.NameSpace:
		s = tr(c, "report.shift_name_space", "name", q(p.Value))
	case report.NameChars:
		s = tr(c, "report.shift_name_chars", "name", q(p.Value))
	case report.NoLength:
		s = tr(c, "report.shift_no_length", "name", p.Value, "at", p.OtherValue)
	default:
		return err.Error()
	}
	if p.Shift > 0 {
		return tr(c, "report.shift_numbered", "n", strconv.Itoa(p.Shift), "problem", s)
	}
	return s
}

// loadZone loads an IANA zone by name, or "Local": the server's zone.
func loadZone(name string) (*time.Location, error) {
	if name == "" || strings.ContainsAny(name, "\x00\\") || strings.HasPrefix(name, "/") || strings.Contains(name, "..") {
		return nil, fmt.Errorf("%q is not a time zone name", name)
	}
	return time.LoadLocation(name)
}

// commonZones are the zones the settings form offers; the account's own
// is added when it is not among them.
var commonZones = []string{
	"UTC", "Europe/London", "Europe/Dublin", "Europe/Lisbon", "Europe/Paris", "Europe/Berlin", "Europe/Amsterdam",
	"Europe/Brussels", "Europe/Madrid", "Europe/Rome", "Europe/Stockholm", "Europe/Oslo", "Europe/Copenhagen",
	"Europe/Helsinki", "Europe/Warsaw", "Europe/Vienna", "Europe/Zurich", "Europe/Prague", "Europe/Athens",
	"Europe/Istanbul", "America/New_York", "America/Chicago", "America/Denver", "America/Phoenix",
	"America/Los_Angeles", "America/Anchorage", "America/Toronto", "America/Vancouver", "America/Mexico_City",
	"America/Sao_Paulo", "Asia/Dubai", "Asia/Kolkata", "Asia/Singapore", "Asia/Shanghai", "Asia/Tokyo",
	"Australia/Perth", "Australia/Sydney", "Pacific/Auckland",
}

// settingsCrumbs are the crumbs of the shift times.
func settingsCrumbs(c echo.Context) []views.Crumb {
	return []views.Crumb{{Label: tr(c, "report.crumb_overview"), Href: "/"}, {Label: tr(c, "report.title"), Href: "/reports/shift"},
		{Label: tr(c, "report.shift_times")}}
}

func zoneOptions(c echo.Context, selected string) []views.Option {
	var opts []views.Option
	found := false
	for _, z := range commonZones {
		opts = append(opts, views.Option{Value: z, Label: z, Selected: z == selected})
		found = found || z == selected
	}
	if !found && selected != "" {
		label := selected
		if selected == "Local" {
			label = tr(c, "report.server_zone")
		}
		opts = append([]views.Option{{Value: selected, Label: label, Selected: true}}, opts...)
	}
	return opts
}
