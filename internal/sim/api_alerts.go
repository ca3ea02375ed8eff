package sim

import (
	"encoding/base64"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"time"
)

// alertFilter is what an alerts request asks for. It travels inside cursors,
// because a request with next or prev ignores every other parameter except
// page_size.
type alertFilter struct {
	AlertID    string `json:"id,omitempty"`
	Building   string `json:"b,omitempty"`
	Floor      string `json:"f,omitempty"`
	Room       string `json:"r,omitempty"`
	Location   int64  `json:"l,omitempty"`
	Status     string `json:"s,omitempty"` // OPEN, CLOSED or empty for both
	Type       string `json:"t,omitempty"`
	Resolution string `json:"rt,omitempty"` // upper case
	Start      int64  `json:"from"`         // Unix ms, inclusive
	End        int64  `json:"to"`           // Unix ms, exclusive
}

// cursor marks a position in the sorted alerts: the key (At, Seq) of the
// last alert of a page (in next) or of the first (in prev).
type cursor struct {
	Filter alertFilter `json:"q"`
	At     int64       `json:"at"`
	Seq    int64       `json:"seq"`
}

// Alerts are sorted by creation date, or by resolution date when only
// closed alerts are asked for (the date the window applies to), oldest
// first, with ties in the order the service recorded them. New alerts sort
// after every existing one, so following cursors never skips or repeats an
// alert when alerts arrive between pages.

func encodeCursor(c cursor) string {
	b, _ := json.Marshal(c) // plain data always encodes
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeCursor(param, s string) (cursor, *apiError) {
	var c cursor
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
	if err != nil {
		raw, err = base64.StdEncoding.DecodeString(s) // accept standard Base64 too
	}
	if err != nil || json.Unmarshal(raw, &c) != nil || c.Filter.End == 0 {
		return c, errBadParam(param, "%s is not a cursor this service issued", param)
	}
	return c, nil
}

// alertFilterFrom reads the filter parameters of a first request.
func (a *Account) alertFilterFrom(p params, now time.Time) (alertFilter, *apiError) {
	var f alertFilter
	s, err := a.readScope(p, false)
	if err != nil {
		return f, err
	}
	if s.building != nil {
		f.Building = s.building.ID
	}
	if s.floor != nil {
		f.Floor = s.floor.ID
	}
	if s.room != nil {
		f.Room = s.room.ID
	}
	if s.location != nil {
		f.Location = s.location.ID
	}
	if id := p.str("alert_id"); id != "" {
		if a.alertIDs[id] == nil {
			return f, errNotFound("alert_id", "no alert with alert_id %q in this account", id)
		}
		f.AlertID = id
	}
	switch st := strings.ToUpper(p.str("alert_status")); st {
	case "", "OPEN", "CLOSED":
		f.Status = st
	default:
		return f, errBadParam("alert_status", "alert_status must be OPEN or CLOSED, got %q", p.str("alert_status"))
	}
	f.Type = p.str("alert_type")
	if rt := p.str("resolution_type"); rt != "" {
		switch up := Resolution(strings.ToUpper(rt)); up {
		case ResolvedByDevice, ResolvedByOffline, ResolvedByUser:
			f.Resolution = string(up)
		default:
			return f, errBadParam("resolution_type", "resolution_type must be resolved, resolved_by_offline or resolved_by_user, got %q", rt)
		}
	}
	today := now.UTC().Truncate(24 * time.Hour)
	start, ok, err := p.date("start_date")
	if err != nil {
		return f, err
	}
	if !ok {
		start = today.AddDate(0, 0, -7)
	}
	end, ok, err := p.date("end_date")
	if err != nil {
		return f, err
	}
	if !ok {
		end = today.AddDate(0, 0, 1)
	}
	if !start.Before(end) {
		return f, errBadParam("end_date", "end_date (%s) must be after start_date (%s)", end.Format(time.RFC3339), start.Format(time.RFC3339))
	}
	f.Start, f.End = start.UnixMilli(), end.UnixMilli()
	return f, nil
}

// alertPage is the alert list envelope.
type alertPage struct {
	Alerts []alertJSON `json:"alerts"`
	Next   *string     `json:"next"`
	Prev   *string     `json:"prev"`
}

type alertJSON struct {
	AlertID          string   `json:"alert_id"`
	DeviceLocationID string   `json:"device_location_id"`
	DeviceMacID      []string `json:"device_macid"`
	AlertStatus      string   `json:"alert_status"`
	AlertType        string   `json:"alert_type"`
	CreatedDate      string   `json:"created_date"`
	ResolvedDate     *string  `json:"resolved_date"`
	ResolutionType   *string  `json:"resolution_type"`
	Overdue          bool     `json:"overdue"`
	RefillCount      int      `json:"refill_count"`
}

const timestampLayout = "2006-01-02T15:04:05.000Z"

func toAlertJSON(al *Alert, now time.Time) alertJSON {
	j := alertJSON{
		AlertID:          al.ID,
		DeviceLocationID: strconv.FormatInt(al.Device.Location.ID, 10),
		DeviceMacID:      []string{al.Device.MAC},
		AlertStatus:      "OPEN",
		AlertType:        string(al.Type),
		CreatedDate:      al.Created.UTC().Format(timestampLayout),
		Overdue:          al.Overdue(now),
		RefillCount:      al.RefillCount,
	}
	if !al.Open() {
		j.AlertStatus = "CLOSED"
		resolved := al.Resolved.UTC().Format(timestampLayout)
		how := string(al.Resolution)
		j.ResolvedDate, j.ResolutionType = &resolved, &how
	}
	return j
}

// alertIndex is one of the account's two sorted views of its alerts.
type alertIndex struct {
	list []*Alert
	key  func(*Alert) (int64, int64)
}

func (a *Account) indexFor(f alertFilter) alertIndex {
	if f.Status == "CLOSED" {
		return alertIndex{a.resolved, func(al *Alert) (int64, int64) { return al.Resolved.UnixMilli(), al.resolvedSeq }}
	}
	return alertIndex{a.alerts, func(al *Alert) (int64, int64) { return al.Created.UnixMilli(), al.seq }}
}

// search returns the index of the first alert whose key is at or after
// (at, seq).
func (x alertIndex) search(at, seq int64) int {
	return sort.Search(len(x.list), func(i int) bool {
		t, s := x.key(x.list[i])
		return t > at || (t == at && s >= seq)
	})
}

func (f alertFilter) matches(al *Alert) bool {
	loc := al.Device.Location
	switch {
	case f.AlertID != "" && al.ID != f.AlertID,
		f.Location != 0 && loc.ID != f.Location,
		f.Room != "" && loc.Room.ID != f.Room,
		f.Floor != "" && loc.Room.Floor.ID != f.Floor,
		f.Building != "" && loc.Room.Floor.Building.ID != f.Building,
		f.Status == "OPEN" && !al.Open(),
		f.Status == "CLOSED" && al.Open(),
		f.Type != "" && string(al.Type) != f.Type,
		f.Resolution != "" && string(al.Resolution) != f.Resolution:
		return false
	}
	return true
}

// listAlerts answers GET /alerts. The caller holds a.mu.
func (a *Account) listAlerts(p params, now time.Time) (*alertPage, *apiError) {
	size, err := p.intRange("page_size", 100, 1, 500)
	if err != nil {
		return nil, err
	}
	var c cursor
	backward := false
	switch {
	case p.has("next"):
		if c, err = decodeCursor("next", p.str("next")); err != nil {
			return nil, err
		}
		c.Seq++ // strictly after the cursor's alert
	case p.has("prev"):
		if c, err = decodeCursor("prev", p.str("prev")); err != nil {
			return nil, err
		}
		backward = true
	default:
		f, err := a.alertFilterFrom(p, now)
		if err != nil {
			return nil, err
		}
		c = cursor{Filter: f, At: f.Start, Seq: 0}
	}

	x := a.indexFor(c.Filter)
	inWindow := func(al *Alert) bool {
		t, _ := x.key(al)
		return t >= c.Filter.Start && t < c.Filter.End
	}
	// scan walks from i in direction dir over the window, calling fn for
	// each matching alert until fn returns false.
	scan := func(i, dir int, fn func(int) bool) {
		for ; i >= 0 && i < len(x.list); i += dir {
			al := x.list[i]
			if !inWindow(al) {
				t, _ := x.key(al)
				if (dir > 0 && t >= c.Filter.End) || (dir < 0 && t < c.Filter.Start) {
					return
				}
				continue
			}
			if c.Filter.matches(al) && !fn(i) {
				return
			}
		}
	}

	var hits []int
	if backward {
		scan(x.search(c.At, c.Seq)-1, -1, func(i int) bool {
			hits = append(hits, i)
			return len(hits) < size
		})
		for l, r := 0, len(hits)-1; l < r; l, r = l+1, r-1 {
			hits[l], hits[r] = hits[r], hits[l]
		}
	} else {
		scan(x.search(c.At, c.Seq), 1, func(i int) bool {
			hits = append(hits, i)
			return len(hits) < size
		})
	}

	page := &alertPage{Alerts: make([]alertJSON, 0, len(hits))}
	for _, i := range hits {
		page.Alerts = append(page.Alerts, toAlertJSON(x.list[i], now))
	}
	if len(hits) == 0 {
		return page, nil
	}
	first, last := x.list[hits[0]], x.list[hits[len(hits)-1]]
	more := func(from, dir int) bool {
		found := false
		scan(from, dir, func(int) bool { found = true; return false })
		return found
	}
	if more(hits[len(hits)-1]+1, 1) {
		at, seq := x.key(last)
		s := encodeCursor(cursor{Filter: c.Filter, At: at, Seq: seq})
		page.Next = &s
	}
	if more(hits[0]-1, -1) {
		at, seq := x.key(first)
		s := encodeCursor(cursor{Filter: c.Filter, At: at, Seq: seq})
		page.Prev = &s
	}
	return page, nil
}
