package forecast

import (
	"math"
	"slices"
	"time"
)

// The buildings' time zone in the tests, and a Monday midnight in it.
var (
	zone   = time.FixedZone("CET", 3600)
	monday = time.Date(2026, 3, 2, 0, 0, 0, 0, zone)
)

// usage is how much of a full compartment a dispenser uses per hour at a
// time.
type usage func(time.Time) float64

// officeHours is a dispenser used at perHour on weekdays from 08:00 to
// 18:00, a twentieth of that on weekday nights and a fortieth at weekends.
func officeHours(perHour float64) usage {
	return func(t time.Time) float64 {
		t = t.In(zone)
		switch {
		case t.Weekday() == time.Saturday || t.Weekday() == time.Sunday:
			return perHour / 40
		case t.Hour() >= 8 && t.Hour() < 18:
			return perHour
		}
		return perHour / 20
	}
}

// perWeek is how much of a compartment u uses in a week.
func (u usage) perWeek() float64 {
	total := 0.0
	for h := 0; h < 7*24; h++ {
		total += u(monday.Add(time.Duration(h) * time.Hour))
	}
	return total
}

// dispenser is a device polled every five minutes and recorded as
// Washboard records it: a row when a level changes. Its compartments
// share its use by weight, the ones with product left taking all of it.
// Staff refill every compartment refillAfter after it reports out.
type dispenser struct {
	use         usage
	levels      []float64 // true levels, percent
	weights     []float64
	refillAfter time.Duration // zero: never
	silences    []Span        // nothing is heard from it: no rows, a gap
	noiseEvery  time.Duration // a poll this often reads 2 % high
	topUps      []time.Time   // staff refill it before it is out
	topUpBelow  float64       // if set, a top-up waits until every level is below
	toppedUp    []time.Time   // when the top-ups happened

	t        time.Time
	outSince time.Time // when it reported out; zero while not
	last     []int
	h        History
}

func newDispenser(use usage, levels ...float64) *dispenser {
	d := &dispenser{use: use, levels: levels, t: monday, last: make([]int, len(levels))}
	d.h.Levels = make([][]Sample, len(levels))
	for i := range levels {
		d.weights = append(d.weights, 1)
		d.last[i] = -1
	}
	return d
}

// clone is a copy of the device to run on without touching d.
func (d *dispenser) clone() *dispenser {
	c := *d
	c.levels = slices.Clone(d.levels)
	c.last = slices.Clone(d.last)
	c.h = History{Levels: make([][]Sample, len(d.levels))}
	c.silences, c.noiseEvery, c.topUps, c.toppedUp = nil, 0, nil, nil
	return &c
}

// runTo simulates the device, minute by minute, until to.
func (d *dispenser) runTo(to time.Time) {
	for d.t.Before(to) {
		active := 0.0
		for i, l := range d.levels {
			if l > 0 {
				active += d.weights[i]
			}
		}
		for i, l := range d.levels {
			if l > 0 {
				d.levels[i] = max(0, l-d.use(d.t)/60*float64(len(d.levels))*d.weights[i]/active)
			}
		}
		d.t = d.t.Add(time.Minute)
		if d.t.Sub(monday)%(5*time.Minute) == 0 {
			d.poll()
		}
	}
}

func (d *dispenser) poll() {
	for len(d.topUps) > 0 && !d.t.Before(d.topUps[0]) {
		if d.topUpBelow > 0 && slices.Max(d.levels) >= d.topUpBelow {
			break
		}
		d.topUps = d.topUps[1:]
		d.toppedUp = append(d.toppedUp, d.t)
		d.fill()
	}
	out := false
	for _, l := range d.levels {
		out = out || l <= 0
	}
	switch {
	case !out:
		d.outSince = time.Time{}
	case d.outSince.IsZero():
		d.outSince = d.t
	case d.refillAfter > 0 && !d.t.Before(d.outSince.Add(d.refillAfter)):
		d.fill()
		d.outSince = time.Time{}
	}
	for _, s := range d.silences {
		if !d.t.Before(s.From) && d.t.Before(s.To) {
			return
		}
	}
	for i, l := range d.levels {
		level := int(math.Ceil(l - 1e-9))
		if d.noiseEvery > 0 && d.t.Sub(monday)%d.noiseEvery == 0 && level > 0 {
			level += 2
		}
		if level != d.last[i] {
			d.h.Levels[i] = append(d.h.Levels[i], Sample{At: d.t, Level: level})
			d.last[i] = level
		}
	}
}

func (d *dispenser) fill() {
	for i := range d.levels {
		d.levels[i] = 100
	}
}

// history is what Washboard holds of the device, its silences as gaps.
func (d *dispenser) history() *History {
	h := d.h
	h.Levels = slices.Clone(d.h.Levels)
	h.Gaps = slices.Clone(d.silences)
	return &h
}

// busyOut runs the device on, an hour at a time, until it is not out and
// will next be out in office hours, two to thirty hours ahead, and returns
// that time: a run-out at night can fall anywhere in hours of little use,
// which would make the tests' tolerances meaningless.
func (d *dispenser) busyOut() time.Time {
	for {
		d.runTo(d.t.Truncate(time.Hour).Add(time.Hour))
		if !d.outSince.IsZero() {
			continue
		}
		out := d.nextOut()
		local, ahead := out.In(zone), out.Sub(d.t)
		weekday := local.Weekday() != time.Saturday && local.Weekday() != time.Sunday
		if ahead > 2*time.Hour && ahead < 30*time.Hour && weekday && local.Hour() >= 9 && local.Hour() < 18 {
			return d.t
		}
	}
}

// nextOut is when the device will next report out if nobody refills it
// first: the truth a forecast at d.t is measured against.
func (d *dispenser) nextOut() time.Time {
	c := d.clone()
	c.refillAfter = 0
	for c.outSince.IsZero() {
		c.runTo(c.t.Add(5 * time.Minute))
	}
	return c.outSince
}
