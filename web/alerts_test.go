package web

import (
	"html"
	"strings"
	"testing"
	"time"
)

// TestAlertsPageShowsANewAlertAtOnce: the alerts page, kept rendered
// between changes, shows an alert as soon as the sync has read it.
func TestAlertsPageShowsANewAlertAtOnce(t *testing.T) {
	t.Parallel()
	a := newApp(t, Config{})
	b := a.browser()
	b.signIn(credA)
	acc := a.world.Accounts()[0]
	var mac, where string
	for _, r := range acc.Rooms {
		for _, l := range r.Locations {
			if l.Type == "towel" && mac == "" && !strings.Contains(b.get("/alerts").body, l.Name+"</") {
				mac, where = l.Devices[0].MAC, html.EscapeString(r.Name)
			}
		}
	}
	if mac == "" {
		t.Fatal("no towel dispenser without an alert")
	}
	before := b.get("/alerts?type=consumable_out").body
	if !a.world.Empty(mac) {
		t.Fatal("the simulator did not find the device")
	}
	a.clock.Advance(time.Minute)
	a.clock.BlockUntil(1)
	after := b.get("/alerts?type=consumable_out").body
	if strings.Count(after, where) <= strings.Count(before, where) {
		t.Errorf("the alerts page does not show the new alert in %s", where)
	}
}
