// Package replay remembers values that may be used once (the state of a
// single sign-on, the challenge of a passkey ceremony) until they expire,
// so that an answer sent twice is refused the second time.
package replay

import (
	"crypto/sha256"
	"sync"
	"time"
)

// Max is the most values a Set remembers: past it, the oldest is
// forgotten first. The answer of a forgotten value is still bound by what
// else checks it (the provider's code, used once; the passkey's counter).
const Max = 10_000

// Set is the values used, each until it expires. The zero Set is ready.
type Set struct {
	mu    sync.Mutex
	until map[[32]byte]time.Time
	order [][32]byte // oldest first
}

// Use records value as used until expires; false when it was used already
// and has not expired.
func (s *Set) Use(value string, expires, now time.Time) bool {
	h := sha256.Sum256([]byte(value))
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.until == nil {
		s.until = map[[32]byte]time.Time{}
	}
	if t, ok := s.until[h]; ok && now.Before(t) {
		return false
	}
	for len(s.order) > 0 && (len(s.order) >= Max || !now.Before(s.until[s.order[0]])) {
		delete(s.until, s.order[0])
		s.order = s.order[1:]
	}
	if _, ok := s.until[h]; !ok {
		s.order = append(s.order, h)
	}
	s.until[h] = expires
	return true
}

// Len is how many values the set remembers.
func (s *Set) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.order)
}
