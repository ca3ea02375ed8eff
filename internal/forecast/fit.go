package forecast

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"time"
)

// What a model learns from, and when there is too little of it.
const (
	// Window is the stretch of level history a profile learns from.
	Window = 28 * 24 * time.Hour
	// AlertWindow is the stretch of consumable_out alerts the fallback
	// learns from.
	AlertWindow = 90 * 24 * time.Hour

	// A profile needs at least MinObserved of observed time in the window
	// (time heard from, not out, not in a gap) in which at least
	// MinConsumed percent were used.
	MinObserved = 72 * time.Hour
	MinConsumed = 10
	// Without a profile, the fallback needs at least MinAlerts
	// consumable_out alerts in AlertWindow, at least an hour apart. With
	// neither, there is too little data and no estimate.
	MinAlerts = 3
)

const (
	// maxQuiet is the longest time rows of a device may lie apart and still
	// be taken as a time of little use rather than a gap nobody recorded.
	// The slowest dispensers change by 1 % in well under a day, even at
	// weekends.
	maxQuiet = 36 * time.Hour

	// shrink is how many hours of data a bucket of the week needs before
	// its own rate counts as much as the rate its hour of the day and its
	// day of the week suggest.
	shrink = 1.0

	// folds are the weeks of the window that the spread of errors leaves
	// out in turn.
	folds = 5
	week  = 7 * 24 * 3600 // seconds

	// Errors are measured from about checkpoints past levels of the
	// device, for each of the horizons of 1, 2, 4, … 64 percent to go.
	checkpoints = 100
	classes     = 7
	minPairs    = 20
	maxLogRatio = 3
)

// The quantiles of the errors of past projections that bound the range:
// 90 % of past projections fell inside.
const (
	lowQuantile  = 0.05
	highQuantile = 0.95
)

// Model is what Fit learned of one device: its consumption by hour of the
// week, each compartment's share of it, and how far its own past
// projections were off. Fit it once a day; Forecast with it after every
// poll.
type Model struct {
	basis  Basis
	offset int64 // the zone's offset at fit time, seconds east of UTC
	prof   profile
	shares []float64 // share of each compartment in the device's use
	// disordered marks the compartments whose rows were out of time order
	// at fit time: Forecast sorts them rather than trust their tails.
	disordered []bool
	spread     [classes]logRatios // errors by percent to go: 1, 2, 4, … 64
	observed   time.Duration      // in the window: heard from, not out, not in a gap
	consumed   float64            // percent used in the window, over all compartments
}

// logRatios are quantiles of log(actual / projected consumption).
type logRatios struct{ lo, mid, hi float64 }

// defaultSpread is assumed when a device has too few past projections to
// measure: a factor of two either way.
var defaultSpread = logRatios{-math.Ln2, 0, math.Ln2}

// Basis says what the model's estimates rest on, unless the device is out.
func (m *Model) Basis() Basis { return m.basis }

type span struct{ a, b int64 } // Unix seconds, [a, b)

type checkpoint struct {
	sec   int64
	level int
	run   int32
}

// Fit learns a device's model from its history as of now, in the
// buildings' time zone. Its cost grows with the rows of the last Window;
// it does not change h.
//
// Each compartment's rows are read in time order, rows after now ignored.
// A run of a compartment starts at its first row, at a refill, and after
// anything that hides when its level fell: a gap, a time its device was
// out, 36 hours without a row. Within a run only new lows count: a level
// that goes up by less than RefillRise and comes down again is counted
// once. Each percent a new low falls counts in the hour of the week of its
// row; the hours observed count where nothing hides the level.
func Fit(h *History, now time.Time, zone *time.Location) *Model {
	f := fitter{
		now:   now.Unix(),
		start: now.Add(-Window).Unix(),
		lh:    newLocalHours(zone),
	}
	m := &Model{}
	f.lh.at(f.now)
	m.offset = f.lh.offset
	m.shares = make([]float64, len(h.Levels))
	for i := range m.shares {
		m.shares[i] = 1
	}

	f.series = make([][]Sample, len(h.Levels))
	m.disordered = make([]bool, len(h.Levels))
	for i, s := range h.Levels {
		s, m.disordered[i] = ordered(s, now)
		k := sort.Search(len(s), func(j int) bool { return s[j].At.Unix() >= f.start })
		f.series[i] = s[k:]
	}
	f.refills = sortedSeconds(h.Refills, f.start, f.now)
	f.exclusions(h.Gaps)
	f.exposure()
	f.crossings()

	var observed, consumed float64
	for b := range hoursPerWeek {
		for w := range folds {
			observed += f.e[w][b]
			consumed += f.u[w][b]
		}
	}
	m.observed = time.Duration(observed * float64(time.Hour))
	m.consumed = consumed
	if m.observed >= MinObserved && consumed >= MinConsumed {
		m.basis = FromLevels
		var u, e [hoursPerWeek]float64
		for w := range folds {
			for b := range hoursPerWeek {
				u[b] += f.u[w][b]
				e[b] += f.e[w][b]
			}
		}
		m.prof.estimate(&u, &e)
		n := float64(len(f.units))
		for i, x := range f.units {
			m.shares[i] = (x + 2) / (consumed + 2*n)
		}
		m.spread = f.errors(m.shares, &u, &e, m.offset)
		return m
	}
	m.fallback(h.Outs, now)
	return m
}

type fitter struct {
	now, start int64
	lh         *localHours
	series     [][]Sample
	refills    []int64
	excl       []span
	first      int64 // the first row of any compartment in the window
	u, e       [folds][hoursPerWeek]float64
	units      []float64      // percent counted, per compartment
	points     [][]checkpoint // counted new lows, per compartment
}

func sortedSeconds(ts []time.Time, from, to int64) []int64 {
	out := make([]int64, 0, len(ts))
	for _, t := range ts {
		if s := t.Unix(); s >= from && s <= to {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// exclusions collects the spans of the window in which the device's use
// is hidden: before its first row, its gaps, quiet stretches, and the time
// any of its compartments reports out.
func (f *fitter) exclusions(gaps []Span) {
	f.first = f.now
	for _, s := range f.series {
		if len(s) > 0 {
			f.first = min(f.first, s[0].At.Unix())
		}
	}
	ex := []span{{f.start, f.first}}
	for _, g := range gaps {
		a, b := g.From.Unix(), f.now
		if !g.To.IsZero() {
			b = g.To.Unix()
		}
		if b > a {
			ex = append(ex, span{max(a, f.start), min(b, f.now)})
		}
	}
	// Quiet stretches: rows of all compartments, merged.
	heads := make([]int, len(f.series))
	last := f.first
	for {
		next, k := int64(math.MaxInt64), -1
		for i, s := range f.series {
			if heads[i] < len(s) {
				if t := s[heads[i]].At.Unix(); t < next {
					next, k = t, i
				}
			}
		}
		if k < 0 {
			break
		}
		heads[k]++
		if next-last > int64(maxQuiet/time.Second) {
			ex = append(ex, span{last, next})
		}
		last = next
	}
	if f.now-last > int64(maxQuiet/time.Second) {
		ex = append(ex, span{last, f.now})
	}
	for _, s := range f.series {
		for j, r := range s {
			if r.level() > 0 {
				continue
			}
			end := f.now
			if j+1 < len(s) {
				end = s[j+1].At.Unix()
			}
			ex = append(ex, span{r.At.Unix(), end})
		}
	}
	slices.SortFunc(ex, func(x, y span) int { return cmp.Compare(x.a, y.a) })
	merged := ex[:0]
	for _, s := range ex {
		if s.b <= s.a {
			continue
		}
		if n := len(merged); n > 0 && s.a <= merged[n-1].b {
			merged[n-1].b = max(merged[n-1].b, s.b)
			continue
		}
		merged = append(merged, s)
	}
	f.excl = merged
}

// hidden reports whether any excluded span meets (a, b].
func (f *fitter) hidden(a, b int64) bool {
	i := sort.Search(len(f.excl), func(i int) bool { return f.excl[i].b > a })
	return i < len(f.excl) && f.excl[i].a < b
}

// fold is the week of the window that the Unix time sec lies in, counted
// back from now.
func (f *fitter) fold(sec int64) int {
	return min(max(int((f.now-sec)/week), 0), folds-1)
}

// exposure adds the hours observed to each hour of the week.
func (f *fitter) exposure() {
	from := f.first
	for _, x := range append(f.excl, span{f.now, f.now}) {
		for a := from; a < x.a; {
			h, zoneEnd := f.lh.at(a)
			hourEnd := a + int64((math.Floor(h)+1-h)*3600+0.5)
			foldEnd := f.now - int64(f.fold(a))*week
			b := min(x.a, hourEnd, zoneEnd, foldEnd)
			if b <= a {
				b = a + 1
			}
			f.e[f.fold(a)][bucket(h)] += float64(b-a) / 3600
			a = b
		}
		from = max(from, x.b)
	}
}

// crossings counts each compartment's new lows in the hour of the week of
// their rows, and keeps them as checkpoints for the errors.
func (f *fitter) crossings() {
	f.units = make([]float64, len(f.series))
	f.points = make([][]checkpoint, len(f.series))
	var run int32
	for i, s := range f.series {
		f.points[i] = make([]checkpoint, 0, len(s))
		base, prevAt, prevLevel := -1, int64(0), 0
		refill := 0
		for _, row := range s {
			t, level := row.At.Unix(), row.level()
			for refill < len(f.refills) && f.refills[refill] <= prevAt {
				refill++
			}
			switch {
			case base < 0,
				refill < len(f.refills) && f.refills[refill] <= t,
				level >= prevLevel+RefillRise,
				f.hidden(prevAt, t):
				base = level
				run++
			case level < base:
				h, _ := f.lh.at(t)
				d := float64(base - level)
				f.u[f.fold(t)][bucket(h)] += d
				f.units[i] += d
				f.points[i] = append(f.points[i], checkpoint{t, level, run})
				base = level
			}
			prevAt, prevLevel = t, level
		}
	}
}

// errors measures how far the device's past projections were off: from
// past new lows, how much it actually used until it was 1, 2, 4, … 64
// percent lower against what a profile of the other weeks of the window
// projected for that time.
func (f *fitter) errors(shares []float64, u, e *[hoursPerWeek]float64, offset int64) [classes]logRatios {
	var profs [folds]*profile
	for w := range folds {
		var uw, ew [hoursPerWeek]float64
		var units, hours float64
		for b := range hoursPerWeek {
			uw[b] = u[b] - f.u[w][b]
			ew[b] = e[b] - f.e[w][b]
			units += uw[b]
			hours += ew[b]
		}
		if hours*float64(time.Hour) < float64(MinObserved)/2 || units < MinConsumed {
			continue
		}
		profs[w] = new(profile)
		profs[w].estimate(&uw, &ew)
	}
	hoursOf := func(sec int64) float64 { return float64(sec+offset-mondayEpoch) / 3600 }
	minRatio, maxRatio := math.Exp(-maxLogRatio), math.Exp(maxLogRatio)
	total := 0
	for _, cp := range f.points {
		total += len(cp)
	}
	step := max(1, total/checkpoints)

	var ratios [classes][]float64 // actual / projected use
	for i, cp := range f.points {
		runEnd := make([]int, len(cp))
		for k := len(cp) - 1; k >= 0; k-- {
			runEnd[k] = k + 1
			if k+1 < len(cp) && cp[k+1].run == cp[k].run {
				runEnd[k] = runEnd[k+1]
			}
		}
		for k := 0; k < len(cp); k += step {
			p := profs[f.fold(cp[k].sec)]
			if p == nil {
				continue
			}
			from := p.at(hoursOf(cp[k].sec))
			rest := cp[k+1 : runEnd[k]]
			for c := range classes {
				target := cp[k].level - 1<<c
				j := sort.Search(len(rest), func(j int) bool { return rest[j].level <= target })
				if j == len(rest) {
					break
				}
				used := float64(cp[k].level - rest[j].level)
				ratio := maxRatio
				if projected := shares[i] * (p.at(hoursOf(rest[j].sec)) - from); projected > 0 {
					ratio = max(minRatio, min(maxRatio, used/projected))
				}
				ratios[c] = append(ratios[c], ratio)
			}
		}
	}
	var out [classes]logRatios
	for c := range classes {
		switch {
		case len(ratios[c]) >= minPairs:
			out[c] = logRatios{
				lo:  math.Log(quantile(ratios[c], lowQuantile)),
				mid: math.Log(quantile(ratios[c], 0.5)),
				hi:  math.Log(quantile(ratios[c], highQuantile)),
			}
			out[c].lo = min(out[c].lo, out[c].mid)
			out[c].hi = max(out[c].hi, out[c].mid)
		case c > 0:
			out[c] = out[c-1]
		default:
			out[c] = defaultSpread
		}
	}
	return out
}

// quantile is the q-quantile of x, interpolated between the values that
// would sit either side of it if x were sorted. It reorders x.
func quantile(x []float64, q float64) float64 {
	pos := q * float64(len(x)-1)
	i := int(pos)
	v := nth(x, i)
	if i+1 < len(x) && pos > float64(i) {
		return v + (pos-float64(i))*(slices.Min(x[i+1:])-v)
	}
	return v
}

// nth reorders x so that x[k] holds the value it would hold if x were
// sorted, with no greater value before it and no smaller after, and
// returns it: a quickselect, linear on average.
func nth(x []float64, k int) float64 {
	lo, hi := 0, len(x)-1
	for lo < hi {
		pivot := x[lo+(hi-lo)/2]
		i, j := lo, hi
		for i <= j {
			for x[i] < pivot {
				i++
			}
			for x[j] > pivot {
				j--
			}
			if i <= j {
				x[i], x[j] = x[j], x[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return x[k]
		}
	}
	return x[k]
}

// estimate sets the profile's rates from the percent used, u, and the
// hours observed, e, in each hour of the week. A bucket with few hours
// leans on what its hour of the day and its day of the week say.
func (p *profile) estimate(u, e *[hoursPerWeek]float64) {
	var total, hours float64
	var hu, he [24]float64
	var du, de [7]float64
	for b := range hoursPerWeek {
		total += u[b]
		hours += e[b]
		hu[b%24] += u[b]
		he[b%24] += e[b]
		du[b/24] += u[b]
		de[b/24] += e[b]
	}
	mean := 0.0
	if hours > 0 {
		mean = total / hours
	}
	var byHour [24]float64
	for h := range byHour {
		byHour[h] = mean
		if he[h] > 0 {
			byHour[h] = hu[h] / he[h]
		}
	}
	var byDay [7]float64
	for d := range byDay {
		byDay[d] = 1
		if mean > 0 && de[d] > 0 {
			byDay[d] = du[d] / de[d] / mean
		}
	}
	for b := range hoursPerWeek {
		prior := byHour[b%24] * byDay[b/24]
		p.rate[b] = (u[b] + shrink*prior) / (e[b] + shrink)
	}
	p.sum()
}

// fallback sets a flat profile from the intervals between the device's
// consumable_out alerts: a full compartment lasts about the median
// interval, and the range spans the shortest to the longest, each widened
// by half.
func (m *Model) fallback(outs []time.Time, now time.Time) {
	ts := sortedSeconds(outs, now.Add(-AlertWindow).Unix(), now.Unix())
	var opens []int64
	for _, t := range ts {
		if len(opens) == 0 || t-opens[len(opens)-1] >= 3600 {
			opens = append(opens, t)
		}
	}
	if len(opens) < MinAlerts {
		m.basis = TooLittleData
		return
	}
	gaps := make([]float64, len(opens)-1)
	for i := range gaps {
		gaps[i] = float64(opens[i+1]-opens[i]) / 3600
	}
	median := quantile(gaps, 0.5)
	m.basis = FromAlerts
	for b := range m.prof.rate {
		m.prof.rate[b] = 100 / median
	}
	m.prof.sum()
	s := logRatios{
		lo: math.Log(median/slices.Max(gaps)) - math.Log(1.5),
		hi: math.Log(median/slices.Min(gaps)) + math.Log(1.5),
	}
	for c := range m.spread {
		m.spread[c] = s
	}
}
