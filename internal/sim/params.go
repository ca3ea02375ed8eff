package sim

import (
	"net/url"
	"strconv"
	"strings"
	"time"
)

// params reads query parameters. A parameter given twice counts with its
// first value; parameters the interface does not know are ignored.
type params url.Values

func (p params) str(name string) string {
	if v := url.Values(p)[name]; len(v) > 0 {
		return strings.TrimSpace(v[0])
	}
	return ""
}

func (p params) has(name string) bool { return p.str(name) != "" }

// intRange reads an integer parameter within [min, max], or def when absent.
func (p params) intRange(name string, def, min, max int) (int, *apiError) {
	s := p.str(name)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, errBadParam(name, "%s must be an integer, got %q", name, s)
	}
	if n < min || n > max {
		return 0, errBadParam(name, "%s must be from %d to %d, got %d", name, min, max, n)
	}
	return n, nil
}

// locationID reads device_location_id, an integer.
func (p params) locationID() (int64, bool, *apiError) {
	s := p.str("device_location_id")
	if s == "" {
		return 0, false, nil
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, false, errBadParam("device_location_id", "device_location_id must be an integer, got %q", s)
	}
	return id, true, nil
}

// date reads a UTC ISO 8601 date or date-time. A time without a zone is
// taken as UTC.
func (p params) date(name string) (time.Time, bool, *apiError) {
	s := p.str(name)
	if s == "" {
		return time.Time{}, false, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true, nil
		}
	}
	return time.Time{}, false, errBadParam(name, "%s must be an ISO 8601 date or date-time such as 2024-05-01T00:00:00Z, got %q", name, s)
}

// scope is the part of the layout a request is filtered to.
type scope struct {
	building *Building
	floor    *Floor
	room     *Room
	location *Location
	device   *Device
}

// readScope reads the hierarchy filters. A filter naming something the
// account does not have is answered 404, so that a mistyped identifier is
// not mistaken for an empty building.
func (a *Account) readScope(p params, withDevice bool) (scope, *apiError) {
	var s scope
	if id := p.str("building_id"); id != "" {
		if s.building = a.buildings[id]; s.building == nil {
			return s, errNotFound("building_id", "no building with building_id %q in this account", id)
		}
	}
	if id := p.str("floor_id"); id != "" {
		if s.floor = a.floors[id]; s.floor == nil {
			return s, errNotFound("floor_id", "no floor with floor_id %q in this account", id)
		}
	}
	if id := p.str("room_id"); id != "" {
		if s.room = a.rooms[id]; s.room == nil {
			return s, errNotFound("room_id", "no room with room_id %q in this account", id)
		}
	}
	id, ok, err := p.locationID()
	if err != nil {
		return s, err
	}
	if ok {
		if s.location = a.locations[id]; s.location == nil {
			return s, errNotFound("device_location_id", "no device location with device_location_id %d in this account", id)
		}
	}
	if withDevice {
		if mac := p.str("device_macid"); mac != "" {
			if !isMAC(mac) {
				return s, errBadParam("device_macid", "device_macid must be 12 hexadecimal digits, got %q", mac)
			}
			if s.device = a.devices[strings.ToUpper(mac)]; s.device == nil {
				return s, errNotFound("device_macid", "no device with device_macid %q in this account", mac)
			}
		}
	}
	return s, nil
}

// holds reports whether a location lies within the scope.
func (s scope) holds(l *Location) bool {
	r := l.Room
	switch {
	case s.location != nil && s.location != l,
		s.room != nil && s.room != r,
		s.floor != nil && s.floor != r.Floor,
		s.building != nil && s.building != r.Floor.Building:
		return false
	case s.device != nil && s.device.Location != l:
		return false
	}
	return true
}

func isMAC(s string) bool {
	if len(s) != 12 {
		return false
	}
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return false
		}
	}
	return true
}
