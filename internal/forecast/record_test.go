package forecast

import (
	"time"

	"washboard/internal/sim"
)

// silentAfter is how old a device's last_seen must be for the recorder to
// open a gap: four of a dispenser's 15-minute heartbeats.
const silentAfter = time.Hour

// recorder keeps the histories of a simulated fleet as Washboard would,
// from what its polls see: a row when a level changes, a gap while a
// device is not heard from, and the consumable_out alerts.
type recorder struct {
	world    *sim.World
	order    []*device // in the order the polls read them
	devices  map[string]*device
	readings []sim.ProductReading
}

type device struct {
	mac     string
	h       History
	last    []int // the level of each compartment's last row
	silent  bool
	model   *Model
	pending []int // backtest forecasts waiting for the device to report out
}

func newRecorder(w *sim.World) *recorder {
	return &recorder{world: w, devices: map[string]*device{}}
}

// poll reads every account once at the world's now and records what
// changed. seen, when not nil, is called with each device and its reading.
func (r *recorder) poll(seen func(d *device, levels []int)) {
	now := r.world.Now()
	i := 0
	for k := range r.world.Accounts() {
		r.readings = r.world.ProductReadings(k, r.readings)
		for _, rd := range r.readings {
			var d *device
			if i < len(r.order) && r.order[i].mac == rd.MAC {
				d = r.order[i] // the fleet does not change: the same order every poll
			} else if d = r.devices[rd.MAC]; d == nil {
				d = &device{mac: rd.MAC, h: History{Levels: make([][]Sample, len(rd.Levels))}, last: make([]int, len(rd.Levels))}
				for c := range d.last {
					d.last[c] = -1
				}
				r.devices[rd.MAC] = d
				r.order = append(r.order, d)
			}
			i++
			r.record(d, rd, now)
			if seen != nil {
				seen(d, rd.Levels)
			}
		}
	}
}

func (r *recorder) record(d *device, rd sim.ProductReading, now time.Time) {
	for c, level := range rd.Levels {
		if d.last[c] != level {
			d.h.Levels[c] = append(d.h.Levels[c], Sample{At: now, Level: level})
			d.last[c] = level
		}
	}
	switch quiet := now.Sub(rd.LastSeen) > silentAfter; {
	case quiet && !d.silent:
		d.h.Gaps = append(d.h.Gaps, Span{From: rd.LastSeen})
		d.silent = true
	case !quiet && d.silent:
		d.h.Gaps[len(d.h.Gaps)-1].To = now
		d.silent = false
	}
}

// alerts sets each device's Outs to the created times of its
// consumable_out alerts in the last 90 days.
func (r *recorder) alerts(now time.Time) {
	for _, d := range r.order {
		d.h.Outs = d.h.Outs[:0]
	}
	for _, a := range r.world.Accounts() {
		for _, al := range a.AlertRecords() {
			if al.Type != sim.AlertConsumableOut || al.Created.Before(now.Add(-AlertWindow)) {
				continue
			}
			if d := r.devices[al.MAC]; d != nil {
				d.h.Outs = append(d.h.Outs, al.Created)
			}
		}
	}
}
