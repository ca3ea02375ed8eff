package syncer

import (
	"time"
	"washboard/internal/domain"
)

// EventKind is what an event reports.
type EventKind string

// The kinds of events.
const (
	EventChanged  EventKind = "changed"  // a refresh changed the cache
	EventFailed   EventKind = "failed"   // a refresh failed; the cache keeps its last good data
	EventRejected EventKind = "rejected" // the service rejected a credential
	EventStopped  EventKind = "stopped"  // the loop stopped: no valid credential is held
)

// Event is published to the account's subscribers.
type Event struct {
	Account      string
	Kind         EventKind
	Resource     domain.Resource
	Change       domain.Change
	CredentialID string // of EventRejected
	Message      string // in words, for EventFailed, EventRejected and EventStopped
	At           time.Time
}

// Subscribe returns a channel of the account's events and a function that
// ends the subscription. A subscriber that does not keep up misses events
// rather than slowing the sync.
func (e *Engine) Subscribe(account string) (<-chan Event, func()) {
	ch := make(chan Event, 32)
	e.mu.Lock()
	if e.subs[account] == nil {
		e.subs[account] = map[chan Event]struct{}{}
	}
	e.subs[account][ch] = struct{}{}
	e.mu.Unlock()
	return ch, func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		if _, ok := e.subs[account][ch]; ok {
			delete(e.subs[account], ch)
			close(ch)
		}
	}
}

func (e *Engine) publish(ev Event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for ch := range e.subs[ev.Account] {
		select {
		case ch <- ev:
		default:
		}
	}
}

// Generation counts the refreshes that changed the account's cache. It
// moves as soon as such a refresh has committed, before the refresh is
// recorded and its EventChanged published, so that whatever was read from
// the cache under an earlier generation can be told apart from what a read
// now would return. It also moves, for every account, when announcements
// of the other replicas may have been missed. It starts at zero with the
// engine.
func (e *Engine) Generation(account string) uint64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.gens[account] + e.gaps
}

// StatusVersion counts the moments the account's sync states
// (store.SyncStatus) may have changed as far as this engine knows: a
// refresh it recorded, or another replica's announcement it heard. Another
// replica's refresh that changed nothing is not announced: a reader that
// keeps states must keep them briefly.
func (e *Engine) StatusVersion(account string) uint64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.records[account]
}

// recorded moves the account's status version on.
func (e *Engine) recorded(account string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.records[account]++
}

// changed moves the account's generation on: a refresh changed its cache.
func (e *Engine) changed(account string) {
	e.mu.Lock()
	e.gens[account]++
	e.mu.Unlock()
	if e.cfg.Changed != nil {
		e.cfg.Changed(account)
	}
}
