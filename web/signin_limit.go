package web

import (
	"crypto/sha256"
	"encoding/hex"
	"sync"
	"time"

	"washboard/internal/clock"
)

// failureLimiter counts failed sign-ins per key (a client address, an API
// key) over a sliding window. Successful sign-ins are not counted, so that
// the people of one office behind one address do not lock each other out;
// someone guessing is stopped, from one address or across many against
// one API key.
type failureLimiter struct {
	limit   int           // failures allowed per key within window
	window  time.Duration // how long a failure counts
	maxKeys int           // keys remembered at most
	clock   clock.Clock

	mu       sync.Mutex
	failures map[string][]time.Time // per key, oldest first, at most limit
}

func newFailureLimiter(limit int, window time.Duration, clk clock.Clock) *failureLimiter {
	return &failureLimiter{limit: limit, window: window, maxKeys: 100_000, clock: clk, failures: map[string][]time.Time{}}
}

// blockedUntil returns when the first of keys that reached the limit may
// try again, or the zero time when none has.
func (l *failureLimiter) blockedUntil(keys ...string) time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.clock.Now()
	var until time.Time
	for _, k := range keys {
		f := l.recentLocked(k, now)
		if len(f) >= l.limit {
			if free := f[0].Add(l.window); free.After(until) {
				until = free
			}
		}
	}
	return until
}

// fail counts a failed attempt against each of keys.
func (l *failureLimiter) fail(keys ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.clock.Now()
	for _, k := range keys {
		f := l.recentLocked(k, now)
		if f == nil && len(l.failures) >= l.maxKeys {
			l.forgetLocked(now)
		}
		if len(f) >= l.limit {
			f = f[1:] // only the last limit failures matter
		}
		l.failures[k] = append(f, now)
	}
}

// recentLocked drops a key's failures that no longer count.
func (l *failureLimiter) recentLocked(key string, now time.Time) []time.Time {
	f := l.failures[key]
	i := 0
	for i < len(f) && !f[i].Add(l.window).After(now) {
		i++
	}
	if i == len(f) {
		delete(l.failures, key)
		return nil
	}
	f = f[i:]
	l.failures[key] = f
	return f
}

// forgetLocked makes room: every key whose failures no longer count goes,
// and when that is not enough, half of the rest. Keeping too many keys
// would let someone with many addresses or keys grow the map without end.
func (l *failureLimiter) forgetLocked(now time.Time) {
	for k := range l.failures {
		l.recentLocked(k, now)
	}
	for k := range l.failures {
		if len(l.failures) < l.maxKeys/2 {
			break
		}
		delete(l.failures, k) // any: the map's order is random
	}
}

// apiKeyLimitKey names an API key in the limiter without keeping it.
func apiKeyLimitKey(apiKey string) string {
	h := sha256.Sum256([]byte("sign-in\x00" + apiKey))
	return "key:" + hex.EncodeToString(h[:12])
}
