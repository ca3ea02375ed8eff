package web

import (
	"fmt"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/clientreport"
	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/rounds"
	"washboard/views"
	"washboard/web/httpkit"
)

// Checks saved (docs/rounds.md#checks-saved) on the trends page and in
// the client report: every is how often fixed rounds would visit every
// room, in whole hours.

// parseEvery reads every (1 to 24 hours; 2 when not given), or says in
// words what is wrong with it.
func parseEvery(c echo.Context) (time.Duration, string) {
	v := c.QueryParam("every")
	if v == "" {
		return rounds.DefaultEvery, ""
	}
	n, err := strconv.Atoi(v)
	if err != nil || time.Duration(n)*time.Hour < clientreport.MinEvery || time.Duration(n)*time.Hour > clientreport.MaxEvery {
		return rounds.DefaultEvery, tr(c, "checks.problem_every", "value", fmt.Sprintf("%q", httpkit.Clip(v)),
			"min", strconv.Itoa(int(clientreport.MinEvery/time.Hour)), "max", strconv.Itoa(int(clientreport.MaxEvery/time.Hour)))
	}
	return time.Duration(n) * time.Hour, ""
}

// checksView is checks saved in words of l's language.
func checksView(l *i18n.Localizer, c clientreport.Checks) views.ChecksSaved {
	v := views.ChecksSaved{Every: c.EveryHours(), None: c.None(), Saved: c.SavedWords(l), NeedVisits: c.Total.NeedVisits, FixedVisits: c.Total.FixedVisits,
		NeedOut: clientreport.OutWords(l, c.Total.NeedOut.Out), FixedOut: clientreport.OutWords(l, c.Total.FixedOut.Out)}
	if c.ServiceHours {
		v.NeedOutService, v.FixedOutService = clientreport.OutWords(l, c.Total.NeedOut.InService), clientreport.OutWords(l, c.Total.FixedOut.InService)
	}
	if c.Cut {
		v.Cut = l.T("checks.cut", "count", l.Number(clientreport.MaxTicks))
	}
	return v
}

// visitorNeedWords is what a visitor's report asks of a round's room, in
// words: "A visitor says: out of soap".
func visitorNeedWords(c echo.Context, n domain.RoundNeed) string {
	switch n.Visitor {
	case domain.VisitorNoPaper:
		return tr(c, "checks.need_visitor_paper")
	case domain.VisitorNoSoap:
		return tr(c, "checks.need_visitor_soap")
	case domain.VisitorNoTowels:
		return tr(c, "checks.need_visitor_towels")
	case domain.VisitorDirty:
		return tr(c, "checks.need_visitor_dirty")
	case domain.VisitorBroken:
		return tr(c, "checks.need_visitor_broken")
	}
	return tr(c, "checks.need_visitor_other", "text", n.VisitorText)
}
