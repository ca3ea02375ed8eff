package notify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"washboard/internal/domain"
)

// TimeLayout is how the JSON body writes times: ISO 8601 in UTC with
// milliseconds, as the interface writes the dates of alerts.
const TimeLayout = "2006-01-02T15:04:05.000Z"

// FormatJSON is Washboard's own JSON body (FormatJSONBody).
const FormatJSON Format = "json"

func init() { registerFormat(FormatJSON, "JSON", "Washboard's own JSON", FormatJSONBody) }

// jsonBody is the generic webhook body. Fields that do not apply are left
// out: alert when the item is about no alert; where, since, bring and
// action in a digest's top level and in a test; items except in a digest.
type jsonBody struct {
	ID    string          `json:"id"`
	Event Kind            `json:"event"`
	At    string          `json:"at"`
	Title string          `json:"title"`
	Text  string          `json:"text,omitempty"`
	Alert json.RawMessage `json:"alert,omitempty"`
	// Visitor is a visitor's report (the event visitor.report).
	Visitor *jsonVisitor `json:"visitor,omitempty"`
	Where   *jsonWhere   `json:"where,omitempty"`
	Since   string       `json:"since,omitempty"`
	Bring   *jsonBring   `json:"bring,omitempty"`
	Action  string       `json:"action,omitempty"`
	URL     string       `json:"url,omitempty"`
	Items   []jsonItem   `json:"items,omitempty"`
}

// jsonItem is an item of a digest: the fields of a single notification's
// item.
type jsonItem struct {
	Event   Kind            `json:"event"`
	Title   string          `json:"title"`
	Alert   json.RawMessage `json:"alert,omitempty"`
	Visitor *jsonVisitor    `json:"visitor,omitempty"`
	Where   *jsonWhere      `json:"where,omitempty"`
	Since   string          `json:"since,omitempty"`
	Bring   *jsonBring      `json:"bring,omitempty"`
	Action  string          `json:"action,omitempty"`
	URL     string          `json:"url,omitempty"`
}

// jsonVisitor is a visitor's report: its alert id, what is wrong (the
// kinds of domain.VisitorKind, "flood" for many reports of the room at
// once) and the words they wrote, if any.
type jsonVisitor struct {
	AlertID string `json:"alert_id"`
	Kind    string `json:"kind"`
	Text    string `json:"text,omitempty"`
}

type jsonWhere struct {
	Building jsonPart `json:"building"`
	Floor    jsonPart `json:"floor"`
	Room     jsonPart `json:"room"`
	Location jsonPart `json:"location"`
}

type jsonPart struct {
	ID   string            `json:"id"`
	Name string            `json:"name"`
	Type domain.DeviceType `json:"type,omitempty"`
}

type jsonBring struct {
	Refills     int    `json:"refills"`
	BatterySets int    `json:"battery_sets"`
	Text        string `json:"text"`
}

// FormatJSONBody is Washboard's own webhook body:
//
//	{"id": "…", "event": "alert.opened", "at": "…", "title": "Product out: Stall 2, Men's Restroom 3.12",
//	 "alert": {…as GET /alerts returns it…},
//	 "where": {"building": {"id", "name"}, "floor": {…}, "room": {…}, "location": {"id", "name", "type"}},
//	 "since": "…", "bring": {"refills", "battery_sets", "text"}, "action": "…", "url": "…"}
//
// A digest has "event": "digest", its title, its link as "url" and
// "items", each with the fields from "event" to "url" of a single one. A
// test has "event": "test", a "title", a "text" and the dashboard's "url".
func FormatJSONBody(n Notification) ([]byte, error) {
	b := jsonBody{ID: n.ID, Event: n.Kind, At: n.At.UTC().Format(TimeLayout), Title: n.Subject(), URL: n.URL}
	switch n.Kind {
	case KindTest:
		b.Text = wordsIn(n.Lang).testText()
	case KindDigest:
		b.Items = make([]jsonItem, 0, len(n.Items))
		for _, it := range n.Items {
			j, err := toJSONItem(it, n.Lang)
			if err != nil {
				return nil, err
			}
			b.Items = append(b.Items, j)
		}
	default:
		j, err := toJSONItem(n.Item, n.Lang)
		if err != nil {
			return nil, err
		}
		b.Alert, b.Visitor, b.Where, b.Since, b.Bring, b.Action = j.Alert, j.Visitor, j.Where, j.Since, j.Bring, j.Action
	}
	return marshal(b)
}

// marshal writes v as JSON without escaping <, > and & for HTML: a body
// is never embedded in a page, and chat markup reads better as written.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func toJSONItem(it Item, lang string) (jsonItem, error) {
	say := wordsIn(lang)
	j := jsonItem{Event: it.Kind, Title: say.summary(it), Action: say.todo(it), URL: it.URL}
	if it.Alert != nil {
		raw, err := alertJSON(*it.Alert)
		if err != nil {
			return jsonItem{}, err
		}
		j.Alert = raw
	}
	if v := it.Visitor; v != nil {
		j.Visitor = &jsonVisitor{AlertID: v.AlertID, Kind: string(v.Kind), Text: v.Text}
	}
	w := it.Where
	j.Where = &jsonWhere{
		Building: jsonPart{ID: w.Building.ID, Name: w.Building.Name},
		Floor:    jsonPart{ID: w.Floor.ID, Name: w.Floor.Name},
		Room:     jsonPart{ID: w.Room.ID, Name: w.Room.Name},
		Location: jsonPart{ID: w.Location.ID, Name: w.Location.Name, Type: w.Location.Type},
	}
	if !it.Since.IsZero() {
		j.Since = it.Since.UTC().Format(TimeLayout)
	}
	if !it.Bring.IsZero() {
		j.Bring = &jsonBring{Refills: max(it.Bring.Refills, 0), BatterySets: max(it.Bring.BatterySets, 0), Text: say.bring(it.Bring)}
	}
	return j, nil
}

// alertJSON is the alert as GET /alerts rendered it: the kept JSON,
// compacted, or its typed fields written in the same shape.
func alertJSON(a Alert) (json.RawMessage, error) {
	if len(a.JSON) > 0 {
		var buf bytes.Buffer
		if err := json.Compact(&buf, a.JSON); err != nil {
			return nil, fmt.Errorf("the alert's JSON is not valid: %w", err)
		}
		return buf.Bytes(), nil
	}
	type apiAlert struct {
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
	j := apiAlert{
		AlertID: a.ID, DeviceLocationID: a.LocationID, DeviceMacID: a.MACs, AlertStatus: string(a.Status),
		AlertType: string(a.Type), CreatedDate: utcTime(a.Created), Overdue: a.Overdue, RefillCount: a.RefillCount,
	}
	if j.DeviceMacID == nil {
		j.DeviceMacID = []string{}
	}
	if j.AlertStatus == "" {
		j.AlertStatus = string(domain.AlertOpen)
	}
	if !a.Open() {
		resolved, how := utcTime(a.Resolved), string(a.Resolution)
		j.ResolvedDate, j.ResolutionType = &resolved, &how
	}
	return json.Marshal(j)
}

func utcTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(TimeLayout)
}
