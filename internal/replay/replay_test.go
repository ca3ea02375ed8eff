package replay

import (
	"strconv"
	"testing"
	"time"
)

var t0 = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

// A value is used once until it expires; the set keeps no more than Max.
func TestUseOnce(t *testing.T) {
	var s Set
	if !s.Use("a", t0.Add(time.Minute), t0) {
		t.Fatal("a fresh value was refused")
	}
	if s.Use("a", t0.Add(time.Minute), t0.Add(30*time.Second)) {
		t.Error("a value was used twice")
	}
	if !s.Use("b", t0.Add(time.Minute), t0) {
		t.Error("another value was refused")
	}
	for i := range Max + 5 {
		s.Use(strconv.Itoa(i), t0.Add(time.Hour), t0)
	}
	if s.Len() > Max {
		t.Errorf("the set remembers %d values, more than %d", s.Len(), Max)
	}
	s.Use("late", t0.Add(3*time.Hour), t0.Add(2*time.Hour))
	if s.Len() != 1 {
		t.Errorf("expired values are kept: %d remembered", s.Len())
	}
}
