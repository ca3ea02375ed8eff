package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// The alert types the spec names. The service may send others; they are
// kept as sent.
const (
	AlertJam               = "jam_fault"
	AlertSensor            = "sensor_fault"
	AlertSystem            = "system_fault"
	AlertBatteryOut        = "battery_out"
	AlertConsumableOut     = "consumable_out"
	AlertIncorrectlyLoaded = "incorrectly_loaded"
	AlertDeviceOff         = "device_off"
)

// Alert statuses and resolution types, in the upper case the service
// answers with (the client upper-cases what it reads).
const (
	StatusOpen   = "OPEN"
	StatusClosed = "CLOSED"

	ResolvedByDevice  = "RESOLVED"
	ResolvedByOffline = "RESOLVED_BY_OFFLINE"
	ResolvedByUser    = "RESOLVED_BY_USER"
)

// Alert is one alert: a condition of a device that needs attention.
type Alert struct {
	ID             string
	LocationID     string   // device_location_id
	MacIDs         []string // device_macid, upper case; the service sends one, as an array or a string
	Status         string   // OPEN or CLOSED, upper case
	Type           string   // alert_type as sent; see the Alert constants
	Created        time.Time
	Resolved       time.Time // zero while open
	ResolutionType string    // upper case; empty while open
	Overdue        bool
	RefillCount    int

	// Extra holds the members the client does not know, as sent.
	Extra map[string]json.RawMessage
}

// AlertQuery is the query of GET /alerts. Zero fields are not sent.
type AlertQuery struct {
	AlertID          string
	BuildingID       string
	FloorID          string
	RoomID           string
	DeviceLocationID string    // an integer, as the service sends it
	AlertStatus      string    // OPEN or CLOSED; both when empty
	AlertType        string    // e.g. AlertDeviceOff
	ResolutionType   string    // resolved, resolved_by_offline or resolved_by_user, in either case
	StartDate        time.Time // sent as UTC ISO 8601
	EndDate          time.Time
	PageSize         int // 1 to 500; the service's default is 100
	// Next and Prev are cursors from an earlier page. With either, only it
	// and PageSize are sent: the service ignores every other parameter.
	Next string
	Prev string
}

// Values returns the query parameters of q.
func (q AlertQuery) Values() url.Values {
	v := url.Values{}
	set := func(name, value string) {
		if value != "" {
			v.Set(name, value)
		}
	}
	if q.PageSize > 0 {
		v.Set("page_size", strconv.Itoa(q.PageSize))
	}
	if q.Next != "" || q.Prev != "" {
		set("next", q.Next)
		set("prev", q.Prev)
		return v
	}
	set("alert_id", q.AlertID)
	set("building_id", q.BuildingID)
	set("floor_id", q.FloorID)
	set("room_id", q.RoomID)
	set("device_location_id", q.DeviceLocationID)
	set("alert_status", q.AlertStatus)
	set("alert_type", q.AlertType)
	set("resolution_type", q.ResolutionType)
	set("start_date", formatDate(q.StartDate))
	set("end_date", formatDate(q.EndDate))
	return v
}

func formatDate(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

// PageInfo is what a page says beyond its records.
type PageInfo struct {
	// Number counts the pages of a walk: 1 for the first. A page fetched
	// on its own is number 1.
	Number int
	// Skipped counts the records that could not be read and were left out;
	// SkipReasons says why, for the first few.
	Skipped     int
	SkipReasons []string

	received int // records sent, read or not: what an offset advances by
}

// AlertPage is one page of GET /alerts.
type AlertPage struct {
	PageInfo
	Alerts []Alert
	Next   string // cursor of the next page; empty on the last
	Prev   string // cursor of the previous page; empty on the first
	// Extra holds the envelope's members the client does not know.
	Extra map[string]json.RawMessage
}

// Alerts fetches one page of alerts.
func (c *Client) Alerts(ctx context.Context, cred Credentials, q AlertQuery) (AlertPage, error) {
	var page AlertPage
	err := c.get(ctx, cred, c.endpoint("alerts", q.Values()), func(body []byte) (err error) {
		page, err = decodeAlertPage(body, c.maxRecords)
		return err
	})
	if err != nil {
		return AlertPage{}, err
	}
	page.Number = 1
	return page, nil
}

// WalkAlerts fetches the alerts of q page by page, following next until a
// page has none, and calls fn with each page as it arrives (an empty page
// included). It stops with fn's error if fn returns one; with an
// ErrCursorLoop error when the service sends a cursor it sent before; with
// an ErrRepeatedPage error when a page holds the same alerts as the page
// before it (under a new cursor); and with an ErrPageLimit error when
// Config.MaxPages pages were not enough.
func (c *Client) WalkAlerts(ctx context.Context, cred Credentials, q AlertQuery, fn func(AlertPage) error) error {
	seen := map[string]bool{}
	if q.Next != "" {
		seen[q.Next] = true
	}
	var prev []string
	for n := 1; ; n++ {
		page, err := c.Alerts(ctx, cred, q)
		if err != nil {
			return onPage(err, n)
		}
		ids := page.recordIDs()
		if repeats(prev, ids) {
			return repeatedPage("GET /alerts", n)
		}
		prev = ids
		page.Number = n
		if err := fn(page); err != nil {
			return err
		}
		switch {
		case page.Next == "":
			return nil
		case seen[page.Next]:
			return &Error{Kind: KindCursorLoop, Op: "GET /alerts",
				Message: fmt.Sprintf("page %d sent back a cursor already followed", n)}
		case n >= c.maxPages:
			return pageLimit("GET /alerts", c.maxPages)
		}
		seen[page.Next] = true
		q = AlertQuery{PageSize: q.PageSize, Next: page.Next}
	}
}

// decodeAlertPage reads the alert list envelope. A bare array of alerts is
// read as a page without cursors. It refuses a page of more than
// maxRecords alerts (see readRecords), and one whose alerts all fail to be
// read (see skipLog.noneRead).
func decodeAlertPage(body []byte, maxRecords int) (AlertPage, error) {
	var page AlertPage
	records, name := json.RawMessage(body), ""
	var o object
	if lead(body) != '[' {
		var err error
		if o, err = readObject(body); err != nil {
			return page, err
		}
		records, _ = o.take("alerts")
		name = "alerts"
	}
	elems, err := readRecords(body, records, name, maxRecords)
	if err != nil {
		return page, err
	}
	for _, f := range []struct {
		name string
		dst  *string
	}{{"next", &page.Next}, {"prev", &page.Prev}} {
		if err := takeString(o, f.name, f.dst); err != nil {
			return AlertPage{}, err
		}
	}
	page.Extra = o.extra()
	var skips skipLog
	for i, raw := range elems {
		a, err := decodeAlert(raw)
		if err != nil {
			skips.add("alerts", i, err)
			continue
		}
		page.Alerts = append(page.Alerts, a)
	}
	if err := skips.noneRead(len(elems)); err != nil {
		return AlertPage{}, err
	}
	page.Skipped, page.SkipReasons, page.received = skips.count, skips.reasons, len(elems)
	return page, nil
}

// DecodeAlert reads one alert as GET /alerts lists it (the data of the
// service's events), as tolerantly as the client reads pages. It fails
// when the value is not an object, has no alert_id, or a known member
// holds a value no accepted shape fits.
func DecodeAlert(raw json.RawMessage) (Alert, error) { return decodeAlert(raw) }

// decodeAlert reads one alert. It fails when the element is not an object,
// has no alert_id, or a known member holds a value no accepted shape fits.
func decodeAlert(raw json.RawMessage) (Alert, error) {
	o, err := readObject(raw)
	if err != nil {
		return Alert{}, err
	}
	var a Alert
	strs := []struct {
		name string
		dst  *string
		norm func(string) string
	}{
		{"alert_id", &a.ID, nil},
		{"device_location_id", &a.LocationID, nil},
		{"alert_status", &a.Status, upper},
		{"alert_type", &a.Type, nil},
		{"resolution_type", &a.ResolutionType, upper},
	}
	for _, f := range strs {
		v, ok := o.take(f.name)
		if !ok {
			continue
		}
		s, err := readString(v)
		if err != nil {
			return Alert{}, fieldError(f.name, err)
		}
		if f.norm != nil {
			s = f.norm(s)
		}
		*f.dst = s
	}
	if a.ID == "" {
		return Alert{}, errors.New("alert_id is missing")
	}
	if v, ok := o.take("device_macid"); ok {
		if a.MacIDs, err = readStrings(v); err != nil {
			return Alert{}, fieldError("device_macid", err)
		}
		for i, m := range a.MacIDs {
			a.MacIDs[i] = strings.ToUpper(m)
		}
	}
	for _, f := range []struct {
		name string
		dst  *time.Time
	}{{"created_date", &a.Created}, {"resolved_date", &a.Resolved}} {
		if v, ok := o.take(f.name); ok {
			if *f.dst, err = readTime(v); err != nil {
				return Alert{}, fieldError(f.name, err)
			}
		}
	}
	if v, ok := o.take("overdue"); ok {
		bs, err := readBools(v)
		if err != nil {
			return Alert{}, fieldError("overdue", err)
		}
		a.Overdue = anyTrue(bs)
	}
	if v, ok := o.take("refill_count"); ok {
		if a.RefillCount, _, err = readInt(v); err != nil {
			return Alert{}, fieldError("refill_count", err)
		}
	}
	a.Extra = o.extra()
	return a, nil
}
