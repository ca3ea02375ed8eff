package webhook

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestEventBody(t *testing.T) {
	alert := `{"alert_id":"7f0c","overdue":false,"refill_count":2,"resolved_date":null}`
	e := Event{
		ID:        "evt_ABC",
		Type:      AlertCreated,
		CreatedAt: time.Date(2026, 11, 22, 10, 15, 0, 123456789, time.FixedZone("CET", 3600)),
		Data:      json.RawMessage(alert),
	}
	body, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"evt_ABC","type":"alert.created","created_at":"2026-11-22T09:15:00.123Z","data":` + alert + `}`
	if string(body) != want {
		t.Errorf("body\n %s\nwant\n %s", body, want)
	}

	var back Event
	if err := json.Unmarshal(body, &back); err != nil {
		t.Fatal(err)
	}
	if back.ID != e.ID || back.Type != e.Type || !back.CreatedAt.Equal(e.CreatedAt.Truncate(time.Millisecond)) || string(back.Data) != alert {
		t.Errorf("read back %+v, want %+v to the millisecond with data kept byte for byte", back, e)
	}
}

func TestEventBodyRequiresEveryField(t *testing.T) {
	for _, body := range []string{
		`{"type":"alert.created","created_at":"2026-11-22T09:15:00.123Z","data":{}}`,
		`{"id":"evt_1","created_at":"2026-11-22T09:15:00.123Z","data":{}}`,
		`{"id":"evt_1","type":"alert.created","data":{}}`,
		`{"id":"evt_1","type":"alert.created","created_at":"yesterday","data":{}}`,
		`{"id":"evt_1","type":"alert.created","created_at":"2026-11-22T09:15:00.123Z"}`,
		`{"id":"evt_1","type":"alert.created","created_at":"2026-11-22T09:15:00.123Z","data":null}`,
		`[]`,
	} {
		var e Event
		if err := json.Unmarshal([]byte(body), &e); err == nil {
			t.Errorf("%s read without error; want one", body)
		}
	}
	var e Event
	if err := json.Unmarshal([]byte(`{"id":"evt_1","type":"device.updated","created_at":"2026-11-22T09:15:00Z","data":{}}`), &e); err != nil || e.Type != "device.updated" {
		t.Errorf("an event of a type added later: %v, type %q; want it read as it is", err, e.Type)
	}
}

func TestParseEventType(t *testing.T) {
	for _, typ := range EventTypes {
		if got, err := ParseEventType(string(typ)); err != nil || got != typ {
			t.Errorf("ParseEventType(%q) = %q, %v", typ, got, err)
		}
	}
	for _, bad := range []string{"", "alert", "Alert.Created", "alert.deleted"} {
		_, err := ParseEventType(bad)
		if err == nil {
			t.Errorf("ParseEventType(%q) succeeded; want an error", bad)
			continue
		}
		if !strings.Contains(err.Error(), "alert.created, alert.updated, alert.resolved") {
			t.Errorf("ParseEventType(%q): %q does not list the known types", bad, err)
		}
	}
}

func TestNewEventID(t *testing.T) {
	form := regexp.MustCompile(`^evt_[A-Z2-7]{26}$`)
	seen := map[string]bool{}
	for range 100 {
		id := NewEventID()
		if !form.MatchString(id) {
			t.Fatalf("NewEventID() = %q, want evt_ and 26 base32 characters", id)
		}
		if seen[id] {
			t.Fatalf("NewEventID returned %q twice", id)
		}
		seen[id] = true
	}
}
