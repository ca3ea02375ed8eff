package sim

import "time"

// AlertRecord is a copy of an alert, for tests and tools that compare what
// a client received with what the simulator holds.
type AlertRecord struct {
	ID          string
	Type        AlertType
	LocationID  int64
	MAC         string
	Created     time.Time
	Resolved    time.Time // zero while open
	Resolution  Resolution
	RefillCount int
}

// AlertRecords returns copies of the account's alerts as they stand, in
// order of creation. It does not move the account's time forward.
func (a *Account) AlertRecords() []AlertRecord {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]AlertRecord, len(a.alerts))
	for i, al := range a.alerts {
		out[i] = AlertRecord{
			ID: al.ID, Type: al.Type, LocationID: al.Device.Location.ID, MAC: al.Device.MAC,
			Created: al.Created, Resolved: al.Resolved, Resolution: al.Resolution, RefillCount: al.RefillCount,
		}
	}
	return out
}

// Advance moves the accounts' worlds forward to the clock's now without a
// request, so that a test can compare with it. Changes to alerts it brings
// are sent to webhooks at once.
func (w *World) Advance() {
	now := w.clock.Now()
	for _, a := range w.accounts {
		a.mu.Lock()
		a.advance(now)
		w.unlock(a)
	}
}

// SetCredentials replaces the credentials of account k (0-based), as when
// a customer's API key is revoked and reissued: requests with the old ones
// are rejected from then on.
func (w *World) SetCredentials(k int, c Credentials) {
	a := w.accounts[k]
	a.mu.Lock()
	defer a.mu.Unlock()
	a.APIKey, a.Authorization = c.APIKey, c.Authorization
}

// Empty uses up every compartment of the device with the MAC at once, as a
// busy hour would, and has the device report it: its consumable_out alert
// opens and the next /devices answer shows it out. It reports whether the
// device exists.
func (w *World) Empty(mac string) bool {
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
		for i := range d.compartments {
			d.compartments[i].level = 0
		}
		if d.silentSince.IsZero() {
			d.lastSent = now
		}
		a.reconcile(d, now)
		a.schedule(d)
		a.wakeups.fix(d)
		w.unlock(a)
		return true
	}
	return false
}
