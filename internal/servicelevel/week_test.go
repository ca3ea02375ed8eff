package servicelevel

import (
	"errors"
	"strings"
	"testing"
)

func TestParseWeekWritesBackItsCanonicalForm(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "always"},
		{"24/7", "always"},
		{"Always open", "always"},
		{"Mon-Fri 06:00-22:00; Sat 08:00-14:00", "Mon-Fri 06:00-22:00; Sat 08:00-14:00"},
		{"mon-fri 6:00-22:00;sat 08:00 - 14:00", "Mon-Fri 06:00-22:00; Sat 08:00-14:00"},
		{"Monday, Tuesday: 08:00–12:00, 13:00–17:00\nWed 08:00-12:00, 13:00-17:00", "Mon-Wed 08:00-12:00, 13:00-17:00"},
		{"Sat-Mon 10:00-16:00", "Mon 10:00-16:00; Sat-Sun 10:00-16:00"},
		{"Mon-Fri 13:00-17:00, 08:00-12:00; Sat-Sun closed", "Mon-Fri 08:00-12:00, 13:00-17:00"},
		{"Mon, Wed, Fri 07:00-09:00", "Mon 07:00-09:00; Wed 07:00-09:00; Fri 07:00-09:00"},
		{"daily 22:00-06:00", "Mon-Sun 22:00-06:00"},
		{"Fri 18:00-00:00", "Fri 18:00-24:00"},
		{"Mon-Fri 06:00-22:00; Mon 23:00-23:30", "Mon 06:00-22:00, 23:00-23:30; Tue-Fri 06:00-22:00"},
		{"Mon-Sun 00:00-24:00", "Mon-Sun 00:00-24:00"},
	} {
		w, err := ParseWeek(tc.in)
		if err != nil {
			t.Errorf("ParseWeek(%q): %v", tc.in, err)
			continue
		}
		if got := w.String(); got != tc.want {
			t.Errorf("ParseWeek(%q) writes %q; want %q", tc.in, got, tc.want)
		}
		again, err := ParseWeek(w.String())
		if err != nil || again.String() != w.String() {
			t.Errorf("%q does not read back: %q, %v", w.String(), again.String(), err)
		}
	}
}

func TestParseWeekRefusesWhatMakesNoSense(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Mon-Fri 06:00-14:00, 12:00-22:00", "Mon 06:00-14:00 and Mon 12:00-22:00 overlap"},
		{"Mon-Fri 06:00-22:00; Fri 21:00-23:00", "Fri 06:00-22:00 and Fri 21:00-23:00 overlap"},
		{"Mon 22:00-06:00; Tue 05:00-12:00", "Mon 22:00-06:00 and Tue 05:00-12:00 overlap"},
		{"Sun 22:00-06:00; Mon 00:00-01:00", "Sun 22:00-06:00 and Mon 00:00-01:00 overlap"},
		{"Mon 08:00-08:00", `"08:00-08:00" starts and ends at 08:00, so it covers no time`},
		{"Mon 24:00-06:00", "starts at 24:00"},
		{"Mon-Sun closed", "closed every day, so the clock would never run"},
		{"Sat closed; Sat 08:00-12:00", "Saturday is both closed and open 08:00-12:00"},
		{"Mnday 08:00-12:00", `"Mnday" is not a day of the week: write Mon, Tue, Wed, Thu, Fri, Sat or Sun`},
		{"Mon-Fry 08:00-12:00", `"Fry" is not a day of the week`},
		{"Mon 25:00-26:00", `"25:00" is not a time of day`},
		{"Mon 08:60-09:00", `"08:60" is not a time of day`},
		{"Mon 8-12", `"8" is not a time of day`},
		{"Mon 08:00", `"08:00" is not an opening time: write it from-to`},
		{"08:00-12:00", "gives times but no days"},
		{"Mon-Fri", "gives days but no times"},
		{"Mon 01:00-02:00, 03:00-04:00, 05:00-06:00, 07:00-08:00, 09:00-10:00, 11:00-12:00, 13:00-14:00, 15:00-16:00, 17:00-18:00", "Monday has 9 opening intervals; a day may have at most 8"},
		{strings.Repeat("Mon 08:00-09:00; ", 200), "write them in at most 2000"},
	} {
		_, err := ParseWeek(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseWeek(%.40q) = %v; want an error saying %q", tc.in, err, tc.want)
			continue
		}
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("ParseWeek(%.40q): %v is not an ErrInvalid", tc.in, err)
		}
	}
}

func TestParseHolidays(t *testing.T) {
	got, err := ParseHolidays("2026-12-26, 2026-12-25;2027-01-01\n2026-12-25")
	if err != nil {
		t.Fatal(err)
	}
	if s := FormatHolidays(got); s != "2026-12-25, 2026-12-26, 2027-01-01" {
		t.Errorf("holidays write back as %q; want them in order, each once", s)
	}
	for _, tc := range []struct{ in, want string }{
		{"2026-02-30", `"2026-02-30" is not a date: write each holiday as YYYY-MM-DD, such as 2026-12-25`},
		{"25.12.2026", `"25.12.2026" is not a date`},
		{"2026-12-25 tomorrow", `"tomorrow" is not a date`},
		{strings.Repeat("2026-12-25 ", MaxHolidays+1), "401 holidays are too many: give at most 400"},
		{strings.Repeat(" ", 10_000) + "2026-12-25", "The holidays are 10010 characters long; write them in at most 6400"},
	} {
		if _, err := ParseHolidays(tc.in); err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrInvalid) {
			t.Errorf("ParseHolidays(%.40q) = %v; want an ErrInvalid saying %q", tc.in, err, tc.want)
		}
	}
}

func TestParseHoursNeedsAZone(t *testing.T) {
	for _, tc := range []struct{ zone, want string }{
		{"", "have no time zone: give one, such as Europe/Berlin"},
		{"Europe/Berln", `"Europe/Berln" is not a time zone`},
		{strings.Repeat("Europe/", 20), "is not a time zone: give an IANA name"},
	} {
		if _, err := ParseHours("Mon-Fri 06:00-22:00", "", tc.zone); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseHours with zone %q = %v; want %q", tc.zone, err, tc.want)
		}
	}
	h, err := ParseHours("Mon-Fri 06:00-22:00", "2026-12-25", "Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := h.String(), "Mon-Fri 06:00-22:00 (Europe/Berlin), closed on 2026-12-25"; got != want {
		t.Errorf("hours write as %q; want %q", got, want)
	}
	if _, err := NewHours(AlwaysOpen(), nil, nil); err == nil {
		t.Error("NewHours took hours without a zone")
	}
}
