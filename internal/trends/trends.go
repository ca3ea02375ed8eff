// Package trends counts what an account's alerts and dispensers did over
// weeks, for the trends page: alerts per day by type, the median time to
// resolve per week, the locations and rooms with the most alerts, and the
// product used per weekday and hour of the day.
//
// Its functions are pure: they count compact inputs (store.AlertSpan, a
// device's store.Reading) that the caller reads, and do no I/O. Days,
// weeks and hours are those of a time zone, the account's: a day is from
// one local midnight to the next, 23 or 25 hours long when the clocks
// change, and a week starts on Monday.
//
// # Alerts
//
// CountAlerts counts the alerts created in a period per day and type, and
// per location and room, most first; and, of the alerts resolved in the
// period, the median time from creation to resolution per week of their
// resolution.
//
// # Consumption
//
// A HeatCounter adds up, for the last HeatDays days before the hour under
// way, how many percent points of product dispensers used in each hour of
// the week, as the forecast counts use (internal/forecast): a level that
// falls is use, counted in the hour of the reading that shows it; a rise of
// forecast.RefillRise or more is a refill, never negative use; a smaller
// rise is the sensor's noise, and only new lows below the lowest level
// since the last refill count. A drop that shows after the device was
// offline cannot be placed in time, and is not counted. Heat.PerWeek
// divides each hour's total by the number of times that hour of the week
// occurs in the window: four, or three or five where the clocks changed;
// fewer when the readings begin within the window (Heat.Since), so that a
// history of days is not read as four quiet weeks.
package trends

import (
	"slices"
	"time"
)

// Period is the days a page of trends covers: Days days in Zone, the last
// of them today, up to End, now.
type Period struct {
	Days  int
	Zone  *time.Location
	Start time.Time // midnight of the first day, in Zone
	End   time.Time // now
}

// NewPeriod returns the period of the given number of days ending now.
func NewPeriod(days int, now time.Time, zone *time.Location) Period {
	n := now.In(zone)
	return Period{Days: days, Zone: zone, Start: time.Date(n.Year(), n.Month(), n.Day()-(days-1), 0, 0, 0, 0, zone), End: now}
}

// dayStarts returns the midnight that starts each day of the period, and
// the one after its last day.
func (p Period) dayStarts() []time.Time {
	s := p.Start.In(p.Zone)
	out := make([]time.Time, p.Days+1)
	for i := range out {
		out[i] = time.Date(s.Year(), s.Month(), s.Day()+i, 0, 0, 0, 0, p.Zone)
	}
	return out
}

// weekStarts returns the Monday midnights that start each week the period
// touches, and the one after the last.
func (p Period) weekStarts() []time.Time {
	s := p.Start.In(p.Zone)
	monday := s.Day() - (int(s.Weekday())+6)%7
	var out []time.Time
	for i := 0; ; i++ {
		w := time.Date(s.Year(), s.Month(), monday+7*i, 0, 0, 0, 0, p.Zone)
		out = append(out, w)
		if !w.Before(p.End) {
			return out
		}
	}
}

// index returns the i for which starts[i] <= t < starts[i+1]; false when t
// is before the first or at or after the last.
func index(starts []time.Time, t time.Time) (int, bool) {
	i, found := slices.BinarySearchFunc(starts, t, time.Time.Compare)
	if !found {
		i--
	}
	return i, i >= 0 && i < len(starts)-1
}
