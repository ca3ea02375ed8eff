package notify

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"washboard/internal/domain"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// The fixtures: a tissue dispenser in a men's restroom whose product ran
// out, as the service renders its alert.
var (
	decided = time.Date(2026, 11, 22, 9, 17, 30, 0, time.UTC)
	opened  = time.Date(2026, 11, 22, 9, 15, 0, 123_000_000, time.UTC)

	stall2 = Where{
		Building: domain.Building{ID: "b1", Name: "North Tower"},
		Floor:    domain.Floor{ID: "f3", BuildingID: "b1", Name: "Level 3"},
		Room:     domain.Room{ID: "r312", FloorID: "f3", Name: "Men's Restroom 3.12"},
		Location: domain.Location{ID: "1042", RoomID: "r312", Name: "Stall 2", Type: domain.Tissue},
	}
	sinkLeft = Where{
		Building: domain.Building{ID: "b1", Name: "North Tower"},
		Floor:    domain.Floor{ID: "f0", BuildingID: "b1", Name: "Ground Floor"},
		Room:     domain.Room{ID: "r001", FloorID: "f0", Name: "Staff Kitchen"},
		Location: domain.Location{ID: "1001", RoomID: "r001", Name: "Sink Left", Type: domain.Soap},
	}

	// alertJSONText is the alert as GET /alerts returned it, with a field
	// the service added that Washboard does not know.
	alertJSONText = `{"alert_id": "7f0c", "device_location_id": "1042", "device_macid": ["A1B2C3D4E5F6"],
		"alert_status": "OPEN", "alert_type": "consumable_out", "created_date": "2026-11-22T09:15:00.123Z",
		"resolved_date": null, "resolution_type": null, "overdue": false, "refill_count": 2, "priority": "high"}`
)

func productOutAlert() *Alert {
	return &Alert{
		Alert: domain.Alert{
			ID: "7f0c", LocationID: "1042", MACs: []string{"A1B2C3D4E5F6"}, Status: domain.AlertOpen,
			Type: domain.AlertConsumableOut, Created: opened, RefillCount: 2,
		},
		JSON: json.RawMessage(alertJSONText),
	}
}

// productOut is the notification of the alert's opening.
func productOut() Notification {
	a := productOutAlert()
	return Notification{
		ID: "ntf_01JDQ7Z3K4M5N6P7Q8R9S0T1V2", At: decided,
		Item: Item{
			Kind: AlertOpened, Alert: a, Where: stall2, Since: opened,
			Bring: BringFor(a.Alert, stall2.Location.Type),
			URL:   "https://washboard.example.com/locations/1042",
		},
	}
}

// digest lists the alert, a soap dispenser's low battery and an
// offline device.
func digest() Notification {
	return NewDigest("dig_rule7_20261122T0930", decided, "North Tower restrooms", "https://washboard.example.com/alerts", []Item{
		productOut().Item,
		{
			Kind: BatteryLow, Where: sinkLeft, Since: opened.Add(-2 * time.Hour), Bring: Bring{BatterySets: 1},
			URL: "https://washboard.example.com/locations/1001",
		},
		{
			Kind: DeviceOffline, Where: Where{Location: domain.Location{ID: "1077", Name: "Towel 1"}, Room: domain.Room{Name: "Lobby Restroom"}},
			Since: opened.Add(-26 * time.Hour), URL: "https://washboard.example.com/locations/1077",
		},
	})
}

func testNotification() Notification {
	n := NewTest(decided, "https://washboard.example.com/")
	n.ID = "test_FIXED"
	return n
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file; got:\n%s", name, got)
	}
}

// indent is a JSON body indented, for a golden file a person can read.
func indent(t *testing.T, body []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Indent(&buf, body, "", "  "); err != nil {
		t.Fatalf("the body is not JSON: %v\n%s", err, body)
	}
	buf.WriteByte('\n')
	return buf.Bytes()
}
