package dashboard

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/store/sqlite/sqlitetest"
)

// day is a time of the days around the test's now, 09:00 UTC on Tuesday 24
// November 2026: day(19, 8) is 08:00 on the 19th.
func day(d, h int) time.Time { return time.Date(2026, 11, d, h, 0, 0, 0, time.UTC) }

// historyStore is a store with one location of two towel dispensers, left
// ("aa") and right ("bb"), whose history the test writes as the sync would.
func historyStore(t *testing.T) store.Store {
	t.Helper()
	ctx := context.Background()
	st, _ := sqlitetest.Open(t)
	if _, err := st.ReplaceLayout(ctx, domain.Layout{
		Account:   domain.Account{ID: "acme", Name: "Acme"},
		Buildings: []domain.Building{{ID: "b1", Name: "North"}},
		Floors:    []domain.Floor{{ID: "f1", BuildingID: "b1", Name: "Ground"}},
		Rooms:     []domain.Room{{ID: "r1", FloorID: "f1", Name: "Restroom"}},
		Locations: []domain.Location{{ID: "l1", RoomID: "r1", Name: "Sinks", Type: domain.Towel}},
	}); err != nil {
		t.Fatal(err)
	}
	return st
}

// writeDevices records the two dispensers as a sync that saw them at at
// would: aa at level a (offline since lastSeen when that is not zero), bb
// at 50.
func writeDevices(t *testing.T, st store.Store, at time.Time, a int, lastSeen time.Time) {
	t.Helper()
	ctx := context.Background()
	aa := domain.Device{MAC: "aa", LocationID: "l1", Position: "left", Compartments: []domain.Compartment{{Level: a, Out: a == 0}}, LastSeen: at}
	if !lastSeen.IsZero() {
		aa.Offline, aa.LastSeen = true, lastSeen
	}
	bb := domain.Device{MAC: "bb", LocationID: "l1", Position: "right", Compartments: []domain.Compartment{{Level: 50}}, LastSeen: at}
	r, err := st.BeginDevices(ctx, "acme")
	if err != nil {
		t.Fatal(err)
	}
	r.SeenAt(at)
	if err := r.Write(ctx, []domain.Device{aa, bb}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Commit(ctx); err != nil {
		t.Fatal(err)
	}
}

func steps(s []domain.LevelStep) string {
	var out []string
	for _, x := range s {
		out = append(out, fmt.Sprintf("%s %d", x.At.UTC().Format("2 15:04"), x.Level))
	}
	return strings.Join(out, ", ")
}

func refills(rs []domain.Refill) string {
	var out []string
	for _, r := range rs {
		out = append(out, fmt.Sprintf("%s #%d %d→%d %s", r.At.UTC().Format("2 15:04"), r.Compartment, r.Before, r.After, r.AlertID))
	}
	return strings.Join(out, "; ")
}

func alertIDs(as []domain.Alert) string {
	var out []string
	for _, a := range as {
		out = append(out, a.ID)
	}
	return strings.Join(out, " ")
}

// A location's history over the last 7 days: the level at the window's
// start comes from the last reading before it, a level holds until the
// next reading that changes it, a rise is a refill that names the
// product-out alert closed with it, a closed product-out alert without a
// rise is a refill too, an offline span runs from the device's last
// transmission to the reading that saw it back, and the alerts are those
// open at any moment of the week, each on the charts of the devices it is
// about.
func TestLocationHistoryOfTheLastSevenDays(t *testing.T) {
	ctx := context.Background()
	st := historyStore(t)
	now := day(24, 9)
	writeDevices(t, st, day(15, 12), 70, time.Time{})
	writeDevices(t, st, day(16, 12), 60, time.Time{}) // the state at the window's start, 17th 09:00
	writeDevices(t, st, day(18, 10), 40, time.Time{})
	writeDevices(t, st, day(19, 8), 0, time.Time{})
	writeDevices(t, st, day(19, 11), 100, time.Time{})         // refilled: its alert was closed at 10:40
	writeDevices(t, st, day(21, 10), 100, day(21, 6))          // offline, last heard at 06:00
	writeDevices(t, st, day(21, 16), 100, time.Time{})         // back
	writeDevices(t, st, day(23, 12), 80, time.Time{})          // used
	writeDevices(t, st, now.Add(-time.Minute), 80, day(24, 8)) // offline again, still
	closed := func(id string, typ domain.AlertType, mac string, created, resolved time.Time, how domain.Resolution) domain.Alert {
		a := domain.Alert{ID: id, LocationID: "l1", Status: domain.AlertClosed, Type: typ, Created: created, Resolved: resolved, Resolution: how}
		if mac != "" {
			a.MACs = []string{mac}
		}
		return a
	}
	alerts := []domain.Alert{
		closed("old", domain.AlertConsumableOut, "aa", day(10, 8), day(12, 8), domain.ResolvedByDevice),
		closed("out-aa", domain.AlertConsumableOut, "aa", day(19, 8), day(19, 8).Add(160*time.Minute), domain.ResolvedByUser),
		closed("out-bb", domain.AlertConsumableOut, "bb", day(20, 7), day(20, 9), domain.ResolvedByDevice),
		closed("gone-bb", domain.AlertConsumableOut, "bb", day(22, 7), day(22, 9), domain.ResolvedByOffline),
		closed("jam", domain.AlertJam, "", day(16, 20), day(17, 10), domain.ResolvedByUser),
		{ID: "battery-aa", LocationID: "l1", MACs: []string{"aa"}, Status: domain.AlertOpen, Type: domain.AlertBatteryOut, Created: day(23, 7)},
	}
	if _, err := st.ApplyAlerts(ctx, "acme", store.AlertWrite{Upserts: alerts, SeenAt: now}); err != nil {
		t.Fatal(err)
	}

	s := New(Deps{Store: st})
	devices, err := st.FindDevices(ctx, store.DeviceFilter{Account: "acme", LocationID: "l1"})
	if err != nil {
		t.Fatal(err)
	}
	h, err := s.LocationHistory(ctx, "acme", domain.EveryBuilding(), "l1", devices, now)
	if err != nil {
		t.Fatal(err)
	}
	if !h.From.Equal(day(17, 9)) || !h.To.Equal(now) || !h.Recorded() {
		t.Fatalf("history of %v to %v (recorded %v), want the 7 days to %v", h.From, h.To, h.Recorded(), now)
	}
	if got, want := alertIDs(h.Alerts), "jam out-aa out-bb gone-bb battery-aa"; got != want {
		t.Errorf("the location's alerts: %s, want %s (oldest first, none closed before the week)", got, want)
	}
	if len(h.Devices) != 2 {
		t.Fatalf("%d devices, want 2", len(h.Devices))
	}
	aa, bb := h.Devices[0], h.Devices[1]
	if aa.MAC != "aa" || aa.Position != "left" || bb.MAC != "bb" {
		t.Fatalf("devices %s (%s), %s", aa.MAC, aa.Position, bb.MAC)
	}
	if !aa.Since.Equal(h.From) || len(aa.Levels) != 1 {
		t.Fatalf("aa: since %v with %d compartments, want the window's start and 1", aa.Since, len(aa.Levels))
	}
	if got, want := steps(aa.Levels[0]), "17 09:00 60, 18 10:00 40, 19 08:00 0, 19 11:00 100, 23 12:00 80"; got != want {
		t.Errorf("aa's levels:\n got %s\nwant %s", got, want)
	}
	if got, want := refills(aa.Refills), "19 11:00 #0 0→100 out-aa"; got != want {
		t.Errorf("aa's refills: %s, want %s", got, want)
	}
	if len(aa.Offline) != 2 || !aa.Offline[0].From.Equal(day(21, 6)) || !aa.Offline[0].To.Equal(day(21, 16)) || aa.Offline[0].Ongoing ||
		!aa.Offline[1].From.Equal(day(24, 8)) || !aa.Offline[1].To.Equal(now) || !aa.Offline[1].Ongoing {
		t.Errorf("aa offline: %+v, want 21st 06:00–16:00 and since 24th 08:00, still", aa.Offline)
	}
	if got, want := alertIDs(aa.Alerts), "jam out-aa battery-aa"; got != want {
		t.Errorf("aa's alerts: %s, want %s", got, want)
	}

	if got, want := steps(bb.Levels[0]), "17 09:00 50"; got != want {
		t.Errorf("bb's levels: %s, want %s", got, want)
	}
	if got, want := refills(bb.Refills), "20 09:00 #-1 0→0 out-bb"; got != want {
		t.Errorf("bb's refills: %s, want %s (closed by the device, not by going offline)", got, want)
	}
	if len(bb.Offline) != 0 {
		t.Errorf("bb offline: %+v", bb.Offline)
	}
	if got, want := alertIDs(bb.Alerts), "jam out-bb gone-bb"; got != want {
		t.Errorf("bb's alerts: %s, want %s", got, want)
	}
}

// A device with no readings has no record; an alert that names no device
// is a refill of its location's only device.
func TestHistoryOfDevicesWithoutReadings(t *testing.T) {
	now := day(24, 9)
	from := now.Add(-HistoryWindow)
	out := domain.Alert{ID: "out", LocationID: "l1", Status: domain.AlertClosed, Type: domain.AlertConsumableOut,
		Created: day(20, 7), Resolved: day(20, 9), Resolution: domain.ResolvedByUser}
	h := historyOf([]domain.Device{{MAC: "aa", LocationID: "l1"}}, nil, []domain.Alert{out}, from, now)
	if h.Recorded() || len(h.Devices) != 1 || h.Devices[0].Recorded() || len(h.Devices[0].Levels) != 0 {
		t.Errorf("a device without readings: %+v", h)
	}
	if got, want := refills(h.Devices[0].Refills), "20 09:00 #-1 0→0 out"; got != want {
		t.Errorf("refills: %s, want %s", got, want)
	}
	two := historyOf([]domain.Device{{MAC: "aa"}, {MAC: "bb"}}, nil, []domain.Alert{out}, from, now)
	for _, d := range two.Devices {
		if len(d.Refills) != 0 || len(d.Alerts) != 1 {
			t.Errorf("%s of two: refills %s, alerts %s; want the alert, and no refill, as it names neither", d.MAC, refills(d.Refills), alertIDs(d.Alerts))
		}
	}
}
