package rounds

import (
	"errors"
	"strings"
	"testing"
	"time"

	"washboard/internal/servicelevel"
)

// TestChecksSavedAroundTheClock: from 08:00 to 18:00, fixed rounds every
// two hours (08, 10, 12, 14, 16) would have visited both rooms five
// times; rounds from need visited three times. A dispenser out from 10:30
// to 13:30 (3 h) would have been out until the 12:00 round (1.5 h); one
// that ran out at a round's start, not at all; one out since before the
// period, until its first round; one out after the last round, until the
// period's end.
func TestChecksSavedAroundTheClock(t *testing.T) {
	day := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	h := func(hours float64) time.Time { return day.Add(time.Duration(hours * float64(time.Hour))) }
	in := ChecksInput{
		From: h(8), To: h(18),
		Rooms: []string{"r1", "r2"},
		Visits: []Visit{
			{"r1", h(9)}, {"r1", h(13)}, {"r2", h(17.99)},
			{"r3", h(10)}, // not a room of the part
			{"r1", h(18)}, // after the period
			{"r1", h(7)},  // before it
		},
		Outs: []Out{
			{RoomID: "r1", Dispenser: "d1", From: h(10.5), To: h(13.5)}, // 3 h; under fixed rounds until 12:00: 1.5 h
			{RoomID: "r2", Dispenser: "d2", From: h(16), To: h(17)},     // 1 h; refilled by the 16:00 round at once: 0
			{RoomID: "r2", Dispenser: "d3", From: h(7), To: h(8.5)},     // 0.5 h in the period; the 08:00 round: 0
			{RoomID: "r1", Dispenser: "d4", From: h(17), To: h(20)},     // 1 h in the period; no round after: 1 h
			{RoomID: "r3", Dispenser: "d9", From: h(9), To: h(17)},      // not a room of the part
		},
	}
	c, err := ChecksSaved(in)
	if err != nil {
		t.Fatal(err)
	}
	want := Checks{FixedRounds: 5, FixedVisits: 10, NeedVisits: 3,
		NeedOut:  OutTime{Out: 5*time.Hour + 30*time.Minute, InService: 5*time.Hour + 30*time.Minute},
		FixedOut: OutTime{Out: 2*time.Hour + 30*time.Minute, InService: 2*time.Hour + 30*time.Minute}}
	if c != want {
		t.Errorf("checks = %+v\nwant     %+v", c, want)
	}
	if c.Saved() != 7 || c.SavedPercent() != 70 {
		t.Errorf("saved %d (%.1f %%), want 7 (70 %%)", c.Saved(), c.SavedPercent())
	}

	// Fixed rounds every three hours: 08, 11, 14, 17; d1 out until 11:00
	// (0.5 h), d2 until 17:00 (1 h), d4 at once.
	in.Every = 3 * time.Hour
	if c, _ = ChecksSaved(in); c.FixedRounds != 4 || c.FixedVisits != 8 || c.FixedOut.Out != 90*time.Minute {
		t.Errorf("every 3 h: %d rounds, %d visits, %v out; want 4, 8, 1h30m", c.FixedRounds, c.FixedVisits, c.FixedOut.Out)
	}
}

// TestChecksSavedCountsADispenserOutOnce: a dispenser that ran out twice
// before the same fixed round would have been out once, until it.
func TestChecksSavedCountsADispenserOutOnce(t *testing.T) {
	day := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	h := func(hours float64) time.Time { return day.Add(time.Duration(hours * float64(time.Hour))) }
	c, err := ChecksSaved(ChecksInput{From: h(8), To: h(18), Rooms: []string{"r1"}, Outs: []Out{
		{RoomID: "r1", Dispenser: "d1", From: h(10.5), To: h(10.75)},
		{RoomID: "r1", Dispenser: "d1", From: h(11), To: h(11.5)},
		{RoomID: "r1", Dispenser: "d2", From: h(11), To: h(11.5)}, // another dispenser: counted apart
	}})
	if err != nil {
		t.Fatal(err)
	}
	if c.NeedOut.Out != 75*time.Minute || c.FixedOut.Out != 150*time.Minute {
		t.Errorf("out %v under need, %v under fixed rounds; want 1h15m, and 1h30m + 1h = 2h30m", c.NeedOut.Out, c.FixedOut.Out)
	}
}

// TestChecksSavedWithinServiceHours: with service hours Monday to Friday
// 06:00-22:00, fixed rounds every two hours run 06:00 to 20:00 on the days
// open, none at the weekend; a dispenser that ran out on Friday at 21:30
// would have stayed out until Monday's 06:00 round, half an hour of it
// within service hours.
func TestChecksSavedWithinServiceHours(t *testing.T) {
	hours, err := servicelevel.ParseHours("Mon-Fri 06:00-22:00", "", "UTC")
	if err != nil {
		t.Fatal(err)
	}
	friday := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	h := func(hours float64) time.Time { return friday.Add(time.Duration(hours * float64(time.Hour))) }
	c, err := ChecksSaved(ChecksInput{
		From: h(0), To: h(72 + 12), // to Monday noon
		Rooms:  []string{"r1"},
		Visits: []Visit{{"r1", h(7)}, {"r1", h(40)}}, // Friday morning, and Saturday afternoon: a visit is a visit
		Outs:   []Out{{RoomID: "r1", From: h(21.5), To: h(33)}},
		Hours:  &hours,
	})
	if err != nil {
		t.Fatal(err)
	}
	want := Checks{FixedRounds: 8 + 3, FixedVisits: 11, NeedVisits: 2,
		NeedOut:  OutTime{Out: 11*time.Hour + 30*time.Minute, InService: 30 * time.Minute},
		FixedOut: OutTime{Out: 56*time.Hour + 30*time.Minute, InService: 30 * time.Minute}}
	if c != want {
		t.Errorf("checks = %+v\nwant     %+v", c, want)
	}

	// A period that starts while open starts with a round: Friday 07:00,
	// 09:00, … 21:00.
	c, err = ChecksSaved(ChecksInput{From: h(7), To: h(24), Rooms: []string{"r1"}, Hours: &hours})
	if err != nil || c.FixedRounds != 8 {
		t.Errorf("from Friday 07:00: %d rounds, %v; want 8 (07:00 to 21:00)", c.FixedRounds, err)
	}
}

// TestChecksSavedRefusesWhatItCannotMeasure: a period backwards or too
// long, or fixed rounds too often, are refused with what is wrong; a
// part without rooms saves nothing.
func TestChecksSavedRefusesWhatItCannotMeasure(t *testing.T) {
	from := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		in   ChecksInput
		want string
	}{
		{ChecksInput{From: from, To: from}, "ends"},
		{ChecksInput{From: from, To: from.AddDate(2, 0, 0)}, "too long"},
		{ChecksInput{From: from, To: from.Add(time.Hour), Every: 10 * time.Minute}, "too often"},
		{ChecksInput{From: from, To: from.Add(time.Hour), Every: -time.Hour}, "too often"},
	} {
		_, err := ChecksSaved(c.in)
		if !errors.Is(err, ErrChecks) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one that says %q", c.in, err, c.want)
		}
	}
	c, err := ChecksSaved(ChecksInput{From: from, To: from.Add(24 * time.Hour)})
	if err != nil || c.FixedRounds != 12 || c.FixedVisits != 0 || c.SavedPercent() != 0 {
		t.Errorf("no rooms: %+v, %v; want 12 rounds of no visits, nothing saved", c, err)
	}
}
