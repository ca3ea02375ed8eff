package sim

import (
	"math"
	"sort"
	"time"
)

// usage is the shape of a week of washroom traffic: how busy an hour is
// relative to a weekday morning. Consumption of every dispenser follows it,
// so products run out in the afternoon rather than at night, and more slowly
// at weekends.
//
// Traffic is measured in usage units: one unit is one hour at weight 1. The
// profile is applied at a fixed offset from UTC (the account's offset when
// the simulation started), so that usage is continuous and strictly
// increasing in time.
type usage struct {
	offset time.Duration // local time = UTC + offset
	weight [hoursPerWeek]float64
	cum    [hoursPerWeek + 1]float64 // cum[i] = units from Monday 00:00 to the start of hour i
}

const hoursPerWeek = 7 * 24

// weekdayProfile is the relative traffic of each hour of a working day.
var weekdayProfile = [24]float64{
	0.05, 0.05, 0.05, 0.05, 0.05, 0.08, // 00-05
	0.30, 0.80, 1.20, 1.00, 0.90, 1.10, // 06-11
	1.50, 1.30, 0.90, 1.00, 0.90, 0.80, // 12-17
	0.40, 0.25, 0.15, 0.10, 0.05, 0.05, // 18-23
}

// weekendFactor scales weekend traffic.
const weekendFactor = 0.25

// mondayEpoch is a Monday 00:00 UTC from which weeks are counted.
var mondayEpoch = time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)

func newUsage(offset time.Duration) *usage {
	u := &usage{offset: offset}
	for h := 0; h < hoursPerWeek; h++ {
		w := weekdayProfile[h%24]
		if day := h / 24; day >= 5 { // Saturday, Sunday
			w *= weekendFactor
		}
		u.weight[h] = w
		u.cum[h+1] = u.cum[h] + w
	}
	return u
}

// perWeek is the number of usage units in one week.
func (u *usage) perWeek() float64 { return u.cum[hoursPerWeek] }

// perDay is the average number of usage units in one day.
func (u *usage) perDay() float64 { return u.perWeek() / 7 }

// at returns the usage units from the epoch to t.
func (u *usage) at(t time.Time) float64 {
	hours := float64(t.Add(u.offset).Sub(mondayEpoch)) / float64(time.Hour)
	weeks := math.Floor(hours / hoursPerWeek)
	rem := hours - weeks*hoursPerWeek
	h := int(rem)
	if h >= hoursPerWeek { // guards rounding at the very end of a week
		h = hoursPerWeek - 1
	}
	return weeks*u.perWeek() + u.cum[h] + (rem-float64(h))*u.weight[h]
}

// timeAt is the inverse of at: the time at which the usage units reach x.
func (u *usage) timeAt(x float64) time.Time {
	weeks := math.Floor(x / u.perWeek())
	rem := x - weeks*u.perWeek()
	// The hour whose span holds rem: the last i with cum[i] <= rem.
	h := sort.Search(hoursPerWeek+1, func(i int) bool { return u.cum[i] > rem }) - 1
	if h < 0 {
		h = 0
	}
	if h >= hoursPerWeek {
		h = hoursPerWeek - 1
	}
	hours := weeks*hoursPerWeek + float64(h) + (rem-u.cum[h])/u.weight[h]
	return mondayEpoch.Add(time.Duration(hours * float64(time.Hour))).Add(-u.offset)
}
