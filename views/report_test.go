package views_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"washboard/internal/report"
	. "washboard/views"
)

// The report's period names its time zone as a person reads it: the
// zone's name, and for the server's own zone when the machine does not
// name it (Go's "Local") its offset from UTC, never "Local".
func TestShiftReportNamesItsZone(t *testing.T) {
	// The zones as Go loads them, and as it loads the machine's own zone
	// when the machine does not say its name.
	zone := func(name string, local bool) *time.Location {
		data, err := os.ReadFile(filepath.Join("/usr/share/zoneinfo", name))
		if err != nil {
			t.Skip("no time zone database here:", err)
		}
		if local {
			name = "Local"
		}
		z, err := time.LoadLocationFromTZData(name, data)
		if err != nil {
			t.Fatal(err)
		}
		return z
	}
	for _, tt := range []struct {
		zone *time.Location
		want string
	}{
		{zone("Europe/Berlin", false), "CET (Europe/Berlin)"},
		{time.UTC, "UTC (UTC)"},
		{zone("Europe/Berlin", true), "CET (UTC+01:00)"},
		{zone("America/St_Johns", true), "NST (UTC-03:30)"},
		{zone("Etc/UTC", true), "UTC (UTC)"},
	} {
		start := time.Date(2026, 11, 21, 5, 0, 0, 0, time.UTC)
		m := ShiftReport{Page: samplePage("Shift report"), Zone: tt.zone, PrintedAt: now,
			Report: &report.Report{Period: report.Period{Start: start, End: start.Add(8 * time.Hour), Shift: "Early"}}}
		doc, _ := render(t, ShiftReportPage(m))
		period := text(doc.Find(".report-facts dt:contains('Period') + dd"))
		if !strings.HasSuffix(period, tt.want) || strings.Contains(period, "Local") {
			t.Errorf("in %s the period reads %q; want it to end %q", tt.zone, period, tt.want)
		}
	}
}
