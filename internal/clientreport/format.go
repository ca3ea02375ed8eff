package clientreport

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"washboard/internal/i18n"
	"washboard/internal/servicelevel"
)

// Share is the share of a target met in words: "93% (14 of 15)", or
// "none done" when no alert has an outcome.
func Share(l *i18n.Localizer, s servicelevel.Stat) string {
	f, ok := s.ShareMet()
	if !ok {
		return l.T("client.none_done")
	}
	return l.T("client.share", "percent", Percent(l, f), "met", l.Number(s.Met), "of", l.Number(s.Met+s.Missed))
}

// Percent is a share 0 to 1 as a whole percentage, rounded down, so
// that 99.6% is not shown as 100%: "93%", "93 %".
func Percent(l *i18n.Localizer, f float64) string {
	return l.T("client.percent", "n", l.Number(int(f*100)))
}

// Time is a median or percentile in words: "35 min", "2 h 5 min",
// "3 d 4 h"; "–" when no alert was done.
func Time(l *i18n.Localizer, s servicelevel.Stat, d time.Duration) string {
	if s.Done == 0 {
		return "–"
	}
	if d < time.Minute {
		return l.T("client.under_minute")
	}
	days, hours, minutes := int(d/(24*time.Hour)), int(d/time.Hour)%24, int(d/time.Minute)%60
	var parts []string
	if days > 0 {
		parts = append(parts, l.T("client.days_short", "n", l.Number(days)))
	}
	if hours > 0 {
		parts = append(parts, l.T("client.hours_short", "n", l.Number(hours)))
	}
	if minutes > 0 && days == 0 {
		parts = append(parts, l.T("client.minutes_short", "n", l.Number(minutes)))
	}
	return strings.Join(parts, " ")
}

// Change is a share now against the share before, in words: "up 5
// points", "down 12 points", "the same", or "" when either has no
// outcome.
func Change(l *i18n.Localizer, now, then servicelevel.Stat) string {
	a, ok1 := now.ShareMet()
	b, ok2 := then.ShareMet()
	if !ok1 || !ok2 {
		return ""
	}
	d := int(a*100) - int(b*100)
	switch {
	case d > 0:
		return l.N("client.up", d)
	case d < 0:
		return l.N("client.down", -d)
	}
	return l.T("client.same")
}

// Minutes is a duration in whole minutes, for a CSV cell; "" when no
// alert was done.
func Minutes(s servicelevel.Stat, d time.Duration) string {
	if s.Done == 0 {
		return ""
	}
	return strconv.Itoa(int(d / time.Minute))
}

// CSVHeader is the header of the report's CSV.
var CSVHeader = []string{"building", "alert_type", "alerts", "claim_met", "claim_missed", "claim_share_met_percent",
	"claim_median_minutes", "claim_p90_minutes", "resolve_met", "resolve_missed", "resolve_share_met_percent",
	"resolve_median_minutes", "resolve_p90_minutes", "dispensers", "dispenser_out_hours", "dispenser_out_hours_in_service",
	"visits", "rooms", "rooms_visited",
	"fixed_every_hours", "need_visits", "fixed_visits", "need_out_hours", "fixed_out_hours", "need_out_hours_in_service", "fixed_out_hours_in_service",
	"visitor_ratings", "visitor_rating_average"}

// AllTypes is the alert type of a CSV row of a building's whole: its
// alerts of every type, and its dispensers' out-hours.
const AllTypes = "all"

// CSVRows is one row per building and alert type measured, then one row
// per building of its whole (AllTypes), in the order of CSVHeader; the
// out-hours, the service record's visits and checks saved are on the
// rows of a building's whole only.
func (r Report) CSVRows() [][]string {
	rows := make([][]string, 0, len(r.Cells)+len(r.Now.ByBuilding)+len(r.Outs.ByBuilding))
	figures := func(building, typ string, g servicelevel.Group) []string {
		return []string{building, typ, strconv.Itoa(g.Alerts),
			strconv.Itoa(g.Claim.Met), strconv.Itoa(g.Claim.Missed), percentCell(g.Claim),
			Minutes(g.Claim, g.Claim.Median), Minutes(g.Claim, g.Claim.P90),
			strconv.Itoa(g.Resolve.Met), strconv.Itoa(g.Resolve.Missed), percentCell(g.Resolve),
			Minutes(g.Resolve, g.Resolve.Median), Minutes(g.Resolve, g.Resolve.P90)}
	}
	for _, c := range r.Cells {
		rows = append(rows, append(figures(c.Building, c.Type.Label(), c.Group), "", "", "", "", "", "", "", "", "", "", "", "", "", "", ""))
	}
	whole := map[string]servicelevel.Group{}
	var ids []string
	for _, g := range r.Now.ByBuilding {
		whole[g.Building] = g.Group
		ids = append(ids, g.Building)
	}
	outs := map[string]OutHours{}
	for _, b := range r.Outs.ByBuilding {
		if b.Now.Dispensers == 0 {
			continue
		}
		outs[b.Building] = b.Now
		if _, ok := whole[b.Building]; !ok {
			ids = append(ids, b.Building)
		}
	}
	service := map[string]ServiceBuilding{}
	for _, b := range r.Service.ByBuilding {
		service[b.Building] = b
		_, measured := whole[b.Building]
		if _, out := outs[b.Building]; !measured && !out {
			ids = append(ids, b.Building)
		}
	}
	for _, b := range r.Checks.ByBuilding {
		if !slices.Contains(ids, b.Building) {
			ids = append(ids, b.Building)
		}
	}
	rated := map[string]BuildingRating{}
	for _, b := range r.Ratings.ByBuilding {
		rated[b.Building] = b
		if !slices.Contains(ids, b.Building) {
			ids = append(ids, b.Building)
		}
	}
	slices.SortFunc(ids, func(a, b string) int { return strings.Compare(r.BuildingName(a), r.BuildingName(b)) })
	for _, id := range ids {
		row := figures(r.BuildingName(id), AllTypes, whole[id])
		if o, ok := outs[id]; ok {
			in := ""
			if r.Outs.ServiceHours {
				in = Hours(o.InService)
			}
			row = append(row, strconv.Itoa(o.Dispensers), Hours(o.Out), in)
		} else {
			row = append(row, "", "", "")
		}
		if b, ok := service[id]; ok {
			row = append(row, strconv.Itoa(b.Visits), strconv.Itoa(b.Rooms), strconv.Itoa(b.RoomsVisited))
		} else {
			row = append(row, "", "", "")
		}
		row = append(row, r.Checks.checksCells(id)...)
		if b, ok := rated[id]; ok {
			row = append(row, strconv.Itoa(b.Count), strconv.FormatFloat(b.Average, 'f', 2, 64))
		} else {
			row = append(row, "", "")
		}
		rows = append(rows, row)
	}
	return rows
}

func percentCell(s servicelevel.Stat) string {
	f, ok := s.ShareMet()
	if !ok {
		return ""
	}
	return strconv.Itoa(int(f * 100))
}
