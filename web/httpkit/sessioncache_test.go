package httpkit

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"washboard/internal/cluster"
	"washboard/internal/store"
	"washboard/internal/store/sqlite"
)

func sessionTestStore(t *testing.T) store.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "washboard.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// found is the session a cache finds for a token; "(none)" for none.
func found(t *testing.T, c *SessionCache, token string) string {
	t.Helper()
	b, ok, err := c.Find(token)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		return "(none)"
	}
	return string(b)
}

func TestSessionCacheFollowsTheTable(t *testing.T) {
	t.Parallel()
	st := sessionTestStore(t)
	now := time.Now()
	c := NewSessionCache(st, 2)
	c.now = func() time.Time { return now }
	find := func(c *SessionCache, token string) string { t.Helper(); return found(t, c, token) }

	expiry := now.Add(time.Hour)
	if err := c.Commit("t1", []byte("one"), expiry); err != nil {
		t.Fatal(err)
	}
	if got := find(c, "t1"); got != "one" {
		t.Fatalf("after commit: %s", got)
	}
	if err := c.Commit("t1", []byte("one, touched"), expiry); err != nil {
		t.Fatal(err)
	}
	if got := find(c, "t1"); got != "one, touched" {
		t.Errorf("after a second commit: %s", got)
	}

	// A cache over the same table, as after a restart, reads the row and
	// when it expires.
	restarted := NewSessionCache(st, 2)
	restarted.now = func() time.Time { return now }
	if got := find(restarted, "t1"); got != "one, touched" {
		t.Fatalf("after a restart: %s", got)
	}
	if e := restarted.byID["t1"].expiry; e.Sub(expiry).Abs() > time.Millisecond {
		t.Errorf("the expiry read back is %s, want %s", e, expiry)
	}
	for _, c := range []*SessionCache{c, restarted} {
		now = expiry
		if got := find(c, "t1"); got != "(none)" {
			t.Errorf("at its expiry the session is still found: %s", got)
		}
		now = expiry.Add(-time.Hour)
	}

	if err := c.Delete("t1"); err != nil {
		t.Fatal(err)
	}
	if got := find(c, "t1"); got != "(none)" {
		t.Errorf("after delete: %s", got)
	}
	if got := find(NewSessionCache(st, 2), "t1"); got != "(none)" {
		t.Errorf("after delete, the table still has the session: %s", got)
	}

	for i := range 5 {
		if err := c.Commit(fmt.Sprint("k", i), []byte(fmt.Sprint("v", i)), expiry); err != nil {
			t.Fatal(err)
		}
	}
	if len(c.byID) > 2 {
		t.Errorf("%d sessions in memory, want at most 2", len(c.byID))
	}
	for i := range 5 {
		if got := find(c, fmt.Sprint("k", i)); got != fmt.Sprint("v", i) {
			t.Errorf("k%d: %s beyond the memory's size", i, got)
		}
	}
}

// TestSessionCacheAgreesWithTheTableUnderLoad: reads, writes and deletes
// of the same sessions at once leave memory as the table is.
func TestSessionCacheAgreesWithTheTableUnderLoad(t *testing.T) {
	t.Parallel()
	st := sessionTestStore(t)
	c := NewSessionCache(st, 16)
	expiry := time.Now().Add(time.Hour)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 60 {
				token := fmt.Sprint("t", i%6)
				var err error
				switch (i + w) % 3 {
				case 0:
					err = c.Commit(token, []byte(fmt.Sprint(w, "-", i)), expiry)
				case 1:
					err = c.Delete(token)
				default:
					_, _, err = c.Find(token)
				}
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	fresh := NewSessionCache(st, 16)
	for i := range 6 {
		token := fmt.Sprint("t", i)
		inMemory, found1, _ := c.Find(token)
		inTable, found2, _ := fresh.Find(token)
		if found1 != found2 || !bytes.Equal(inMemory, inTable) {
			t.Errorf("%s: memory has %q (%v), the table %q (%v)", token, inMemory, found1, inTable, found2)
		}
	}
}

// heldSessions answers FindSession from its store, counting the reads;
// each read waits until the test lets it go.
type heldSessions struct {
	SessionStore
	reads atomic.Int32
	began chan struct{}
	held  chan struct{}
}

func (h *heldSessions) FindSession(ctx context.Context, token string) ([]byte, time.Time, bool, error) {
	h.reads.Add(1)
	h.began <- struct{}{}
	<-h.held
	return h.SessionStore.FindSession(ctx, token)
}

// A page and its fragments come with one session at once. When the
// session is not in memory (the server just started, or it was read too
// long ago), they wait for one read of the store, not one each.
func TestRequestsOfASessionAtOnceReadItOnce(t *testing.T) {
	st := sessionTestStore(t)
	if err := st.CommitSession(context.Background(), "t1", []byte("one"), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	held := &heldSessions{SessionStore: st, began: make(chan struct{}, 16), held: make(chan struct{})}
	c := NewSessionCache(held, 16)

	const requests = 8
	started := make(chan struct{}, requests)
	var wg sync.WaitGroup
	for range requests {
		wg.Go(func() {
			started <- struct{}{}
			b, found, err := c.Find("t1")
			if err != nil || !found || string(b) != "one" {
				t.Errorf("Find: %q, %v, %v; want the session", b, found, err)
			}
		})
	}
	for range requests {
		<-started
	}
	<-held.began
	// Give the others a chance to read too, as they would each on their
	// own. A request that comes after the read finds the session kept, so
	// letting the read go early cannot pass for one read shared.
	for i := 0; i < 10_000 && held.reads.Load() < requests; i++ {
		runtime.Gosched()
	}
	close(held.held)
	wg.Wait()
	if n := held.reads.Load(); n != 1 {
		t.Errorf("%d requests of one session at once read it %d times; want once", requests, n)
	}
}

// countedReads counts the reads of a session store.
type countedReads struct {
	SessionStore
	n atomic.Int64
}

func (c *countedReads) FindSession(ctx context.Context, token string) ([]byte, time.Time, bool, error) {
	c.n.Add(1)
	return c.SessionStore.FindSession(ctx, token)
}

func (c *countedReads) reads() int { return int(c.n.Load()) }

// silence is announcements never heard: no subscriber is told that
// they are listened to.
type silence struct{}

func (silence) Publish(context.Context, string, string) error { return nil }
func (silence) Subscribe(string) (<-chan string, func())      { return make(chan string), func() {} }

// TestSharedSessionCachesHearEachOther runs two replicas' session caches
// on one store: each keeps the sessions it read while it hears the
// other's writes, drops a session the other signed out or rewrote as soon
// as it hears of it, reads a kept session again after sharedSessionKept,
// and keeps nothing while it does not hear the others.
func TestSharedSessionCachesHearEachOther(t *testing.T) {
	t.Parallel()
	st := &countedReads{SessionStore: sessionTestStore(t)}
	local := cluster.NewLocal(0)
	t.Cleanup(local.Close)
	one := NewSharedSessionCache(st, 16, local)
	two := NewSharedSessionCache(st, 16, local)
	now := time.Now()
	two.now = func() time.Time { return now }
	expiry := now.Add(time.Hour)
	find := func(token string) string { t.Helper(); return found(t, two, token) }
	// waitFor polls the second replica until it finds want, for a second.
	waitFor := func(token, want string) {
		t.Helper()
		for deadline := time.Now().Add(time.Second); ; time.Sleep(time.Millisecond) {
			got := find(token)
			if got == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the second replica finds %q for %s a second after the first wrote it; want %q", got, token, want)
			}
		}
	}

	if err := one.Commit("t1", []byte("signed in"), expiry); err != nil {
		t.Fatal(err)
	}
	waitFor("t1", "signed in")
	// The first write's announcement may reach the second replica after
	// its first read: then it reads once more, and keeps the session.
	for deadline := time.Now().Add(time.Second); ; {
		reads := st.reads()
		find("t1")
		if st.reads() == reads {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the second replica keeps reading the store for a session it read")
		}
		time.Sleep(time.Millisecond)
	}
	reads := st.reads()
	for range 5 {
		if got := find("t1"); got != "signed in" {
			t.Fatalf("the second replica finds %q", got)
		}
	}
	if n := st.reads() - reads; n != 0 {
		t.Errorf("five requests on the second replica read the store %d times; want the session kept", n)
	}

	if err := one.Commit("t1", []byte("touched"), expiry); err != nil {
		t.Fatal(err)
	}
	waitFor("t1", "touched")
	if err := one.Delete("t1"); err != nil {
		t.Fatal(err)
	}
	waitFor("t1", "(none)")

	// A session kept longer than sharedSessionKept is read again: written
	// behind the caches' backs, it shows then.
	if err := two.Commit("t2", []byte("mine"), expiry); err != nil {
		t.Fatal(err)
	}
	if err := st.CommitSession(context.Background(), "t2", []byte("changed unannounced"), expiry); err != nil {
		t.Fatal(err)
	}
	if got := find("t2"); got != "mine" {
		t.Fatalf("the replica that wrote t2 finds %q", got)
	}
	now = now.Add(sharedSessionKept)
	if got := find("t2"); got != "changed unannounced" {
		t.Errorf("after %s the replica finds %q; want the session read again", sharedSessionKept, got)
	}

	// A replica that does not hear the others keeps nothing.
	deaf := NewSharedSessionCache(st, 16, silence{})
	reads = st.reads()
	for range 3 {
		if _, found, err := deaf.Find("t2"); err != nil || !found {
			t.Fatalf("a replica not hearing the others does not find t2: %v", err)
		}
	}
	if n := st.reads() - reads; n != 3 {
		t.Errorf("three requests on a replica not hearing the others read the store %d times; want 3", n)
	}
}

// TestAReplicaIsToldOfSessionsTheOthersEnd: a session deleted on one
// replica is told to the watcher of another (which ends that session's
// event streams), and a replica is not told of its own writes.
func TestAReplicaIsToldOfSessionsTheOthersEnd(t *testing.T) {
	t.Parallel()
	st := sessionTestStore(t)
	local := cluster.NewLocal(0)
	t.Cleanup(local.Close)
	one := NewSharedSessionCache(st, 16, local)
	two := NewSharedSessionCache(st, 16, local)
	toldOne, toldTwo := make(chan string, 8), make(chan string, 8)
	one.Watch(func(token string) { toldOne <- token })
	two.Watch(func(token string) { toldTwo <- token })
	if err := one.Delete("t1"); err != nil {
		t.Fatal(err)
	}
	select {
	case token := <-toldTwo:
		if token != "t1" {
			t.Errorf("the other replica was told of %q; want t1", token)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the other replica was not told within 10 s of a session deleted")
	}
	select {
	case token := <-toldOne:
		t.Errorf("the replica that deleted %q was told of its own write", token)
	default:
	}
}
