package sim

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"

	"washboard/internal/webhook"
)

// Delivery. Each definition has one worker that makes one attempt at a time,
// and a queue per alert: an event waits until the one before it for the same
// alert is delivered or given up, so a receiver never sees an alert's
// resolution before its creation. Events of other alerts do not wait for
// it, so one event the receiver keeps refusing holds up only its own
// alert, not the fleet's. One attempt at a time keeps the load on a
// receiver (and the goroutines) to one per definition; a simpler queue per
// definition would have had one failing event hold up every other for an
// hour.

// Outcome is how a delivery log entry ended.
type Outcome string

// The outcomes of a delivery attempt.
const (
	OutcomeDelivered Outcome = "delivered" // answered 2xx
	OutcomeRetrying  Outcome = "retrying"  // failed; another attempt is scheduled
	OutcomeFailed    Outcome = "failed"    // the last attempt failed: the event is given up
	OutcomeDropped   Outcome = "dropped"   // never sent: the drop rate, or a full queue
)

// Delivery is an entry of a definition's delivery log: an attempt, or an
// event dropped without one.
type Delivery struct {
	EventID     string
	Type        webhook.EventType
	AlertID     string
	Attempt     int       // 1 for the first; for a dropped event, the attempts made before
	At          time.Time // real time
	Outcome     Outcome
	Status      int    // the receiver's status code; 0 without an answer
	Error       string // why there was no answer, or why the event was dropped
	Duration    time.Duration
	NextAttempt time.Time // when Outcome is OutcomeRetrying
}

// hook is a webhook definition with its queue, worker state and log.
type hook struct {
	hs      *hooks
	id      string
	url     string
	secret  webhook.Secret
	types   []webhook.EventType
	created time.Time

	mu sync.Mutex
	// enabled and from say which changes the definition receives; they
	// are written holding both the account's mu and this one, and read
	// holding either.
	enabled bool
	from    int64
	lanes   map[string][]*pending // by alert id, oldest first
	queued  int
	failing bool
	dropped int // events dropped because the queue was full
	log     deliveryLog
	rng     *rand.Rand // the drop rate and the jitter

	wake   chan struct{} // a new event is waiting
	cancel context.CancelFunc
	done   chan struct{} // closed when the worker has stopped
}

// pending is an event waiting in a definition's queue.
type pending struct {
	seq      int64 // order of the change in the account
	id       string
	typ      webhook.EventType
	alertID  string
	body     []byte
	attempts int       // made so far
	due      time.Time // of the next attempt; zero: at once
	inFlight bool
}

func (h *hook) wants(t webhook.EventType) bool {
	return len(h.types) == 0 || slices.Contains(h.types, t)
}

func (h *hook) snapshot() Webhook {
	h.mu.Lock()
	defer h.mu.Unlock()
	return Webhook{
		ID: h.id, URL: h.url, Types: slices.Clone(h.types), Enabled: h.enabled, Failing: h.failing,
		Created: h.created, Queued: h.queued, Dropped: h.dropped,
	}
}

func (h *hook) deliveries() []Delivery {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.log.list()
}

// disable stops the definition receiving events and drops those waiting.
// The caller holds the account's mu.
func (h *hook) disable() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.enabled = false
	h.lanes = map[string][]*pending{}
	h.queued = 0
}

// enqueue adds an event to the queue. When the queue is full, the oldest
// event not in flight is dropped, logged and counted.
func (h *hook) enqueue(p *pending) {
	h.mu.Lock()
	if !h.enabled {
		h.mu.Unlock()
		return
	}
	var victim *pending
	if h.queued >= h.hs.opts.QueueLimit {
		victim = h.oldestWaiting()
		h.dropped++
	}
	var entry Delivery
	if victim != nil {
		lane := h.lanes[victim.alertID]
		i := slices.Index(lane, victim)
		h.setLane(victim.alertID, slices.Delete(lane, i, i+1))
		h.queued--
		entry = Delivery{
			EventID: victim.id, Type: victim.typ, AlertID: victim.alertID, Attempt: victim.attempts,
			At: h.hs.opts.Clock.Now(), Outcome: OutcomeDropped,
			Error: fmt.Sprintf("the queue was full (%d events): the oldest waiting was dropped", h.hs.opts.QueueLimit),
		}
		h.log.add(entry)
	}
	h.lanes[p.alertID] = append(h.lanes[p.alertID], p)
	h.queued++
	dropped := h.dropped
	h.mu.Unlock()

	if victim != nil {
		h.hs.opts.Log.Warn("webhook queue full: dropped the oldest waiting event", "webhook", h.id,
			"event", entry.EventID, "alert", entry.AlertID, "dropped", dropped)
		h.hs.seen(entry)
	}
	select {
	case h.wake <- struct{}{}:
	default:
	}
}

func (h *hook) setLane(alertID string, lane []*pending) {
	if len(lane) == 0 {
		delete(h.lanes, alertID)
		return
	}
	h.lanes[alertID] = lane
}

// oldestWaiting is the event first queued among those not in flight.
func (h *hook) oldestWaiting() *pending {
	var best *pending
	for _, lane := range h.lanes {
		for _, p := range lane {
			if p.inFlight {
				continue
			}
			if best == nil || p.seq < best.seq {
				best = p
			}
			break // the rest of the lane is younger
		}
	}
	return best
}

// next is the event to attempt next: of the alerts with nothing in flight,
// the first event whose attempt is due first.
func (h *hook) next() *pending {
	var best *pending
	for _, lane := range h.lanes {
		p := lane[0]
		if p.inFlight {
			continue
		}
		if best == nil || p.due.Before(best.due) || (p.due.Equal(best.due) && p.seq < best.seq) {
			best = p
		}
	}
	return best
}

// work is a definition's worker: it attempts each event when it is due.
func (hs *hooks) work(ctx context.Context, h *hook) {
	defer hs.wg.Done()
	defer close(h.done)
	// One timer at a time, made again only when the earliest due time
	// changes: a test's fake clock then sees exactly the waits there are.
	var timer <-chan time.Time
	var timerAt time.Time
	for ctx.Err() == nil {
		now := hs.opts.Clock.Now()
		h.mu.Lock()
		p := h.next()
		due := p != nil && !p.due.After(now)
		if due {
			p.inFlight = true
		}
		h.mu.Unlock()
		if due {
			hs.attempt(ctx, h, p)
			continue
		}
		if p != nil && (timer == nil || !timerAt.Equal(p.due)) {
			timer, timerAt = hs.opts.Clock.After(p.due.Sub(now)), p.due
		}
		select {
		case <-ctx.Done():
		case <-h.wake:
		case <-timer:
			timer = nil
		}
	}
}

// attempt makes one attempt at delivering p, or drops it at its first
// attempt for the drop rate.
func (hs *hooks) attempt(ctx context.Context, h *hook, p *pending) {
	clk := hs.opts.Clock
	d := Delivery{EventID: p.id, Type: p.typ, AlertID: p.alertID, Attempt: p.attempts + 1, At: clk.Now()}
	if p.attempts == 0 {
		rate := hs.world.Faults().WebhookDropRate
		h.mu.Lock()
		drop := rate > 0 && h.rng.Float64() < rate
		h.mu.Unlock()
		if drop {
			d.Outcome, d.Error = OutcomeDropped, "dropped by the drop rate: never sent"
			hs.finish(h, p, d)
			return
		}
	}

	reqCtx, cancel := context.WithTimeout(ctx, hs.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(reqCtx, http.MethodPost, h.url, bytes.NewReader(p.body))
	if err != nil {
		panic(fmt.Sprintf("sim: a checked webhook URL does not make a request: %v", err))
	}
	req.Header = webhook.Sign(h.secret, p.id, d.At, p.body)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "washboard-sim")
	res, err := hs.client.Do(req)
	if err == nil {
		_, err = io.Copy(io.Discard, io.LimitReader(res.Body, maxAnswerRead))
		res.Body.Close()
		d.Status = res.StatusCode
	}
	d.Duration = clk.Now().Sub(d.At)
	if ctx.Err() != nil {
		return // the definition was removed or the world closed: nobody is left to tell
	}
	switch {
	case errors.Is(reqCtx.Err(), context.DeadlineExceeded):
		d.Status, d.Error = 0, fmt.Sprintf("no answer within %s", hs.opts.Timeout)
	case err != nil && d.Status == 0:
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the words without the URL, which may carry a token
		}
		d.Error = err.Error()
	}
	if d.Error == "" && d.Status >= 200 && d.Status < 300 {
		d.Outcome = OutcomeDelivered
	}
	hs.finish(h, p, d)
}

// finish records an attempt's outcome: p leaves the queue when delivered,
// dropped or given up, or waits for its next attempt.
func (hs *hooks) finish(h *hook, p *pending, d Delivery) {
	h.mu.Lock()
	if d.Outcome == "" {
		p.attempts++
		if p.attempts > len(hs.opts.Retries) {
			d.Outcome = OutcomeFailed
		} else {
			d.Outcome = OutcomeRetrying
			limit := hs.opts.Retries[p.attempts-1]
			d.NextAttempt = hs.opts.Clock.Now().Add(time.Duration(h.rng.Int64N(int64(limit) + 1)))
			p.due = d.NextAttempt
		}
	}
	p.inFlight = false
	switch d.Outcome {
	case OutcomeDelivered:
		h.failing = false
	case OutcomeFailed:
		h.failing = true
	}
	// Still queued unless the definition was disabled meanwhile.
	if lane := h.lanes[p.alertID]; len(lane) > 0 && lane[0] == p && d.Outcome != OutcomeRetrying {
		h.setLane(p.alertID, lane[1:])
		h.queued--
	}
	h.log.add(d)
	h.mu.Unlock()

	attrs := []any{"webhook", h.id, "event", d.EventID, "type", string(d.Type), "alert", d.AlertID,
		"attempt", d.Attempt, "outcome", string(d.Outcome)}
	if d.Outcome != OutcomeDropped {
		attrs = append(attrs, "duration", d.Duration.Round(time.Microsecond).String())
	}
	if d.Status != 0 {
		attrs = append(attrs, "status", d.Status)
	}
	if d.Error != "" {
		attrs = append(attrs, "error", d.Error)
	}
	if !d.NextAttempt.IsZero() {
		attrs = append(attrs, "next_attempt", d.NextAttempt.UTC().Format(time.RFC3339))
	}
	level := slog.LevelInfo
	if d.Outcome == OutcomeFailed {
		level = slog.LevelWarn
	}
	hs.opts.Log.Log(context.Background(), level, "webhook delivery", attrs...)
	hs.seen(d)
}

// seen shows a log entry to a test that watches.
func (hs *hooks) seen(d Delivery) {
	if hs.observe != nil {
		hs.observe(d)
	}
}

// deliveryLog keeps a definition's last entries.
type deliveryLog struct {
	limit   int
	entries []Delivery
	start   int // of the oldest entry, once the log is full
}

func (l *deliveryLog) add(d Delivery) {
	if len(l.entries) < l.limit {
		l.entries = append(l.entries, d)
		return
	}
	l.entries[l.start] = d
	l.start = (l.start + 1) % l.limit
}

// list returns the entries, oldest first.
func (l *deliveryLog) list() []Delivery {
	out := make([]Delivery, 0, len(l.entries))
	out = append(out, l.entries[l.start:]...)
	return append(out, l.entries[:l.start]...)
}
