package web

import (
	"context"
	"net/url"
	"slices"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/views"
	"washboard/web/httpkit"
)

// The filters of a floor's and a room's page: device type, health, what
// runs out within a time, and the order by which runs out first.

// deviceFilter is the device type and health filter of floor and room
// pages, from the query parameters type and health.
type deviceFilter struct {
	dashboard.DeviceFilter
	within runsOutOption // the runs_out parameter; zero for any
}

// at is the filter as of now: runs_out counted from now.
func (f deviceFilter) at(now time.Time) dashboard.DeviceFilter {
	d := f.DeviceFilter
	if f.within.within > 0 {
		d.RunsOutBy = now.Add(f.within.within)
	}
	return d
}

func parseDeviceFilter(c echo.Context) (deviceFilter, error) {
	var f deviceFilter
	if t := c.QueryParam("type"); t != "" {
		f.Type = domain.DeviceType(t)
		if !f.Type.Known() {
			return f, httpkit.BadParamSaid("type", tr(c, "place.bad_type", "value", clipQuoted(t)))
		}
	}
	if h := c.QueryParam("health"); h != "" {
		v, ok := domain.ParseHealth(h)
		if !ok {
			return f, httpkit.BadParamSaid("health", tr(c, "place.bad_health", "value", clipQuoted(h)))
		}
		f.Health = &v
	}
	var err error
	if f.within, err = parseRunsOut(c); err != nil {
		return f, err
	}
	f.BySoonestOut, err = parseSortByRunOut(c)
	return f, err
}

// parseRunsOut reads the runs_out parameter: within how long a dispenser
// runs out; the zero option when it is not given.
func parseRunsOut(c echo.Context) (runsOutOption, error) {
	w := c.QueryParam("runs_out")
	if w == "" {
		return runsOutOption{}, nil
	}
	i := slices.IndexFunc(runsOutWithin, func(o runsOutOption) bool { return o.value == w })
	if i < 0 {
		return runsOutOption{}, httpkit.BadParamSaid("runs_out", tr(c, "format.bad_runs_out", "value", clipQuoted(w)))
	}
	return runsOutWithin[i], nil
}

// parseSortByRunOut reads the sort parameter: runs_out puts what runs out
// first at the top; empty keeps the page's own order.
func parseSortByRunOut(c echo.Context) (bool, error) {
	switch o := c.QueryParam("sort"); o {
	case "":
		return false, nil
	case "runs_out":
		return true, nil
	default:
		return false, httpkit.BadParamSaid("sort", tr(c, "format.bad_sort", "value", clipQuoted(o)))
	}
}

// runsOutOption is a choice of the filter of when dispensers run out.
type runsOutOption struct {
	value  string
	within time.Duration
}

var runsOutWithin = []runsOutOption{
	{"2h", 2 * time.Hour},
	{"4h", 4 * time.Hour},
	{"8h", 8 * time.Hour},
	{"24h", 24 * time.Hour},
	{"48h", 48 * time.Hour},
}

// label is the option in words: "Within 8 h (a shift)".
func (o runsOutOption) label(l *i18n.Localizer) string {
	switch o.value {
	case "2h":
		return l.T("format.within_2h")
	case "4h":
		return l.T("format.within_4h")
	case "8h":
		return l.T("format.within_8h")
	case "24h":
		return l.T("format.within_day")
	case "48h":
		return l.T("format.within_two_days")
	}
	return l.T("format.any_time")
}

// runsOutOptions are the choices of the runs_out filter, chosen selected.
func runsOutOptions(ctx context.Context, chosen runsOutOption) []views.Option {
	l := i18n.From(ctx)
	out := []views.Option{{Value: "", Label: runsOutOption{}.label(l), Selected: chosen.value == ""}}
	for _, o := range runsOutWithin {
		out = append(out, views.Option{Value: o.value, Label: o.label(l), Selected: chosen.value == o.value})
	}
	return out
}

// sortOptions are the choices of the sort parameter: the page's own order
// (named ownOrder) or what runs out first.
func sortOptions(ctx context.Context, ownOrder string, bySoonestOut bool) []views.Option {
	return []views.Option{{Value: "", Label: ownOrder, Selected: !bySoonestOut},
		{Value: "runs_out", Label: i18n.From(ctx).T("format.runs_out_first"), Selected: bySoonestOut}}
}

// url is the address of a page at path with the filter, its parameters
// in a fixed order.
func (f deviceFilter) url(path string) string {
	if q := f.query(url.Values{}); len(q) > 0 {
		return path + "?" + q.Encode()
	}
	return path
}

// query adds the filter's parameters to q.
func (f deviceFilter) query(q url.Values) url.Values {
	if f.Type != "" {
		q.Set("type", string(f.Type))
	}
	if f.Health != nil {
		q.Set("health", f.Health.String())
	}
	if f.within.value != "" {
		q.Set("runs_out", f.within.value)
	}
	if f.BySoonestOut {
		q.Set("sort", "runs_out")
	}
	return q
}

func (f deviceFilter) view(ctx context.Context, action string) views.DeviceFilter {
	l := i18n.From(ctx)
	v := views.DeviceFilter{Action: action, Active: f.Active() || f.within.value != "" || f.BySoonestOut}
	v.Sorts = sortOptions(ctx, l.T("place.sort_rooms"), f.BySoonestOut)
	v.RunsOut = runsOutOptions(ctx, f.within)
	v.Types = append(v.Types, views.Option{Value: "", Label: l.T("format.all_types"), Selected: f.Type == ""})
	for _, t := range []domain.DeviceType{domain.Tissue, domain.Towel, domain.Soap, domain.Sanitizer, domain.Collector} {
		v.Types = append(v.Types, views.Option{Value: string(t), Label: views.DeviceTypeName(ctx, t), Selected: f.Type == t})
	}
	v.Healths = append(v.Healths, views.Option{Value: "", Label: l.T("place.any_health"), Selected: f.Health == nil})
	for _, h := range domain.Healths {
		v.Healths = append(v.Healths, views.Option{Value: h.String(), Label: views.HealthName(ctx, h), Selected: f.Health != nil && *f.Health == h})
	}
	return v
}
