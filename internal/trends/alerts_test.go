package trends

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	z, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return z
}

func utc(s string) time.Time {
	t, err := time.Parse("2006-01-02 15:04", s)
	if err != nil {
		panic(err)
	}
	return t
}

func span(loc string, typ domain.AlertType, created, resolved string) store.AlertSpan {
	sp := store.AlertSpan{LocationID: loc, Type: typ, Created: utc(created)}
	if resolved != "" {
		sp.Resolved = utc(resolved)
	}
	return sp
}

// Days are the zone's: an alert counts on the local day it was created,
// and the day the clocks go back is 25 hours long.
func TestDaysAreTheZones(t *testing.T) {
	berlin := mustZone(t, "Europe/Berlin")
	// Berlin leaves summer time on Sunday 25 October 2026 at 01:00 UTC.
	p := NewPeriod(7, utc("2026-10-27 10:00"), berlin)
	if got := p.Start.In(berlin).Format(time.DateTime); got != "2026-10-21 00:00:00" {
		t.Fatalf("the period starts %s; want Wednesday 21 October 00:00 in Berlin", got)
	}
	spans := []store.AlertSpan{
		span("l1", domain.AlertJam, "2026-10-20 22:30", ""),           // 00:30 CEST on the 21st: the first day
		span("l1", domain.AlertJam, "2026-10-20 21:59", ""),           // 23:59 CEST on the 20th: before the period
		span("l1", domain.AlertConsumableOut, "2026-10-24 21:59", ""), // 23:59 CEST on the 24th
		span("l1", domain.AlertConsumableOut, "2026-10-24 22:30", ""), // 00:30 CEST on the 25th
		span("l2", domain.AlertConsumableOut, "2026-10-25 22:30", ""), // 23:30 CET on the 25th
		span("l2", domain.AlertBatteryOut, "2026-10-25 23:30", ""),    // 00:30 CET on the 26th
		span("l2", domain.AlertBatteryOut, "2026-10-27 09:59", ""),    // today
		span("l2", domain.AlertBatteryOut, "2026-10-27 10:00", ""),    // now: not yet
	}
	a := CountAlerts(p, spans, nil)
	if fmt.Sprint(a.Types) != "[consumable_out battery_out jam_fault]" {
		t.Errorf("types %v; want them in the order pages list them", a.Types)
	}
	var got []string
	for _, d := range a.Days {
		got = append(got, fmt.Sprintf("%s %v %d", d.Start.In(berlin).Format("Mon 2 15:04"), d.ByType, d.Total))
	}
	want := []string{
		"Wed 21 00:00 [0 0 1] 1",
		"Thu 22 00:00 [0 0 0] 0",
		"Fri 23 00:00 [0 0 0] 0",
		"Sat 24 00:00 [1 0 0] 1",
		"Sun 25 00:00 [2 0 0] 2",
		"Mon 26 00:00 [0 1 0] 1",
		"Tue 27 00:00 [0 1 0] 1",
	}
	if !slices.Equal(got, want) {
		t.Errorf("days:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if d := a.Days[5].Start.Sub(a.Days[4].Start); d != 25*time.Hour {
		t.Errorf("Sunday 25 October lasts %v in Berlin; want 25h", d)
	}
	if a.Created != 6 {
		t.Errorf("%d alerts created in the period; want 6", a.Created)
	}

	// In UTC the same alerts fall on other days.
	u := CountAlerts(NewPeriod(7, utc("2026-10-27 10:00"), time.UTC), spans, nil)
	if u.Days[0].Total != 0 || u.Days[3].Total != 2 || u.Days[4].Total != 2 {
		t.Errorf("in UTC, the 21st has %d, the 24th %d and the 25th %d; want 0, 2 and 2", u.Days[0].Total, u.Days[3].Total, u.Days[4].Total)
	}
}

// Spring forward: the day the clocks go forward is 23 hours long, and an
// alert in the hour after midnight of the next day is on the next day.
func TestDaysAcrossSpringForward(t *testing.T) {
	ny := mustZone(t, "America/New_York")
	// New York goes to summer time on Sunday 8 March 2026 at 07:00 UTC.
	p := NewPeriod(3, utc("2026-03-09 12:00"), ny)
	a := CountAlerts(p, []store.AlertSpan{
		span("l", domain.AlertJam, "2026-03-08 04:59", ""), // 23:59 EST on the 7th
		span("l", domain.AlertJam, "2026-03-08 05:00", ""), // 00:00 EST on the 8th
		span("l", domain.AlertJam, "2026-03-09 03:59", ""), // 23:59 EDT on the 8th
		span("l", domain.AlertJam, "2026-03-09 04:00", ""), // 00:00 EDT on the 9th
	}, nil)
	if got := []int{a.Days[0].Total, a.Days[1].Total, a.Days[2].Total}; !slices.Equal(got, []int{1, 2, 1}) {
		t.Errorf("per day %v; want [1 2 1]", got)
	}
	if d := a.Days[2].Start.Sub(a.Days[1].Start); d != 23*time.Hour {
		t.Errorf("8 March lasts %v in New York; want 23h", d)
	}
}

// The median time to resolve of a week is of the alerts resolved in it,
// wherever they were created; the weeks at the period's ends are partial.
func TestMedianTimeToResolvePerWeek(t *testing.T) {
	// Thursday 19 November 2026, 12:00 UTC: ten days from Tuesday 10th.
	p := NewPeriod(10, utc("2026-11-19 12:00"), time.UTC)
	spans := []store.AlertSpan{
		span("l", domain.AlertJam, "2026-11-01 00:00", "2026-11-09 23:00"), // resolved before the period
		span("l", domain.AlertJam, "2026-11-05 10:00", "2026-11-10 10:00"), // created before, resolved in the first week: 5 days
		span("l", domain.AlertJam, "2026-11-10 10:00", "2026-11-10 11:00"), // 1 h
		span("l", domain.AlertJam, "2026-11-11 10:00", "2026-11-11 13:00"), // 3 h
		span("l", domain.AlertJam, "2026-11-15 22:00", "2026-11-16 00:30"), // 2.5 h, resolved on Monday: the second week
		span("l", domain.AlertJam, "2026-11-16 08:00", "2026-11-16 10:00"), // 2 h
		span("l", domain.AlertJam, "2026-11-17 08:00", "2026-11-17 18:00"), // 10 h
		span("l", domain.AlertJam, "2026-11-18 08:00", "2026-11-18 09:00"), // 1 h
		span("l", domain.AlertJam, "2026-11-19 08:00", ""),                 // open
		span("l", domain.AlertJam, "2026-11-19 08:00", "2026-11-19 12:00"), // resolved now: after the period
	}
	a := CountAlerts(p, spans, nil)
	var got []string
	for _, w := range a.Weeks {
		got = append(got, fmt.Sprintf("%s–%s partial=%v resolved=%d median=%v", w.Start.Format("Mon 2 15:04"), w.End.Format("Mon 2 15:04"), w.Partial, w.Resolved, w.Median))
	}
	want := []string{
		"Tue 10 00:00–Mon 16 00:00 partial=true resolved=3 median=3h0m0s",
		"Mon 16 00:00–Thu 19 12:00 partial=true resolved=4 median=2h15m0s",
	}
	if !slices.Equal(got, want) {
		t.Errorf("weeks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if a.Resolved != 7 {
		t.Errorf("%d resolved in the period; want 7", a.Resolved)
	}
}

// Weeks start on Monday in the zone, and a whole week is not partial.
func TestWeeksStartOnMondayInTheZone(t *testing.T) {
	tokyo := mustZone(t, "Asia/Tokyo")
	// Monday 2 November 2026 00:00 in Tokyo is Sunday 1 November 15:00 UTC.
	p := NewPeriod(16, utc("2026-11-16 03:00"), tokyo) // from Sunday 1st to Monday 16th, 12:00 in Tokyo
	a := CountAlerts(p, []store.AlertSpan{
		span("l", domain.AlertJam, "2026-11-01 14:00", "2026-11-01 14:59"), // Sunday 23:59 in Tokyo: the first week
		span("l", domain.AlertJam, "2026-11-01 14:00", "2026-11-01 15:00"), // Monday 00:00 in Tokyo: the second
	}, nil)
	if len(a.Weeks) != 4 {
		t.Fatalf("%d weeks; want 4", len(a.Weeks))
	}
	w := a.Weeks[1]
	if w.Partial || w.Start.In(tokyo).Format("Mon 2 15:04") != "Mon 2 00:00" || w.End.Sub(w.Start) != 7*24*time.Hour || w.Resolved != 1 {
		t.Errorf("the second week: %+v; want Monday 2 November in Tokyo, whole, one resolved", w)
	}
	if a.Weeks[0].Resolved != 1 || !a.Weeks[0].Partial || a.Weeks[0].End.Sub(a.Weeks[0].Start) != 24*time.Hour || a.Weeks[2].Partial || !a.Weeks[3].Partial {
		t.Errorf("the weeks: %+v", a.Weeks)
	}
}

// The top lists rank by alerts, ties by where the place is (numbers by
// value), then by id; a room counts its locations' alerts; a location not
// in the layout is listed, after the named ones it ties with, and counts
// for no room.
func TestTopLocationsAndRooms(t *testing.T) {
	p := NewPeriod(30, utc("2026-11-19 12:00"), time.UTC)
	place := func(loc, room, floor, location string) Place {
		return Place{BuildingID: "b", Building: "North", Floor: floor, RoomID: room, Room: "Room " + room,
			LocationID: loc, Location: location}
	}
	places := map[string]Place{
		"a": place("a", "r10", "Level 10", "Sink"),
		"b": place("b", "r2", "Level 2", "Sink"),
		"c": place("c", "r2", "Level 2", "Stall"),
		"d": place("d", "r3", "Level 3", "Towel"),
	}
	var spans []store.AlertSpan
	add := func(loc string, n int, typ domain.AlertType) {
		for range n {
			spans = append(spans, span(loc, typ, "2026-11-18 10:00", ""))
		}
	}
	add("a", 3, domain.AlertJam)
	add("b", 2, domain.AlertConsumableOut)
	add("b", 1, domain.AlertJam)
	add("c", 3, domain.AlertConsumableOut)
	add("d", 1, domain.AlertJam)
	add("zz", 3, domain.AlertJam)                                             // not in the layout
	spans = append(spans, span("d", domain.AlertJam, "2026-10-01 10:00", "")) // before the period

	a := CountAlerts(p, spans, places)
	var locs, rooms []string
	for _, c := range a.Locations {
		locs = append(locs, fmt.Sprintf("%s:%d:%v", c.ID, c.Alerts, c.ByType))
	}
	for _, c := range a.Rooms {
		rooms = append(rooms, fmt.Sprintf("%s:%d:%s", c.ID, c.Alerts, c.Place.Floor))
	}
	// Level 2 before Level 10; Sink before Stall; the unknown last of the threes.
	if want := []string{"b:3:[2 1]", "c:3:[3 0]", "a:3:[0 3]", "zz:3:[0 3]", "d:1:[0 1]"}; !slices.Equal(locs, want) {
		t.Errorf("locations %v; want %v", locs, want)
	}
	if want := []string{"r2:6:Level 2", "r10:3:Level 10", "r3:1:Level 3"}; !slices.Equal(rooms, want) {
		t.Errorf("rooms %v; want %v", rooms, want)
	}
	if a.Rooms[0].Place.Location != "" || a.Rooms[0].Place.Room != "Room r2" {
		t.Errorf("a room's place %+v; want its path without a location", a.Rooms[0].Place)
	}
	if a.Locations[3].Place.Known() || a.Locations[3].Place.LocationID != "zz" {
		t.Errorf("the unknown location's place %+v", a.Locations[3].Place)
	}
	for _, tt := range []struct{ n, want int }{{1, 3}, {2, 2}, {3, 1}, {4, 0}, {5, 0}, {9, 0}, {0, 0}} {
		if got := Tied(a.Locations, tt.n); got != tt.want {
			t.Errorf("Tied(locations, %d) = %d; want %d", tt.n, got, tt.want)
		}
	}
}

// Types the service adds later are counted, after the known ones.
func TestUnknownTypesComeLast(t *testing.T) {
	p := NewPeriod(1, utc("2026-11-19 12:00"), time.UTC)
	a := CountAlerts(p, []store.AlertSpan{
		span("l", "leak_detected", "2026-11-19 01:00", ""),
		span("l", "door_open", "2026-11-19 02:00", ""),
		span("l", domain.AlertDeviceOff, "2026-11-19 03:00", ""),
	}, nil)
	if fmt.Sprint(a.Types) != "[device_off door_open leak_detected]" || fmt.Sprint(a.Days[0].ByType) != "[1 1 1]" {
		t.Errorf("types %v, counts %v", a.Types, a.Days[0].ByType)
	}
}

// An account's totals: the alerts created in the period and in its last
// seven days, and the median time to resolve of those resolved in it.
func TestTotalsOfAPeriod(t *testing.T) {
	t.Parallel()
	p := NewPeriod(30, utc("2026-10-27 10:00"), time.UTC)
	spans := []store.AlertSpan{
		span("l1", domain.AlertJam, "2026-09-20 10:00", "2026-10-01 10:00"),           // created before, resolved in: 11 days
		span("l1", domain.AlertJam, "2026-10-02 10:00", "2026-10-02 11:00"),           // 1 hour
		span("l1", domain.AlertJam, "2026-10-20 23:59", "2026-10-21 02:59"),           // the day before the last 7: 3 hours
		span("l2", domain.AlertConsumableOut, "2026-10-21 00:00", ""),                 // the first of the last 7 days
		span("l2", domain.AlertConsumableOut, "2026-10-27 09:59", ""),                 // today
		span("l2", domain.AlertConsumableOut, "2026-10-27 10:00", "2026-10-27 10:30"), // now: not yet
	}
	got := TotalsOf(p, spans)
	want := Totals{Created: 4, LastWeek: 2, Resolved: 3, Median: 3 * time.Hour}
	if got != want {
		t.Errorf("totals %+v; want %+v", got, want)
	}
}
