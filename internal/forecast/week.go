package forecast

import (
	"math"
	"sort"
	"time"
)

// The week is counted in local hours from a Monday midnight: hour 0 of the
// week is Monday 00:00–01:00 in the buildings' time zone.
const hoursPerWeek = 7 * 24

// mondayEpoch is Monday 2001-01-01 00:00 UTC, in Unix seconds.
const mondayEpoch = 978307200

// localHours gives the local hours since mondayEpoch of instants, keeping
// the zone's offset for as long as it holds, so that a run of nearby times
// asks the zone once.
type localHours struct {
	zone     *time.Location
	from, to int64 // Unix seconds: offset holds in [from, to)
	offset   int64 // seconds east of UTC
}

func newLocalHours(zone *time.Location) *localHours {
	if zone == nil {
		zone = time.UTC
	}
	return &localHours{zone: zone, from: 1, to: 0}
}

// at returns the local hours of the Unix time sec, and the Unix time at
// which the zone's offset next changes.
func (c *localHours) at(sec int64) (hours float64, until int64) {
	if sec < c.from || sec >= c.to {
		t := time.Unix(sec, 0).In(c.zone)
		_, off := t.Zone()
		start, end := t.ZoneBounds()
		c.offset, c.from, c.to = int64(off), math.MinInt64, math.MaxInt64
		if !start.IsZero() {
			c.from = start.Unix()
		}
		if !end.IsZero() {
			c.to = end.Unix()
		}
	}
	return float64(sec+c.offset-mondayEpoch) / 3600, c.to
}

// bucket is the hour of the week that local hours h fall in.
func bucket(h float64) int {
	b := int(math.Floor(h)) % hoursPerWeek
	if b < 0 {
		b += hoursPerWeek
	}
	return b
}

// profile is a week of consumption: rate[b] is the expected consumption in
// hour b of the week, in percent of a compartment per hour, and cum its
// running sum.
type profile struct {
	rate [hoursPerWeek]float64
	cum  [hoursPerWeek + 1]float64
}

func (p *profile) sum() {
	for b, r := range p.rate {
		p.cum[b+1] = p.cum[b] + r
	}
}

// week is the consumption of a whole week.
func (p *profile) week() float64 { return p.cum[hoursPerWeek] }

// at is the consumption from mondayEpoch to local hours h.
func (p *profile) at(h float64) float64 {
	weeks := math.Floor(h / hoursPerWeek)
	rem := h - weeks*hoursPerWeek
	b := min(int(rem), hoursPerWeek-1)
	return weeks*p.week() + p.cum[b] + (rem-float64(b))*p.rate[b]
}

// hoursAt is the inverse of at: the local hours at which the consumption
// since mondayEpoch reaches c. The week's consumption must be positive.
func (p *profile) hoursAt(c float64) float64 {
	weeks := math.Floor(c / p.week())
	rem := c - weeks*p.week()
	// The hour whose span holds rem: the last b with cum[b] <= rem.
	b := sort.Search(hoursPerWeek+1, func(i int) bool { return p.cum[i] > rem }) - 1
	b = max(0, min(b, hoursPerWeek-1))
	h := weeks*hoursPerWeek + float64(b)
	if p.rate[b] > 0 {
		h += (rem - p.cum[b]) / p.rate[b]
	}
	return h
}
