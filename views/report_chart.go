package views

import (
	"strconv"

	"washboard/internal/report"
)

// The hourly chart's geometry, in SVG user units.
const (
	chartWidth  = 720
	chartHeight = 240
	chartLeft   = 36 // room for the axis numbers
	chartBottom = 40 // room for the hour labels
	chartTop    = 16
)

// chartBar is one bar of the hourly chart.
type chartBar struct {
	X, Y, W, H string
	Value      int
	LabelX     string // where the count above the bar goes
	LabelY     string
}

// chartHour is an hour of the chart with its bars and its label.
type chartHour struct {
	Opened, Resolved chartBar
	Label            string // "" when the hour is not labelled (too many hours)
	LabelX           string
}

// chartTick is a line of the value axis.
type chartTick struct {
	Y     string
	Value int
}

// hourlyChart lays out the chart: two bars an hour (opened, resolved),
// scaled to the largest count, under the hours' labels.
func hourlyChart(buckets []report.Bucket, labels []string) (hours []chartHour, ticks []chartTick, showCounts bool) {
	top := 1
	for _, b := range buckets {
		top = max(top, b.Opened, b.Resolved)
	}
	plotH := float64(chartHeight - chartBottom - chartTop)
	plotW := float64(chartWidth - chartLeft - 4)
	n := max(len(buckets), 1)
	slot := plotW / float64(n)
	shown := 24
	if len(buckets) > 0 && len(buckets[0].Label) > 5 {
		shown = 8 // dated labels ("2 Jun 06:00") are wider
	}
	every := 1 + (n-1)/shown
	showCounts = n <= 24
	bar := func(x, w float64, v int) chartBar {
		h := plotH * float64(v) / float64(top)
		y := float64(chartTop) + plotH - h
		return chartBar{X: ff(x), Y: ff(y), W: ff(w), H: ff(h), Value: v, LabelX: ff(x + w/2), LabelY: ff(y - 3)}
	}
	for i, b := range buckets {
		x := float64(chartLeft) + slot*float64(i)
		w := slot * 0.38
		h := chartHour{
			Opened:   bar(x+slot*0.1, w, b.Opened),
			Resolved: bar(x+slot*0.1+w, w, b.Resolved),
			LabelX:   ff(x + slot/2),
		}
		if i%every == 0 {
			h.Label = labels[i]
		}
		hours = append(hours, h)
	}
	for _, v := range []int{0, top / 2, top} {
		if v == top/2 && (top < 2 || top%2 != 0 && top < 4) {
			continue
		}
		ticks = append(ticks, chartTick{Y: ff(float64(chartTop) + plotH - plotH*float64(v)/float64(top)), Value: v})
	}
	return hours, ticks, showCounts
}

func itoa(n int) string { return strconv.Itoa(n) }
