package readings

import (
	"maps"
	"slices"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// Changes are the devices a write of devices records readings of: those
// it lists whose sums (Sum) differ from the ones the cache held, or that
// the cache did not hold, each in its last version in the write.
type Changes struct {
	held  map[string]int64 // the cache's sums, by MAC
	after map[string]domain.Device
}

// NewChanges returns the Changes of a write against the sums of the
// devices the cache holds, by MAC.
func NewChanges(held map[string]int64) *Changes {
	return &Changes{held: held, after: map[string]domain.Device{}}
}

// Listed notes a device the write lists, and its sum: a later listing of
// the same device replaces it.
func (c *Changes) Listed(d domain.Device, sum int64) {
	if old, ok := c.held[d.MAC]; ok && old == sum {
		delete(c.after, d.MAC)
		return
	}
	c.after[d.MAC] = d
}

// Readings returns the readings the write records, taken at at, by MAC.
func (c *Changes) Readings(at time.Time) (macs []string, readings []store.Reading) {
	macs = slices.Sorted(maps.Keys(c.after))
	readings = make([]store.Reading, len(macs))
	for i, mac := range macs {
		readings[i] = readingOf(c.after[mac], at)
	}
	return macs, readings
}
