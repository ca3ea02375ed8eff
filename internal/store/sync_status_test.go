package store

import (
	"context"
	"sync"
	"testing"
	"time"
)

func TestSyncStatusesShowEveryRecordAtOnce(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	at := time.Date(2026, 11, 18, 9, 0, 0, 0, time.UTC)
	if err := s.RecordSync(ctx, "acc", SyncStatus{Resource: ResourceDevices, LastAttempt: at, LastSuccess: at}); err != nil {
		t.Fatal(err)
	}
	got, err := s.SyncStatuses(ctx, "acc")
	if err != nil || !got[ResourceDevices].LastSuccess.Equal(at) {
		t.Fatalf("after a success: %+v, %v", got[ResourceDevices], err)
	}
	got[ResourceDevices] = SyncStatus{LastError: "changed by the caller"}
	delete(got, ResourceDevices)

	failed := at.Add(time.Minute)
	if err := s.RecordSync(ctx, "acc", SyncStatus{Resource: ResourceDevices, LastAttempt: failed, LastError: "boom"}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ { // the read that fills the memory, then one served from it
		got, err = s.SyncStatuses(ctx, "acc")
		if err != nil {
			t.Fatal(err)
		}
		st := got[ResourceDevices]
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
	if err := s.RecordSync(ctx, "acc", SyncStatus{Resource: ResourceAlerts, LastAttempt: base, LastSuccess: base}); err != nil {
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
		if err := s.RecordSync(ctx, "acc", SyncStatus{Resource: ResourceAlerts, LastAttempt: at, LastSuccess: at}); err != nil {
			t.Fatal(err)
		}
		got, err := s.SyncStatuses(ctx, "acc")
		if err != nil {
			t.Fatal(err)
		}
		if st := got[ResourceAlerts]; st.LastSuccess.Before(at) {
			t.Fatalf("after record %d the read shows the success of %s, want %s", i, st.LastSuccess, at)
		}
	}
	close(stop)
	wg.Wait()
}
