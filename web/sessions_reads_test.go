package web

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

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
	c := newSessionCache(held, 16)

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
