package sim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"

	"washboard/internal/clock"
	"washboard/internal/webhook"
)

// Webhooks. An account defines endpoints (a URL, a secret, the event
// types it wants); every alert the fleet opens, changes or closes from then
// on is sent to each matching endpoint as a signed POST (see
// internal/webhook), retried with backoff when it fails, and logged.
//
// The simulator is otherwise lazy: an account moves forward only when a
// request for it arrives. While an account has an enabled webhook, its
// changes to alerts are recorded (recorder) and a pump brings it forward
// every tick, so that events go out within a tick of becoming due. The
// pump takes the changes under the account's lock and does the rest (the
// bodies, the queues) without it; each definition has one worker that
// delivers.

// DefaultRetries are the upper bounds of the waits before the retries of
// a failed delivery: six attempts in all. Each wait is drawn uniformly
// from zero to its bound ("full jitter"), so the first retry comes within
// 10 s and the last about an hour after the first attempt on average (two
// at most).
var DefaultRetries = []time.Duration{10 * time.Second, time.Minute, 5 * time.Minute, 20 * time.Minute, 90 * time.Minute}

// Limits of the webhooks.
const (
	maxWebhooksPerAccount = 10
	maxWebhookURL         = 2048
	maxAnswerRead         = 64 << 10 // bytes of a receiver's answer read (and discarded)
)

// WebhookOptions tune how webhooks are sent. The zero value is the
// service's behaviour.
type WebhookOptions struct {
	// Retries are the upper bounds of the random waits before each retry;
	// DefaultRetries if nil. An attempt that fails after the last one
	// gives the event up.
	Retries []time.Duration
	// Timeout is how long an attempt waits for an answer: 10 s if zero.
	Timeout time.Duration
	// Clock is real time, as opposed to the simulated time of the world:
	// the deliveries' timestamps, the waits between retries and the
	// delivery log. clock.Real if nil.
	Clock clock.Clock
	// Tick is how often the accounts with webhooks are brought forward:
	// 50 ms if zero.
	Tick time.Duration
	// QueueLimit bounds the events waiting per definition: 10,000 if zero.
	// When it is reached the oldest waiting event is dropped and counted.
	QueueLimit int
	// LogLimit is how many delivery log entries a definition keeps:
	// 1,000 if zero.
	LogLimit int
	// Log receives a line per delivery attempt; nothing is logged if nil.
	Log *slog.Logger
}

func (o WebhookOptions) withDefaults() WebhookOptions {
	if o.Retries == nil {
		o.Retries = DefaultRetries
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.Clock == nil {
		o.Clock = clock.Real{}
	}
	if o.Tick <= 0 {
		o.Tick = 50 * time.Millisecond
	}
	if o.QueueLimit <= 0 {
		o.QueueLimit = 10_000
	}
	if o.LogLimit <= 0 {
		o.LogLimit = 1000
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	return o
}

// WebhookSpec is what an account asks for when it defines a webhook.
type WebhookSpec struct {
	URL      string              // absolute http or https URL
	Secret   webhook.Secret      // drawn at random if zero
	Types    []webhook.EventType // the event types sent; every type if empty
	Disabled bool                // defined but sent nothing
}

// Webhook is a webhook definition as the account sees it. The secret is
// not part of it: it is shown once, when the definition is made.
type Webhook struct {
	ID      string
	URL     string
	Types   []webhook.EventType // empty: every type
	Enabled bool
	Failing bool      // an event was given up after its last attempt, and nothing was delivered since
	Created time.Time // real time
	Queued  int       // events waiting for delivery
	Dropped int       // events dropped because the queue was full
}

// SpecError is a webhook definition that cannot be accepted; Field names
// the field at fault as the admin interface spells it.
type SpecError struct {
	Field string
	Msg   string
}

func (e *SpecError) Error() string { return e.Field + ": " + e.Msg }

// ErrClosed is returned for webhooks defined after the world was closed.
var ErrClosed = errors.New("sim: the world is closed")

// hooks runs a world's webhooks: the pump and the definitions' workers.
type hooks struct {
	opts   WebhookOptions
	world  *World
	client *http.Client
	wake   chan struct{} // asks the pump to run now

	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	mu      sync.Mutex // guards closed, started and made
	closed  bool
	started bool
	made    uint64 // definitions made, for their random seeds

	// observe, set by tests before any definition exists, sees every
	// delivery log entry as it is written.
	observe func(Delivery)
}

func newHooks(w *World, opts WebhookOptions) *hooks {
	ctx, cancel := context.WithCancel(context.Background())
	return &hooks{
		opts:  opts.withDefaults(),
		world: w,
		client: &http.Client{
			// A redirect is an answer outside 2xx like any other: the
			// delivery failed.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		wake:   make(chan struct{}, 1),
		ctx:    ctx,
		cancel: cancel,
	}
}

// poke asks the pump to run soon, without waiting.
func (hs *hooks) poke() {
	select {
	case hs.wake <- struct{}{}:
	default:
	}
}

// Close stops the world's webhooks: the pump, and the workers with their
// attempts in flight. It waits for them. Requests are still served, and
// no longer record changes for webhooks.
func (w *World) Close() {
	hs := w.hooks
	hs.mu.Lock()
	hs.closed = true
	hs.mu.Unlock()
	hs.cancel()
	hs.wg.Wait()
	for _, a := range w.accounts {
		a.mu.Lock()
		a.stopRecording()
		a.mu.Unlock()
	}
}

// unlock releases a.mu, waking the pump if changes to alerts await it.
func (w *World) unlock(a *Account) {
	pending := a.rec != nil && len(a.rec.changes) > 0
	a.mu.Unlock()
	if pending {
		w.hooks.poke()
	}
}

// pump brings the accounts with webhooks forward every tick, or sooner
// when poked, and hands their changes to the definitions.
func (hs *hooks) pump() {
	defer hs.wg.Done()
	tick := time.NewTicker(hs.opts.Tick)
	defer tick.Stop()
	for {
		select {
		case <-hs.ctx.Done():
			return
		case <-tick.C:
		case <-hs.wake:
		}
		for _, a := range hs.world.accounts {
			if a.hooked.Load() {
				hs.pumpAccount(a)
			}
		}
	}
}

// target is a definition that receives an account's changes from seq from on.
type target struct {
	h    *hook
	from int64
}

func (hs *hooks) pumpAccount(a *Account) {
	now := hs.world.clock.Now()
	a.mu.Lock()
	if a.rec == nil {
		a.mu.Unlock()
		return
	}
	a.advance(now)
	changes, lost := a.rec.take()
	var targets []target
	for _, h := range a.hooks {
		if h.enabled {
			targets = append(targets, target{h, h.from})
		}
	}
	a.mu.Unlock()

	if lost > 0 {
		hs.opts.Log.Warn("webhook events lost: the simulation ran too far ahead at once", "account", a.ID, "lost", lost)
	}
	for _, c := range changes {
		data, err := json.Marshal(c.alert)
		if err != nil {
			panic(fmt.Sprintf("sim: encoding an alert: %v", err)) // plain data always encodes
		}
		ev := webhook.Event{ID: webhook.NewEventID(), Type: c.typ, CreatedAt: c.at, Data: data}
		body, err := json.Marshal(ev)
		if err != nil {
			panic(fmt.Sprintf("sim: encoding an event: %v", err))
		}
		for _, t := range targets {
			if c.seq >= t.from && t.h.wants(c.typ) {
				t.h.enqueue(&pending{seq: c.seq, id: ev.ID, typ: c.typ, alertID: c.alert.AlertID, body: body})
			}
		}
	}
}

// account returns account k, or nil.
func (w *World) account(k int) *Account {
	if k < 0 || k >= len(w.accounts) {
		return nil
	}
	return w.accounts[k]
}

// AddWebhook defines a webhook for account k (0-based) and returns it with
// its secret, drawn at random if the spec has none. Changes to alerts from
// now on are sent to it; none from before.
func (w *World) AddWebhook(k int, spec WebhookSpec) (Webhook, webhook.Secret, error) {
	a := w.account(k)
	if a == nil {
		return Webhook{}, webhook.Secret{}, fmt.Errorf("sim: no account %d", k)
	}
	return w.addWebhook(a, spec)
}

func (w *World) addWebhook(a *Account, spec WebhookSpec) (Webhook, webhook.Secret, error) {
	if err := CheckWebhookURL(spec.URL); err != nil {
		return Webhook{}, webhook.Secret{}, err
	}
	var types []webhook.EventType
	for _, t := range spec.Types {
		if _, err := webhook.ParseEventType(string(t)); err != nil {
			return Webhook{}, webhook.Secret{}, &SpecError{"event_types", err.Error()}
		}
		if !slices.Contains(types, t) {
			types = append(types, t)
		}
	}
	secret := spec.Secret
	if secret.IsZero() {
		secret = webhook.NewSecret()
	}

	hs := w.hooks
	hs.mu.Lock()
	defer hs.mu.Unlock()
	if hs.closed {
		return Webhook{}, webhook.Secret{}, ErrClosed
	}
	hs.made++
	ctx, cancel := context.WithCancel(hs.ctx)
	h := &hook{
		hs:      hs,
		id:      "wh_" + randomToken(12),
		url:     spec.URL,
		secret:  secret,
		types:   types,
		created: hs.opts.Clock.Now(),
		lanes:   map[string][]*pending{},
		log:     deliveryLog{limit: hs.opts.LogLimit},
		rng:     rand.New(rand.NewPCG(w.seed, 0x3e6b00c+hs.made)),
		wake:    make(chan struct{}, 1),
		cancel:  cancel,
		done:    make(chan struct{}),
	}

	a.mu.Lock()
	if len(a.hooks) >= maxWebhooksPerAccount {
		a.mu.Unlock()
		cancel()
		return Webhook{}, webhook.Secret{}, &SpecError{"", fmt.Sprintf("an account has at most %d webhooks", maxWebhooksPerAccount)}
	}
	if !spec.Disabled {
		w.enableLocked(a, h)
	}
	a.hooks = append(slices.Clip(a.hooks), h)
	w.unlock(a)

	if !hs.started {
		hs.started = true
		hs.wg.Add(1)
		go hs.pump()
	}
	hs.wg.Add(1)
	go hs.work(ctx, h)
	return h.snapshot(), secret, nil
}

// enableLocked brings the account to now and starts sending its changes
// from then on to h. The caller holds a.mu.
func (w *World) enableLocked(a *Account, h *hook) {
	a.advance(w.clock.Now())
	a.startRecording()
	h.mu.Lock()
	h.enabled, h.from = true, a.rec.seq
	h.mu.Unlock()
}

// Webhooks returns account k's webhook definitions, oldest first.
func (w *World) Webhooks(k int) []Webhook {
	a := w.account(k)
	if a == nil {
		return nil
	}
	return w.listWebhooks(a)
}

func (w *World) listWebhooks(a *Account) []Webhook {
	a.mu.Lock()
	hs := a.hooks
	a.mu.Unlock()
	out := make([]Webhook, 0, len(hs))
	for _, h := range hs {
		out = append(out, h.snapshot())
	}
	return out
}

// findHook returns the account's definition with the id, or nil.
func (a *Account) findHook(id string) *hook {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, h := range a.hooks {
		if h.id == id {
			return h
		}
	}
	return nil
}

// RemoveWebhook deletes account k's definition with the id. Events waiting
// for it are abandoned, and an attempt in flight is cut off. It reports
// whether the definition existed.
func (w *World) RemoveWebhook(k int, id string) bool {
	a := w.account(k)
	return a != nil && w.removeWebhook(a, id)
}

func (w *World) removeWebhook(a *Account, id string) bool {
	a.mu.Lock()
	i := slices.IndexFunc(a.hooks, func(h *hook) bool { return h.id == id })
	if i < 0 {
		a.mu.Unlock()
		return false
	}
	h := a.hooks[i]
	a.hooks = slices.Delete(slices.Clone(a.hooks), i, i+1)
	h.disable()
	w.recordIfNeeded(a)
	a.mu.Unlock()
	h.cancel()
	<-h.done
	return true
}

// SetWebhookEnabled turns account k's definition with the id on or off.
// Turned off, it is sent nothing more and its waiting events are dropped;
// turned on again, it is sent the changes from then on. It reports whether
// the definition exists.
func (w *World) SetWebhookEnabled(k int, id string, on bool) (Webhook, bool) {
	a := w.account(k)
	if a == nil {
		return Webhook{}, false
	}
	return w.setWebhookEnabled(a, id, on)
}

func (w *World) setWebhookEnabled(a *Account, id string, on bool) (Webhook, bool) {
	w.hooks.mu.Lock() // enabling after Close would record changes no pump takes
	defer w.hooks.mu.Unlock()
	on = on && !w.hooks.closed
	a.mu.Lock()
	i := slices.IndexFunc(a.hooks, func(h *hook) bool { return h.id == id })
	if i < 0 {
		a.mu.Unlock()
		return Webhook{}, false
	}
	h := a.hooks[i]
	switch {
	case on && !h.enabled:
		w.enableLocked(a, h)
	case !on && h.enabled:
		h.disable()
		w.recordIfNeeded(a)
	}
	w.unlock(a)
	return h.snapshot(), true
}

// recordIfNeeded stops recording when no definition of the account is
// enabled. The caller holds a.mu.
func (w *World) recordIfNeeded(a *Account) {
	if !slices.ContainsFunc(a.hooks, func(h *hook) bool { return h.enabled }) {
		a.stopRecording()
	}
}

// WebhookDeliveries returns the delivery log of account k's definition
// with the id, oldest entry first, and whether the definition exists.
func (w *World) WebhookDeliveries(k int, id string) ([]Delivery, bool) {
	a := w.account(k)
	if a == nil {
		return nil, false
	}
	h := a.findHook(id)
	if h == nil {
		return nil, false
	}
	return h.deliveries(), true
}

// CheckWebhookURL accepts an absolute http or https URL with a host and
// without a user name or password (a URL ends up in listings). Its error
// is a *SpecError.
func CheckWebhookURL(s string) error {
	bad := func(msg string) error { return &SpecError{"url", msg} }
	if s == "" {
		return bad("url is required")
	}
	if len(s) > maxWebhookURL {
		return bad(fmt.Sprintf("url is %d bytes long; at most %d", len(s), maxWebhookURL))
	}
	u, err := url.Parse(s)
	switch {
	case err != nil, u.Scheme != "http" && u.Scheme != "https", u.Host == "", u.Opaque != "":
		return bad("url must be an absolute http:// or https:// URL with a host")
	case u.User != nil:
		return bad("url must not carry a user name or password; the signature authenticates deliveries")
	case u.Fragment != "":
		return bad("url must not have a fragment (#...)")
	}
	return nil
}
