package web

import (
	"database/sql"
	"errors"
	"math"
	"sync"
	"time"

	"github.com/alexedwards/scs/v2"
)

// sessionCacheSize is how many sessions the session cache and the codec
// keep in memory; beyond it, any one is dropped and read again when used.
const sessionCacheSize = 4096

// sessionCache keeps the sealed sessions of the sessions table in memory,
// by the token's hash as scs hands it to its store, so that a page does
// not read the table on every request. This process is the table's only
// writer and every write goes through the cache; expired rows, which the
// store's cleanup deletes, are not found in memory either.
type sessionCache struct {
	db    *sql.DB
	store scs.Store // writes, and the cleanup of expired rows
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

func newSessionCache(db *sql.DB, store scs.Store, max int) *sessionCache {
	return &sessionCache{db: db, store: store, max: max, now: time.Now, byID: map[string]cachedSession{}}
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
	// The store's own Find does not say when the row expires; this reads
	// the same row with its expiry, a Julian day.
	var data []byte
	var expiry float64
	err := c.db.QueryRow(`SELECT data, expiry FROM sessions WHERE token = ? AND julianday('now') < expiry`, token).Scan(&data, &expiry)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	c.mu.Lock()
	if c.gen == gen {
		c.keepLocked(token, cachedSession{data: data, expiry: fromJulianDay(expiry)})
	}
	c.mu.Unlock()
	return data, true, nil
}

// Commit writes a session and keeps it.
func (c *sessionCache) Commit(token string, b []byte, expiry time.Time) error {
	c.writing.Lock()
	defer c.writing.Unlock()
	err := c.store.Commit(token, b, expiry)
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
	err := c.store.Delete(token)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	delete(c.byID, token)
	return err
}

func (c *sessionCache) keepLocked(token string, s cachedSession) {
	if _, ok := c.byID[token]; !ok && len(c.byID) >= c.max {
		for k := range c.byID { // any one: the map's order is random
			delete(c.byID, k)
			break
		}
	}
	c.byID[token] = s
}

// fromJulianDay converts a Julian day, as SQLite's julianday() gives it, to
// a time. The store writes expiries to the millisecond, which a float64
// Julian day holds to about 0.05 ms: rounding gives that millisecond back.
func fromJulianDay(jd float64) time.Time {
	const unixEpoch = 2440587.5 // 1970-01-01T00:00:00Z
	return time.UnixMilli(int64(math.Round((jd - unixEpoch) * 86_400_000))).UTC()
}
