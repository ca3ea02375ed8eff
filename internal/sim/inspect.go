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

// Advance moves the account's world forward to the clock's now without a
// request, so that a test can compare with it.
func (w *World) Advance() {
	now := w.clock.Now()
	for _, a := range w.accounts {
		a.mu.Lock()
		a.advance(now)
		a.mu.Unlock()
	}
}
