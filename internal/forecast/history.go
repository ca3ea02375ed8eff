package forecast

import (
	"slices"
	"time"
)

// Sample is one recorded product level of a compartment: the level, in
// percent, that a poll saw at At.
type Sample struct {
	At    time.Time
	Level int
}

// level is the sample's level within 0–100 (Level).
func (s Sample) level() int { return Level(s.Level) }

// Level is a reported level within 0–100: a sensor that reads beyond is
// taken at the nearest end.
func Level(l int) int { return min(max(l, 0), 100) }

// IsRefill reports whether a level that reads next after prev is a
// refill: a rise of RefillRise or more, within 0–100.
func IsRefill(prev, next int) bool { return Level(next) >= Level(prev)+RefillRise }

// Span is a stretch of time. A zero To means it is still going on.
type Span struct {
	From, To time.Time
}

// History is what Washboard keeps of one dispenser for its forecast: a
// device, not a compartment, because the question is when the dispenser
// reports out, its compartments share one stream of users (a four-roll
// dispenser's rolls are taken in turn), and its alerts, refills and
// silences are the device's.
type History struct {
	// Levels holds one series per compartment, in the order /devices lists
	// them: a row whenever a poll saw a level different from the row
	// before, in time order. Rows out of order or after now are tolerated
	// (see Fit).
	Levels [][]Sample
	// Gaps are the spans in which nothing was heard of the device: from its
	// last_seen to the first poll that saw it transmit again, when that is
	// more than an hour, and the spans in which Washboard did not poll.
	// Levels cannot change while nothing is heard, so a drop that shows
	// after a gap cannot be placed in time: it is not counted.
	Gaps []Span
	// Refills are times the device is known to have been refilled, such as
	// when staff closed its consumable_out alert. A level that rises by
	// RefillRise or more is a refill without being listed.
	Refills []time.Time
	// Outs are the created times of the device's consumable_out alerts,
	// the last 90 days of them.
	Outs []time.Time
}

// RefillRise is the least rise of a level, from one row to the next, that
// counts as a refill. A smaller rise is the sensor's noise: it is neither a
// refill nor consumption, and the level that counts stays the lowest seen
// since the last refill.
const RefillRise = 10

// ordered returns the rows of s at or before now in time order: s itself,
// cut, when it is already in order, otherwise a sorted copy, and reports
// whether it had to sort.
func ordered(s []Sample, now time.Time) (rows []Sample, sorted bool) {
	inOrder := true
	for i := 1; i < len(s); i++ {
		if s[i].At.Before(s[i-1].At) {
			inOrder = false
			break
		}
	}
	if inOrder {
		n, _ := slices.BinarySearchFunc(s, now, func(x Sample, t time.Time) int {
			if x.At.After(t) {
				return 1
			}
			return -1
		})
		return s[:n], false
	}
	c := make([]Sample, 0, len(s))
	for _, x := range s {
		if !x.At.After(now) {
			c = append(c, x)
		}
	}
	slices.SortStableFunc(c, func(a, b Sample) int { return a.At.Compare(b.At) })
	return c, true
}
