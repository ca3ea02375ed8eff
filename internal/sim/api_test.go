package sim

import (
	"testing"
	"time"
)

func TestScratch(t *testing.T) {
	t0 := time.Now()
	clock := NewManualClock(time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC))
	w := New(Config{Seed: 7, Locations: 300, Accounts: 2, History: 10 * 24 * time.Hour, Clock: clock, Zone: time.UTC,
		Credentials: []Credentials{{APIKey: "key-a", Authorization: "auth-a"}, {APIKey: "key-b", Authorization: "auth-b"}}})
	t.Log("build", time.Since(t0))
	start := time.Date(2026, 11, 15, 0, 0, 0, 0, time.UTC)
	for _, a := range w.Accounts() {
		n, inw, open, two, four, off, crossing := 0, 0, 0, 0, 0, 0, 0
		types := map[AlertType]int{}
		for _, al := range a.alerts {
			n++
			if !al.Created.Before(start) {
				inw++
			} else if !al.Open() && !al.Resolved.Before(start) {
				crossing++
			}
			if al.Open() {
				open++
			}
			types[al.Type]++
		}
		for _, l := range a.Locations {
			if len(l.Devices) == 2 {
				two++
			}
			if len(l.Devices[0].compartments) == 4 {
				four++
			}
			if locationOff(l) {
				off++
			}
		}
		t.Log(a.ID, a.Name, "alerts", n, "inwindow", inw, "open", open, "crossing", crossing, "rooms", len(a.Rooms), "buildings", len(a.Buildings), "two", two, "four", four, "off", off, types)
	}
	t1 := time.Now()
	clock.Add(24 * time.Hour)
	for _, a := range w.Accounts() {
		a.mu.Lock()
		a.advance(clock.Now())
		a.mu.Unlock()
	}
	t.Log("advance day", time.Since(t1))
	t2 := time.Now()
	c2 := NewManualClock(time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC))
	New(Config{Seed: 7, Locations: 1100, Accounts: 1, History: time.Hour, Clock: c2, Zone: time.UTC})
	t.Log("big", time.Since(t2))
}
