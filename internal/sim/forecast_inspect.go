package sim

import (
	"math"
	"time"
)

// ProductReading is the part of a device's /devices state that a forecast
// of its product, or a history of its readings, reads, without building
// the whole answer: backtests poll thousands of devices thousands of
// times.
type ProductReading struct {
	MAC          string
	Levels       []int     // status.product: percent per compartment; 0 is product_out
	Battery      int       // status.battery_level, percent
	BatteryState string    // status.battery_state, as the service spells it
	LastSeen     time.Time // last_seen, to the second
	Offline      bool      // device_off
}

// ProductReadings moves account k's world forward to the clock's now, as a
// request would, and returns the product reading of each of its devices
// with compartments, in the order /devices lists them. The readings are
// appended to into[:0], reusing their Levels.
func (w *World) ProductReadings(k int, into []ProductReading) []ProductReading {
	now := w.clock.Now()
	a := w.accounts[k]
	a.mu.Lock()
	defer w.unlock(a)
	a.advance(now)
	return a.productReadings(now, into, false)
}

// productReadings returns the product reading of each of the account's
// devices with compartments at now, which it has advanced to, and with
// gateways also of those without (no levels).
func (a *Account) productReadings(now time.Time, into []ProductReading, gateways bool) []ProductReading {
	out := into[:0]
	for _, l := range a.Locations {
		for _, d := range l.Devices {
			if len(d.compartments) == 0 && !gateways {
				continue
			}
			r := d.readingAt(d.lastSeenAt(now), a.usage)
			var levels []int
			if len(out) < cap(out) {
				levels = out[:len(out)+1][len(out)].Levels[:0]
			}
			for _, v := range r.levels {
				levels = append(levels, int(math.Ceil(v-eps))) // as stateOf reports it
			}
			if len(levels) == 0 {
				levels = nil // a gateway's, as a poll's reading of it holds none
			}
			battery, state := r.battery()
			out = append(out, ProductReading{
				MAC: d.MAC, Levels: levels, Battery: battery, BatteryState: state,
				LastSeen: r.at.UTC().Truncate(time.Second), Offline: d.offline,
			})
		}
	}
	return out
}
