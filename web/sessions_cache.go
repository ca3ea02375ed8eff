package web

import (
	"context"
	"sync"
	"time"
)

// SessionStore keeps sessions' sealed data by their token's hash; the
// cache's store implements it once per engine.
type SessionStore interface {
	FindSession(ctx context.Context, token string) (data []byte, expiry time.Time, found bool, err error)
	CommitSession(ctx context.Context, token string, data []byte, expiry time.Time) error
	DeleteSession(ctx context.Context, token string) error
}

// sessionStoreError is the store failing to read a session, as opposed to
// a session that does not open.
type sessionStoreError struct{ err error }

func (e sessionStoreError) Error() string { return "reading the session: " + e.err.Error() }
func (e sessionStoreError) Unwrap() error { return e.err }

// sessionCacheSize is how many sessions the session cache and the codec
// keep in memory; beyond it, any one is dropped and read again when used.
const sessionCacheSize = 4096

// sessionCache keeps the sealed sessions of the store in memory, by the
// token's hash as scs hands it to its store, so that a page does not read
// the store on every request. It is scs's store: every write goes through
// it. With one server it is the store's only writer. Replicas sharing a
// store keep nothing (a size of 0): a session another replica signed out
// or renewed must end here at once, so every request reads the store (see
// the README, "Running several replicas").
type sessionCache struct {
	store SessionStore
	max   int
	now   func() time.Time

	writing sync.Mutex // a write and its change to memory, one at a time, so both see writes in the same order

	mu   sync.Mutex
	gen  uint64 // moves with every write: a read that a write overtook is not kept
	byID map[string]cachedSession
}

type cachedSession struct {
	data   []byte
	expiry time.Time
}

func newSessionCache(st SessionStore, max int) *sessionCache {
	return &sessionCache{store: st, max: max, now: time.Now, byID: map[string]cachedSession{}}
}

// Find returns a session's sealed data, if it exists and has not expired.
func (c *sessionCache) Find(token string) ([]byte, bool, error) {
	c.mu.Lock()
	e, ok := c.byID[token]
	gen := c.gen
	c.mu.Unlock()
	if ok {
		if !c.now().Before(e.expiry) {
			return nil, false, nil
		}
		return e.data, true, nil
	}
	data, expiry, found, err := c.store.FindSession(context.Background(), token)
	if err != nil {
		return nil, false, sessionStoreError{err}
	}
	if !found {
		return nil, false, nil
	}
	c.mu.Lock()
	if c.gen == gen {
		c.keepLocked(token, cachedSession{data: data, expiry: expiry})
	}
	c.mu.Unlock()
	return data, true, nil
}

// Commit writes a session and keeps it.
func (c *sessionCache) Commit(token string, b []byte, expiry time.Time) error {
	c.writing.Lock()
	defer c.writing.Unlock()
	err := c.store.CommitSession(context.Background(), token, b, expiry)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	delete(c.byID, token)
	if err == nil {
		c.keepLocked(token, cachedSession{data: b, expiry: expiry})
	}
	return err
}

// Delete deletes a session: signed out, or its token renewed.
func (c *sessionCache) Delete(token string) error {
	c.writing.Lock()
	defer c.writing.Unlock()
	err := c.store.DeleteSession(context.Background(), token)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	delete(c.byID, token)
	return err
}

func (c *sessionCache) keepLocked(token string, s cachedSession) {
	if c.max <= 0 {
		return // nothing kept: the store is shared with other replicas
	}
	if _, ok := c.byID[token]; !ok && len(c.byID) >= c.max {
		for k := range c.byID { // any one: the map's order is random
			delete(c.byID, k)
			break
		}
	}
	c.byID[token] = s
}
