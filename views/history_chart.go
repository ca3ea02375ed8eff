package views

import (
	"context"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"washboard/internal/domain"
)

// The geometry of a location's chart of its last days, in SVG user units.
// Its text grows on narrow screens (app.css), so the chart leaves room for
// the largest: an alert's label is given historyCharWidth a character.
const (
	historyWidth     = 800
	historyLeft      = 64 // room for the level axis
	historyRight     = 16
	historyPad       = 10  // above the alert lanes, or the plot
	historyLane      = 30  // one lane of alert bars with their labels
	historyLanes     = 3   // at most; alerts beyond share them unlabelled
	historyPlot      = 260 // the plot's height
	historyBottom    = 36  // room for the day labels
	historyCharWidth = 15
	historyMinDay    = 60 // the narrowest stretch of a day that is labelled
)

// historyChart is the chart of one device's last days: its levels as step
// lines, one per compartment, told apart by their dashes; its refills as
// upward triangles; its alerts as bars from opened to closed above the
// plot, with a dashed line down from the opening and a band across the
// plot; the spans it was offline hatched; a day on the time axis.
type historyChart struct {
	ID                       string // of the svg, and the prefix of the ids within it
	Name                     string // the device: "Towel dispenser"
	Desc                     string // the chart in words
	ViewBox                  string
	Left, Right, Top, Bottom string // the plot's edges
	Ticks                    []historyTick
	Midnights                []string // x of each midnight in the stretch
	Days                     []historyDay
	Lines                    []historyLine
	// NoRecord is the stretch before the device's record begins, if any,
	// with its label's x ("" when too narrow for one).
	NoRecord       *historySpan
	NoRecordLabelX string
	Offline        []historySpan
	Alerts         []historyAlert
	Refills        []historyRefill
}

// historyTick is a line of the level axis; Label is "" for an unlabelled one.
type historyTick struct {
	Y     string
	Label string
}

// historyDay is a day's label on the time axis, in the middle of its
// stretch: "Wed" and "18".
type historyDay struct {
	X, Y       string
	Name, Date string
}

// historyLine is one compartment's level.
type historyLine struct {
	Path  string
	Class string // its dash pattern
	Dash  string // the pattern in words: "dashed"
	Name  string // "Roll 2"
}

// historySpan is a stretch of the plot: a span offline.
type historySpan struct {
	X, Y, W, H string
	Title      string
}

// historyAlert is an alert: a bar in its lane from opened to closed (or to
// the stretch's end while open), a band across the plot, and a dashed line
// down from its opening. Label is "" when its lane has no room for it.
type historyAlert struct {
	X, W           string // of the bar and the band
	BarY           string
	LineY1         string // the opening line, from the bar down to the plot's bottom
	Label          string
	LabelX, LabelY string
	Anchor         string // text-anchor of the label
	Title          string
}

// historyRefill is a refill's triangle, at the level it rose to, or on the
// time axis when only an alert tells of it.
type historyRefill struct {
	Transform string
	Title     string
}

// historyDashes are the dash patterns of the level lines, by compartment
// (app.css draws them), and their names; a fifth compartment starts again.
var historyDashes = []string{"chart-level chart-level-1", "chart-level chart-level-2", "chart-level chart-level-3", "chart-level chart-level-4"}

// dashName names the dash pattern of compartment k's line.
func dashName(ctx context.Context, k int) string {
	switch k % len(historyDashes) {
	case 0:
		return tr(ctx, "history.dash_solid")
	case 1:
		return tr(ctx, "history.dash_dashed")
	case 2:
		return tr(ctx, "history.dash_dotted")
	}
	return tr(ctx, "history.dash_dot")
}

// historyChartOf lays out the chart of the i-th device of a location's
// history.
func historyChartOf(ctx context.Context, h LocationHistory, i int) historyChart {
	d := h.Devices[i]
	left, right := float64(historyLeft), float64(historyWidth-historyRight)
	span := h.To.Sub(h.From).Seconds()
	if span <= 0 {
		span = 1
	}
	x := func(t time.Time) float64 {
		return left + (right-left)*min(max(t.Sub(h.From).Seconds()/span, 0), 1)
	}
	c := historyChart{ID: "history-" + strconv.Itoa(i), Name: historyDeviceName(ctx, h, d)}
	c.Desc = historyDescription(ctx, h, d)

	// Alerts first: their lanes decide where the plot starts.
	var ends []float64 // the right end of what each lane holds
	type placed struct {
		a         domain.Alert
		lane      int
		x1, x2    float64
		labelX    float64
		labelEnd  bool
		withLabel bool
	}
	var alerts []placed
	for _, a := range d.Alerts {
		p := placed{a: a, x1: x(a.Created), x2: right}
		if !a.Open() {
			p.x2 = x(a.Resolved)
		}
		if p.x2-p.x1 < 3 { // a short alert is still seen
			p.x1 = min(p.x1, right-3)
			p.x2 = p.x1 + 3
		}
		// The label starts at the bar, or ends at its start when the
		// bar is too near the right edge.
		labelW := float64(len([]rune(AlertTypeName(ctx, a.Type))) * historyCharWidth)
		ls := p.x1
		if ls+labelW > right {
			ls = max(p.x1-4-labelW, 0)
		}
		start, end := min(p.x1, ls), max(p.x2, ls+labelW)
		p.lane = -1
		for l, e := range ends {
			if e+6 <= start {
				p.lane, p.withLabel = l, true
				break
			}
		}
		if p.lane < 0 && len(ends) < historyLanes {
			ends = append(ends, 0)
			p.lane, p.withLabel = len(ends)-1, true
		}
		if p.lane < 0 { // no room for a label: the bar where it fits, or overlapping least
			p.lane = 0
			for l, e := range ends {
				if e+2 <= p.x1 {
					p.lane = l
					break
				}
				if e < ends[p.lane] {
					p.lane = l
				}
			}
			end = p.x2
		}
		ends[p.lane] = max(ends[p.lane], end)
		p.labelX, p.labelEnd = ls, ls < p.x1
		if p.labelEnd {
			p.labelX = p.x1 - 4
		}
		alerts = append(alerts, p)
	}
	top := float64(historyPad)
	if len(ends) > 0 {
		top += float64(len(ends)*historyLane) + 4
	}
	bottom := top + historyPlot
	y := func(level int) float64 { return bottom - historyPlot*float64(min(max(level, 0), 100))/100 }
	c.ViewBox = "0 0 " + strconv.Itoa(historyWidth) + " " + ff(bottom+historyBottom)
	c.Left, c.Right, c.Top, c.Bottom = ff(left), ff(right), ff(top), ff(bottom)

	for _, p := range alerts {
		laneTop := float64(historyPad + p.lane*historyLane)
		ha := historyAlert{X: ff(p.x1), W: ff(p.x2 - p.x1), BarY: ff(laneTop + 23), LineY1: ff(laneTop + 29), Title: alertSpanText(ctx, p.a, h.Zone)}
		if p.withLabel {
			ha.Label, ha.LabelX, ha.LabelY, ha.Anchor = AlertTypeName(ctx, p.a.Type), ff(p.labelX), ff(laneTop+20), "start"
			if p.labelEnd {
				ha.Anchor = "end"
			}
		}
		c.Alerts = append(c.Alerts, ha)
	}
	for _, v := range []int{0, 25, 50, 75, 100} {
		t := historyTick{Y: ff(y(v))}
		if v%50 == 0 {
			t.Label = strconv.Itoa(v)
		}
		c.Ticks = append(c.Ticks, t)
	}

	c.Midnights, c.Days = historyDaysAxis(ctx, h, x, bottom)

	for k, steps := range d.Levels {
		if len(steps) == 0 {
			continue
		}
		var b strings.Builder
		for j, s := range steps {
			if j == 0 {
				b.WriteString("M" + ff(x(s.At)) + " " + ff(y(s.Level)))
				continue
			}
			b.WriteString(" H" + ff(x(s.At)) + " V" + ff(y(s.Level)))
		}
		b.WriteString(" H" + ff(right))
		c.Lines = append(c.Lines, historyLine{Path: b.String(), Class: historyDashes[k%len(historyDashes)], Dash: dashName(ctx, k), Name: compartmentName(ctx, h.Type, k, len(d.Levels))})
	}
	if d.Since.After(h.From) {
		w := x(d.Since) - left
		c.NoRecord = &historySpan{X: ff(left), Y: ff(top), W: ff(w), H: ff(historyPlot), Title: tr(ctx, "history.no_record_before", "when", shortDateTimeIn(ctx, d.Since, h.Zone))}
		if w >= 160 {
			c.NoRecordLabelX = ff(left + w/2)
		}
	}
	for _, o := range d.Offline {
		c.Offline = append(c.Offline, historySpan{X: ff(x(o.From)), Y: ff(top), W: ff(x(o.To) - x(o.From)), H: ff(historyPlot), Title: offlineText(ctx, o, h.Zone)})
	}
	for _, r := range d.Refills {
		at := bottom
		if r.Compartment >= 0 {
			at = y(r.After)
		}
		c.Refills = append(c.Refills, historyRefill{Transform: "translate(" + ff(x(r.At)) + " " + ff(at) + ")",
			Title: refillWords(ctx, h, d, r) + ", " + shortDateTimeIn(ctx, r.At, h.Zone)})
	}
	return c
}

// historyDays is how many days the stretch of a location's history holds,
// rounded: 7.
func historyDays(h LocationHistory) int {
	return int(math.Round(h.To.Sub(h.From).Hours() / 24))
}

// historyHasLevels reports whether a device of the location reported
// levels over the stretch.
func historyHasLevels(h LocationHistory) bool {
	for _, d := range h.Devices {
		if len(d.Levels) > 0 {
			return true
		}
	}
	return false
}

// historyDeviceName names a device of a location's history as its card
// does: by its type, or by its position when there are several.
func historyDeviceName(ctx context.Context, h LocationHistory, d domain.DeviceHistory) string {
	return deviceLabel(ctx, h.Type, len(h.Devices), d.Position)
}

// historyDescription is a device's chart in words: its levels at the
// start, at the end and at their lowest, its refills, alerts and time
// offline.
func historyDescription(ctx context.Context, h LocationHistory, d domain.DeviceHistory) string {
	var b strings.Builder
	b.WriteString(historySpanWords(ctx, h, d))
	if len(d.Levels) == 0 {
		b.WriteString(" " + tr(ctx, "history.desc_no_level"))
	}
	for k, steps := range d.Levels {
		if len(steps) == 0 {
			continue
		}
		low := steps[0].Level
		for _, s := range steps {
			low = min(low, s.Level)
		}
		b.WriteString(" " + tr(ctx, "history.desc_level", "compartment", compartmentName(ctx, h.Type, k, len(d.Levels)),
			"start", steps[0].Level, "end", steps[len(steps)-1].Level, "low", low))
	}
	b.WriteString(" " + trn(ctx, "history.desc_refills", len(d.Refills)))
	if len(d.Alerts) > 0 {
		var types []string
		for _, a := range d.Alerts {
			if l := AlertTypeName(ctx, a.Type); !slices.Contains(types, l) {
				types = append(types, l)
			}
		}
		b.WriteString(" " + trn(ctx, "history.desc_alerts", len(d.Alerts), "types", strings.Join(types, ", ")))
	} else {
		b.WriteString(" " + tr(ctx, "history.desc_no_alerts"))
	}
	if len(d.Offline) > 0 {
		b.WriteString(" " + tr(ctx, "history.sentence", "words", offlineWords(ctx, d.Offline)))
	}
	return b.String()
}

// historySpanWords begins a chart's description: the device, the stretch,
// and when its record begins.
func historySpanWords(ctx context.Context, h LocationHistory, d domain.DeviceHistory) string {
	s := tr(ctx, "history.desc_span", "device", historyDeviceName(ctx, h, d), "from", shortDateTimeIn(ctx, h.From, h.Zone), "to", shortDateTimeIn(ctx, h.To, h.Zone))
	if d.Since.After(h.From) {
		s += " " + tr(ctx, "history.sentence", "words", tr(ctx, "history.no_record_before", "when", shortDateTimeIn(ctx, d.Since, h.Zone)))
	}
	return s
}

// offlineWords sums up a device's times offline: "Offline 2 times, 3 h in
// all, and still offline".
func offlineWords(ctx context.Context, offline []domain.OfflineSpan) string {
	var total time.Duration
	for _, o := range offline {
		total += o.To.Sub(o.From)
	}
	if offline[len(offline)-1].Ongoing {
		return trn(ctx, "history.offline_times_still", len(offline), "duration", Duration(ctx, total))
	}
	return trn(ctx, "history.offline_times", len(offline), "duration", Duration(ctx, total))
}

// refillWords says what a refill was: "Refill of Roll 2, 3 % to 100 %",
// or "Refill, told by its alert" when only an alert's closing tells of it.
func refillWords(ctx context.Context, h LocationHistory, d domain.DeviceHistory, r domain.Refill) string {
	if r.Compartment < 0 {
		return tr(ctx, "history.refill_by_alert")
	}
	return tr(ctx, "history.refill_of", "compartment", compartmentName(ctx, h.Type, r.Compartment, len(d.Levels)), "before", r.Before, "after", r.After)
}

// alertSpanText is an alert with its times: "Product out, Thu 19 Nov 08:00
// to Thu 19 Nov 10:40".
func alertSpanText(ctx context.Context, a domain.Alert, zone *time.Location) string {
	if a.Open() {
		return tr(ctx, "history.alert_span_open", "alert", AlertTypeName(ctx, a.Type), "from", shortDateTimeIn(ctx, a.Created, zone))
	}
	return tr(ctx, "history.alert_span", "alert", AlertTypeName(ctx, a.Type), "from", shortDateTimeIn(ctx, a.Created, zone), "to", shortDateTimeIn(ctx, a.Resolved, zone))
}

// offlineText is a span offline with its times.
func offlineText(ctx context.Context, o domain.OfflineSpan, zone *time.Location) string {
	if o.Ongoing {
		return tr(ctx, "history.offline_span_still", "from", shortDateTimeIn(ctx, o.From, zone))
	}
	return tr(ctx, "history.offline_span", "from", shortDateTimeIn(ctx, o.From, zone), "to", shortDateTimeIn(ctx, o.To, zone))
}

// historyRow is a row of a device's table: a time something changed, the
// level of each compartment then ("—" before it was reported), and what
// happened.
type historyRow struct {
	At     time.Time
	Levels []string
	Events []string
}

// historyRows are the rows of a device's table, in time order: one at the
// start of its record, one at each change of a level, and one at each
// refill, alert opened or closed, and span offline begun or ended.
func historyRows(ctx context.Context, h LocationHistory, d domain.DeviceHistory) []historyRow {
	byTime := map[int64]*historyRow{}
	add := func(t time.Time, event string) {
		r := byTime[t.UnixNano()]
		if r == nil {
			r = &historyRow{At: t}
			byTime[t.UnixNano()] = r
		}
		if event != "" {
			r.Events = append(r.Events, event)
		}
	}
	if d.Recorded() {
		if d.Since.After(h.From) {
			add(d.Since, tr(ctx, "history.first_reading"))
		} else {
			add(d.Since, trn(ctx, "history.start_of_days", historyDays(h)))
		}
	}
	for _, steps := range d.Levels {
		for _, s := range steps {
			add(s.At, "")
		}
	}

	for _, a := range d.Alerts {
		if a.Created.Before(h.From) {
			add(h.From, tr(ctx, "history.alert_open_since", "alert", AlertTypeName(ctx, a.Type), "when", shortDateTimeIn(ctx, a.Created, h.Zone)))
		} else {
			add(a.Created, tr(ctx, "history.alert_opened", "alert", AlertTypeName(ctx, a.Type)))
		}
		if !a.Open() && !a.Resolved.After(h.To) {
			add(a.Resolved, alertClosedWords(ctx, a))
		}
	}
	for _, o := range d.Offline {
		if o.From.After(h.From) {
			add(o.From, tr(ctx, "history.went_offline"))
		} else {
			add(o.From, tr(ctx, "format.health_offline"))
		}
		if !o.Ongoing {
			add(o.To, tr(ctx, "history.back_online"))
		}
	}
	for _, r := range d.Refills {
		add(r.At, refillWords(ctx, h, d, r))
	}
	rows := make([]historyRow, 0, len(byTime))
	for _, r := range byTime {
		if len(r.Events) == 0 {
			r.Events = []string{tr(ctx, "history.level_changed")}
		}
		for _, steps := range d.Levels {
			n, _ := slices.BinarySearchFunc(steps, r.At, func(s domain.LevelStep, t time.Time) int {
				if s.At.After(t) {
					return 1
				}
				return -1
			})
			if n == 0 {
				r.Levels = append(r.Levels, "—")
			} else {
				r.Levels = append(r.Levels, tr(ctx, "format.level", "level", steps[n-1].Level))
			}
		}
		rows = append(rows, *r)
	}
	slices.SortFunc(rows, func(a, b historyRow) int { return a.At.Compare(b.At) })
	return rows
}

// alertClosedWords says how an alert closed: "Product out alert resolved
// by a user".
func alertClosedWords(ctx context.Context, a domain.Alert) string {
	name := AlertTypeName(ctx, a.Type)
	switch a.Resolution {
	case domain.ResolvedByDevice:
		return tr(ctx, "history.alert_resolved", "alert", name)
	case domain.ResolvedByUser:
		return tr(ctx, "history.alert_resolved_by_user", "alert", name)
	case domain.ResolvedByOffline:
		return tr(ctx, "history.alert_closed_offline", "alert", name)
	}
	return tr(ctx, "history.alert_closed", "alert", name)
}

// presenceBand is the height of the band of a device that reports no
// levels (a gateway), in SVG user units, above the same time axis.
const presenceBand = 48

// presenceChart is the chart of the last days of a device without levels:
// a band across the days, filled where the device was online, hatched
// where it was offline, grey before its record begins.
type presenceChart struct {
	ID, Name, Desc           string
	ViewBox                  string
	Left, Right, Top, Bottom string // the band's edges
	Midnights                []string
	Days                     []historyDay
	NoRecord                 *historySpan
	Online, Offline          []historySpan
	Labels                   []presenceLabel
}

// presenceLabel is a word in the middle of a stretch of the band wide
// enough for it at its largest: "Online", "Offline", "No record".
type presenceLabel struct {
	X, Y string
	Text string
}

// presenceChartOf lays out the band of the i-th device of a location's
// history, which reports no levels.
func presenceChartOf(ctx context.Context, h LocationHistory, i int) presenceChart {
	d := h.Devices[i]
	left, right := float64(historyLeft), float64(historyWidth-historyRight)
	top, bottom := float64(historyPad), float64(historyPad+presenceBand)
	span := max(h.To.Sub(h.From).Seconds(), 1)
	x := func(t time.Time) float64 {
		return left + (right-left)*min(max(t.Sub(h.From).Seconds()/span, 0), 1)
	}
	c := presenceChart{ID: "history-" + strconv.Itoa(i), Name: historyDeviceName(ctx, h, d), Desc: presenceDescription(ctx, h, d),
		ViewBox: "0 0 " + strconv.Itoa(historyWidth) + " " + ff(bottom+historyBottom),
		Left:    ff(left), Right: ff(right), Top: ff(top), Bottom: ff(bottom)}
	c.Midnights, c.Days = historyDaysAxis(ctx, h, x, bottom)

	stretch := func(from, to time.Time, title, label string) historySpan {
		x1, x2 := x(from), x(to)
		if label != "" && x2-x1 >= float64(len(label)*historyCharWidth+8) {
			c.Labels = append(c.Labels, presenceLabel{X: ff((x1 + x2) / 2), Y: ff(top + presenceBand/2), Text: label})
		}
		return historySpan{X: ff(x1), Y: ff(top), W: ff(x2 - x1), H: ff(presenceBand), Title: title}
	}
	if d.Since.After(h.From) {
		s := stretch(h.From, d.Since, tr(ctx, "history.no_record_before", "when", shortDateTimeIn(ctx, d.Since, h.Zone)), tr(ctx, "history.no_record"))
		c.NoRecord = &s
	}
	// Online between the spans offline, from the start of the record.
	from := maxTime(d.Since, h.From)
	for _, o := range d.Offline {
		if o.From.After(from) {
			c.Online = append(c.Online, stretch(from, o.From, onlineText(ctx, from, o.From, h.Zone), tr(ctx, "device.online")))
		}
		c.Offline = append(c.Offline, stretch(o.From, o.To, offlineText(ctx, o, h.Zone), tr(ctx, "format.health_offline")))
		from = maxTime(from, o.To)
	}
	if h.To.After(from) {
		c.Online = append(c.Online, stretch(from, h.To, onlineText(ctx, from, h.To, h.Zone), tr(ctx, "device.online")))
	}
	return c
}

// historyDaysAxis is the time axis of a chart whose plot ends at bottom:
// a line at each midnight of the stretch, and a label in the middle of
// each day wide enough for one.
func historyDaysAxis(ctx context.Context, h LocationHistory, x func(time.Time) float64, bottom float64) (midnights []string, days []historyDay) {
	bounds := []time.Time{h.From}
	from := in(h.From, h.Zone)
	for m := time.Date(from.Year(), from.Month(), from.Day()+1, 0, 0, 0, 0, from.Location()); m.Before(h.To); m = time.Date(m.Year(), m.Month(), m.Day()+1, 0, 0, 0, 0, m.Location()) {
		bounds = append(bounds, m)
		midnights = append(midnights, ff(x(m)))
	}
	bounds = append(bounds, h.To)
	for k := 0; k+1 < len(bounds); k++ {
		xa, xb := x(bounds[k]), x(bounds[k+1])
		if xb-xa < historyMinDay {
			continue
		}
		t := in(bounds[k], h.Zone)
		days = append(days, historyDay{X: ff((xa + xb) / 2), Y: ff(bottom + 24), Name: weekdayShort(ctx, t.Weekday()), Date: t.Format("2")})
	}
	return midnights, days
}

// presenceDescription is a band in words: the device, the stretch, when
// its record begins, and its time offline.
func presenceDescription(ctx context.Context, h LocationHistory, d domain.DeviceHistory) string {
	s := historySpanWords(ctx, h, d)
	if len(d.Offline) == 0 {
		return s + " " + tr(ctx, "history.online_throughout")
	}
	return s + " " + tr(ctx, "history.online_rest", "offline", offlineWords(ctx, d.Offline))
}

// onlineText is a stretch online with its times.
func onlineText(ctx context.Context, from, to time.Time, zone *time.Location) string {
	return tr(ctx, "history.online_span", "from", shortDateTimeIn(ctx, from, zone), "to", shortDateTimeIn(ctx, to, zone))
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
