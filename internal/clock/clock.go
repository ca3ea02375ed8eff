// Package clock lets code that waits for time be tested without waiting:
// production code uses Real, tests a Fake that moves only when told to.
package clock

import (
	"sort"
	"sync"
	"time"
)

// Clock tells the time and waits for it.
type Clock interface {
	Now() time.Time
	// After returns a channel that receives the time once d has passed.
	After(d time.Duration) <-chan time.Time
}

// Real is the system clock.
type Real struct{}

// Now returns the current time.
func (Real) Now() time.Time { return time.Now() }

// After waits for d on the system clock.
func (Real) After(d time.Duration) <-chan time.Time { return time.After(d) }

// Fake is a clock that stands still until Advance or Set moves it. Timers
// fire when the clock reaches their deadline.
type Fake struct {
	mu      sync.Mutex
	cond    *sync.Cond
	now     time.Time
	waiters []waiter
}

type waiter struct {
	at time.Time
	ch chan time.Time
}

// NewFake returns a fake clock standing at t.
func NewFake(t time.Time) *Fake {
	f := &Fake{now: t}
	f.cond = sync.NewCond(&f.mu)
	return f
}

// Now returns the fake time.
func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// After returns a channel that receives the time when the clock has been
// moved d past now.
func (f *Fake) After(d time.Duration) <-chan time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	ch := make(chan time.Time, 1)
	if d <= 0 {
		ch <- f.now
		return ch
	}
	f.waiters = append(f.waiters, waiter{f.now.Add(d), ch})
	f.cond.Broadcast()
	return ch
}

// Advance moves the clock forward by d and fires the timers that are due.
func (f *Fake) Advance(d time.Duration) {
	f.mu.Lock()
	f.setLocked(f.now.Add(d))
	f.mu.Unlock()
}

// Set moves the clock to t and fires the timers that are due.
func (f *Fake) Set(t time.Time) {
	f.mu.Lock()
	f.setLocked(t)
	f.mu.Unlock()
}

func (f *Fake) setLocked(t time.Time) {
	f.now = t
	sort.Slice(f.waiters, func(i, j int) bool { return f.waiters[i].at.Before(f.waiters[j].at) })
	kept := f.waiters[:0]
	for _, w := range f.waiters {
		if w.at.After(t) {
			kept = append(kept, w)
			continue
		}
		w.ch <- t
	}
	f.waiters = kept
}

// Waiters returns the number of timers not yet fired.
func (f *Fake) Waiters() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.waiters)
}

// BlockUntil waits until at least n timers are pending: a test calls it to
// know that the code under test has gone to sleep.
func (f *Fake) BlockUntil(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for len(f.waiters) < n {
		f.cond.Wait()
	}
}

// Scaled runs speed times faster than the system clock, from the moment it
// was made: the demo's clock, shared by its simulator, sync and pages so
// that all three agree on the time.
type Scaled struct {
	start time.Time
	speed float64
}

// NewScaled returns a clock that starts now and runs speed times faster
// than real time. A speed below 1 is taken as 1.
func NewScaled(speed float64) *Scaled {
	return &Scaled{start: time.Now(), speed: max(speed, 1)}
}

// Now returns the scaled time.
func (s *Scaled) Now() time.Time {
	return s.start.Add(time.Duration(float64(time.Since(s.start)) * s.speed))
}

// After waits until d has passed on the scaled clock.
func (s *Scaled) After(d time.Duration) <-chan time.Time {
	real := time.Duration(float64(d) / s.speed)
	ch := make(chan time.Time, 1)
	time.AfterFunc(real, func() { ch <- s.Now() })
	return ch
}
