package forecast

import (
	"math"
	"time"
)

// Estimate is when a device will next report a compartment out: most
// likely At, and between Earliest and Latest. Earliest <= At <= Latest
// always; for a device not out, Earliest is never before the time the
// estimate was made. For a device that reports out, all three are the time
// it went out.
type Estimate struct {
	At, Earliest, Latest time.Time
	Basis                Basis
}

// Basis says what an estimate rests on.
type Basis int

// The bases of an estimate.
const (
	TooLittleData Basis = iota // no estimate
	FromLevels                 // the device's own consumption by hour of the week
	FromAlerts                 // the intervals between its consumable_out alerts
	ReportedOut                // the device reports a compartment out
)

// horizon caps how far ahead an estimate reaches.
const horizon = 366 * 24 * time.Hour

// Forecast estimates, at now, when the device next reports a compartment
// out, from its history up to now. It reads only the latest rows of each
// compartment, back to the first at its lowest level since the last
// refill, so a caller may pass just the rows since the last refill; it
// costs little more than reading them. It reports false when there is too
// little data for an estimate and the device is not out.
//
// A compartment's level is the lowest it reported since its last refill,
// reached at the time of the row that first reported it: a level falls
// one percent at a time, so that row marks when it crossed. The projection
// runs the profile from there until the compartment's share of the
// device's use has taken the rest; a device is out when its first
// compartment is. The spread of the device's past errors for as much as
// is left to go gives the range, narrowed by what the polls since then
// show: a level that has not fallen yet has used less than a percent.
func (m *Model) Forecast(h *History, now time.Time) (Estimate, bool) {
	heard := now
	for _, g := range h.Gaps {
		if !g.From.After(now) && (g.To.IsZero() || g.To.After(now)) && g.From.Before(heard) {
			heard = g.From // silent now: its level is what it last sent
		}
	}
	var e Estimate
	var outSince time.Time
	found := false
	for i, s := range h.Levels {
		if i < len(m.disordered) && m.disordered[i] {
			s, _ = ordered(s, now)
		}
		t := tailOf(s, now, h.Refills)
		switch {
		case !t.ok:
			continue
		case t.out:
			if outSince.IsZero() || t.outSince.Before(outSince) {
				outSince = t.outSince
			}
			continue
		case m.basis != FromLevels && m.basis != FromAlerts || !outSince.IsZero():
			continue
		}
		c := m.project(t, m.share(i, len(h.Levels)), heard, now)
		if !found || c.At.Before(e.At) {
			e.At = c.At
		}
		if !found || c.Earliest.Before(e.Earliest) {
			e.Earliest = c.Earliest
		}
		if !found || c.Latest.Before(e.Latest) {
			e.Latest = c.Latest
		}
		e.Basis = m.basis
		found = true
	}
	if !outSince.IsZero() {
		return Estimate{At: outSince, Earliest: outSince, Latest: outSince, Basis: ReportedOut}, true
	}
	return e, found
}

// project estimates when a compartment in state t, with share of the
// device's use, will be out.
func (m *Model) project(t tail, share float64, heard, now time.Time) Estimate {
	from := m.prof.at(m.hours(t.since))
	heardTo := m.prof.at(m.hours(maxTime(heard, t.since)))
	// out is when a row would show the compartment out if the device uses
	// ratio times what its profile says. Since the row it has used less
	// than a percent while it was heard from, or the level would have
	// fallen.
	out := func(ratio float64) time.Time {
		left := float64(t.level) - min(share*ratio*(heardTo-from), 1)
		return m.timeAt(heardTo+left/(share*ratio), now)
	}
	// The range is the spread of the device's past errors for as much to
	// go, widened by the resolution of the readings: a percent of what is
	// left.
	r := m.spread[class(t.level)]
	if t.level > 0 {
		r.lo -= 1 / float64(t.level)
		r.hi += 1 / float64(t.level)
	}
	return Estimate{
		At:       out(math.Exp(r.mid)),
		Earliest: out(math.Exp(r.hi)),
		Latest:   out(math.Exp(r.lo)),
		Basis:    m.basis,
	}
}

// share is compartment i's share of the device's use, an equal one for a
// compartment the model has not seen.
func (m *Model) share(i, n int) float64 {
	switch {
	case i < len(m.shares):
		return m.shares[i]
	case m.basis == FromLevels:
		return 1 / float64(n)
	}
	return 1
}

// hours is the local hours of t, at the zone's offset when the model was
// fitted: a projection does not follow a change of daylight saving time.
func (m *Model) hours(t time.Time) float64 {
	return float64(t.Unix()+m.offset-mondayEpoch) / 3600
}

// timeAt is the time at which the profile's consumption reaches c, never
// before now nor beyond the horizon.
func (m *Model) timeAt(c float64, now time.Time) time.Time {
	h := m.prof.hoursAt(c)
	sec := h*3600 - float64(m.offset) + mondayEpoch
	end := now.Add(horizon)
	if math.IsNaN(sec) || sec > float64(end.Unix()) {
		return end
	}
	t := time.Unix(int64(sec), 0)
	if t.Before(now) {
		return now
	}
	return t
}

// class is the errors' class for level percent to go.
func class(level int) int {
	if level <= 1 {
		return 0
	}
	c := int(math.Round(math.Log2(float64(level))))
	return min(c, classes-1)
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// tail is the state of a compartment's current run.
type tail struct {
	ok       bool
	level    int       // lowest level since the last refill
	since    time.Time // the row that first reported it
	out      bool      // the latest row reports 0
	outSince time.Time // the first row of the latest rows at 0
}

// tailOf reads a compartment's rows back from now until it knows the
// state of its current run: through the rows at its lowest level, and on
// until a row RefillRise higher or the refill that started the run. Rows
// after now are skipped; when the rows it reads are out of order, it sorts
// them all first.
func tailOf(s []Sample, now time.Time, refills []time.Time) tail {
	var lastRefill time.Time
	for _, r := range refills {
		if !r.After(now) && r.After(lastRefill) {
			lastRefill = r
		}
	}
	var t tail
	var next *Sample // the row after the one read, in time
	zeros := true    // every row read so far reports 0
	for k := len(s) - 1; k >= 0; k-- {
		r := &s[k]
		if r.At.After(now) {
			continue
		}
		if next != nil && r.At.After(next.At) {
			s, _ = ordered(s, now)
			return tailOf(s, now, refills)
		}
		level := r.level()
		if next != nil && (next.level() >= level+RefillRise || !lastRefill.IsZero() && !next.At.Before(lastRefill) && r.At.Before(lastRefill)) {
			break // next is the refill that started the run
		}
		if !t.ok {
			t = tail{ok: true, level: level, since: r.At, out: level == 0}
		}
		if zeros = zeros && level == 0; zeros {
			t.outSince = r.At
		}
		if level >= t.level+RefillRise {
			break // a lower level before this would have needed a refill since
		}
		if level <= t.level {
			t.level, t.since = level, r.At
		}
		next = r
	}
	return t
}
