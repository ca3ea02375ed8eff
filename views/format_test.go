package views_test

import (
	"context"
	"testing"
	"time"

	. "washboard/views"
)

func TestAgo(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{-time.Minute, "just now"},
		{30 * time.Second, "just now"},
		{5 * time.Minute, "5 min ago"},
		{59 * time.Minute, "59 min ago"},
		{3*time.Hour + 59*time.Minute, "3 h ago"},
		{30 * time.Hour, "1 day ago"},
		{50 * time.Hour, "2 days ago"},
	}
	for _, tt := range tests {
		if got := Ago(context.Background(), now.Add(-tt.d), now); got != tt.want {
			t.Errorf("Ago(%s) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestDuration(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{20 * time.Second, "under 1 min"},
		{45 * time.Minute, "45 min"},
		{80 * time.Minute, "1 h 20 min"},
		{2 * time.Hour, "2 h"},
		{51 * time.Hour, "2 days 3 h"},
		{24 * time.Hour, "1 day"},
	}
	for _, tt := range tests {
		if got := Duration(context.Background(), tt.d); got != tt.want {
			t.Errorf("Duration(%s) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

// A count the page has no words for is written with thousands
// separators in a floor's refill line; a wall screen's clock says the
// time of day in the screen's zone, UTC without one.
func TestNumberAndClock(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -1200: "-1,200"} {
		m := sampleAlerts()
		m.RefillTotals = []RefillTotal{{Building: "North Tower", Floor: "Level 3", Items: []RefillItem{{Count: n, Noun: "tissue rolls"}}}}
		doc, _ := render(t, AlertsContent(m))
		if got := text(doc.Find(".refill-totals li")); got != "North Tower › Level 3: "+want+" tissue rolls" {
			t.Errorf("%d in a refill line reads %q, want it written %q", n, got, want)
		}
	}
	clock := func(zone *time.Location) string {
		doc, _ := render(t, ScreenContent(ScreenView{Now: now, Zone: zone}))
		return text(doc.Find("#screen-clock"))
	}
	if got := clock(cet); got != "14:02" {
		t.Errorf("clock in CET = %q", got)
	}
	if got := clock(nil); got != "13:02" {
		t.Errorf("clock in nil zone = %q, want UTC", got)
	}
}
