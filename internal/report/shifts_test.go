package report

import (
	"reflect"
	"strings"
	"testing"
	"time"
	_ "time/tzdata"
)

func berlin(t *testing.T) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func TestParseShiftsRoundTrip(t *testing.T) {
	tests := []struct {
		text string
		want Shifts
		norm string // what String writes
	}{
		{"Early 06:00-14:00, Late 14:00-22:00, Night 22:00-06:00", DefaultShifts(), "Early 06:00-14:00, Late 14:00-22:00, Night 22:00-06:00"},
		{"  Day shift 7:30 - 19:30 ,Night-2 19:30-07:30 ", Shifts{
			{Name: "Day shift", Start: Clock{7, 30}, End: Clock{19, 30}},
			{Name: "Night-2", Start: Clock{19, 30}, End: Clock{7, 30}},
		}, "Day shift 07:30-19:30, Night-2 19:30-07:30"},
		{"Morning 08:00-12:00", Shifts{{Name: "Morning", Start: Clock{8, 0}, End: Clock{12, 0}}}, "Morning 08:00-12:00"},
		{"Late 16:00-00:00, Graveyard 00:00-04:00", Shifts{
			{Name: "Late", Start: Clock{16, 0}, End: Clock{0, 0}},
			{Name: "Graveyard", Start: Clock{0, 0}, End: Clock{4, 0}},
		}, "Late 16:00-00:00, Graveyard 00:00-04:00"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			got, err := ParseShifts(tt.text)
			if err != nil {
				t.Fatalf("ParseShifts: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("ParseShifts = %#v, want %#v", got, tt.want)
			}
			if got.String() != tt.norm {
				t.Errorf("String = %q, want %q", got.String(), tt.norm)
			}
			again, err := ParseShifts(got.String())
			if err != nil || !reflect.DeepEqual(again, got) {
				t.Errorf("ParseShifts(String()) = %v, %v; want %v", again, err, got)
			}
		})
	}
}

func TestParseShiftsErrors(t *testing.T) {
	tests := []struct {
		text, want string
	}{
		{"", "no shifts given"},
		{"Early 06:00-14:00, Late 25:00-22:00", `shift 2: "25:00" is not a time of day`},
		{"Early 06:00-14:60", `shift 1: "14:60" is not a time of day`},
		{"Early 6-14", `shift 1: "6" is not a time of day`},
		{"Early 06:00", `shift 1: "Early 06:00" has no time range`},
		{"06:00-14:00", "shift 1: no name before 06:00-14:00"},
		{"Early 06:00-14:00,", "shift 2: nothing between the commas"},
		{"Early 06:00-14:00, Late 13:00-22:00", `shifts 1 (Early 06:00-14:00) and 2 (Late 13:00-22:00) overlap`},
		{"Night 22:00-06:00, Early 05:00-14:00", "overlap"},
		{"Night 22:00-06:00, Evening 20:00-23:00", "overlap"},
		{"Early 06:00-14:00, Late 14:00-14:00", "shift 2: Late starts and ends at 14:00"},
		{"Early 06:00-14:00, Early 14:00-22:00", `shifts 1 and 2 are both named "Early"`},
		{strings.Repeat("S 01:00-01:30, ", 12) + "T 02:00-03:00", "more than 12 shifts (13)"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			_, err := ParseShifts(tt.text)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ParseShifts(%q) error = %v, want it to say %q", tt.text, err, tt.want)
			}
		})
	}
}

func TestValidateShiftsBuiltInCode(t *testing.T) {
	tests := []struct {
		name   string
		shifts Shifts
		want   string
	}{
		{"none", nil, "no shifts given"},
		{"empty name", Shifts{{Name: "", Start: Clock{6, 0}, End: Clock{7, 0}}}, "shift 1: no name"},
		{"comma in name", Shifts{{Name: "A,B", Start: Clock{6, 0}, End: Clock{7, 0}}}, "comma"},
		{"space around name", Shifts{{Name: " A", Start: Clock{6, 0}, End: Clock{7, 0}}}, "starts or ends with a space"},
		{"hour 24", Shifts{{Name: "A", Start: Clock{24, 0}, End: Clock{7, 0}}}, `"24:00" is not a time of day`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.shifts.Validate(); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Validate = %v, want it to say %q", err, tt.want)
			}
		})
	}
	if err := DefaultShifts().Validate(); err != nil {
		t.Errorf("the default shifts are invalid: %v", err)
	}
}

func TestShiftsOn(t *testing.T) {
	loc := berlin(t)
	tests := []struct {
		name       string
		date       Date
		index      int
		start, end time.Time
		length     time.Duration
	}{
		{"early", Date{2026, 6, 1}, 0, time.Date(2026, 6, 1, 6, 0, 0, 0, loc), time.Date(2026, 6, 1, 14, 0, 0, 0, loc), 8 * time.Hour},
		{"night ends the next day", Date{2026, 6, 1}, 2, time.Date(2026, 6, 1, 22, 0, 0, 0, loc), time.Date(2026, 6, 2, 6, 0, 0, 0, loc), 8 * time.Hour},
		{"night at the end of a year", Date{2026, 12, 31}, 2, time.Date(2026, 12, 31, 22, 0, 0, 0, loc), time.Date(2027, 1, 1, 6, 0, 0, 0, loc), 8 * time.Hour},
		{"night clocks go forward", Date{2026, 3, 28}, 2, time.Date(2026, 3, 28, 21, 0, 0, 0, time.UTC), time.Date(2026, 3, 29, 4, 0, 0, 0, time.UTC), 7 * time.Hour},
		{"night clocks go back", Date{2026, 10, 24}, 2, time.Date(2026, 10, 24, 20, 0, 0, 0, time.UTC), time.Date(2026, 10, 25, 5, 0, 0, 0, time.UTC), 9 * time.Hour},
		{"early after clocks go forward", Date{2026, 3, 29}, 0, time.Date(2026, 3, 29, 4, 0, 0, 0, time.UTC), time.Date(2026, 3, 29, 12, 0, 0, 0, time.UTC), 8 * time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := DefaultShifts().On(tt.date, tt.index, loc)
			if !p.Start.Equal(tt.start) || !p.End.Equal(tt.end) || p.Duration() != tt.length {
				t.Errorf("On = %v to %v (%v), want %v to %v (%v)", p.Start, p.End, p.Duration(), tt.start, tt.end, tt.length)
			}
			if p.Shift != DefaultShifts()[tt.index].Name || p.Date != tt.date {
				t.Errorf("On names %q of %v, want %q of %v", p.Shift, p.Date, DefaultShifts()[tt.index].Name, tt.date)
			}
			if p.Start.Location() != loc {
				t.Errorf("the period is in %v, want %v", p.Start.Location(), loc)
			}
		})
	}
}

// A wall time that does not exist resolves as time.Date resolves it; one
// that exists twice resolves to the second.
func TestShiftsOnMissingAndRepeatedWallTimes(t *testing.T) {
	loc := berlin(t)
	shifts := Shifts{{Name: "Small hours", Start: Clock{2, 30}, End: Clock{5, 0}}}
	forward := shifts.On(Date{2026, 3, 29}, 0, loc)
	if want := time.Date(2026, 3, 29, 1, 30, 0, 0, time.UTC); !forward.Start.Equal(want) || forward.Duration() != 90*time.Minute {
		t.Errorf("02:30 on the day clocks go forward starts at %v and lasts %v, want %v (03:30 CEST) and 1h30m", forward.Start, forward.Duration(), want)
	}
	back := shifts.On(Date{2026, 10, 25}, 0, loc)
	if want := time.Date(2026, 10, 25, 1, 30, 0, 0, time.UTC); !back.Start.Equal(want) || back.Duration() != 150*time.Minute {
		t.Errorf("02:30 on the day clocks go back starts at %v and lasts %v, want %v (the second 02:30) and 2h30m", back.Start, back.Duration(), want)
	}
}

func TestLastEnded(t *testing.T) {
	loc := berlin(t)
	tests := []struct {
		name      string
		now       time.Time
		shift     string
		date      Date
		length    time.Duration
		wantStart time.Time
	}{
		{"mid early shift", time.Date(2026, 6, 2, 9, 0, 0, 0, loc), "Night", Date{2026, 6, 1}, 8 * time.Hour, time.Date(2026, 6, 1, 22, 0, 0, 0, loc)},
		{"exactly at a shift's end", time.Date(2026, 6, 2, 14, 0, 0, 0, loc), "Early", Date{2026, 6, 2}, 8 * time.Hour, time.Date(2026, 6, 2, 6, 0, 0, 0, loc)},
		{"a moment before the end", time.Date(2026, 6, 2, 13, 59, 59, 0, loc), "Night", Date{2026, 6, 1}, 8 * time.Hour, time.Date(2026, 6, 1, 22, 0, 0, 0, loc)},
		{"just after midnight", time.Date(2026, 6, 2, 0, 5, 0, 0, loc), "Late", Date{2026, 6, 1}, 8 * time.Hour, time.Date(2026, 6, 1, 14, 0, 0, 0, loc)},
		{"just after clocks go forward", time.Date(2026, 3, 29, 3, 1, 0, 0, loc), "Late", Date{2026, 3, 28}, 8 * time.Hour, time.Date(2026, 3, 28, 14, 0, 0, 0, loc)},
		{"after the short night", time.Date(2026, 3, 29, 6, 0, 0, 0, loc), "Night", Date{2026, 3, 28}, 7 * time.Hour, time.Date(2026, 3, 28, 22, 0, 0, 0, loc)},
		{"in the repeated hour", time.Date(2026, 10, 25, 1, 30, 0, 0, time.UTC), "Late", Date{2026, 10, 24}, 8 * time.Hour, time.Date(2026, 10, 24, 14, 0, 0, 0, loc)},
		{"after the long night", time.Date(2026, 10, 25, 6, 0, 1, 0, loc), "Night", Date{2026, 10, 24}, 9 * time.Hour, time.Date(2026, 10, 24, 22, 0, 0, 0, loc)},
		{"now in another zone", time.Date(2026, 6, 2, 12, 30, 0, 0, time.UTC), "Early", Date{2026, 6, 2}, 8 * time.Hour, time.Date(2026, 6, 2, 6, 0, 0, 0, loc)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := DefaultShifts().LastEnded(tt.now, loc)
			if p.Shift != tt.shift || p.Date != tt.date || !p.Start.Equal(tt.wantStart) || p.Duration() != tt.length {
				t.Errorf("LastEnded(%v) = %s of %v from %v (%v), want %s of %v from %v (%v)",
					tt.now, p.Shift, p.Date, p.Start, p.Duration(), tt.shift, tt.date, tt.wantStart, tt.length)
			}
			if p.End.After(tt.now) {
				t.Errorf("LastEnded(%v) ends at %v, after now", tt.now, p.End)
			}
		})
	}
	if p := (Shifts{}).LastEnded(time.Now(), loc); p != (Period{}) {
		t.Errorf("LastEnded without shifts = %v, want the zero Period", p)
	}
}

func TestAt(t *testing.T) {
	loc := berlin(t)
	shifts := Shifts{
		{Name: "Day", Start: Clock{8, 0}, End: Clock{16, 0}},
		{Name: "Night", Start: Clock{20, 0}, End: Clock{4, 0}},
	}
	tests := []struct {
		name  string
		t     time.Time
		shift string
		date  Date
		ok    bool
	}{
		{"day", time.Date(2026, 6, 2, 8, 0, 0, 0, loc), "Day", Date{2026, 6, 2}, true},
		{"end is not in", time.Date(2026, 6, 2, 16, 0, 0, 0, loc), "", Date{}, false},
		{"gap", time.Date(2026, 6, 2, 18, 0, 0, 0, loc), "", Date{}, false},
		{"night after midnight", time.Date(2026, 6, 2, 3, 59, 0, 0, loc), "Night", Date{2026, 6, 1}, true},
		{"night before midnight", time.Date(2026, 6, 2, 23, 0, 0, 0, loc), "Night", Date{2026, 6, 2}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, ok := shifts.At(tt.t, loc)
			if ok != tt.ok || p.Shift != tt.shift || p.Date != tt.date {
				t.Errorf("At(%v) = %s of %v, %v; want %s of %v, %v", tt.t, p.Shift, p.Date, ok, tt.shift, tt.date, tt.ok)
			}
		})
	}
}

func TestPreviousAndNext(t *testing.T) {
	loc := berlin(t)
	shifts := DefaultShifts()
	early := shifts.On(Date{2026, 3, 29}, 0, loc)
	want := []struct {
		shift string
		date  Date
		hours time.Duration
	}{
		{"Late", Date{2026, 3, 29}, 8}, {"Night", Date{2026, 3, 29}, 8}, {"Early", Date{2026, 3, 30}, 8},
	}
	p := early
	for _, w := range want {
		next, ok := shifts.Next(p)
		if !ok || next.Shift != w.shift || next.Date != w.date || next.Duration() != w.hours*time.Hour || !next.Start.Equal(p.End) {
			t.Fatalf("Next(%s of %v) = %s of %v (%v from %v), want %s of %v (%vh from %v)", p.Shift, p.Date, next.Shift, next.Date, next.Duration(), next.Start, w.shift, w.date, w.hours, p.End)
		}
		p = next
	}
	prev, ok := shifts.Previous(early)
	if !ok || prev.Shift != "Night" || prev.Date != (Date{2026, 3, 28}) || prev.Duration() != 7*time.Hour {
		t.Errorf("Previous(Early of 29 March) = %s of %v (%v), want the 7-hour Night of 28 March", prev.Shift, prev.Date, prev.Duration())
	}

	custom, err := Custom(time.Date(2026, 6, 2, 10, 0, 0, 0, loc), time.Date(2026, 6, 3, 14, 0, 0, 0, loc))
	if err != nil {
		t.Fatal(err)
	}
	if prev, _ := shifts.Previous(custom); prev.Shift != "Night" || prev.Date != (Date{2026, 6, 1}) {
		t.Errorf("Previous(custom range from 10:00) = %s of %v, want Night of 2026-06-01", prev.Shift, prev.Date)
	}
	if next, _ := shifts.Next(custom); next.Shift != "Late" || next.Date != (Date{2026, 6, 3}) {
		t.Errorf("Next(custom range to 14:00 the next day) = %s of %v, want Late of 2026-06-03", next.Shift, next.Date)
	}
	if _, ok := (Shifts{}).Next(early); ok {
		t.Error("Next without shifts found one")
	}
}

func TestCustom(t *testing.T) {
	loc := berlin(t)
	start := time.Date(2026, 6, 2, 6, 30, 0, 0, loc)
	tests := []struct {
		name string
		end  time.Time
		want string
	}{
		{"end before start", start.Add(-time.Minute), "must be after its start"},
		{"empty", start, "must be after its start"},
		{"too long", start.Add(MaxRange + time.Second), "at most 31 days"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Custom(start, tt.end); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Custom error = %v, want it to say %q", err, tt.want)
			}
		})
	}
	p, err := Custom(start, start.Add(MaxRange).UTC())
	if err != nil {
		t.Fatalf("31 days: %v", err)
	}
	if p.Shift != "" || p.Date != (Date{2026, 6, 2}) || p.End.Location() != loc || !p.Contains(start) || p.Contains(p.End) {
		t.Errorf("Custom = %+v", p)
	}
}

func TestDates(t *testing.T) {
	d, err := ParseDate("2026-02-28")
	if err != nil || d != (Date{2026, 2, 28}) {
		t.Fatalf("ParseDate = %v, %v", d, err)
	}
	if got := d.AddDays(1); got != (Date{2026, 3, 1}) || got.String() != "2026-03-01" {
		t.Errorf("the day after 2026-02-28 is %v", got)
	}
	if got := d.AddDays(-59); got != (Date{2025, 12, 31}) {
		t.Errorf("59 days before 2026-02-28 is %v", got)
	}
	if _, err := ParseDate("2026-02-30"); err == nil {
		t.Error("ParseDate accepted 30 February")
	}
}
