package web

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/notify"
	"washboard/internal/servicelevel"
)

// levelProblemIn is why the service level form was refused, in the
// page's language: a target's problem after its alert type and which
// target it is. A problem servicelevel gives no code is said in English.
func levelProblemIn(c echo.Context, p *dashboard.FieldProblem) string {
	var se *servicelevel.Error
	if !errors.As(p.Err, &se) || se.Code == "" {
		return p.Msg
	}
	loc := i18n.From(c.Request().Context())
	a := func(i int) string {
		if i < len(se.Args) {
			return fmt.Sprint(se.Args[i])
		}
		return ""
	}
	if se.Code == servicelevel.ResolveShorter {
		t, _ := strings.CutPrefix(p.Field, "resolve_")
		return tr(c, "slform.resolve_shorter", "type", notify.AlertTypeIn(loc, domain.AlertType(t)), "resolve", a(1), "claim", a(2))
	}
	words := levelWordsIn(c, loc, se.Code, a)
	if words == "" {
		return p.Msg
	}
	if t, ok := strings.CutPrefix(p.Field, "claim_"); ok {
		return tr(c, "slform.claim_problem", "type", notify.AlertTypeIn(loc, domain.AlertType(t)), "problem", words)
	}
	if t, ok := strings.CutPrefix(p.Field, "resolve_"); ok {
		return tr(c, "slform.resolve_problem", "type", notify.AlertTypeIn(loc, domain.AlertType(t)), "problem", words)
	}
	return words
}

// levelWordsIn says a problem of the service level as typed, its values
// a(0), a(1)… (servicelevel.Code says which each is); "" for a code it
// does not know.
func levelWordsIn(c echo.Context, loc *i18n.Localizer, code servicelevel.Code, a func(int) string) string {
	q := func(i int) string { return strconv.Quote(a(i)) }
	switch code {
	case servicelevel.WeekTooLong:
		return tr(c, "slform.week_too_long", "n", a(0), "max", a(1))
	case servicelevel.ClosedAndOpen:
		return tr(c, "slform.closed_and_open", "day", dayIn(loc, a(0)), "hours", a(1))
	case servicelevel.TooManyIntervals:
		return tr(c, "slform.too_many_intervals", "day", dayIn(loc, a(0)), "n", a(1), "max", a(2))
	case servicelevel.ClosedEveryDay:
		return tr(c, "slform.closed_every_day", "text", q(0))
	case servicelevel.TimesNoDays:
		return tr(c, "slform.times_no_days", "text", q(0))
	case servicelevel.DaysNoTimes:
		return tr(c, "slform.days_no_times", "text", q(0))
	case servicelevel.NotADay:
		return tr(c, "slform.not_a_day", "text", q(0))
	case servicelevel.NotAnInterval:
		return tr(c, "slform.not_an_interval", "text", q(0))
	case servicelevel.StartsAt24:
		return tr(c, "slform.starts_at_24", "text", q(0))
	case servicelevel.CoversNoTime:
		return tr(c, "slform.covers_no_time", "text", q(0), "time", a(1))
	case servicelevel.NotATimeOfDay:
		return tr(c, "slform.not_a_time_of_day", "text", q(0))
	case servicelevel.Overlap:
		return tr(c, "slform.overlap", "first", a(0), "second", a(1))
	case servicelevel.HolidaysTooLong:
		return tr(c, "slform.holidays_too_long", "n", a(0), "max", a(1))
	case servicelevel.TooManyHolidays:
		return tr(c, "slform.too_many_holidays", "n", a(0), "max", a(1))
	case servicelevel.NotADate:
		return tr(c, "slform.not_a_date", "text", q(0))
	case servicelevel.NoZone:
		return tr(c, "slform.no_zone")
	case servicelevel.ZoneTooLong:
		return tr(c, "slform.zone_too_long", "text", fmt.Sprintf("%.64q", a(0)))
	case servicelevel.NotAZone:
		return tr(c, "slform.not_a_zone", "text", q(0))
	case servicelevel.TargetNegative:
		return tr(c, "slform.target_negative", "text", q(0))
	case servicelevel.NotATime:
		return tr(c, "slform.not_a_time", "text", q(0))
	case servicelevel.TargetZero:
		return tr(c, "slform.target_zero", "text", q(0))
	case servicelevel.TargetTooLong:
		return tr(c, "slform.target_too_long", "text", q(0), "max", a(1))
	case servicelevel.NotWholeMinutes:
		return tr(c, "slform.not_whole_minutes", "text", q(0))
	}
	return ""
}

// dayIn is a weekday servicelevel names in English ("Monday") in loc's
// language, with a capital: it begins the sentence.
func dayIn(loc *i18n.Localizer, english string) string {
	for d := time.Sunday; d <= time.Saturday; d++ {
		if d.String() == english {
			name := loc.Weekday(d)
			first, size := utf8.DecodeRuneInString(name)
			return string(unicode.ToUpper(first)) + name[size:]
		}
	}
	return english
}
