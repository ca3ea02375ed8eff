package web

import (
	"encoding/csv"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/dashboard"
	"washboard/web/httpkit"
)

// exportAlerts answers /alerts.csv: every alert of the alerts page's
// filter, not only the rows the page shows.
func (s *Server) exportAlerts(c echo.Context) error {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	q, err := s.parseAlertQuery(c, ss.Account)
	if err != nil {
		return err
	}
	al, err := s.dash.AllAlerts(ctx, q.scope, q.at(s.clock.Now()))
	if err != nil {
		return err
	}
	w := csvResponse(c, "alerts.csv")
	w.Write([]string{"alert_id", "status", "type", "overdue", "created_at", "resolved_at", "resolution_type",
		"refill_count", "building", "floor", "room", "location", "device_macids", "source", "visitor_report", "visitor_text"})
	for _, a := range al.Alerts {
		loc := al.Locations[a.LocationID]
		b, f, r := al.Places.Parts(loc.RoomID)
		status := "open"
		if !a.Open() {
			status = "closed"
		}
		// source says whose alert it is: the service's, or a visitor's
		// report (docs/visitors.md), with what they said.
		source, said, text := "service", "", ""
		if v := a.Visitor; v != nil {
			b, f, r = al.Places.Parts(v.RoomID)
			source, said, text = "visitor", string(v.Kind), v.Text
		}
		w.Write(cells(a.ID, status, string(a.Type), strconv.FormatBool(a.Overdue), isoTime(a.Created), isoTime(a.Resolved),
			strings.ToLower(string(a.Resolution)), strconv.Itoa(a.RefillCount), b, f, r, loc.Name,
			strings.Join(a.MACs, ";"), source, said, text))
	}
	w.Flush()
	return w.Error()
}

// exportDevices answers /devices.csv: one row per device (a location with
// two dispensers has two, told apart by their MAC and position; one with
// none has one, without them), for the whole account or a building, floor
// or room, with the type and health filters of the place pages.
func (s *Server) exportDevices(c echo.Context) error {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	scope := dashboard.Scope{Building: c.QueryParam("building"), Floor: c.QueryParam("floor"), Room: c.QueryParam("room")}
	switch kind, err := s.dash.CheckScope(ctx, ss.Account, s.scopeOf(c), scope); {
	case err != nil:
		return err
	case kind != "":
		return httpkit.BadParam(kind, "names no %s of this account", kind)
	}
	filter, err := parseDeviceFilter(c)
	if err != nil {
		return err
	}
	cards, places, err := s.dash.Devices(ctx, ss.Account, s.scopeOf(c), scope, filter.at(s.clock.Now()))
	if err != nil {
		return err
	}
	w := csvResponse(c, "devices.csv")
	w.Write([]string{"location_id", "location", "device_type", "device_mac", "device_position", "building", "floor", "room", "health", "product_levels",
		"battery_level", "battery_state", "faults", "offline", "last_seen", "runs_out_at", "runs_out_earliest", "runs_out_latest"})
	for _, cd := range cards {
		l := cd.Location
		b, f, r := places.Parts(l.RoomID)
		if len(cd.Devices) == 0 {
			w.Write(cells(l.ID, l.Name, string(l.Type), "", "", b, f, r, cd.Health.String(), "", "", "", "", "", "", "", "", ""))
			continue
		}
		for _, d := range cd.Devices {
			levels := make([]string, len(d.Compartments))
			for i, comp := range d.Compartments {
				levels[i] = strconv.Itoa(comp.Level)
			}
			faults := make([]string, len(d.Faults))
			for i, f := range d.Faults {
				faults[i] = f.Key
			}
			battery := ""
			if d.Battery != nil {
				battery = strconv.Itoa(*d.Battery)
			}
			// When it runs out: the best estimate and the range, all empty
			// without an estimate; a device out has when it went out in all three.
			e := cd.RunsOut[d.MAC]
			w.Write(cells(l.ID, l.Name, string(l.Type), d.MAC, d.Position, b, f, r, cd.Health.String(), strings.Join(levels, ";"),
				battery, string(d.BatteryState), strings.Join(faults, ";"), strconv.FormatBool(d.Offline), isoTime(d.LastSeen),
				isoTime(e.At), isoTime(e.Earliest), isoTime(e.Latest)))
		}
	}
	w.Flush()
	return w.Error()
}

func csvResponse(c echo.Context, name string) *csv.Writer {
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, "text/csv; charset=utf-8")
	h.Set(echo.HeaderContentDisposition, `attachment; filename="`+name+`"`)
	c.Response().WriteHeader(http.StatusOK)
	return csv.NewWriter(c.Response())
}

// cells guards each value against being taken for a formula by a
// spreadsheet: a value starting with = + - @ gets a leading apostrophe.
func cells(values ...string) []string {
	for i, v := range values {
		if v != "" && strings.ContainsRune("=+-@\t\r", rune(v[0])) {
			values[i] = "'" + v
		}
	}
	return values
}

func isoTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02T15:04:05Z")
}
