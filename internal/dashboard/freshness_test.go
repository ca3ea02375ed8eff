package dashboard

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/syncer"
)

// statusStore answers SyncStatuses from its store, counting the reads;
// each read waits until the test lets it go.
type statusStore struct {
	store.Store
	reads atomic.Int32
	began chan struct{}
	held  chan struct{}
}

func (s *statusStore) SyncStatuses(ctx context.Context, account string) (map[domain.Resource]store.SyncStatus, error) {
	s.reads.Add(1)
	s.began <- struct{}{}
	<-s.held
	return s.Store.SyncStatuses(ctx, account)
}

// Every page asks how fresh its data is. The requests that find the kept
// sync states too old at the same moment (many, on a busy dashboard, as a
// second turns) wait for one read of the database, not one each.
func TestRequestsAtOnceReadTheSyncStatesOnce(t *testing.T) {
	ctx := context.Background()
	st := &statusStore{Store: historyStore(t), began: make(chan struct{}, 16), held: make(chan struct{})}
	clk := clock.NewFake(day(24, 9))
	engine := syncer.New(ctx, nil, st, clk, syncer.Config{}, nil)
	s := New(Deps{Store: st, Sync: engine, Clock: clk})

	const requests = 8
	started := make(chan struct{}, requests)
	var wg sync.WaitGroup
	for range requests {
		wg.Go(func() {
			started <- struct{}{}
			if _, err := s.FirstSyncDone(ctx, "acme"); err != nil {
				t.Error(err)
			}
		})
	}
	for range requests {
		<-started
	}
	<-st.began
	// Give the others a chance to read too, as they would each on their
	// own. A request that comes after the read finds the states kept, so
	// letting the read go early cannot pass for one read shared.
	for i := 0; i < 10_000 && st.reads.Load() < requests; i++ {
		runtime.Gosched()
	}
	close(st.held)
	wg.Wait()
	if n := st.reads.Load(); n != 1 {
		t.Errorf("%d requests at once read the sync states %d times; want once", requests, n)
	}
}
