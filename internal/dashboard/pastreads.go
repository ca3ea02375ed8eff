package dashboard

import (
	"context"
	"sync"
	"time"

	"washboard/internal/domain"
	"washboard/internal/syncer"
)

// The reads of periods older than the cache covers, kept so that a report
// viewed again, or downloaded as CSV, does not read the service again.
const (
	// PastReadsKeptFor is how long a period's read answers: its report
	// then says how old it is, and a view after it reads again.
	PastReadsKeptFor = 10 * time.Minute
	// PastReadsPerAccount is how many periods of one account are kept;
	// the one viewed least lately goes first.
	PastReadsPerAccount = 3
	// pastReadsKept is how many periods are kept at most, of every
	// account together.
	pastReadsKept = 32
	// pastReadsMaxAlerts is how many alerts the kept reads hold at most
	// together (an account of 10,000 locations has about 70,000 over a
	// period and the lookback on either side): a read larger than that
	// answers its report and is not kept.
	pastReadsMaxAlerts = 250_000
)

// pastKey is a period of an account. The ends are Unix milliseconds, so
// that one period in two time zones is one key.
type pastKey struct {
	account  string
	from, to int64
}

// pastRead is what the service answered for a period, and when.
type pastRead struct {
	alerts []domain.Alert // the caller only reads them
	window syncer.Window
	at     time.Time
}

// pastReads keeps the latest reads of old periods, bounded by account, in
// number and in alerts held; a period asked for while it is read is read
// once. A failed read is not kept.
type pastReads struct {
	mu   sync.Mutex
	m    map[pastKey]*pastEntry
	held int // alerts of the reads done and kept
}

type pastEntry struct {
	done chan struct{} // closed once read and err are set
	read pastRead
	err  error
	used time.Time // when last asked for
}

// get returns the period's read, made by read when none is kept younger
// than PastReadsKeptFor at now. read runs on a context the caller's going
// away does not cancel, since others may wait for it, within
// pastAlertsTimeout.
func (c *pastReads) get(ctx context.Context, key pastKey, now time.Time, read func(context.Context) (pastRead, error)) (pastRead, error) {
	c.mu.Lock()
	if c.m == nil {
		c.m = map[pastKey]*pastEntry{}
	}
	e := c.m[key]
	if e != nil && isDone(e) && !fresh(e.read.at, now) {
		c.dropLocked(key)
		e = nil
	}
	if e == nil {
		e = &pastEntry{done: make(chan struct{}), used: now}
		c.m[key] = e
		c.mu.Unlock()
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), pastAlertsTimeout)
		e.read, e.err = read(rctx)
		cancel()
		c.mu.Lock()
		close(e.done)
		if e.err != nil {
			delete(c.m, key)
		} else {
			c.held += len(e.read.alerts)
			c.evictLocked(key, now)
		}
		c.mu.Unlock()
		return e.read, e.err
	}
	e.used = now
	c.mu.Unlock()
	select {
	case <-e.done:
		return e.read, e.err
	case <-ctx.Done():
		return pastRead{}, ctx.Err()
	}
}

func fresh(at, now time.Time) bool { return !now.Before(at) && now.Sub(at) < PastReadsKeptFor }

func isDone(e *pastEntry) bool {
	select {
	case <-e.done:
		return true
	default:
		return false
	}
}

// dropLocked forgets a read that is done.
func (c *pastReads) dropLocked(key pastKey) {
	if e, ok := c.m[key]; ok {
		c.held -= len(e.read.alerts)
		delete(c.m, key)
	}
}

// evictLocked keeps the reads within their bounds after added was: those
// too old go, then the account's viewed least lately beyond
// PastReadsPerAccount, then anyone's viewed least lately while there are
// more than pastReadsKept or they hold more than pastReadsMaxAlerts
// alerts; added itself last, when it alone holds too many. Reads under
// way are left to finish.
func (c *pastReads) evictLocked(added pastKey, now time.Time) {
	for k, e := range c.m {
		if isDone(e) && !fresh(e.read.at, now) {
			c.dropLocked(k)
		}
	}
	for c.countLocked(added.account) > PastReadsPerAccount {
		c.dropLocked(c.leastUsedLocked(added.account, added))
	}
	for len(c.m) > pastReadsKept || c.held > pastReadsMaxAlerts {
		k := c.leastUsedLocked("", added)
		if k == added {
			if c.held > pastReadsMaxAlerts {
				c.dropLocked(added)
			}
			return
		}
		c.dropLocked(k)
	}
}

// countLocked counts the account's reads done.
func (c *pastReads) countLocked(account string) int {
	n := 0
	for k, e := range c.m {
		if k.account == account && isDone(e) {
			n++
		}
	}
	return n
}

// leastUsedLocked is the read done asked for least lately, of the account
// or of any when account is "", other than except; except when there is
// none.
func (c *pastReads) leastUsedLocked(account string, except pastKey) pastKey {
	oldest := except
	var used time.Time
	for k, e := range c.m {
		if (account != "" && k.account != account) || k == except || !isDone(e) {
			continue
		}
		if oldest == except || e.used.Before(used) {
			oldest, used = k, e.used
		}
	}
	return oldest
}
