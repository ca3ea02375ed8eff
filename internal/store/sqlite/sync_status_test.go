package sqlite

import (
	"context"
	"sync"
	"testing"
	"time"
	"washboard/internal/domain"
	"washboard/internal/store"
)

func TestSyncStatusesShowEveryRecordAtOnce(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	at := time.Date(2026, 11, 18, 9, 0, 0, 0, time.UTC)
	if err := s.RecordSync(ctx, "acc", store.SyncStatus{Resource: domain.ResourceDevices, LastAttempt: at, LastSuccess: at}); err != nil {
		t.Fatal(err)
	}
	got, err := s.SyncStatuses(ctx, "acc")
	if err != nil || !got[domain.ResourceDevices].LastSuccess.Equal(at) {
		t.Fatalf("after a success: %+v, %v", got[domain.ResourceDevices], err)
	}
	got[domain.ResourceDevices] = store.SyncStatus{LastError: "changed by the caller"}
	delete(got, domain.ResourceDevices)

	failed := at.Add(time.Minute)
	if err := s.RecordSync(ctx, "acc", store.SyncStatus{Resource: domain.ResourceDevices, LastAttempt: failed, LastError: "boom"}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ { // the read that fills the memory, then one served from it
		got, err = s.SyncStatuses(ctx, "acc")
		if err != nil {
			t.Fatal(err)
		}
		st := got[domain.ResourceDevices]
		if st.LastError != "boom" || !st.LastAttempt.Equal(failed) || !st.LastSuccess.Equal(at) {
			t.Errorf("read %d after a failure: %+v, want the failure and the last success", i, st)
		}
	}
	if other, err := s.SyncStatuses(ctx, "other"); err != nil || len(other) != 0 {
		t.Errorf("an account without records reads %v, %v", other, err)
	}
}

// TestSyncStatusesNeverKeepARecordOlderThanTheLastWrite races readers
// against a writer: once RecordSync returns, every read shows that record
// or a later one.
func TestSyncStatusesNeverKeepARecordOlderThanTheLastWrite(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	base := time.Date(2026, 11, 18, 9, 0, 0, 0, time.UTC)
	if err := s.RecordSync(ctx, "acc", store.SyncStatus{Resource: domain.ResourceAlerts, LastAttempt: base, LastSuccess: base}); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := s.SyncStatuses(ctx, "acc"); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	for i := 1; i <= 50; i++ {
		at := base.Add(time.Duration(i) * time.Minute)
		if err := s.RecordSync(ctx, "acc", store.SyncStatus{Resource: domain.ResourceAlerts, LastAttempt: at, LastSuccess: at}); err != nil {
			t.Fatal(err)
		}
		got, err := s.SyncStatuses(ctx, "acc")
		if err != nil {
			t.Fatal(err)
		}
		if st := got[domain.ResourceAlerts]; st.LastSuccess.Before(at) {
			t.Fatalf("after record %d the read shows the success of %s, want %s", i, st.LastSuccess, at)
		}
	}
	close(stop)
	wg.Wait()
}
