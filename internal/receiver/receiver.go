// Package receiver is the receiving end of the service's events
// (webhooks): the addresses Washboard gives out and their signing
// secrets, the checks a delivery must pass (its signature and timestamp,
// one delivery per event id, the account it is for), and a bounded queue
// from which the events are applied to the cache. A delivery is answered
// as soon as it is checked and queued; applying it happens after.
//
// Nothing is lost when events are dropped, duplicated or reordered: the
// sync's polling stays the safety net, and an event never overwrites a
// later state of its alert (see domain.Later).
package receiver

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"washboard/internal/domain"
	"washboard/internal/keyring"
	"washboard/internal/store"
	"washboard/internal/upstream"
	"washboard/internal/webhook"
)

// Store keeps the receivers.
type Store interface {
	CreateReceiver(ctx context.Context, r store.Receiver, max int) error
	Receivers(ctx context.Context, account string) ([]store.Receiver, error)
	Receiver(ctx context.Context, id string) (store.Receiver, error)
	RotateReceiver(ctx context.Context, account, id string, secret []byte, at, previousUntil time.Time) error
	RemoveReceiver(ctx context.Context, account, id string) error
	RecordReceived(ctx context.Context, counts map[string]store.ReceiverCounts) error
	AlertOfAnotherAccount(ctx context.Context, account, alertID string) (bool, error)
}

// Applier applies events to the cache (the sync engine).
type Applier interface {
	ApplyAlerts(ctx context.Context, account string, alerts []upstream.Alert) (domain.Change, error)
}

// Config tunes a Service. Zero values take the defaults.
type Config struct {
	QueueSize     int           // events waiting to be applied; 10,000
	BatchSize     int           // events applied in one transaction; 256
	Remember      time.Duration // how long an event id is remembered; 24 h
	MaxRemembered int           // event ids remembered at most; 200,000
	RotationGrace time.Duration // how long a replaced secret is still accepted; 24 h
	FlushEvery    time.Duration // how often the counts are written; 5 s
	CacheFor      time.Duration // how long a receiver read from the store is trusted; 30 s
	// Now is the wall clock that signatures' timestamps are checked
	// against: real time, whatever clock the sync runs on. time.Now if nil.
	Now func() time.Time
}

func (c Config) withDefaults() Config {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	defd := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&c.QueueSize, 10_000)
	def(&c.BatchSize, 256)
	def(&c.MaxRemembered, 200_000)
	defd(&c.Remember, 24*time.Hour)
	defd(&c.RotationGrace, 24*time.Hour)
	defd(&c.FlushEvery, 5*time.Second)
	defd(&c.CacheFor, 30*time.Second)
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// The errors of Receive. Each is answered with its own status (see the
// web layer); the error's text says why, for the log, and never holds the
// body or a secret.
var (
	ErrUnknown      = errors.New("no such receiver")
	ErrSignature    = errors.New("the signature or its timestamp was not accepted")
	ErrMalformed    = errors.New("the body is not an event this receiver reads")
	ErrOtherAccount = errors.New("the event is for another account")
	ErrBusy         = errors.New("too many events are waiting to be applied")
)

// Service receives events.
type Service struct {
	store Store
	keys  *keyring.Ring
	apply Applier
	cfg   Config
	log   *slog.Logger
	queue chan job

	mu       sync.Mutex
	cache    map[string]cached // by receiver id
	seen     *seenSet
	counts   map[string]store.ReceiverCounts // not written yet
	refusals refusalLog
}

type job struct {
	account string
	alert   upstream.Alert
}

// cached is a receiver as Receive needs it.
type cached struct {
	found   bool
	account string
	secrets []webhook.Secret // those accepted now
	until   time.Time        // the previous secret's end, if it is among them
	loaded  time.Time
}

// New returns a Service; Run applies what it queues.
func New(st Store, keys *keyring.Ring, apply Applier, cfg Config, log *slog.Logger) *Service {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cfg = cfg.withDefaults()
	return &Service{
		store: st, keys: keys, apply: apply, cfg: cfg, log: log,
		queue:  make(chan job, cfg.QueueSize),
		cache:  map[string]cached{},
		seen:   newSeenSet(cfg.MaxRemembered, cfg.Remember),
		counts: map[string]store.ReceiverCounts{},
	}
}

// Receive checks a delivery to the receiver id and queues its event. It
// returns nil when the event was accepted, or had been before (a retry or
// a replay changes nothing).
func (s *Service) Receive(ctx context.Context, id string, h http.Header, body []byte) error {
	r, err := s.receiver(ctx, id)
	if err != nil {
		return err
	}
	if !r.found {
		return ErrUnknown
	}
	now := s.cfg.Now()
	if err := verify(r.secrets, h, body, now); err != nil {
		// The signature's errors say nothing of the body or the secret.
		return s.refuse(id, ErrSignature, err.Error(), nil)
	}
	var ev webhook.Event
	if err := ev.UnmarshalJSON(body); err != nil {
		return s.refuse(id, ErrMalformed, "it is not an event", err)
	}
	if _, err := webhook.ParseEventType(string(ev.Type)); err != nil {
		// Nothing of an event of another type is applied: it is refused,
		// so that the sender's log shows it was not taken.
		return s.refuse(id, ErrMalformed, "its type is not one this receiver reads", err)
	}
	eventID := h.Get(webhook.HeaderID)
	if s.seenBefore(id, eventID, now) {
		s.count(id, true, now)
		return nil
	}
	alert, err := upstream.DecodeAlert(ev.Data)
	if err != nil {
		return s.refuse(id, ErrMalformed, "its data is not an alert", err)
	}
	other, err := s.store.AlertOfAnotherAccount(ctx, r.account, alert.ID)
	if err != nil {
		return err
	}
	if other {
		return s.refuse(id, ErrOtherAccount, "", nil)
	}
	select {
	case s.queue <- job{account: r.account, alert: alert}:
	default:
		return s.refuse(id, ErrBusy, "", nil)
	}
	s.remember(id, eventID, now)
	s.count(id, true, now)
	return nil
}

// verify checks a delivery against each secret accepted now.
func verify(secrets []webhook.Secret, h http.Header, body []byte, now time.Time) error {
	err := webhook.ErrNoMatchingSignature
	for _, sec := range secrets {
		if err = webhook.Verify(sec, h, body, now); err == nil || !errors.Is(err, webhook.ErrNoMatchingSignature) {
			return err
		}
	}
	return err
}

// refuse counts a refused delivery and logs why: the kind and a reason in
// fixed words, never a value from the body. It returns the kind with the
// reason and its cause, which may quote the body, for the sender.
func (s *Service) refuse(id string, kind error, reason string, cause error) error {
	s.count(id, false, time.Time{})
	logged := kind.Error()
	if reason != "" {
		logged += ": " + reason
	}
	s.refusals.log(s.log, s.cfg.Now(), id, logged)
	switch {
	case cause != nil:
		return fmt.Errorf("%w: %s: %v", kind, reason, cause)
	case reason != "":
		return fmt.Errorf("%w: %s", kind, reason)
	}
	return kind
}

func (s *Service) count(id string, accepted bool, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.counts[id]
	if accepted {
		c.Accepted++
		if at.After(c.LastEvent) {
			c.LastEvent = at
		}
	} else {
		c.Rejected++
	}
	s.counts[id] = c
}

func (s *Service) seenBefore(id, eventID string, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seen.has(id+"\x00"+eventID, now)
}

func (s *Service) remember(id, eventID string, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen.add(id+"\x00"+eventID, now)
}

// receiver reads a receiver, from memory while it is fresh. A receiver
// that does not exist is remembered as such too, so that a flood of
// deliveries to made-up addresses does not reach the store each time.
func (s *Service) receiver(ctx context.Context, id string) (cached, error) {
	now := s.cfg.Now()
	s.mu.Lock()
	c, ok := s.cache[id]
	s.mu.Unlock()
	if ok && now.Sub(c.loaded) < s.cfg.CacheFor && (c.until.IsZero() || now.Before(c.until)) {
		return c, nil
	}
	c = cached{loaded: now}
	r, err := s.store.Receiver(ctx, id)
	switch {
	case errors.Is(err, domain.ErrNotFound):
	case err != nil:
		return c, err
	default:
		c.found, c.account = true, r.Account
		if sec, err := s.openSecret(r.ID, r.Secret); err == nil {
			c.secrets = append(c.secrets, sec)
		}
		if len(r.Previous) > 0 && now.Before(r.PreviousUntil) {
			if sec, err := s.openSecret(r.ID, r.Previous); err == nil {
				c.secrets, c.until = append(c.secrets, sec), r.PreviousUntil
			}
		}
	}
	s.mu.Lock()
	if len(s.cache) >= maxCached {
		clear(s.cache)
	}
	s.cache[id] = c
	s.mu.Unlock()
	return c, nil
}

// maxCached bounds the receivers (and made-up addresses) kept in memory.
const maxCached = 10_000

func (s *Service) forget(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.cache, id)
}

func (s *Service) openSecret(id string, sealed []byte) (webhook.Secret, error) {
	plain, _, err := s.keys.Open(keyring.WebhookSecrets, sealed, []byte(id))
	if err != nil {
		return webhook.Secret{}, err
	}
	return webhook.ParseSecret(string(plain))
}

func (s *Service) sealSecret(id string, sec webhook.Secret) []byte {
	return s.keys.Seal(keyring.WebhookSecrets, []byte(sec.Text()), []byte(id))
}

// Run applies the queued events, a batch per account at a time, and
// writes the counts every Config.FlushEvery, until ctx ends.
func (s *Service) Run(ctx context.Context) {
	flush := time.NewTicker(s.cfg.FlushEvery)
	defer flush.Stop()
	defer s.flush(context.WithoutCancel(ctx))
	batch := make([]job, 0, s.cfg.BatchSize)
	for {
		select {
		case <-ctx.Done():
			return
		case <-flush.C:
			s.flush(ctx)
		case j := <-s.queue:
			batch = append(batch[:0], j)
		more:
			for len(batch) < s.cfg.BatchSize {
				select {
				case j := <-s.queue:
					batch = append(batch, j)
				default:
					break more
				}
			}
			s.applyBatch(ctx, batch)
		}
	}
}

// applyBatch applies events, each account's in one transaction.
func (s *Service) applyBatch(ctx context.Context, batch []job) {
	byAccount := map[string][]upstream.Alert{}
	var order []string
	for _, j := range batch {
		if _, ok := byAccount[j.account]; !ok {
			order = append(order, j.account)
		}
		byAccount[j.account] = append(byAccount[j.account], j.alert)
	}
	for _, account := range order {
		if _, err := s.apply.ApplyAlerts(ctx, account, byAccount[account]); err != nil && ctx.Err() == nil {
			// The next poll brings the cache up to date all the same.
			s.log.Warn("applying events failed; the next poll catches up", "events", len(byAccount[account]), "error", err.Error())
		}
	}
}

// flush writes the counts taken since the last flush, and forgets the
// event ids remembered long enough.
func (s *Service) flush(ctx context.Context) {
	s.mu.Lock()
	counts := s.counts
	s.counts = map[string]store.ReceiverCounts{}
	s.seen.prune(s.cfg.Now())
	s.mu.Unlock()
	if err := s.store.RecordReceived(ctx, counts); err != nil {
		s.log.Warn("recording what the receivers took", "error", err.Error())
	}
}

// Queued is how many events wait to be applied.
func (s *Service) Queued() int { return len(s.queue) }

// Summary is a receiver as the page lists it.
type Summary struct {
	ID        string
	Created   time.Time
	Rotated   time.Time // zero: never
	LastEvent time.Time // zero: none yet
	Accepted  int64
	Rejected  int64
	// Unreadable is set when the server's key cannot open the secret (the
	// key changed): only a new secret brings it back.
	Unreadable bool
}

// List lists an account's receivers with what they took, the counts not
// yet written included.
func (s *Service) List(ctx context.Context, account string) ([]Summary, error) {
	rs, err := s.store.Receivers(ctx, account)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Summary, len(rs))
	for i, r := range rs {
		c := s.counts[r.ID]
		last := r.LastEvent
		if c.LastEvent.After(last) {
			last = c.LastEvent
		}
		_, _, openErr := s.keys.Open(keyring.WebhookSecrets, r.Secret, []byte(r.ID))
		out[i] = Summary{ID: r.ID, Created: r.Created, Rotated: r.Rotated, LastEvent: last,
			Accepted: r.Accepted + c.Accepted, Rejected: r.Rejected + c.Rejected, Unreadable: openErr != nil}
	}
	return out, nil
}

// ErrBadSecret is returned for a pasted secret that cannot be used; its
// text says why in words.
var ErrBadSecret = errors.New("the signing secret")

// MaxReceivers is how many receivers an account keeps at most.
const MaxReceivers = 20

// Create makes a receiver for the account with a new signing secret, or
// with the one pasted (as the vendor's portal shows it). It returns the
// receiver's id and the secret, to be shown once; a *domain.LimitError
// when the account has MaxReceivers already.
func (s *Service) Create(ctx context.Context, account, pasted string, at time.Time) (string, webhook.Secret, error) {
	sec, err := secretOf(pasted)
	if err != nil {
		return "", sec, err
	}
	id := newID()
	err = s.store.CreateReceiver(ctx, store.Receiver{ID: id, Account: account, Secret: s.sealSecret(id, sec), Created: at}, MaxReceivers)
	if errors.Is(err, domain.ErrLimit) {
		err = &domain.LimitError{What: "webhook receivers", Max: MaxReceivers,
			Advice: "Remove one it no longer uses, or give one a new secret, rather than adding another."}
	}
	s.forget(id)
	return id, sec, err
}

// Rotate gives an account's receiver a new signing secret, or the one
// pasted; the old one is accepted for Config.RotationGrace more, while the
// sender is told the new one.
func (s *Service) Rotate(ctx context.Context, account, id, pasted string, at time.Time) (webhook.Secret, error) {
	sec, err := secretOf(pasted)
	if err != nil {
		return sec, err
	}
	err = s.store.RotateReceiver(ctx, account, id, s.sealSecret(id, sec), at, s.cfg.Now().Add(s.cfg.RotationGrace))
	s.forget(id)
	return sec, err
}

// Remove removes an account's receiver: its address answers "unknown".
func (s *Service) Remove(ctx context.Context, account, id string) error {
	err := s.store.RemoveReceiver(ctx, account, id)
	s.forget(id)
	return err
}

func secretOf(pasted string) (webhook.Secret, error) {
	if pasted == "" {
		return webhook.NewSecret(), nil
	}
	sec, err := webhook.ParseSecret(pasted)
	if err != nil {
		return sec, fmt.Errorf("%w: %v", ErrBadSecret, err)
	}
	return sec, nil
}

// newID is a receiver's id: "rcv_" and 128 random bits.
func newID() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return "rcv_" + base64.RawURLEncoding.EncodeToString(b)
}
