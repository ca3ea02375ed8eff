package sim

// Refills by rounds. The simulated staff refill a dispenser when its
// consumable_out alert calls them. A test that plays rounds (the backtest
// of internal/rounds) takes that over: from TakeOverRefills on, staff no
// longer come for consumable_out, and product is refilled only by Refill,
// when a round visits. Faults, batteries and devices off are attended as
// before.

// TakeOverRefills stops the staff refilling dispensers by themselves in
// every account, from now on: consumable_out alerts no longer call them,
// and those already called do not refill when they arrive.
func (w *World) TakeOverRefills() {
	for _, a := range w.accounts {
		a.mu.Lock()
		a.refillsTaken = true
		a.mu.Unlock()
	}
}

// Refill is a member of staff at the device with the MAC now, refilling
// each of its compartments at or below atOrBelow percent (100: every one)
// to full. The device reports it as it reports any change, and its
// consumable_out alert closes when nothing is due any more. It returns how
// many compartments were refilled, and whether the device exists.
func (w *World) Refill(mac string, atOrBelow int) (refilled int, ok bool) {
	now := w.clock.Now()
	for _, a := range w.accounts {
		a.mu.Lock()
		d := a.devices[mac]
		if d == nil {
			a.mu.Unlock()
			continue
		}
		a.advance(now)
		d.advanceTo(now, a.usage)
		for i, c := range d.compartments {
			if c.level <= float64(atOrBelow)+eps && c.level < 100 {
				d.compartments[i].level = 100
				refilled++
			}
		}
		if refilled > 0 {
			if d.silentSince.IsZero() {
				d.lastSent = now
			}
			a.reconcile(d, now)
			a.schedule(d)
			a.wakeups.fix(d)
		}
		w.unlock(a)
		return refilled, true
	}
	return 0, false
}
