package web

import (
	"encoding/csv"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/store"
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
	alerts, err := s.store.FindAlerts(ctx, q.AlertFilter)
	if err != nil {
		return err
	}
	ids := make([]string, len(alerts))
	for i, a := range alerts {
		ids[i] = a.LocationID
	}
	n, locs, err := s.namesFor(ctx, ss.Account, ids)
	if err != nil {
		return err
	}
	w := csvResponse(c, "alerts.csv")
	w.Write([]string{"alert_id", "status", "type", "overdue", "created_at", "resolved_at", "resolution_type",
		"refill_count", "building", "floor", "room", "location", "device_macids"})
	for _, a := range alerts {
		b, f, r := n.parts(locs[a.LocationID].RoomID)
		status := "open"
		if !a.Open() {
			status = "closed"
		}
		w.Write(cells(a.ID, status, string(a.Type), strconv.FormatBool(a.Overdue), isoTime(a.Created), isoTime(a.Resolved),
			strings.ToLower(string(a.Resolution)), strconv.Itoa(a.RefillCount), b, f, r, locs[a.LocationID].Name,
			strings.Join(a.MACs, ";")))
	}
	w.Flush()
	return w.Error()
}

// exportDevices answers /devices.csv: one row per device, for the whole
// account or a building, floor or room, with the type and health filters
// of the place pages.
func (s *Server) exportDevices(c echo.Context) error {
	ctx := c.Request().Context()
	ss := sessionOf(c)
	building, floor, room := c.QueryParam("building"), c.QueryParam("floor"), c.QueryParam("room")
	for param, lookup := range map[string]func() error{
		"building": func() error { _, err := s.store.Building(ctx, ss.Account, building); return err },
		"floor":    func() error { _, err := s.store.Floor(ctx, ss.Account, floor); return err },
		"room":     func() error { _, err := s.store.Room(ctx, ss.Account, room); return err },
	} {
		if c.QueryParam(param) != "" && lookup() != nil {
			return errBadParam(param, "names no %s of this account", param)
		}
	}
	filter, err := parseDeviceFilter(c)
	if err != nil {
		return err
	}
	locs, err := s.store.LocationsIn(ctx, ss.Account, building, floor, room)
	if err != nil {
		return err
	}
	devices, err := s.store.FindDevices(ctx, store.DeviceFilter{Account: ss.Account, BuildingID: building, FloorID: floor, RoomID: room})
	if err != nil {
		return err
	}
	open, err := s.store.FindAlerts(ctx, store.AlertFilter{Account: ss.Account, BuildingID: building, FloorID: floor, RoomID: room, Status: domain.AlertOpen})
	if err != nil {
		return err
	}
	n, err := s.loadNames(ctx, ss.Account)
	if err != nil {
		return err
	}
	byLoc := map[string]domain.Location{}
	for _, l := range locs {
		byLoc[l.ID] = l
	}
	w := csvResponse(c, "devices.csv")
	w.Write([]string{"location_id", "location", "device_type", "building", "floor", "room", "health", "product_levels",
		"battery_level", "battery_state", "faults", "offline", "last_seen"})
	for _, cd := range s.cards(locs, devices, open, n) {
		if !filter.keeps(cd) {
			continue
		}
		b, f, r := n.parts(byLoc[cd.LocationID].RoomID)
		if len(cd.Devices) == 0 {
			w.Write(cells(cd.LocationID, cd.Name, string(cd.Type), b, f, r, cd.Health.String(), "", "", "", "", "", ""))
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
			w.Write(cells(cd.LocationID, cd.Name, string(cd.Type), b, f, r, cd.Health.String(), strings.Join(levels, ";"),
				battery, string(d.BatteryState), strings.Join(faults, ";"), strconv.FormatBool(d.Offline), isoTime(d.LastSeen)))
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

// parts returns the building, floor and room names of a room.
func (n names) parts(roomID string) (building, floor, room string) {
	r, ok := n.rooms[roomID]
	if !ok {
		return "", "", ""
	}
	f := n.floors[r.FloorID]
	return n.buildings[f.BuildingID].Name, f.Name, r.Name
}
