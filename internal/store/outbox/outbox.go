// Package outbox holds the rules by which a write of an account's alerts
// or devices records facts (store.Fact), the notifications' outbox: every
// store engine records them by these rules, in the write's transaction,
// from what the cache held of each row the write changed and what the
// write leaves of it. See store.Facts for the rules in words.
package outbox

import (
	"iter"
	"slices"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// Limit is the most facts FactsAfter returns when its caller sets no
// limit (limit <= 0).
const Limit = 1000

// AlertMayRecord reports whether a write that leaves an alert as a may
// record facts of it: whether a is open. The cache's version of an alert
// matters only then, and is read only then.
func AlertMayRecord(a domain.Alert) bool { return a.Open() }

// AlertFacts returns the facts a write records of an alert it changed:
// before is what the cache held of it (nil: nothing), a what the write
// leaves. seen is when the write saw the service.
func AlertFacts(account string, before *domain.Alert, a domain.Alert, seen time.Time) []store.Fact {
	if !a.Open() {
		return nil
	}
	f := store.Fact{Account: account, AlertID: a.ID, AlertType: a.Type, LocationID: a.LocationID}
	if len(a.MACs) > 0 {
		f.MAC = a.MACs[0]
	}
	var out []store.Fact
	if before == nil {
		f.Kind, f.At = store.FactAlertOpened, a.Created
		out = append(out, f)
	}
	if a.Overdue && (before == nil || before.Open() && !before.Overdue) {
		// The overdue-since time the cache keeps: one it knew already (an
		// alert overdue once before), or when the write saw it.
		f.Kind, f.At = store.FactAlertOverdue, seen
		if before != nil && !before.OverdueSince.IsZero() {
			f.At = before.OverdueSince
		}
		out = append(out, f)
	}
	return out
}

// DeviceMayRecord reports whether a write that leaves a device as d may
// record facts of it: whether a compartment of d is out, its battery low
// or d offline. The cache's version of a device matters only then, and is
// read only then.
func DeviceMayRecord(d domain.Device) bool {
	return d.Offline || batteryLow(d.BatteryState) || slices.ContainsFunc(d.Compartments, func(c domain.Compartment) bool { return c.Out })
}

// DeviceFacts returns the facts a write records of a device it changed:
// before is what the cache held of it (nil: nothing), d what the write
// leaves. seen is when the write saw the service, the facts' time when d
// has no last-seen time.
func DeviceFacts(account string, before *domain.Device, d domain.Device, seen time.Time) []store.Fact {
	f := store.Fact{Account: account, MAC: d.MAC, LocationID: d.LocationID, At: d.LastSeen}
	if f.At.IsZero() {
		f.At = seen
	}
	var out []store.Fact
	add := func(k store.FactKind) {
		f.Kind = k
		out = append(out, f)
	}
	if ranOut(before, d) {
		add(store.FactProductOut)
	}
	if batteryLow(d.BatteryState) && (before == nil || !batteryLow(before.BatteryState)) {
		add(store.FactBatteryLow)
	}
	if d.Offline && (before == nil || !before.Offline) {
		add(store.FactDeviceOffline)
	}
	return out
}

// ranOut reports whether a compartment of d is out that was not in
// before, compartments compared by position.
func ranOut(before *domain.Device, d domain.Device) bool {
	for i, c := range d.Compartments {
		if c.Out && (before == nil || i >= len(before.Compartments) || !before.Compartments[i].Out) {
			return true
		}
	}
	return false
}

// batteryLow reports whether a battery state is Low or worse: Shutdown.
// Normal, unknown ("") and states the service may add are not.
func batteryLow(s domain.BatteryState) bool {
	return s == domain.BatteryLow || s == domain.BatteryShutdown
}

// Changes are the rows of one kind, alerts or devices, that a write
// changed and that may record facts, by key: the cache's version of each
// row it held, read before the write first changed it, and the write's
// last version.
type Changes[T any] struct {
	before map[string]T
	after  map[string]T
	order  []string // the keys of after in the order the write first left them, and some no longer in it
}

// NewChanges returns an empty Changes.
func NewChanges[T any]() *Changes[T] {
	return &Changes[T]{before: map[string]T{}, after: map[string]T{}}
}

// Knows reports whether the cache's version of a row is known.
func (c *Changes[T]) Knows(key string) bool {
	_, ok := c.before[key]
	return ok
}

// Held records the cache's version of a row, read before the write
// changed it.
func (c *Changes[T]) Held(key string, v T) { c.before[key] = v }

// Leaves records the write's last version of a row it changed and that
// may record facts.
func (c *Changes[T]) Leaves(key string, v T) {
	if _, ok := c.after[key]; !ok {
		c.order = append(c.order, key)
	}
	c.after[key] = v
}

// Drop forgets the write's version of a row: the write left it as the
// cache held it, or in a state that records nothing, or removed it.
func (c *Changes[T]) Drop(key string) {
	if len(c.after) > 0 {
		delete(c.after, key)
	}
}

// All yields the rows the write changed, in the order it first left them:
// the cache's version of each (nil when the cache did not hold it) and
// the write's.
func (c *Changes[T]) All() iter.Seq2[*T, T] {
	return func(yield func(*T, T) bool) {
		done := make(map[string]bool, len(c.after))
		for _, key := range c.order {
			v, ok := c.after[key]
			if !ok || done[key] {
				continue
			}
			done[key] = true
			var before *T
			if b, ok := c.before[key]; ok {
				before = &b
			}
			if !yield(before, v) {
				return
			}
		}
	}
}
