package views

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"washboard/internal/trends"
)

// The trends charts' geometry, in SVG user units.
const (
	trendWidth = 720
	// The alerts per day: a strip per series, stretched to the page's
	// width at a fixed height (its title is HTML, above it).
	stripHeight = 40
	// The median time to resolve per week: a row a week, narrower than
	// the page, so that its words stay legible on a phone.
	weekWidth = 400
	weekTop   = 4
	weekRow   = 26
	weekBarH  = 16
	weekLeft  = 62  // the week's first day
	weekRight = 150 // the median and the count
	// The heat maps: wide, a column an hour; tall, for phones, a row an
	// hour.
	heatLeft  = 40
	heatTop   = 20
	heatCellH = 24
	tallWidth = 360
	tallLeft  = 34
	tallTop   = 18
	tallCellH = 18
)

// dayStrip is one series of the alerts per day: all alerts, or one type,
// scaled to its own largest day.
type dayStrip struct {
	Title string // "Product out: 312 in all, at most 42 a day (16 Nov)"
	Bars  []chartBar
}

// dayStrips lays out the alerts per day: a strip for all alerts, then one
// per type, each scaled to its own largest day, and the days that are
// Mondays, where the strips draw a line.
func dayStrips(ctx context.Context, a trends.Alerts, zone *time.Location) (strips []dayStrip, mondays []string) {
	n := max(len(a.Days), 1)
	slot := float64(trendWidth) / float64(n)
	series := []struct {
		title string
		count func(d trends.Day) int
	}{{tr(ctx, "trends.all_alerts"), func(d trends.Day) int { return d.Total }}}
	for i, t := range a.Types {
		series = append(series, struct {
			title string
			count func(d trends.Day) int
		}{reportAlertType(ctx, t), func(d trends.Day) int { return d.ByType[i] }})
	}
	for _, s := range series {
		top, total, peak := 0, 0, 0
		for i, d := range a.Days {
			v := s.count(d)
			total += v
			if v > top {
				top, peak = v, i
			}
		}
		st := dayStrip{Title: tr(ctx, "trends.strip_total", "series", s.title, "total", numberIn(ctx, total))}
		if top > 0 {
			st.Title = tr(ctx, "trends.strip_peak", "series", s.title, "total", numberIn(ctx, total), "top", numberIn(ctx, top),
				"day", in(a.Days[peak].Start, zone).Format(tr(ctx, "report.layout_day")))
		}
		for i, d := range a.Days {
			v := s.count(d)
			if v == 0 {
				continue
			}
			h := float64(stripHeight-2) * float64(v) / float64(top)
			st.Bars = append(st.Bars, chartBar{X: ff(slot*float64(i) + slot*0.15), Y: ff(stripHeight - h), W: ff(slot * 0.7), H: ff(h), Value: v})
		}
		strips = append(strips, st)
	}
	for i, d := range a.Days {
		if in(d.Start, zone).Weekday() == time.Monday {
			mondays = append(mondays, ff(slot*float64(i)))
		}
	}
	return strips, mondays
}

// dayStripsDescription is the alerts per day in words.
func dayStripsDescription(ctx context.Context, a trends.Alerts) string {
	if a.Created == 0 {
		return tr(ctx, "trends.perday_none")
	}
	parts := []string{tr(ctx, "trends.perday_all", "alerts", trn(ctx, "report.alerts_count", a.Created), "days", numberIn(ctx, len(a.Days)))}
	for i, t := range a.Types {
		n := 0
		for _, d := range a.Days {
			n += d.ByType[i]
		}
		parts = append(parts, numberIn(ctx, n)+" "+midSentence(ctx, reportAlertType(ctx, t)))
	}
	return strings.Join(parts, "; ") + ". " + tr(ctx, "trends.perday_table")
}

// weekBar is one week of the median time to resolve: a row with the
// week's first day, a bar as long as its median, and the median and the
// count in words after it.
type weekBar struct {
	chartBar
	Partial bool
	Label   string // the week's first day in the period
	Text    string // "1.4 h, 270 resolved"
	TextX   string
	TextY   string // the row's middle, for both texts
}

// weekChart lays out the median time to resolve per week, a row a week,
// the bars scaled to the longest median; partial weeks are hatched.
func weekChart(ctx context.Context, weeks []trends.Week, zone *time.Location) (bars []weekBar, height int) {
	top := time.Duration(1)
	for _, w := range weeks {
		top = max(top, w.Median)
	}
	plot := float64(weekWidth - weekLeft - weekRight)
	for i, w := range weeks {
		y := float64(weekTop + i*weekRow)
		bw := plot * float64(w.Median) / float64(top)
		b := weekBar{chartBar: chartBar{X: itoa(weekLeft), Y: ff(y + (weekRow-weekBarH)/2), W: ff(bw), H: itoa(weekBarH), Value: w.Resolved},
			Partial: w.Partial, Label: in(w.Start, zone).Format(tr(ctx, "report.layout_day")), TextX: ff(float64(weekLeft) + bw + 6), TextY: ff(y + weekRow/2)}
		if w.Resolved == 0 {
			b.Text = tr(ctx, "trends.none_resolved")
		} else {
			b.Text = tr(ctx, "trends.week_bar", "median", shortDuration(ctx, w.Median), "resolved", numberIn(ctx, w.Resolved))
		}
		bars = append(bars, b)
	}
	return bars, weekTop*2 + len(weeks)*weekRow
}

// shortDuration is a duration in few characters, for a chart: "45 m",
// "3.5 h", "2.1 d".
func shortDuration(ctx context.Context, d time.Duration) string {
	switch {
	case d < time.Hour:
		return tr(ctx, "trends.short_minutes", "count", numberIn(ctx, int(d/time.Minute)))
	case d < 48*time.Hour:
		return tr(ctx, "trends.short_hours", "count", decimal(ctx, d.Hours()))
	}
	return tr(ctx, "trends.short_days", "count", decimal(ctx, d.Hours()/24))
}

// weekDescription is the median time to resolve per week in words.
func weekDescription(ctx context.Context, weeks []trends.Week, zone *time.Location) string {
	var parts []string
	for _, w := range weeks {
		week := in(w.Start, zone).Format(tr(ctx, "report.layout_day"))
		if w.Resolved == 0 {
			parts = append(parts, tr(ctx, "trends.week_none", "week", week))
		} else {
			parts = append(parts, tr(ctx, "trends.week_median", "week", week, "median", reportDuration(ctx, w.Median),
				"alerts", trn(ctx, "report.alerts_count", w.Resolved)))
		}
	}
	if len(parts) == 0 {
		return tr(ctx, "trends.no_week")
	}
	return tr(ctx, "trends.weeks_description", "weeks", strings.Join(parts, "; "))
}

// weekRange is a week's days in the period: "9 Nov – 15 Nov".
func weekRange(ctx context.Context, w trends.Week, zone *time.Location) string {
	return trendsDay(ctx, w.Start, zone) + " – " + trendsDay(ctx, w.End.Add(-time.Nanosecond), zone)
}

// heatLevels is how many shades the heat maps have besides none.
const heatLevels = 5

// heatCell is one hour of the week of a heat map.
type heatCell struct {
	X, Y, W, H   string
	Level        int // 0 (nothing used, or not observed) to heatLevels
	Text         string
	TextX, TextY string
}

// heatLabel is a row's or a column's label.
type heatLabel struct {
	X, Y, Text string
}

// heatBin is a shade of the legend and the values it stands for.
type heatBin struct {
	Level int
	Label string
}

// heatGrid is a heat map laid out.
type heatGrid struct {
	Width, Height int
	Cells         []heatCell
	Days, Hours   []heatLabel
	Bins          []heatBin
}

// shortWeekday is the short name of a day of the heat maps' weeks,
// Monday (0) to Sunday (6): "Mon", "Mo", "lun.".
func shortWeekday(ctx context.Context, d int) string {
	switch d {
	case 0:
		return tr(ctx, "trends.mon")
	case 1:
		return tr(ctx, "trends.tue")
	case 2:
		return tr(ctx, "trends.wed")
	case 3:
		return tr(ctx, "trends.thu")
	case 4:
		return tr(ctx, "trends.fri")
	case 5:
		return tr(ctx, "trends.sat")
	}
	return tr(ctx, "trends.sun")
}

// heatGridOf lays out a heat map, shaded in heatLevels steps of its
// largest value, each cell carrying its value rounded: wide, a row a day
// and a column an hour; or tall, for a phone, a row an hour and a column
// a day.
func heatGridOf(ctx context.Context, h trends.Heat, tall bool) heatGrid {
	var g heatGrid
	top := 0.0
	for d := range 7 {
		for hr := range 24 {
			top = max(top, h.PerWeek(d, hr))
		}
	}
	// Where each day and hour go: x and y of a cell, its size.
	left, topY, w, ch := float64(heatLeft), float64(heatTop), float64(trendWidth-heatLeft-4)/24, float64(heatCellH)
	g.Width, g.Height = trendWidth, heatTop+7*heatCellH+4
	at := func(d, hr int) (x, y float64) { return left + w*float64(hr), topY + ch*float64(d) }
	if tall {
		left, topY, w, ch = tallLeft, tallTop, float64(tallWidth-tallLeft-4)/7, tallCellH
		g.Width, g.Height = tallWidth, tallTop+24*tallCellH+4
		at = func(d, hr int) (x, y float64) { return left + w*float64(d), topY + ch*float64(hr) }
	}
	for d := range 7 {
		for hr := range 24 {
			v := h.PerWeek(d, hr)
			x, y := at(d, hr)
			g.Cells = append(g.Cells, heatCell{X: ff(x), Y: ff(y), W: ff(w), H: ff(ch), Level: heatLevel(v, top), Text: cellText(ctx, v),
				TextX: ff(x + w/2), TextY: ff(y + ch/2)})
		}
	}
	for d := range 7 {
		x, y := at(d, 0)
		if tall {
			g.Days = append(g.Days, heatLabel{X: ff(x + w/2), Y: ff(topY / 2), Text: shortWeekday(ctx, d)})
		} else {
			g.Days = append(g.Days, heatLabel{X: ff(left / 2), Y: ff(y + ch/2), Text: shortWeekday(ctx, d)})
		}
	}
	step := 3
	if tall {
		step = 1
	}
	for hr := 0; hr < 24; hr += step {
		x, y := at(0, hr)
		if tall {
			g.Hours = append(g.Hours, heatLabel{X: ff(left / 2), Y: ff(y + ch/2), Text: fmt.Sprintf("%02d", hr)})
		} else {
			g.Hours = append(g.Hours, heatLabel{X: ff(x + w/2), Y: ff(topY / 2), Text: fmt.Sprintf("%02d", hr)})
		}
	}
	g.Bins = append(g.Bins, heatBin{Level: 0, Label: tr(ctx, "trends.bin_none")})
	if top > 0 {
		lo := 0.0
		for l := 1; l <= heatLevels; l++ {
			hi := top * float64(l) / heatLevels
			label := decimal(ctx, lo) + "–" + decimal(ctx, hi)
			if l == 1 {
				label = tr(ctx, "trends.bin_up_to", "value", decimal(ctx, hi))
			}
			g.Bins = append(g.Bins, heatBin{Level: l, Label: label})
			lo = hi
		}
	}
	return g
}

// heatLevel is the shade of a value: 0 for nothing, else 1 to heatLevels
// by its share of top.
func heatLevel(v, top float64) int {
	if v <= 0 || top <= 0 {
		return 0
	}
	return min(heatLevels, max(1, int(math.Ceil(v/top*heatLevels))))
}

// cellText is a cell's value in a heat map: whole points, "<1" for less.
func cellText(ctx context.Context, v float64) string {
	switch {
	case v <= 0:
		return ""
	case v < 0.5:
		return "<1"
	}
	return numberIn(ctx, int(math.Round(v)))
}

// decimal writes v with one decimal, none when it is whole, as the
// page's language writes numbers: 2.5, 2,5.
func decimal(ctx context.Context, v float64) string {
	r := math.Round(v*10) / 10
	if r == math.Trunc(r) {
		return numberIn(ctx, int(r))
	}
	return decimalIn(ctx, r, 1)
}

// heatDescription is a heat map in words: the week's total and the
// busiest hours.
func heatDescription(ctx context.Context, h trends.Heat) string {
	type hour struct {
		d, h int
		v    float64
	}
	var hs []hour
	week := 0.0
	for d := range 7 {
		for hr := range 24 {
			v := h.PerWeek(d, hr)
			week += v
			if v > 0 {
				hs = append(hs, hour{d, hr, v})
			}
		}
	}
	if len(hs) == 0 {
		return tr(ctx, "trends.heat_no_use")
	}
	for i := 1; i < len(hs); i++ { // the three busiest, in order
		for j := i; j > 0 && hs[j].v > hs[j-1].v; j-- {
			hs[j], hs[j-1] = hs[j-1], hs[j]
		}
	}
	var busiest []string
	for _, x := range hs[:min(3, len(hs))] {
		busiest = append(busiest, fmt.Sprintf("%s %02d:00 (%s)", weekdayIn(ctx, time.Weekday((x.d+1)%7)), x.h, decimal(ctx, x.v)))
	}
	return tr(ctx, "trends.heat_description", "points", numberIn(ctx, int(math.Round(week))),
		"dispensers", trn(ctx, "trends.dispensers_count", h.Devices), "busiest", strings.Join(busiest, ", "))
}

// heatRowTotal is a day's use a week, for the table.
func heatRowTotal(ctx context.Context, h trends.Heat, d int) string {
	v := 0.0
	for hr := range 24 {
		v += h.PerWeek(d, hr)
	}
	return decimal(ctx, v)
}

// topWidth is the bar of a row of a top list, out of 100.
func topWidth(n, top int) string {
	if top <= 0 {
		return "0"
	}
	return ff(100 * float64(n) / float64(top))
}

// typeCounts is a row's alerts by type in words: "3 product out, 1 jammed".
func typeCounts(ctx context.Context, a trends.Alerts, byType []int) string {
	var parts []string
	for i, n := range byType {
		if n > 0 {
			parts = append(parts, numberIn(ctx, n)+" "+midSentence(ctx, reportAlertType(ctx, a.Types[i])))
		}
	}
	return strings.Join(parts, ", ")
}

// trendPlaceText is where a location or a room of a top list is.
func trendPlaceText(ctx context.Context, p trends.Place) string {
	return cmp.Or(pathText(p.Building, p.Floor, p.Room, p.Location), tr(ctx, "trends.location_unknown", "id", p.LocationID))
}

// heatValue is an hour's use a week, for the table: "–" for an hour not
// observed yet.
func heatValue(ctx context.Context, h trends.Heat, d, hr int) string {
	if h.Hours[d][hr] == 0 {
		return "–"
	}
	return decimal(ctx, h.PerWeek(d, hr))
}

// hourHeader is a column of the heat map's table: "09".
func hourHeader(hr int) string { return fmt.Sprintf("%02d", hr) }

// midSentence is a name as it is written within a sentence: lower case,
// but in German, whose nouns keep their capital ("3 Produkt leer").
func midSentence(ctx context.Context, name string) string {
	if lang(ctx) == "de" {
		return name
	}
	return strings.ToLower(name)
}
