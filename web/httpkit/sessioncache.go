package httpkit

import (
	"context"
	"crypto/rand"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// SessionStore keeps sessions' sealed data by their token's hash; the
// cache's store implements it once per engine.
type SessionStore interface {
	FindSession(ctx context.Context, token string) (data []byte, expiry time.Time, found bool, err error)
	CommitSession(ctx context.Context, token string, data []byte, expiry time.Time) error
	DeleteSession(ctx context.Context, token string) error
}

// SessionReadError is the store failing to read a session, as opposed to
// a session that does not open.
type SessionReadError struct{ err error }

func (e SessionReadError) Error() string { return "reading the session: " + e.err.Error() }
func (e SessionReadError) Unwrap() error { return e.err }

// SessionsKept is how many sessions a session cache (and what opens
// them) keeps in memory; beyond it, any one is dropped and read again
// when used.
const SessionsKept = 4096

// SessionCache keeps the sealed sessions of the store in memory, by the
// token's hash as scs hands it to its store, so that a page does not read
// the store on every request. It is scs's store: every write goes through
// it. With one server it is the store's only writer.
//
// Replicas sharing a store tell each other what they wrote
// (SessionAnnouncements):
// a session another replica signed out or renewed must end here at once.
// Each write is announced with the token's hash, and every replica drops
// what it kept of that session; a replica that may have missed
// announcements (its listening connection broke) drops everything, and
// keeps nothing until it listens. Even so, a kept session is read again
// after sharedSessionKept, so that a replica cut off from the
// announcements without knowing it yet serves a signed-out session for at
// most that long. Without announcements, replicas sharing a store keep
// nothing (a size of 0): every request reads the store.
type SessionCache struct {
	store SessionStore
	max   int
	now   func() time.Time

	// With other replicas: the announcements, and this cache's own name
	// among them.
	announcements SessionAnnouncements
	self          string

	writing sync.Mutex // a write and its change to memory, one at a time, so both see writes in the same order

	reads singleflight.Group // one read of a session at a time, by token and generation

	// heard, when set, is told the token of each session another replica
	// wrote, deleted or renewed (see Watch).
	heard func(token string)

	mu        sync.Mutex
	gen       uint64 // moves with every write: a read that a write overtook is not kept
	byID      map[string]cachedSession
	listening bool // with announcements: they are heard, and sessions may be kept
}

type cachedSession struct {
	data   []byte
	expiry time.Time
	read   time.Time // with announcements: when it was read or written
}

// SessionAnnouncements carries the announcements of sessions written between
// replicas sharing a session store: the cluster's Replicas implement it.
// Subscribe's channel receives "" when announcements may have been missed,
// first of all once they are listened to.
type SessionAnnouncements interface {
	Publish(ctx context.Context, channel, payload string) error
	Subscribe(channel string) (<-chan string, func())
}

// sessionsChannel is the channel of the sessions' announcements; a payload
// is the writer's name, a space and the session's token hash.
const sessionsChannel = "washboard_sessions"

// sharedSessionKept is how long a replica keeps a session it read, at
// most, when replicas share the store.
const sharedSessionKept = 10 * time.Second

// NewSessionCache is the session cache of a server alone with its store:
// it keeps up to max sessions.
func NewSessionCache(st SessionStore, max int) *SessionCache {
	return &SessionCache{store: st, max: max, now: time.Now, byID: map[string]cachedSession{}}
}

// NewSharedSessionCache is a session cache among replicas: it keeps
// sessions while it hears the others' announcements.
func NewSharedSessionCache(st SessionStore, max int, announcements SessionAnnouncements) *SessionCache {
	c := NewSessionCache(st, max)
	c.announcements, c.self = announcements, rand.Text()
	heard, _ := announcements.Subscribe(sessionsChannel)
	go c.hear(heard)
	return c
}

// hear drops the sessions the other replicas wrote, until the
// announcements end.
func (c *SessionCache) hear(heard <-chan string) {
	for payload := range heard {
		tell := ""
		c.mu.Lock()
		c.gen++
		if payload == "" {
			clear(c.byID)
			c.listening = true
		} else if writer, token, ok := strings.Cut(payload, " "); ok && writer != c.self {
			delete(c.byID, token)
			tell = token
		}
		f := c.heard
		c.mu.Unlock()
		if f != nil && tell != "" {
			f(tell)
		}
	}
	c.mu.Lock()
	clear(c.byID)
	c.listening = false
	c.mu.Unlock()
}

// Watch has f told the token of each session another replica writes,
// deletes or renews, as it hears of it: a session that ends there may
// have streams open here. f must not block.
func (c *SessionCache) Watch(f func(token string)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.heard = f
}

// announce tells the other replicas that the session was written.
func (c *SessionCache) announce(token string) {
	if c.announcements == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// A failure is bounded: the others read the session again within
	// sharedSessionKept.
	_ = c.announcements.Publish(ctx, sessionsChannel, c.self+" "+token)
}

// Find returns a session's sealed data, if it exists and has not expired.
func (c *SessionCache) Find(token string) ([]byte, bool, error) {
	now := c.now()
	f, gen, ok := c.kept(token, now)
	if ok {
		return f.data, f.found, nil
	}
	// The requests of one session that find it not kept at once (a page
	// and its fragments, as a kept session's time runs out) wait for one
	// read; one that found it not kept just before a read ended finds it
	// kept now; a request after a write of it does not wait for a read
	// the write overtook.
	v, err, _ := c.reads.Do(token+"\x00"+strconv.FormatUint(gen, 10), func() (any, error) {
		if f, _, ok := c.kept(token, now); ok {
			return f, nil
		}
		data, expiry, found, err := c.store.FindSession(context.Background(), token)
		if err != nil || !found {
			return foundSession{}, err
		}
		c.mu.Lock()
		if c.gen == gen {
			c.keepLocked(token, cachedSession{data: data, expiry: expiry, read: now})
		}
		c.mu.Unlock()
		return foundSession{data, true}, nil
	})
	if err != nil {
		return nil, false, SessionReadError{err}
	}
	f = v.(foundSession)
	return f.data, f.found, nil
}

// kept is what memory holds of a session at now, if it may answer, and
// the generation of writes it was looked up at.
func (c *SessionCache) kept(token string, now time.Time) (f foundSession, gen uint64, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, found := c.byID[token]
	if !found || (c.announcements != nil && now.Sub(e.read) >= sharedSessionKept) {
		return foundSession{}, c.gen, false
	}
	if !now.Before(e.expiry) {
		return foundSession{}, c.gen, true // expired: as good as not found
	}
	return foundSession{e.data, true}, c.gen, true
}

// foundSession is what a read of a session found.
type foundSession struct {
	data  []byte
	found bool
}

// Commit writes a session and keeps it.
func (c *SessionCache) Commit(token string, b []byte, expiry time.Time) error {
	return c.write(token, func(ctx context.Context) error { return c.store.CommitSession(ctx, token, b, expiry) },
		&cachedSession{data: b, expiry: expiry})
}

// Delete deletes a session: signed out, or its token renewed.
func (c *SessionCache) Delete(token string) error {
	return c.write(token, func(ctx context.Context) error { return c.store.DeleteSession(ctx, token) }, nil)
}

// write writes a session to the store, announces the write, and drops
// what memory held of the session, keeping kept (if any) once written.
func (c *SessionCache) write(token string, write func(context.Context) error, kept *cachedSession) error {
	c.writing.Lock()
	defer c.writing.Unlock()
	err := write(context.Background())
	if err == nil {
		c.announce(token)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	delete(c.byID, token)
	if err == nil && kept != nil {
		kept.read = c.now()
		c.keepLocked(token, *kept)
	}
	return err
}

func (c *SessionCache) keepLocked(token string, s cachedSession) {
	if c.max <= 0 || (c.announcements != nil && !c.listening) {
		return // nothing kept: the store is shared, and the others' writes unheard
	}
	if _, ok := c.byID[token]; !ok && len(c.byID) >= c.max {
		for k := range c.byID { // any one: the map's order is random
			delete(c.byID, k)
			break
		}
	}
	c.byID[token] = s
}
