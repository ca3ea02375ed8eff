package sim

import (
	"testing"
	"time"
)

// TestRoundsTakeOverRefills: once rounds take refills over, a dispenser
// that runs out stays out, its alert open, through a working day the
// staff would have come in; a round's Refill fills what is at or below
// the level it is given, and the alert closes.
func TestRoundsTakeOverRefills(t *testing.T) {
	t.Parallel()
	for _, taken := range []bool{false, true} {
		w, clock := newTestWorld(t, 100, 1, 0)
		a := w.accounts[0]
		d := findDevice(t, a, func(d *Device) bool {
			return d.Location.Type == Towel && d.silentSince.IsZero() && d.timers.silence.After(testNow.Add(24*time.Hour)) &&
				d.timers.fault.After(testNow.Add(24*time.Hour))
		})
		if taken {
			w.TakeOverRefills()
		}
		w.Empty(d.MAC)
		clock.Set(testNow.Add(12 * time.Hour)) // 21:30: the staff, on duty from 06:00 to 22:00, come within the day
		w.Advance()
		open := d.open[AlertConsumableOut] != nil
		if level := d.compartments[0].level; taken != (level == 0 && open) {
			t.Errorf("refills taken over %v: 12 hours after it ran out, the towel is at %.0f %%, its alert open %v", taken, level, open)
		}
		if !taken {
			continue
		}
		if n, ok := w.Refill(d.MAC, 25); n != 1 || !ok {
			t.Errorf("Refill of a towel out = %d, %v; want its one compartment", n, ok)
		}
		if d.compartments[0].level != 100 || d.open[AlertConsumableOut] != nil {
			t.Errorf("after Refill the towel is at %.0f %%, its alert open %v; want full, closed", d.compartments[0].level, d.open[AlertConsumableOut] != nil)
		}
		clock.Set(testNow.Add(13 * time.Hour))
		if n, ok := w.Refill(d.MAC, 25); n != 0 || !ok {
			t.Errorf("Refill at 25 %% of a towel above it = %d, %v; want none refilled", n, ok)
		}
		if _, ok := w.Refill("000000000000", 100); ok {
			t.Error("Refill found a device that does not exist")
		}
	}
}
