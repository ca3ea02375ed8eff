package trends

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"washboard/internal/store"
)

func reading(at string, levels ...int) store.Reading {
	return store.Reading{At: utc(at), Levels: levels, Battery: 80}
}

// used lists the non-zero hours of a heat map: "Mon 08 10".
func used(h Heat) []string {
	days := []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}
	var out []string
	for d := range h.Used {
		for hr, u := range h.Used[d] {
			if u != 0 {
				out = append(out, fmt.Sprintf("%s %02d %d", days[d], hr, u))
			}
		}
	}
	return out
}

// A level that falls is use, in the hour of the reading that shows it; a
// refill is not negative use; a smaller rise is noise, and only new lows
// below it count; a drop seen after the device was offline is not
// counted; nothing before the window or from the hour under way on.
func TestHeatCountsUseNotRefillsOrNoise(t *testing.T) {
	now := utc("2026-11-19 12:30") // Thursday
	c := NewHeatCounter(now, time.UTC)
	offline := reading("2026-11-17 07:00", 85)
	offline.Offline = true
	c.Add([]store.Reading{
		reading("2026-10-20 10:00", 80), // before the window: the level it starts from
		reading("2026-10-21 10:00", 78), // before the window: not counted
		reading("2026-11-16 08:10", 70), // Monday: 8 used at 08
		reading("2026-11-16 08:50", 72), // noise
		reading("2026-11-16 08:55", 71), // not below 70: not counted
		reading("2026-11-16 09:20", 65), // 5 at 09
		reading("2026-11-16 10:00", 95), // a refill
		reading("2026-11-16 10:30", 90), // 5 at 10
		reading("2026-11-16 11:00", 99), // a rise of 9: noise
		reading("2026-11-16 11:30", 85), // 5 at 11, from 90
		offline,                         // Tuesday: offline
		reading("2026-11-17 09:00", 60), // heard again: not counted
		reading("2026-11-17 10:00", 55), // 5 at 10
		reading("2026-11-19 12:00", 40), // the hour under way: not counted
	})
	h := c.Heat()
	want := []string{"Mon 08 8", "Mon 09 5", "Mon 10 5", "Mon 11 5", "Tue 10 5"}
	if got := used(h); !slices.Equal(got, want) {
		t.Errorf("used %v; want %v", got, want)
	}
	if h.Total() != 28 || h.Devices != 1 {
		t.Errorf("total %d over %d devices; want 28 over 1", h.Total(), h.Devices)
	}
	if got := h.PerWeek(0, 8); got != 2 {
		t.Errorf("Monday 08 per week %v; want 8 over four Mondays, 2", got)
	}
	if h.From != utc("2026-10-22 12:00") || h.To != utc("2026-11-19 12:00") {
		t.Errorf("window %v – %v; want the 28 days before 12:00", h.From, h.To)
	}
}

// Each compartment counts on its own; a change in their number starts
// over; readings out of order are taken in order.
func TestHeatCompartments(t *testing.T) {
	c := NewHeatCounter(utc("2026-11-19 12:30"), time.UTC)
	c.Add([]store.Reading{
		reading("2026-11-18 09:00", 45, 60),
		reading("2026-11-18 08:00", 50, 60),
		reading("2026-11-18 10:00", 45, 30),
		reading("2026-11-18 11:00", 20),    // one compartment now: starts over
		reading("2026-11-18 11:30", 10),    // 10 at 11
		reading("2026-11-18 12:00", 5, 50), // two again: starts over
	})
	c.Add(nil) // a device without readings
	h := c.Heat()
	if got, want := used(h), []string{"Wed 09 5", "Wed 10 30", "Wed 11 10"}; !slices.Equal(got, want) {
		t.Errorf("used %v; want %v", got, want)
	}
	if h.Devices != 1 {
		t.Errorf("%d devices; want the one with readings", h.Devices)
	}
}

// Hours are the zone's, on offsets of half an hour too.
func TestHeatHoursAreTheZones(t *testing.T) {
	kolkata := mustZone(t, "Asia/Kolkata")
	c := NewHeatCounter(utc("2026-11-19 12:00"), kolkata)
	c.Add([]store.Reading{
		reading("2026-11-16 07:00", 90),
		{At: utc("2026-11-16 07:29").Add(59 * time.Second), Levels: []int{80}}, // 12:59:59 in Kolkata, Monday
		reading("2026-11-16 07:30", 70),                                        // 13:00
	})
	h := c.Heat()
	if got, want := used(h), []string{"Mon 12 10", "Mon 13 10"}; !slices.Equal(got, want) {
		t.Errorf("used %v; want %v", got, want)
	}
	if h.To != utc("2026-11-19 11:30") {
		t.Errorf("the window ends %v; want 17:00 in Kolkata", h.To)
	}
}

// Where the clocks change, the hour repeated occurs five times in the
// window and the hour skipped three: the average per week divides by them.
func TestHeatHoursAcrossClockChanges(t *testing.T) {
	for _, tt := range []struct {
		zone     string
		now      string
		day, hr  int
		times    int
		allHours int
	}{
		{"Europe/Berlin", "2026-11-10 12:30", 6, 2, 5, 28*24 + 1},
		{"America/New_York", "2026-03-20 16:00", 6, 2, 3, 28*24 - 1},
	} {
		z := mustZone(t, tt.zone)
		c := NewHeatCounter(utc(tt.now), z)
		c.Add([]store.Reading{reading("2026-01-01 00:00", 50)}) // readings from before the window
		h := c.Heat()
		total := 0
		for d := range h.Hours {
			for hr, n := range h.Hours[d] {
				total += n
				if want := 4; (d != tt.day || hr != tt.hr) && n != want {
					t.Errorf("%s: day %d hour %d occurs %d times; want %d", tt.zone, d, hr, n, want)
				}
			}
		}
		if h.Hours[tt.day][tt.hr] != tt.times || total != tt.allHours {
			t.Errorf("%s: Sunday 02 occurs %d times, %d hours in all; want %d and %d", tt.zone, h.Hours[tt.day][tt.hr], total, tt.times, tt.allHours)
		}
		if got := h.To.Sub(h.From); got != time.Duration(tt.allHours)*time.Hour {
			t.Errorf("%s: the window lasts %v; want %d h", tt.zone, got, tt.allHours)
		}
	}
}

// Heat maps of the same window add up, observed since the earlier one's
// first reading.
func TestHeatAdd(t *testing.T) {
	now := utc("2026-11-19 12:30")
	a, b := NewHeatCounter(now, time.UTC), NewHeatCounter(now, time.UTC)
	a.Add([]store.Reading{reading("2026-11-18 08:00", 50), reading("2026-11-18 09:00", 40)})
	b.Add([]store.Reading{reading("2026-11-11 08:00", 50), reading("2026-11-18 09:30", 45)})
	sum := NewHeat(now, time.UTC)
	ha, hb := a.Heat(), b.Heat()
	sum.Add(&ha)
	if sum.Used[2][9] != 10 || sum.Hours[2][9] != 1 || sum.PerWeek(2, 9) != 10 {
		t.Errorf("with a: used %d, hours %d, per week %v; want 10 over the one Wednesday 09:00 observed", sum.Used[2][9], sum.Hours[2][9], sum.PerWeek(2, 9))
	}
	sum.Add(&hb)
	if sum.Used[2][9] != 15 || sum.Devices != 2 || sum.Hours[2][9] != 2 || sum.PerWeek(2, 9) != 7.5 || sum.Since != utc("2026-11-11 08:00") {
		t.Errorf("with b: used %d, devices %d, hours %d, per week %v, since %v", sum.Used[2][9], sum.Devices, sum.Hours[2][9], sum.PerWeek(2, 9), sum.Since)
	}
}

// A history that begins within the window is averaged over the hours
// since its first reading, not over four weeks; nothing observed averages
// to nothing.
func TestHeatOfAShortHistory(t *testing.T) {
	now := utc("2026-11-19 12:30") // Thursday
	c := NewHeatCounter(now, time.UTC)
	c.Add([]store.Reading{reading("2026-11-16 08:20", 50), reading("2026-11-16 09:10", 40)})
	h := c.Heat()
	if !h.Partial() || h.Since != utc("2026-11-16 08:00") {
		t.Errorf("since %v, partial %v; want Monday 08:00", h.Since, h.Partial())
	}
	for _, tt := range []struct{ day, hour, want int }{{0, 7, 0}, {0, 8, 1}, {0, 9, 1}, {1, 8, 1}, {2, 23, 1}, {3, 11, 1}, {3, 12, 0}, {6, 23, 0}} {
		if got := h.Hours[tt.day][tt.hour]; got != tt.want {
			t.Errorf("day %d hour %d observed %d times; want %d", tt.day, tt.hour, got, tt.want)
		}
	}
	if h.PerWeek(0, 9) != 10 {
		t.Errorf("Monday 09 per week %v; want 10", h.PerWeek(0, 9))
	}
	empty := NewHeatCounter(now, time.UTC).Heat()
	if empty.Since != empty.To || empty.PerWeek(0, 9) != 0 || empty.Hours[0][9] != 0 {
		t.Errorf("nothing observed: since %v, hours %d", empty.Since, empty.Hours[0][9])
	}
}
