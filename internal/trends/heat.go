package trends

import (
	"slices"
	"time"

	"washboard/internal/forecast"
	"washboard/internal/store"
)

// HeatDays is how many days the consumption heat map covers, whatever the
// period of the alerts: four weeks, each hour of the week four times.
const HeatDays = 28

// Heat is the product dispensers used in each hour of the week over a
// window of HeatDays days: index 0 is Monday, hours are of the day in
// Zone.
type Heat struct {
	Zone     *time.Location
	From, To time.Time // the window: HeatDays days up to the start of the hour under way
	// Since is the start of the hour of the earliest reading counted, or
	// From when readings go back further: the time the window was
	// observed from. It is To when nothing was.
	Since time.Time
	// Used is the percent points used in each hour of the week, in all;
	// Hours how many times that hour occurs from Since to To.
	Used  [7][24]int
	Hours [7][24]int
	// Devices counts the dispensers with readings to count from.
	Devices int
}

// Weekdays name the days of a heat map, its rows: Monday first.
var Weekdays = [7]string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}

// PerWeek is the percent points used in an hour of the week, on average
// over the times it occurred from Since to To: the weeks observed.
func (h *Heat) PerWeek(day, hour int) float64 {
	if h.Hours[day][hour] == 0 {
		return 0
	}
	return float64(h.Used[day][hour]) / float64(h.Hours[day][hour])
}

// Total is the percent points used in the window.
func (h *Heat) Total() int {
	n := 0
	for d := range h.Used {
		for _, u := range h.Used[d] {
			n += u
		}
	}
	return n
}

// Partial reports whether readings begin after the window does.
func (h *Heat) Partial() bool { return h.Since.After(h.From) }

// Add adds o's use and devices to h's; both are of the same window.
func (h *Heat) Add(o *Heat) {
	for d := range h.Used {
		for hr := range h.Used[d] {
			h.Used[d][hr] += o.Used[d][hr]
		}
	}
	h.Devices += o.Devices
	if o.Since.Before(h.Since) {
		h.Since = o.Since
		h.Hours = hoursOf(h.Since, h.To, h.Zone)
	}
}

// NewHeat returns the heat map of the window of one made now in zone
// (HeatWindow), with nothing counted, for adding others to.
func NewHeat(now time.Time, zone *time.Location) Heat {
	from, to := HeatWindow(now, zone)
	return Heat{Zone: zone, From: from, To: to, Since: to}
}

// hoursOf counts the hours of the week from from to to in zone; from is
// the start of an hour.
func hoursOf(from, to time.Time, zone *time.Location) [7][24]int {
	var out [7][24]int
	c := hourCursor{zone: zone, hourFrom: 1, hourTo: 0}
	for t := from.Unix(); t < to.Unix(); t = c.hourTo {
		d, h := c.at(t)
		out[d][h]++
	}
	return out
}

// HeatWindow returns the window a heat map made now covers: the HeatDays
// days before the start of the hour under way, in zone.
func HeatWindow(now time.Time, zone *time.Location) (from, to time.Time) {
	n := now.In(zone)
	to = now.Add(-time.Duration(n.Minute())*time.Minute - time.Duration(n.Second())*time.Second - time.Duration(n.Nanosecond()))
	t := to.In(zone)
	return time.Date(t.Year(), t.Month(), t.Day()-HeatDays, t.Hour(), 0, 0, 0, zone), to
}

// hourCursor finds the hour of the week of Unix times in a zone, and
// keeps the bounds of the last hour it found: times in order cost a
// comparison each.
type hourCursor struct {
	zone             *time.Location
	hourFrom, hourTo int64 // [hourFrom, hourTo) is day, hour
	day, hour        int
}

// at returns the day of the week (Monday 0) and hour of the day of t, a
// Unix time.
func (c *hourCursor) at(t int64) (day, hour int) {
	if t >= c.hourFrom && t < c.hourTo {
		return c.day, c.hour
	}
	lt := time.Unix(t, 0).In(c.zone)
	c.hourFrom = t - int64(lt.Minute()*60+lt.Second())
	c.hourTo = c.hourFrom + 3600
	c.day, c.hour = (int(lt.Weekday())+6)%7, lt.Hour()
	return c.day, c.hour
}

// HeatCounter counts devices' use into a Heat.
type HeatCounter struct {
	heat     Heat
	cur      hourCursor
	from, to int64 // Unix seconds
	since    int64 // the earliest reading counted, or from
	// Each compartment's state, reused from device to device.
	base, prev []int
}

// NewHeatCounter returns a counter of the window of a heat map made now in
// zone (HeatWindow).
func NewHeatCounter(now time.Time, zone *time.Location) *HeatCounter {
	h := NewHeat(now, zone)
	return &HeatCounter{heat: h, cur: hourCursor{zone: zone, hourFrom: 1, hourTo: 0}, from: h.From.Unix(), to: h.To.Unix(), since: h.To.Unix()}
}

// Add counts one device's readings: those of the window, after the last
// one before it, which tells the levels it starts from (as
// store.History.DeviceHistory returns them). Readings out of time order
// are taken in order; a device with no levels adds nothing.
func (c *HeatCounter) Add(readings []store.Reading) {
	if !slices.IsSortedFunc(readings, func(a, b store.Reading) int { return a.At.Compare(b.At) }) {
		readings = slices.Clone(readings)
		slices.SortStableFunc(readings, func(a, b store.Reading) int { return a.At.Compare(b.At) })
	}
	c.base, c.prev = c.base[:0], c.prev[:0]
	counted, heard := false, true
	for _, r := range readings {
		t := r.At.Unix()
		if t >= c.to {
			break
		}
		if r.Offline || len(r.Levels) == 0 {
			heard = false // what changes until it is heard again cannot be placed in time
			continue
		}
		if !counted {
			c.since = min(c.since, max(t, c.from))
			counted = true
		}
		if !heard || len(r.Levels) != len(c.base) {
			c.base = append(c.base[:0], r.Levels...)
			c.prev = append(c.prev[:0], r.Levels...)
			for i := range c.base {
				c.base[i] = forecast.Level(c.base[i])
				c.prev[i] = c.base[i]
			}
			heard = true
			continue
		}
		for i, level := range r.Levels {
			level = forecast.Level(level)
			switch {
			case level >= c.prev[i]+forecast.RefillRise:
				c.base[i] = level // a refill starts a new run
			case level < c.base[i]:
				if t >= c.from {
					d, h := c.cur.at(t)
					c.heat.Used[d][h] += c.base[i] - level
				}
				c.base[i] = level
			}
			c.prev[i] = level
		}
	}
	if counted {
		c.heat.Devices++
	}
}

// Heat returns what the counter counted.
func (c *HeatCounter) Heat() Heat {
	h := c.heat
	if c.since < c.to {
		lt := time.Unix(c.since, 0).In(h.Zone)
		h.Since = time.Unix(c.since-int64(lt.Minute()*60+lt.Second()), 0).In(time.UTC)
		h.Hours = hoursOf(h.Since, h.To, h.Zone)
	}
	return h
}
