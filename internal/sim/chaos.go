package sim

import (
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Faults makes the service misbehave, for testing clients. The zero value
// is a well-behaved service.
type Faults struct {
	Latency       time.Duration // each request waits a random time up to this
	ErrorRate     float64       // share of requests answered 500
	RateLimitRate float64       // share of requests answered 429 with Retry-After
	RetryAfter    time.Duration // the Retry-After of 429 answers; 1 s if zero
	TruncateRate  float64       // share of successful answers cut off mid-body
	Quota         int           // requests per credential per minute before 429; 0 for no limit
	// WebhookDropRate is the share of webhook events lost: never sent nor
	// retried, as on a network that loses them, and logged as dropped.
	WebhookDropRate float64
}

// chaos applies Faults to requests.
type chaos struct {
	mu     sync.Mutex
	faults Faults
	rng    *rand.Rand
	now    func() time.Time
	window time.Time      // start of the current quota minute
	used   map[string]int // requests per x-api-key in the current minute
}

func newChaos(seed uint64) *chaos {
	return &chaos{rng: rand.New(rand.NewPCG(seed, 0xc4a05)), now: time.Now, used: map[string]int{}}
}

// SetFaults changes how the service misbehaves, from the next request on.
func (w *World) SetFaults(f Faults) {
	w.chaos.mu.Lock()
	defer w.chaos.mu.Unlock()
	w.chaos.faults = f
}

// Faults returns how the service misbehaves now.
func (w *World) Faults() Faults {
	w.chaos.mu.Lock()
	defer w.chaos.mu.Unlock()
	return w.chaos.faults
}

type verdict struct {
	delay      time.Duration
	status     int // 0 to serve the request
	retryAfter time.Duration
}

func (c *chaos) judge(key string) verdict {
	c.mu.Lock()
	defer c.mu.Unlock()
	f := c.faults
	var v verdict
	if f.Latency > 0 {
		v.delay = time.Duration(c.rng.Int64N(int64(f.Latency) + 1))
	}
	retry := f.RetryAfter
	if retry <= 0 {
		retry = time.Second
	}
	if f.Quota > 0 {
		now := c.now()
		if now.Sub(c.window) >= time.Minute {
			c.window = now.Truncate(time.Minute)
			clear(c.used)
		}
		c.used[key]++
		if c.used[key] > f.Quota {
			v.status, v.retryAfter = http.StatusTooManyRequests, c.window.Add(time.Minute).Sub(now)
			return v
		}
	}
	switch x := c.rng.Float64(); {
	case x < f.ErrorRate:
		v.status = http.StatusInternalServerError
	case x < f.ErrorRate+f.RateLimitRate:
		v.status, v.retryAfter = http.StatusTooManyRequests, retry
	}
	return v
}

func (c *chaos) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v := c.judge(r.Header.Get("x-api-key"))
		if v.delay > 0 {
			select {
			case <-time.After(v.delay):
			case <-r.Context().Done():
				return
			}
		}
		switch v.status {
		case 0:
			next.ServeHTTP(w, r)
		case http.StatusTooManyRequests:
			secs := int((v.retryAfter + time.Second - 1) / time.Second)
			w.Header().Set("Retry-After", strconv.Itoa(max(secs, 1)))
			writeError(w, newAPIError(v.status, "", "rate limit exceeded; retry after %d s", max(secs, 1)))
		default:
			writeError(w, newAPIError(v.status, "", "internal server error (injected)"))
		}
	})
}

// writeBody writes a successful answer, cut off halfway through for a share
// of answers when truncation is on: the declared length is the full one and
// the connection is closed early, as when a proxy or the network drops it.
func (c *chaos) writeBody(w http.ResponseWriter, body []byte) {
	c.mu.Lock()
	cut := c.faults.TruncateRate > 0 && c.rng.Float64() < c.faults.TruncateRate
	c.mu.Unlock()
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if !cut {
		w.Write(body)
		return
	}
	w.Write(body[:len(body)/2])
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	panic(http.ErrAbortHandler)
}
