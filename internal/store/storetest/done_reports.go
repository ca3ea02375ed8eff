package storetest

import (
	"reflect"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// testDoneReports: a "done" report is kept once per idempotency key, the
// newest of an alert is the one read, accounts keep theirs apart; an
// action's key is taken once, and a key older than ActionKeysKept is let
// go.
func testDoneReports(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	mustReplaceLayout(t, s, testLayout("b", false))

	ana := domain.DoneReport{AlertID: "x1", PersonID: "p-ana", Name: "Ana", Outcome: domain.Refilled, At: t0.Add(10 * time.Minute)}
	for i, want := range []bool{true, false} {
		added, err := s.AddDoneReport(ctx, "a", ana, "key-1")
		if err != nil || added != want {
			t.Fatalf("adding the report the %d. time with one key: %v, %v; want %v", i+1, added, err, want)
		}
	}
	ben := domain.DoneReport{AlertID: "x1", PersonID: "p-ben", Name: "Ben", Outcome: domain.CouldNotFix, Reason: "the lid is broken", At: t0.Add(20 * time.Minute)}
	if added, err := s.AddDoneReport(ctx, "a", ben, "key-2"); !added || err != nil {
		t.Fatalf("a report of another key: %v, %v", added, err)
	}
	// The same key in another account is another report.
	other := domain.DoneReport{AlertID: "x2", PersonID: "p-cy", Name: "Cy", Outcome: domain.FaultCleared, At: t0}
	if added, err := s.AddDoneReport(ctx, "b", other, "key-1"); !added || err != nil {
		t.Fatalf("a report of account b under a key of account a: %v, %v", added, err)
	}

	got, err := s.LastDoneReports(ctx, "a", []string{"x1", "x2", "x404"})
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]domain.DoneReport{"x1": ben}; !reflect.DeepEqual(got, want) {
		t.Errorf("last reports of account a = %+v; want %+v", got, want)
	}
	if got, err := s.LastDoneReports(ctx, "b", []string{"x1", "x2"}); err != nil || !reflect.DeepEqual(got, map[string]domain.DoneReport{"x2": other}) {
		t.Errorf("last reports of account b = %+v, %v; want Cy's alone", got, err)
	}

	for _, c := range []struct {
		account, key string
		at           time.Time
		want         bool
		why          string
	}{
		{"a", "k", t0, true, "a new key"},
		{"a", "k", t0.Add(time.Hour), false, "the same key again"},
		{"b", "k", t0.Add(time.Hour), true, "the key in another account"},
		{"a", "k", t0.Add(store.ActionKeysKept + time.Hour), true, "the key after it was let go"},
	} {
		if got, err := s.TakeActionKey(ctx, c.account, c.key, c.at); err != nil || got != c.want {
			t.Errorf("taking %s: %v, %v; want %v", c.why, got, err, c.want)
		}
	}
}
