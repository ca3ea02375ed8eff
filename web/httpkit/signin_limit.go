package httpkit

import (
	"crypto/sha256"
	"encoding/hex"
	"net/netip"
	"sync"
	"time"

	"washboard/internal/clock"
)

// FailureLimiter counts failed sign-ins over a sliding window and says
// when an attempt must wait. Successful sign-ins are not counted, so that
// the people of one office behind one address do not lock each other out.
// Two rules hold attempts back:
//
//   - An address (an IPv6 address's /64) with limit failures within the
//     window waits, whatever API key it tries: guessing from one place is
//     stopped.
//   - An API key with limit failures within the window, from all addresses
//     together, is being guessed: an address that has failed with it
//     within the window may try it again only a window after its last
//     failure. Guessing from many addresses is slowed to one try per
//     address and window, while an address that has not failed with the
//     key — its owner's — is let in at once: others' failures never lock
//     the owner out.
type FailureLimiter struct {
	limit   int           // failures allowed per address, and per key before it counts as guessed
	window  time.Duration // how long a failure counts
	maxKeys int           // addresses, keys and pairs remembered at most
	clock   clock.Clock

	mu       sync.Mutex
	failures map[string][]time.Time // per address, key or pair, oldest first, at most limit
}

// NewFailureLimiter is a limiter that allows limit failures within window.
func NewFailureLimiter(limit int, window time.Duration, clk clock.Clock) *FailureLimiter {
	return &FailureLimiter{limit: limit, window: window, maxKeys: 100_000, clock: clk, failures: map[string][]time.Time{}}
}

// Hold says why an attempt waits.
type Hold int

const (
	HeldNot     Hold = iota // the attempt may go ahead
	HeldAddress             // too many failures from the address
	HeldAPIKey              // the key is being guessed, and the address failed with it lately
)

// Attempt is a sign-in's address and API key, as the limiter counts them.
type Attempt struct{ addr, key, pair string }

// SignInAttempt names the address and API key of an attempt in the
// limiter, without keeping the key.
func SignInAttempt(addr, apiKey string) Attempt {
	h := sha256.Sum256([]byte("sign-in\x00" + apiKey))
	key := "key:" + hex.EncodeToString(h[:12])
	a := addressLimitKey(addr)
	return Attempt{addr: a, key: key, pair: key + "|" + a}
}

// AddressAttempt names an attempt by its address alone: for what is
// limited per address, with no key that could be guessed.
func AddressAttempt(addr string) Attempt { return Attempt{addr: addressLimitKey(addr)} }

// addressLimitKey is the address an attempt is counted against: an IPv6
// address's /64, which one client usually holds whole.
func addressLimitKey(addr string) string {
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		return "addr:" + addr
	}
	ip = ip.Unmap()
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return "addr:" + p.String()
	}
	return "addr:" + ip.String()
}

// Held returns why and until when an attempt must wait, or HeldNot.
func (l *FailureLimiter) Held(a Attempt) (Hold, time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.clock.Now()
	why, until := HeldNot, time.Time{}
	if f := l.recentLocked(a.addr, now); len(f) >= l.limit {
		why, until = HeldAddress, f[0].Add(l.window)
	}
	if k := l.recentLocked(a.key, now); a.key != "" && len(k) >= l.limit {
		if p := l.recentLocked(a.pair, now); len(p) > 0 {
			if free := p[len(p)-1].Add(l.window); free.After(until) {
				why, until = HeldAPIKey, free
			}
		}
	}
	return why, until
}

// Fail counts a failed attempt against its address, its key and the two
// together.
func (l *FailureLimiter) Fail(a Attempt) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.clock.Now()
	for _, k := range []string{a.addr, a.key, a.pair} {
		if k == "" {
			continue // an attempt of an address alone
		}
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

// recentLocked drops a name's failures that no longer count.
func (l *FailureLimiter) recentLocked(name string, now time.Time) []time.Time {
	f := l.failures[name]
	i := 0
	for i < len(f) && !f[i].Add(l.window).After(now) {
		i++
	}
	if i == len(f) {
		delete(l.failures, name)
		return nil
	}
	f = f[i:]
	l.failures[name] = f
	return f
}

// forgetLocked makes room: every name whose failures no longer count goes,
// and when that is not enough, half of the rest. Keeping too many would
// let someone with many addresses or keys grow the map without end.
func (l *FailureLimiter) forgetLocked(now time.Time) {
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
