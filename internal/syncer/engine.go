// Package syncer keeps the cache of each account fresh: one loop per
// account, refreshing metadata, devices and alerts from the Device
// Monitoring Service within its polling limits, for as long as someone (a
// signed-in user, a wall screen) holds a valid credential for the account.
package syncer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"sort"
	"sync"
	"time"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/upstream"
)

// The spec's polling limits: devices and alerts no more often than every
// minute, metadata about every hour.
const (
	MinInterval         = time.Minute
	MinMetadataInterval = time.Hour
)

// Config configures the engine. Zero values take the defaults.
type Config struct {
	Interval         time.Duration // devices and alerts; default and minimum 1 minute
	MetadataInterval time.Duration // layout; default and minimum 1 hour
	Lookback         time.Duration // open alerts re-read by creation date; default 30 days
	Overlap          time.Duration // closed alerts re-read before the last success; default 10 minutes
	History          time.Duration // closed alerts kept; default 90 days
	VanishedLookups  int           // cached open alerts looked up one by one per refresh; default 50
	// Workers is how many accounts' rounds run at once; default
	// DefaultWorkers. A round waiting for a worker is late.
	Workers int
	// Observe, if set, is told the outcome of every refresh (for metrics).
	Observe func(res domain.Resource, d time.Duration, c domain.Change, err error)
	// ObserveLag, if set, is told, after each round on the schedule, how
	// long after it was due the round's devices and alerts were written
	// (for metrics): the wait for a worker and the round itself.
	ObserveLag func(account string, lag time.Duration)
	// Changed, if set, is told of every write that changed an account's
	// cache, once it committed: a refresh, the service's events, or a
	// change another replica announced. It must not block.
	Changed func(account string)
	// Cluster, when set, is shared with the deployment's other replicas:
	// an account is synced by the replica holding its lease, and every
	// event reaches every replica's subscribers. Nil for a single process.
	Cluster Cluster
}

func (c Config) withDefaults() Config {
	c.Interval = max(c.Interval, MinInterval)
	c.MetadataInterval = max(c.MetadataInterval, MinMetadataInterval)
	if c.Lookback <= 0 {
		c.Lookback = 30 * 24 * time.Hour
	}
	if c.Overlap <= 0 {
		c.Overlap = 10 * time.Minute
	}
	if c.History <= 0 {
		c.History = 90 * 24 * time.Hour
	}
	if c.VanishedLookups <= 0 {
		c.VanishedLookups = 50
	}
	if c.Workers <= 0 {
		c.Workers = DefaultWorkers
	}
	return c
}

// Engine runs the sync loops.
type Engine struct {
	src   Source
	store Store
	clock clock.Clock
	cfg   Config
	log   *slog.Logger
	ctx   context.Context
	// workers holds a token for each round running: see worker.
	workers chan struct{}

	mu       sync.Mutex
	holders  map[string]*holder   // by holder id
	loops    map[string]*loop     // by account
	phases   map[string]phase     // by account: see claimPhase
	rejected map[string]Rejection // credential id → why
	subs     map[string]map[chan Event]struct{}
	gens     map[string]uint64    // by account: see Generation
	gaps     uint64               // announcements missed, moving every generation
	records  map[string]uint64    // by account: see StatusVersion
	eventsAt map[string]time.Time // by account: when the service's events last arrived
	// liveToldAt is, by account, when the other replicas were last told
	// that the service's events arrive.
	liveToldAt map[string]time.Time
	// leased are the accounts whose lease this replica holds: see share.go.
	leased  map[string]struct{}
	leasing sync.Mutex // held while a loop tries for its lease
	census  census
	wg      sync.WaitGroup
	replica string // tells this engine's announcements from the other replicas'
}

// holder is someone keeping an account's sync running with a credential,
// until a time.
type holder struct {
	account string
	credID  string
	cred    upstream.Credentials
	until   time.Time
}

// New returns an engine whose loops stop when ctx ends.
func New(ctx context.Context, src Source, st Store, clk clock.Clock, cfg Config, log *slog.Logger) *Engine {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cfg = cfg.withDefaults()
	e := &Engine{
		src: src, store: st, clock: clk, cfg: cfg, log: log, ctx: ctx,
		workers:    make(chan struct{}, cfg.Workers),
		holders:    map[string]*holder{},
		loops:      map[string]*loop{},
		phases:     map[string]phase{},
		rejected:   map[string]Rejection{},
		subs:       map[string]map[chan Event]struct{}{},
		gens:       map[string]uint64{},
		records:    map[string]uint64{},
		eventsAt:   map[string]time.Time{},
		replica:    newReplicaID(),
		liveToldAt: map[string]time.Time{},
		leased:     map[string]struct{}{},
	}
	if e.cfg.Cluster != nil {
		heard, stop := e.cfg.Cluster.Subscribe(changesChannel)
		e.wg.Add(1)
		go func() {
			defer e.wg.Done()
			e.hear(heard, stop)
		}()
	}
	return e
}

// Config returns the engine's configuration with its defaults filled in.
func (e *Engine) Config() Config { return e.cfg }

// CredentialID identifies a credential without revealing it: sessions and
// screens holding the same credential get the same id.
func CredentialID(c upstream.Credentials) string {
	v := c.APIKey + "\x00" + c.Authorization
	if c.OAuth() {
		v = "oauth\x00" + c.APIKey + "\x00" + c.ClientID + "\x00" + c.ClientSecret
	}
	h := sha256.Sum256([]byte(v))
	return hex.EncodeToString(h[:12])
}

// Accept forgets that the service rejected a credential, when the caller
// has just verified it again (a new sign-in with it).
func (e *Engine) Accept(cred upstream.Credentials) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.rejected, CredentialID(cred))
}

// Hold keeps the account's sync running with cred on behalf of holder (a
// session, a screen) until the given time; holding again extends it. A
// credential the service rejected is not used until Accept.
func (e *Engine) Hold(holderID, account string, cred upstream.Credentials, until time.Time) {
	id := CredentialID(cred)
	e.mu.Lock()
	// Whether the loop is on its way out is judged with the holder's
	// previous hold: a holder extending a valid hold keeps the loop as it
	// is, on its schedule.
	l := e.loops[account]
	stale := l != nil && l.stoppingLocked()
	e.holders[holderID] = &holder{account: account, credID: id, cred: cred, until: until}
	e.mu.Unlock()
	if stale {
		l.cancel() // the previous loop is on its way out; start afresh
		<-l.done
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.loops[account] == nil && e.ctx.Err() == nil {
		e.startLocked(account)
	}
}

// Release ends a holder's hold. The account's loop stops when nobody is
// left holding a valid credential; the cache stays.
func (e *Engine) Release(holderID string) {
	e.mu.Lock()
	h := e.holders[holderID]
	delete(e.holders, holderID)
	var l *loop
	if h != nil {
		l = e.loops[h.account]
	}
	e.mu.Unlock()
	if l != nil {
		l.wake()
	}
}

// StopAccount ends every hold on the account's sync (sessions', screens',
// a connection's) and waits for its loop to stop: the account is being
// disconnected, and no refresh may write it again. A later Hold starts it
// again.
func (e *Engine) StopAccount(account string) {
	e.mu.Lock()
	for id, h := range e.holders {
		if h.account == account {
			delete(e.holders, id)
		}
	}
	l := e.loops[account]
	e.mu.Unlock()
	if l != nil {
		l.cancel()
		<-l.done
	}
}

// Rejected reports whether the service rejected the credential with this
// id, and why in words.
func (e *Engine) Rejected(credID string) (Rejection, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	r, ok := e.rejected[credID]
	return r, ok
}

// Rejection is why the service rejected a credential.
type Rejection string

// The reasons a credential is rejected.
const (
	// RejectedRevoked: the token endpoint refused the OAuth client (it was
	// revoked, or its id or secret is wrong).
	RejectedRevoked Rejection = "revoked"
	// RejectedExpired: a fixed Authorization value was refused (401): it may
	// have expired.
	RejectedExpired Rejection = "expired"
	// RejectedAPIKey: the API key was refused (403).
	RejectedAPIKey Rejection = "api-key"
	// RejectedOther: the service refused the credential otherwise.
	RejectedOther Rejection = "rejected"
)

// rejectionOf says why err rejected a credential.
func rejectionOf(err error) Rejection {
	switch {
	case errors.Is(err, upstream.ErrClientRevoked):
		return RejectedRevoked
	case errors.Is(err, upstream.ErrForbidden):
		return RejectedAPIKey
	case errors.Is(err, upstream.ErrUnauthorized):
		return RejectedExpired
	}
	return RejectedOther
}

// String says why in words.
func (r Rejection) String() string {
	switch r {
	case RejectedRevoked:
		return "the service's token endpoint refused the OAuth client: it was revoked, or its id or secret is wrong"
	case RejectedExpired:
		return "the Authorization value was refused (401): it may have expired"
	case RejectedAPIKey:
		return "the Device Monitoring Service rejected the API key (403)"
	}
	return "the Device Monitoring Service rejected these credentials"
}

// Running reports whether the account's loop is running.
func (e *Engine) Running(account string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	l := e.loops[account]
	return l != nil && !l.stoppingLocked()
}

// Progress returns the progress of the account's sync.
func (e *Engine) Progress(account string) Progress {
	e.mu.Lock()
	l := e.loops[account]
	e.mu.Unlock()
	if l == nil {
		return Progress{}
	}
	return l.snapshot()
}

// Wait waits for every loop to end, after the engine's context ended.
func (e *Engine) Wait() { e.wg.Wait() }

func (e *Engine) startLocked(account string) {
	ctx, cancel := context.WithCancel(e.ctx)
	l := &loop{e: e, account: account, cancel: cancel, done: make(chan struct{}), wakeup: make(chan struct{}, 1)}
	e.loops[account] = l
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		defer close(l.done)
		l.run(ctx)
		e.mu.Lock()
		if e.loops[account] == l {
			delete(e.loops, account)
		}
		e.mu.Unlock()
		cancel()
	}()
}

// credential picks the credential the account's loop should use: the one
// in use if it is still held and valid, else the valid one held longest
// into the future.
func (e *Engine) credential(account, current string) (string, upstream.Credentials, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	now := e.clock.Now()
	var valid []*holder
	for id, h := range e.holders {
		if !h.until.After(now) {
			delete(e.holders, id) // expired
			continue
		}
		if h.account != account {
			continue
		}
		if _, bad := e.rejected[h.credID]; bad {
			continue
		}
		if h.credID == current {
			return h.credID, h.cred, true
		}
		valid = append(valid, h)
	}
	if len(valid) == 0 {
		return "", upstream.Credentials{}, false
	}
	sort.Slice(valid, func(i, j int) bool {
		if !valid[i].until.Equal(valid[j].until) {
			return valid[i].until.After(valid[j].until)
		}
		return valid[i].credID < valid[j].credID
	})
	return valid[0].credID, valid[0].cred, true
}

// reject stops the use of a credential the service refused, and tells
// everyone watching the account.
func (e *Engine) reject(account, credID string, err error) {
	r := rejectionOf(err)
	e.mu.Lock()
	e.rejected[credID] = r
	e.mu.Unlock()
	e.log.Warn("credential rejected", "account", account, "credential", credID, "reason", r.String())
	e.announce(Event{Account: account, Kind: EventRejected, CredentialID: credID, Message: r.String(), At: e.clock.Now()}, r, false)
}

// Progress is how far an account's sync has come, for a progress bar on
// the first load.
type Progress struct {
	Running       bool
	FirstSyncDone bool
	Phase         string // the resource being fetched
	Pages         int    // pages fetched since the loop started
	Locations     int    // device locations of the account's layout, once it is known
	Devices       int    // devices received in the current or last devices refresh
	Alerts        int    // alerts received in the current or last alerts refresh
	Failure       string // why the last failed refresh failed, in words; "" once that resource refreshes again
	failed        domain.Resource
}

// ErrNoCredential says that nobody holds a valid credential for the
// account any more.
var ErrNoCredential = errors.New("no valid credential is held for the account")
