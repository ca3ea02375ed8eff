package sim

import (
	"sync"
	"time"
)

// Clock tells the simulator what time it is in simulated time.
type Clock interface {
	Now() time.Time
}

// ScaledClock runs simulated time at a multiple of wall-clock time, starting
// at the wall-clock time it was created. With Speed 60, one real minute is a
// simulated hour.
type ScaledClock struct {
	wallStart time.Time
	simStart  time.Time
	speed     float64
	wall      func() time.Time
}

// NewScaledClock returns a clock that starts at the current wall-clock time
// and runs speed times faster. A speed below 1 is taken as 1.
func NewScaledClock(speed float64) *ScaledClock {
	if speed < 1 {
		speed = 1
	}
	now := time.Now()
	return &ScaledClock{wallStart: now, simStart: now.UTC(), speed: speed, wall: time.Now}
}

// Now returns the simulated time.
func (c *ScaledClock) Now() time.Time {
	elapsed := c.wall().Sub(c.wallStart)
	return c.simStart.Add(time.Duration(float64(elapsed) * c.speed)).UTC()
}

// Speed returns how many times faster than wall-clock time the clock runs.
func (c *ScaledClock) Speed() float64 { return c.speed }

// ManualClock is a clock that only moves when told to. Tests use it.
type ManualClock struct {
	mu  sync.Mutex
	now time.Time
}

// NewManualClock returns a clock standing at t.
func NewManualClock(t time.Time) *ManualClock {
	return &ManualClock{now: t.UTC()}
}

// Now returns the clock's current time.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Add moves the clock forward by d.
func (c *ManualClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// Set moves the clock to t.
func (c *ManualClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t.UTC()
}
