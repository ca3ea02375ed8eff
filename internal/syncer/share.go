package syncer

import (
	"context"
	"sync"
	"time"
)

// How the replicas share the accounts' syncs.
//
// Every replica has a loop for every connected account, and a loop syncs
// only while it holds its account's lease. Leases alone are first come,
// first served: the first replica of a deployment would take them all and
// keep them. So each replica takes at most its share of them,
//
//	share = ceil(accounts ÷ replicas up) + shareSlack
//
// where accounts are those it has a loop for and the replicas up are
// those whose leases connection is alive (Cluster.ReplicasUp, counted at
// most every quarter interval). A replica holding more than its share,
// because another joined, gives a lease back after that account's round,
// and does not try for it again for an interval: the newcomer, below its
// share and trying every quarter interval, takes it, and carries on the
// account's schedule. When a replica dies, the count falls, the others'
// shares grow, and they take its accounts at their next try.
//
// A replica within its share gives nothing back, so the balance, once
// reached, holds: 30 accounts on three replicas stay as they fell (11, 10
// and 9, say; the slack leaves room for such a fall without a move). One
// replica alone has a share above the accounts it has: it holds them all.
const shareSlack = 1

// fairShare is the most leases a replica takes of accounts shared by
// replicas.
func fairShare(accounts, replicas int) int {
	replicas = max(replicas, 1)
	return (accounts+replicas-1)/replicas + shareSlack
}

// census is the count of the replicas up, as last read.
type census struct {
	mu sync.Mutex
	n  int // 0 before the first count
	at time.Time
}

// replicasUp is how many replicas are up, read again when the last count
// is a quarter interval old. While it cannot be read, it is the last
// count, or 1.
func (e *Engine) replicasUp(ctx context.Context) int {
	c := &e.census
	c.mu.Lock()
	defer c.mu.Unlock()
	now := e.clock.Now()
	if c.n > 0 && now.Sub(c.at) < e.cfg.Interval/leaseRetryShare {
		return c.n
	}
	n, err := e.cfg.Cluster.ReplicasUp(ctx)
	if err != nil || n < 1 {
		if err != nil && ctx.Err() == nil {
			e.log.Warn("counting the replicas up", "error", err.Error())
		}
		return max(c.n, 1)
	}
	c.n, c.at = n, now
	return n
}

// takeLease tries for l's lease while the replica holds less than its
// share, and unless l gave it back less than an interval ago: false
// otherwise, or when another replica holds it. One loop tries at a time,
// so that the count it checks is of the leases held, not of tries under
// way (the tries go through one connection anyway). leaseEnded takes the
// lease out of the count.
func (e *Engine) takeLease(ctx context.Context, l *loop) (interface {
	Lost() <-chan struct{}
	Release()
}, bool, error) {
	if e.clock.Now().Before(l.retakeAt) {
		return nil, false, nil
	}
	e.leasing.Lock()
	defer e.leasing.Unlock()
	up := e.replicasUp(ctx)
	e.mu.Lock()
	full := len(e.leased) >= fairShare(len(e.loops), up)
	e.mu.Unlock()
	if full {
		return nil, false, nil
	}
	lease, ok, err := e.cfg.Cluster.Acquire(ctx, "sync "+l.account)
	if err == nil && ok {
		e.mu.Lock()
		e.leased[l.account] = struct{}{}
		e.mu.Unlock()
	}
	return lease, ok, err
}

// leaseEnded takes the account's lease out of the replica's share.
func (e *Engine) leaseEnded(account string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.leased, account)
}

// giveBack reports whether l, after a round, should give its lease back:
// the replica holds more than its share. l then does not try for it again
// for an interval.
func (e *Engine) giveBack(ctx context.Context, l *loop) bool {
	up := e.replicasUp(ctx)
	e.mu.Lock()
	held, share := len(e.leased), fairShare(len(e.loops), up)
	over := held > share
	if over {
		delete(e.leased, l.account)
	}
	e.mu.Unlock()
	if !over {
		return false
	}
	l.retakeAt = e.clock.Now().Add(e.cfg.Interval)
	e.log.Info("giving an account's sync to another replica: this one holds more than its share",
		"account", l.account, "held", held, "share", share, "replicas", up)
	return true
}

// Syncing is how many accounts this replica syncs now: with a cluster,
// those whose lease it holds; alone, every account it keeps fresh.
func (e *Engine) Syncing() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.cfg.Cluster != nil {
		return len(e.leased)
	}
	return len(e.loops)
}
