package clock

import (
	"testing"
	"time"
)

func TestFakeFiresTimersWhenMovedPastThem(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f := NewFake(start)
	minute, hour := f.After(time.Minute), f.After(time.Hour)
	f.BlockUntil(2)
	f.Advance(59 * time.Second)
	select {
	case <-minute:
		t.Fatal("a one-minute timer fired after 59 s")
	default:
	}
	f.Advance(time.Second)
	select {
	case got := <-minute:
		if !got.Equal(start.Add(time.Minute)) {
			t.Errorf("timer received %s", got)
		}
	default:
		t.Fatal("a one-minute timer did not fire after a minute")
	}
	if f.Waiters() != 1 {
		t.Errorf("%d timers pending, want the hour's", f.Waiters())
	}
	f.Set(start.Add(2 * time.Hour))
	select {
	case <-hour:
	default:
		t.Fatal("setting the clock past a timer did not fire it")
	}
	select {
	case <-f.After(0):
	default:
		t.Fatal("After(0) did not fire at once")
	}
}

func TestScaledRunsFaster(t *testing.T) {
	s := NewScaled(36000) // an hour in a tenth of a second
	before := s.Now()
	got := <-s.After(time.Hour)
	if d := got.Sub(before); d < time.Hour {
		t.Errorf("After(1h) fired when the clock had moved %s", d)
	}
}
