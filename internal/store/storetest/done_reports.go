package storetest

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// testDoneReports: a "done" report is kept once per idempotency key, the
// newest of an alert is the one read, accounts keep theirs apart, and
// a report lets go of the account's reports made before the time it is
// given; an
// action's key is taken once, and a key older than ActionKeysKept is let
// go.
func testDoneReports(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	mustReplaceLayout(t, s, testLayout("b", false))

	ana := domain.DoneReport{AlertID: "x1", PersonID: "p-ana", Name: "Ana", Outcome: domain.Refilled, At: t0.Add(10 * time.Minute)}
	for i, want := range []bool{true, false} {
		added, err := s.AddDoneReport(ctx, "a", ana, "key-1", time.Time{})
		if err != nil || added != want {
			t.Fatalf("adding the report the %d. time with one key: %v, %v; want %v", i+1, added, err, want)
		}
	}
	ben := domain.DoneReport{AlertID: "x1", PersonID: "p-ben", Name: "Ben", Outcome: domain.CouldNotFix, Reason: "the lid is broken", At: t0.Add(20 * time.Minute)}
	if added, err := s.AddDoneReport(ctx, "a", ben, "key-2", time.Time{}); !added || err != nil {
		t.Fatalf("a report of another key: %v, %v", added, err)
	}
	// The same key in another account is another report.
	other := domain.DoneReport{AlertID: "x2", PersonID: "p-cy", Name: "Cy", Outcome: domain.FaultCleared, At: t0}
	if added, err := s.AddDoneReport(ctx, "b", other, "key-1", time.Time{}); !added || err != nil {
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
	// The reports of a span of time, in the order they were made, of the
	// account alone, bounded.
	for _, c := range []struct {
		from, to time.Time
		limit    int
		want     []domain.DoneReport
	}{
		{t0, t0.Add(time.Hour), 0, []domain.DoneReport{ana, ben}},
		{t0, t0.Add(time.Hour), 1, []domain.DoneReport{ana}},
		{ana.At.Add(time.Second), t0.Add(time.Hour), 0, []domain.DoneReport{ben}},
		{t0, ben.At, 0, []domain.DoneReport{ana}},
		{t0.Add(time.Hour), t0.Add(2 * time.Hour), 0, nil},
	} {
		got, err := s.DoneReportsDuring(ctx, "a", c.from, c.to, c.limit)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("reports of account a in [%v, %v) limit %d = %+v, %v; want %+v", c.from, c.to, c.limit, got, err, c.want)
		}
	}
	// A report a year later that keeps a year lets go of none; one that
	// keeps the reports made since Ben's lets go of Ana's and Ben's, and
	// their keys with them.
	year := 365 * 24 * time.Hour
	late := domain.DoneReport{AlertID: "x2", PersonID: "p-ana", Name: "Ana", Outcome: domain.Refilled, At: ana.At.Add(year)}
	if added, err := s.AddDoneReport(ctx, "a", late, "key-3", late.At.Add(-year)); !added || err != nil {
		t.Fatalf("a report a year after: %v, %v", added, err)
	}
	if got, err := s.LastDoneReports(ctx, "a", []string{"x1", "x2"}); err != nil || !reflect.DeepEqual(got, map[string]domain.DoneReport{"x1": ben, "x2": late}) {
		t.Errorf("last reports of account a, with a year kept = %+v, %v; want Ben's and the late one", got, err)
	}
	later := domain.DoneReport{AlertID: "x2", PersonID: "p-ben", Name: "Ben", Outcome: domain.Refilled, At: late.At.Add(time.Minute)}
	if added, err := s.AddDoneReport(ctx, "a", later, "key-4", ben.At.Add(time.Second)); !added || err != nil {
		t.Fatalf("a report that keeps less: %v, %v", added, err)
	}
	if got, err := s.DoneReportsDuring(ctx, "a", t0, later.At.Add(time.Second), 0); err != nil || !reflect.DeepEqual(got, []domain.DoneReport{late, later}) {
		t.Errorf("reports of account a after one that keeps those since Ben's = %+v, %v; want the two late ones", got, err)
	}
	if added, err := s.AddDoneReport(ctx, "a", ana, "key-1", time.Time{}); !added || err != nil {
		t.Errorf("Ana's key, once her report is gone: %v, %v; want it taken again", added, err)
	}
	if got, err := s.LastDoneReports(ctx, "b", []string{"x2"}); err != nil || len(got) != 1 {
		t.Errorf("account b's report went with account a's old ones: %+v, %v", got, err)
	}

	// "I'm on it" under a key: once, whatever is sent again with it; a
	// claim that fails keeps no key; a key older than ActionKeysKept is
	// let go.
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{
		alert("x1", "a-1", t0, true, false), alert("x9", "a-3", t0, false, false),
	}, SeenAt: t0})
	mustApplyAlerts(t, s, "b", store.AlertWrite{Upserts: []domain.Alert{alert("x1", "b-1", t0, true, false)}, SeenAt: t0})
	claimAna := domain.Claim{AlertID: "x1", PersonID: "p-ana", Name: "Ana", At: t0.Add(time.Minute)}
	claimBen := domain.Claim{AlertID: "x1", PersonID: "p-ben", Name: "Ben", At: t0.Add(2 * time.Minute)}
	for _, c := range []struct {
		account string
		claim   domain.Claim
		key     string
		want    bool
		why     string
	}{
		{"a", claimAna, "k", true, "a new key"},
		{"a", claimBen, "k", false, "the same key again"},
		{"b", claimBen, "k", true, "the key in another account"},
	} {
		if got, err := s.ClaimAlertOnce(ctx, c.account, c.claim, c.key); err != nil || got != c.want {
			t.Errorf("claiming with %s: %v, %v; want %v", c.why, got, err, c.want)
		}
	}
	if got := activeClaims(t, s, "a"); !reflect.DeepEqual(got, map[string]domain.Claim{"x1": claimAna}) {
		t.Errorf("after a claim sent twice with one key, the claims are %+v; want Ana's alone", got)
	}
	closed := domain.Claim{AlertID: "x9", PersonID: "p-ana", Name: "Ana", At: t0.Add(3 * time.Minute)}
	if _, err := s.ClaimAlertOnce(ctx, "a", closed, "k2"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("claiming a closed alert: %v; want ErrNotFound", err)
	}
	claimBen.At = t0.Add(4 * time.Minute)
	if got, err := s.ClaimAlertOnce(ctx, "a", claimBen, "k2"); !got || err != nil {
		t.Errorf("the key of a claim that failed, used again: %v, %v; want a claim", got, err)
	}
	claimAna.At = t0.Add(store.ActionKeysKept + time.Hour)
	if got, err := s.ClaimAlertOnce(ctx, "a", claimAna, "k"); !got || err != nil {
		t.Errorf("a key older than %v, used again: %v, %v; want a claim", store.ActionKeysKept, got, err)
	}
}
