package views

import (
	"cmp"
	"strings"
	"time"

	"washboard/internal/domain"
	"washboard/internal/report"
)

// shortDateTime is a date and time without the year and zone, for tables
// whose period and zone the page states: "Sat 21 Nov 14:02".
func shortDateTime(t time.Time, zone *time.Location) string {
	return in(t, zone).Format("Mon 2 Jan 15:04")
}

// placeText is where a location is: "North Tower › Level 2 › Restroom 2.04 › Stall 1".
func placeText(p report.Place) string {
	return cmp.Or(pathText(p.Building, p.Floor, p.Room, p.Location), "Location "+p.LocationID)
}

// pathText joins the names of a place's parts that are known:
// "Summit Court › Ground Floor › Men's Restroom G.03 › Stall 1".
func pathText(names ...string) string {
	var parts []string
	for _, s := range names {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, " › ")
}

// typeList names alert types: "Product out, Jammed".
func typeList(types []domain.AlertType) string {
	names := make([]string, len(types))
	for i, t := range types {
		names[i] = t.Label()
	}
	return strings.Join(names, ", ")
}

// refillsText is a list of refills: "3 tissue rolls, 1 soap refill", or
// "no refills".
func refillsText(rs []report.Refill) string {
	var parts []string
	for _, r := range rs {
		if r.Count > 0 {
			parts = append(parts, number(r.Count)+" "+r.Type.RefillNoun(r.Count))
		}
	}
	if len(parts) == 0 {
		return "no refills"
	}
	return strings.Join(parts, ", ")
}

// pickBuildings groups the pick list's rows by building, in order.
func pickBuildings(rows []report.PickRow) [][]report.PickRow {
	var out [][]report.PickRow
	for _, r := range rows {
		if n := len(out); n > 0 && out[n-1][0].BuildingID == r.BuildingID {
			out[n-1] = append(out[n-1], r)
			continue
		}
		out = append(out, []report.PickRow{r})
	}
	return out
}

// buildingName is a building's name, or words for a location whose
// building is not known.
func buildingName(name string) string {
	if name == "" {
		return "Building not known"
	}
	return name
}

// hourlyDescription is the hourly chart in words, for those who cannot see
// it: the busiest hour and the totals.
func hourlyDescription(buckets []report.Bucket) string {
	opened, resolved, busiest := 0, 0, -1
	for i, b := range buckets {
		opened += b.Opened
		resolved += b.Resolved
		if b.Opened > 0 && (busiest < 0 || b.Opened > buckets[busiest].Opened) {
			busiest = i
		}
	}
	s := plural(opened, "alert", "alerts") + " opened and " + number(resolved) + " resolved over " + plural(len(buckets), "hour", "hours") + "."
	if busiest >= 0 {
		s += " The busiest hour was " + buckets[busiest].Label + ", with " + plural(buckets[busiest].Opened, "alert", "alerts") + " opened."
	}
	return s
}
