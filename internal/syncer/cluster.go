package syncer

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"time"

	"washboard/internal/domain"
)

// Cluster is what the replicas of one deployment share: leases, so that
// exactly one replica syncs each account at a time, and announcements, so
// that a change one replica writes reaches every replica's subscribers.
// internal/cluster implements it over PostgreSQL (advisory locks and
// LISTEN/NOTIFY); without one, the engine is the only one and needs
// neither.
type Cluster interface {
	// Acquire takes the lease named key if no replica holds it; false when
	// one does.
	Acquire(ctx context.Context, key string) (interface {
		Lost() <-chan struct{}
		Release()
	}, bool, error)
	// ReplicasUp counts the replicas up, this one's included: those
	// among which the accounts' leases are shared.
	ReplicasUp(ctx context.Context) (int, error)
	// Publish sends payload to every replica's subscribers of channel,
	// this one's included.
	Publish(ctx context.Context, channel, payload string) error
	// Subscribe receives the channel's payloads; "" in place of one says
	// that some may have been missed.
	Subscribe(channel string) (<-chan string, func())
}

// changesChannel is the channel of the accounts' events between replicas.
const changesChannel = "washboard_changes"

// leaseRetry is how often a replica whose account another replica syncs
// tries to take the sync over, as a share of the interval: the holder's
// death is noticed within a quarter of an interval.
const leaseRetryShare = 4

// announcement is an event as the replicas tell each other of it.
type announcement struct {
	Replica    string          `json:"r"`
	Account    string          `json:"a"`
	Kind       EventKind       `json:"k"`
	Resource   domain.Resource `json:"res,omitempty"`
	Change     domain.Change   `json:"c,omitzero"`
	Credential string          `json:"cr,omitempty"`
	Rejection  Rejection       `json:"why,omitempty"`
	Message    string          `json:"m,omitempty"`
	At         time.Time       `json:"at"`
	// Live says that the service's events reached the account; with no
	// Kind, it is all the announcement says.
	Live bool `json:"live,omitempty"`
}

func newReplicaID() string {
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return hex.EncodeToString(b)
}

// announce tells the account's subscribers of an event, here and, with a
// cluster, on every other replica. It is the one way an event leaves the
// engine.
func (e *Engine) announce(ev Event, why Rejection, live bool) {
	e.publish(ev)
	if e.cfg.Cluster == nil || ev.Kind == EventStopped {
		return // a loop stopping here says nothing of the others'
	}
	msg := ev.Message
	if len(msg) > 1000 {
		msg = msg[:1000]
	}
	if live {
		e.mu.Lock()
		e.liveToldAt[ev.Account] = ev.At
		e.mu.Unlock()
	}
	b, err := json.Marshal(announcement{Replica: e.replica, Account: ev.Account, Kind: ev.Kind, Resource: ev.Resource, Change: ev.Change,
		Credential: ev.CredentialID, Rejection: why, Message: msg, At: ev.At, Live: live})
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(e.ctx), 5*time.Second)
	defer cancel()
	if err := e.cfg.Cluster.Publish(ctx, changesChannel, string(b)); err != nil {
		e.log.Warn("announcing a change to the other replicas", "account", ev.Account, "error", err.Error())
	}
}

// liveEvery is how often, at most, the other replicas are told that the
// service's events arrive for an account when they change nothing.
const liveEvery = 10 * time.Second

// announceLive tells the other replicas that the service's events reach
// the account, without a change to announce: they then poll its alerts
// less often, and say the alerts are live.
func (e *Engine) announceLive(account string, now time.Time) {
	if e.cfg.Cluster == nil {
		return
	}
	e.mu.Lock()
	if now.Sub(e.liveToldAt[account]) < liveEvery {
		e.mu.Unlock()
		return
	}
	e.liveToldAt[account] = now
	e.mu.Unlock()
	b, err := json.Marshal(announcement{Replica: e.replica, Account: account, At: now, Live: true})
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(e.ctx), 5*time.Second)
	defer cancel()
	if err := e.cfg.Cluster.Publish(ctx, changesChannel, string(b)); err != nil {
		e.log.Warn("announcing live events to the other replicas", "account", account, "error", err.Error())
	}
}

// hear passes the other replicas' announcements on to this one's
// subscribers, until the engine's context ends.
func (e *Engine) hear(heard <-chan string, stop func()) {
	defer stop()
	for {
		select {
		case <-e.ctx.Done():
			return
		case payload, ok := <-heard:
			if !ok {
				return
			}
			if payload == "" {
				e.heardGap()
				continue
			}
			var a announcement
			if err := json.Unmarshal([]byte(payload), &a); err != nil || a.Replica == e.replica || a.Account == "" {
				continue
			}
			e.heard(a)
		}
	}
}

func (e *Engine) heard(a announcement) {
	now := e.clock.Now()
	e.mu.Lock()
	if a.Kind != "" {
		e.records[a.Account]++
	}
	if a.Live {
		e.eventsAt[a.Account] = now
	}
	if a.Kind == EventRejected && a.Credential != "" {
		e.rejected[a.Credential] = a.Rejection
	}
	e.mu.Unlock()
	switch a.Kind {
	case "":
		return // only that events arrive
	case EventChanged:
		e.changed(a.Account)
	}
	e.publish(Event{Account: a.Account, Kind: a.Kind, Resource: a.Resource, Change: a.Change, CredentialID: a.Credential, Message: a.Message, At: a.At})
}

// heardGap: some announcements may have been missed. Every account's
// generation moves, watched here or not, so that what was kept of any
// account (a page, a portfolio's row) is read again; every account
// watched here is told its data changed, so that pages and screens ask
// again.
func (e *Engine) heardGap() {
	e.mu.Lock()
	e.gaps++
	accounts := make([]string, 0, len(e.subs))
	for account, subs := range e.subs {
		if len(subs) > 0 {
			accounts = append(accounts, account)
		}
	}
	e.mu.Unlock()
	now := e.clock.Now()
	for _, account := range accounts {
		e.changed(account)
		e.recorded(account)
		e.publish(Event{Account: account, Kind: EventChanged, At: now})
	}
}
