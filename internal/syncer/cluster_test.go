package syncer

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"washboard/internal/cluster"
	"washboard/internal/domain"
	"washboard/internal/upstream"
)

// countingSource counts the walks of one replica's source.
type countingSource struct {
	Source
	walks *atomic.Int64
}

func (s countingSource) Layout(ctx context.Context, cred upstream.Credentials, page func(domain.Layout) error) (Fetched, error) {
	s.walks.Add(1)
	return s.Source.Layout(ctx, cred, page)
}

func (s countingSource) Devices(ctx context.Context, cred upstream.Credentials, page func([]domain.Device) error) (Fetched, error) {
	s.walks.Add(1)
	return s.Source.Devices(ctx, cred, page)
}

// replica is one more engine on the env's cache and clock, sharing cl with
// the others, counting its walks.
type replica struct {
	engine *Engine
	walks  *atomic.Int64
	stop   func()
}

func (e *env) replica(t *testing.T, cl Cluster) *replica {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &replica{walks: new(atomic.Int64)}
	r.engine = New(ctx, countingSource{e.src, r.walks}, e.store, e.syncClock, Config{Cluster: cl}, nil)
	r.stop = func() { cancel(); r.engine.Wait() }
	t.Cleanup(r.stop)
	return r
}

// TestOneReplicaSyncsAnAccountAndAnotherTakesOver: two replicas holding
// the same account poll it once between them; the other's subscribers
// hear of its changes; when the polling replica stops, the other takes the
// sync over within two intervals, on the schedule the cache records.
func TestOneReplicaSyncsAnAccountAndAnotherTakesOver(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 50, 4)
	shared := cluster.NewLocal(64)
	t.Cleanup(shared.Close)
	a, b := e.replica(t, shared), e.replica(t, shared)
	heard, stop := b.engine.Subscribe(e.account)
	defer stop()
	far := start.Add(365 * 24 * time.Hour)
	a.engine.Hold("session-a", e.account, e.cred, far)
	e.syncClock.BlockUntil(1) // a's first round done
	b.engine.Hold("session-b", e.account, e.cred, far)
	e.syncClock.BlockUntil(2) // b waits for the lease
	if got := waitFor(t, heard, EventChanged); got.Account != e.account {
		t.Fatalf("b heard %+v", got)
	}
	if b.walks.Load() != 0 {
		t.Fatalf("b walked the service %d times while a holds the sync", b.walks.Load())
	}

	for range leaseRetryShare {
		e.syncClock.Advance(MinInterval / leaseRetryShare)
		e.syncClock.BlockUntil(2)
	}
	walksA := a.walks.Load()
	if walksA < 3 || b.walks.Load() != 0 {
		t.Fatalf("after a round: a walked %d times, b %d; want a alone", walksA, b.walks.Load())
	}

	polledByA := e.status(t, domain.ResourceDevices).LastAttempt
	a.stop() // the replica polling the account goes away
	took := time.Duration(0)
	for b.walks.Load() == 0 && took <= 2*MinInterval {
		e.syncClock.Advance(MinInterval / leaseRetryShare)
		took += MinInterval / leaseRetryShare
		e.syncClock.BlockUntil(1)
	}
	if b.walks.Load() == 0 {
		t.Fatalf("b did not take the sync over within two intervals")
	}
	if a.walks.Load() != walksA {
		t.Errorf("a walked the service after it stopped")
	}
	e.syncClock.BlockUntil(1)
	if gap := e.status(t, domain.ResourceDevices).LastAttempt.Sub(polledByA); gap < MinInterval {
		t.Errorf("b polled the devices %s after a did, within the spec's interval", gap)
	}
}

// TestReplicasHearRejectionsAndLiveEvents: a credential rejected on one
// replica is rejected on the others, and the service's events reaching one
// make every replica say the account's alerts are live.
func TestReplicasHearRejectionsAndLiveEvents(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 50, 4)
	shared := cluster.NewLocal(64)
	t.Cleanup(shared.Close)
	a, b := e.replica(t, shared), e.replica(t, shared)
	heard, stop := b.engine.Subscribe(e.account)
	defer stop()

	bad := upstream.Credentials{APIKey: "key-1", Authorization: "wrong"}
	a.engine.Hold("session-a", e.account, bad, start.Add(time.Hour))
	waitFor(t, heard, EventRejected)
	if why, ok := b.engine.Rejected(CredentialID(bad)); !ok || why != RejectedExpired {
		t.Errorf("b: Rejected = %q, %v; want %q", why, ok, RejectedExpired)
	}

	if b.engine.Live(e.account) {
		t.Fatal("b says the alerts are live before any event")
	}
	if _, err := a.engine.ApplyAlerts(context.Background(), e.account, nil); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !b.engine.Live(e.account) {
		if time.Now().After(deadline) {
			t.Fatal("b does not say the alerts are live 10 s after a received the service's events")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// toldCluster is a cluster whose announcements the test sends, one at a
// time: a send returns once the engine has taken the payload.
type toldCluster struct{ heard chan string }

func (c toldCluster) Acquire(context.Context, string) (interface {
	Lost() <-chan struct{}
	Release()
}, bool, error) {
	return nil, false, nil
}

func (c toldCluster) Publish(context.Context, string, string) error { return nil }

func (c toldCluster) Subscribe(string) (<-chan string, func()) { return c.heard, func() {} }

func (c toldCluster) ReplicasUp(context.Context) (int, error) { return 1, nil }

// TestAGapInAnnouncementsMovesEveryAccountsGeneration: when a replica may
// have missed the others' announcements, what it kept of any account is
// read again, also of an account no page of this replica watches (a row
// of a portfolio).
func TestAGapInAnnouncementsMovesEveryAccountsGeneration(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 10, 1)
	told := toldCluster{heard: make(chan string)}
	ctx, cancel := context.WithCancel(context.Background())
	engine := New(ctx, nil, e.store, e.syncClock, Config{Cluster: told}, nil)
	t.Cleanup(func() { cancel(); engine.Wait() })
	before := engine.Generation("unwatched")
	told.heard <- "" // a gap
	told.heard <- "" // taken once the first was handled
	if after := engine.Generation("unwatched"); after == before {
		t.Errorf("an account watched nowhere here kept its generation %d after a gap in the announcements", after)
	}
}
