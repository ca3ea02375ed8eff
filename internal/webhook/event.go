// Package webhook is the format of the Device Monitoring Service's webhooks
// as Washboard reads the spec: what an event body holds, and how a delivery
// is signed and verified. The simulator sends with it; a receiver checks
// with it.
//
// The spec names the feature but shows none of it. The choices:
//
//   - Three event types about alerts: alert.created, alert.updated (the
//     refill_count was raised, or the alert became overdue) and
//     alert.resolved.
//   - The body is JSON: {"id": "evt_…", "type": "alert.created",
//     "created_at": "2026-11-22T09:15:00.000Z", "data": {…}}, where data is
//     the alert exactly as GET /alerts renders it at created_at.
//   - Deliveries are signed as the Standard Webhooks specification says
//     (https://www.standardwebhooks.com): the headers webhook-id,
//     webhook-timestamp and webhook-signature, an HMAC-SHA256 of
//     "id.timestamp.body" keyed with a secret written whsec_ + base64.
package webhook

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// EventType is the type of an event.
type EventType string

// The event types.
const (
	AlertCreated  EventType = "alert.created"  // an alert was opened
	AlertUpdated  EventType = "alert.updated"  // its refill_count was raised, or it became overdue
	AlertResolved EventType = "alert.resolved" // it was closed
)

// EventTypes are all the event types, in the order an alert goes through
// them.
var EventTypes = []EventType{AlertCreated, AlertUpdated, AlertResolved}

// ParseEventType reads an event type's name. It answers an error naming
// the known types for any other.
func ParseEventType(s string) (EventType, error) {
	for _, t := range EventTypes {
		if string(t) == s {
			return t, nil
		}
	}
	names := make([]string, len(EventTypes))
	for i, t := range EventTypes {
		names[i] = string(t)
	}
	return "", fmt.Errorf("unknown event type %q; the types are %s", s, strings.Join(names, ", "))
}

// TimeLayout is how created_at is written: ISO 8601 in UTC with
// milliseconds, as the interface writes the dates of alerts.
const TimeLayout = "2006-01-02T15:04:05.000Z"

// Event is the body of a delivery.
type Event struct {
	ID        string    // "evt_" and a random part; also the delivery's webhook-id
	Type      EventType //
	CreatedAt time.Time // when the change happened, in the service's time
	// Data is the alert as GET /alerts renders it at CreatedAt, kept as
	// the sender wrote it.
	Data json.RawMessage
}

// eventJSON is the wire form of an Event.
type eventJSON struct {
	ID        string          `json:"id"`
	Type      EventType       `json:"type"`
	CreatedAt string          `json:"created_at"`
	Data      json.RawMessage `json:"data"`
}

// MarshalJSON writes the event's body, created_at to the millisecond.
func (e Event) MarshalJSON() ([]byte, error) {
	return json.Marshal(eventJSON{ID: e.ID, Type: e.Type, CreatedAt: e.CreatedAt.UTC().Format(TimeLayout), Data: e.Data})
}

// UnmarshalJSON reads an event's body. It requires every field; a type it
// does not know is kept as it is, for its reader to refuse in words
// (ParseEventType names the types there are).
func (e *Event) UnmarshalJSON(b []byte) error {
	var j eventJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	switch {
	case j.ID == "":
		return errors.New("event without an id")
	case j.Type == "":
		return errors.New("event without a type")
	case len(j.Data) == 0 || string(j.Data) == "null":
		return errors.New("event without data")
	}
	at, err := time.Parse(time.RFC3339Nano, j.CreatedAt)
	if err != nil {
		return fmt.Errorf("event created_at %q is not an ISO 8601 date-time", j.CreatedAt)
	}
	*e = Event{ID: j.ID, Type: j.Type, CreatedAt: at.UTC(), Data: j.Data}
	return nil
}

// NewEventID returns a fresh event identifier: "evt_" followed by 26
// random base32 characters (130 bits).
func NewEventID() string { return "evt_" + rand.Text() }
