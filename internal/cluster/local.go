package cluster

import (
	"context"
	"sync"
)

// Local is the single process's leases and announcements, with the same
// methods and rules as Leases and Broadcaster: a key is leased to one
// holder at a time until it releases it (a lease is never lost
// otherwise), and an announcement reaches every subscriber of its channel
// in the process, at once.
type Local struct {
	hub *hub

	mu     sync.Mutex
	held   map[string]*localLease
	closed bool
}

// NewLocal returns leases and announcements for one process. Subscribers'
// channels hold buffer values (DefaultBuffer when 0).
func NewLocal(buffer int) *Local {
	h := newHub(buffer)
	h.local = true
	return &Local{hub: h, held: map[string]*localLease{}}
}

// Acquire takes the lease named key if nobody holds it. It reports false,
// without an error, when the key is held, by this process or another.
func (l *Local) Acquire(ctx context.Context, key string) (Lease, bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, false, ErrClosed
	}
	if l.held[key] != nil {
		return nil, false, nil
	}
	ls := &localLease{l: l, key: key, lost: make(chan struct{})}
	l.held[key] = ls
	return ls, true, nil
}

// ReplicasUp is 1: a single process is the only replica.
func (l *Local) ReplicasUp(ctx context.Context) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return 0, ErrClosed
	}
	return 1, nil
}

type localLease struct {
	l    *Local
	key  string
	lost chan struct{}
}

func (ls *localLease) Lost() <-chan struct{} { return ls.lost }

func (ls *localLease) Release() {
	ls.l.mu.Lock()
	defer ls.l.mu.Unlock()
	if ls.l.held[ls.key] == ls {
		delete(ls.l.held, ls.key)
		close(ls.lost)
	}
}

// Publish hands payload to every subscriber of channel in the process.
func (l *Local) Publish(ctx context.Context, channel, payload string) error {
	if err := checkAnnouncement(channel, payload); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	l.hub.deliver(channel, payload)
	return nil
}

// Subscribe returns a channel of the payloads published on channel, which
// receives Gap first, and the function that ends the subscription. See the
// package's documentation for when Gap comes. It panics if channel is not
// a valid channel name (see MaxChannel): channels are names in the code.
func (l *Local) Subscribe(channel string) (<-chan string, func()) {
	if err := checkChannel(channel); err != nil {
		panic(err)
	}
	return l.hub.subscribe(channel)
}

// Close releases every lease and ends every subscription.
func (l *Local) Close() {
	l.mu.Lock()
	l.closed = true
	for key, ls := range l.held {
		delete(l.held, key)
		close(ls.lost)
	}
	l.mu.Unlock()
	l.hub.close()
}
