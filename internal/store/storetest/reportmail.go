package storetest

import (
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// testReportScheduleLanguage: a schedule keeps the language of its
// letters, which reads back with it, also among every account's; one
// kept without a language is English.
func testReportScheduleLanguage(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	if err := s.ConnectAccount(ctx, store.Connection{Account: "a", Sealed: []byte("s"), Connected: t0}, store.Audit{}); err != nil {
		t.Fatal(err)
	}
	for _, rs := range []store.ReportSchedule{
		{ID: "de", Cadence: "weekly", Addresses: []string{"ops@client.example"}, Created: t0, Language: "de"},
		{ID: "fr", Cadence: "monthly", Addresses: []string{"ops@client.example"}, Created: t0.Add(time.Minute), Language: "fr"},
		{ID: "none", Cadence: "monthly", Addresses: []string{"ops@client.example"}, Created: t0.Add(2 * time.Minute)},
	} {
		if err := s.AddReportSchedule(ctx, "a", rs, 5); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]string{"de": "de", "fr": "fr", "none": "en"}
	got, err := s.ReportSchedules(ctx, "a")
	if err != nil || len(got) != 3 {
		t.Fatalf("schedules = %+v, %v", got, err)
	}
	for _, rs := range got {
		if rs.Language != want[rs.ID] {
			t.Errorf("schedule %s reads back in %q; want %q", rs.ID, rs.Language, want[rs.ID])
		}
	}
	every, err := s.EveryReportSchedule(ctx, 10)
	if err != nil || len(every) != 3 {
		t.Fatalf("every schedule = %+v, %v", every, err)
	}
	for _, rs := range every {
		if rs.Language != want[rs.ID] {
			t.Errorf("among every account's, schedule %s is in %q; want %q", rs.ID, rs.Language, want[rs.ID])
		}
	}
}

// testReportScheduleChanged: a schedule changed reads back as changed,
// its id and sendings its own; another account's, or an id of none, is
// not changed.
func testReportScheduleChanged(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	for _, a := range []string{"a", "b"} {
		if err := s.ConnectAccount(ctx, store.Connection{Account: a, Sealed: []byte("s"), Connected: t0}, store.Audit{}); err != nil {
			t.Fatal(err)
		}
	}
	rs := store.ReportSchedule{ID: "s1", Cadence: "weekly", Addresses: []string{"ops@client.example"}, Created: t0, CreatedBy: "Ana", Language: "de"}
	if err := s.AddReportSchedule(ctx, "a", rs, 5); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.TakeReportSending(ctx, "a", store.ReportSending{Schedule: "s1", Period: "2026-11-16", Pending: rs.Addresses,
		NextAttempt: t0.Add(time.Hour)}, t0, 3); err != nil || !ok {
		t.Fatalf("taking a sending: %v, %v", ok, err)
	}
	changed := store.ReportSchedule{ID: "s1", Cadence: "monthly", Addresses: []string{"ops@client.example", "boss@client.example"},
		Buildings: []string{"b1"}, Created: t0.Add(time.Hour), CreatedBy: "Bo", Language: "fr"}
	if ok, err := s.ChangeReportSchedule(ctx, "b", changed); err != nil || ok {
		t.Errorf("changing a's schedule in account b: %v, %v; want false", ok, err)
	}
	if ok, err := s.ChangeReportSchedule(ctx, "a", store.ReportSchedule{ID: "none", Cadence: "weekly"}); err != nil || ok {
		t.Errorf("changing a schedule of no such id: %v, %v; want false", ok, err)
	}
	if ok, err := s.ChangeReportSchedule(ctx, "a", changed); err != nil || !ok {
		t.Fatalf("changing the schedule: %v, %v", ok, err)
	}
	got, err := s.ReportSchedules(ctx, "a")
	if err != nil || len(got) != 1 {
		t.Fatalf("schedules = %+v, %v", got, err)
	}
	if g := got[0]; !g.Created.Equal(changed.Created) || !reflect.DeepEqual(g.Addresses, changed.Addresses) ||
		!reflect.DeepEqual(g.Buildings, changed.Buildings) || g.Cadence != "monthly" || g.CreatedBy != "Bo" || g.Language != "fr" {
		t.Errorf("the schedule changed reads back as %+v; want %+v", g, changed)
	}
	sendings, err := s.ReportSendings(ctx, "a", 10)
	if err != nil || len(sendings) != 1 || sendings[0].Schedule != "s1" {
		t.Errorf("the sendings after the change: %+v, %v; want the one of s1", sendings, err)
	}
}

// testReportMail: schedules kept per account and bounded; a period's
// sending taken by one taker at a time, retried a bounded number of
// times, never again once sent; gone with the account.
func testReportMail(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	for _, a := range []string{"a", "b"} {
		if err := s.ConnectAccount(ctx, store.Connection{Account: a, Sealed: []byte("s"), Connected: t0}, store.Audit{}); err != nil {
			t.Fatal(err)
		}
	}
	weekly := store.ReportSchedule{ID: "w1", Cadence: "weekly", Addresses: []string{"ops@client.example", "boss@client.example"},
		Created: t0, CreatedBy: "Ana", Language: "en"}
	monthly := store.ReportSchedule{ID: "m1", Cadence: "monthly", Addresses: []string{"ops@client.example"}, Buildings: []string{"b1", "b2"},
		Created: t0.Add(time.Minute), CreatedBy: "Ben", Language: "en"}
	for _, rs := range []store.ReportSchedule{weekly, monthly} {
		if err := s.AddReportSchedule(ctx, "a", rs, 2); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddReportSchedule(ctx, "a", store.ReportSchedule{ID: "x", Cadence: "weekly", Created: t0}, 2); !errors.Is(err, store.ErrTooManySchedules) {
		t.Errorf("a third schedule of two at most: %v", err)
	}
	if err := s.AddReportSchedule(ctx, "never", weekly, 2); !errors.Is(err, domain.ErrNotConnected) {
		t.Errorf("a schedule of an account not connected: %v", err)
	}
	if got, err := s.ReportSchedules(ctx, "a"); err != nil || !reflect.DeepEqual(got, []store.ReportSchedule{weekly, monthly}) {
		t.Errorf("a's schedules = %+v, %v", got, err)
	}
	if err := s.AddReportSchedule(ctx, "b", store.ReportSchedule{ID: "w1", Cadence: "weekly", Addresses: []string{"x@b.example"}, Created: t0}, 2); err != nil {
		t.Fatal(err)
	}
	if every, err := s.EveryReportSchedule(ctx, 10); err != nil || len(every) != 3 || every[0].Account != "a" || every[2].Account != "b" {
		t.Errorf("every schedule = %+v, %v", every, err)
	}

	// Of takers at once (replicas), one takes a period.
	race := store.ReportSending{Schedule: "w1", Period: "2026-11-02", Pending: weekly.Addresses, NextAttempt: t0.Add(8 * 24 * time.Hour)}
	var wg sync.WaitGroup
	var mu sync.Mutex
	won := 0
	for range 8 {
		wg.Go(func() {
			_, ok, err := s.TakeReportSending(ctx, "a", race, t0.Add(7*24*time.Hour), 3)
			if err != nil {
				t.Error(err)
			}
			if ok {
				mu.Lock()
				won++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if won != 1 {
		t.Errorf("%d of 8 takers at once took the period, want 1", won)
	}

	// The first attempt writes the row; nobody takes it while it is held.
	now := t0.Add(7 * 24 * time.Hour)
	want := store.ReportSending{Schedule: "w1", Period: "2026-11-09", Words: "9 Nov 2026 – 15 Nov 2026", Pending: weekly.Addresses,
		NextAttempt: now.Add(10 * time.Minute)}
	got, ok, err := s.TakeReportSending(ctx, "a", want, now, 3)
	if err != nil || !ok || got.Attempts != 1 || got.State != store.SendingTaken || got.Addresses != 2 || !reflect.DeepEqual(got.Pending, weekly.Addresses) ||
		!got.Started.Equal(now) {
		t.Fatalf("first take = %+v, %v, %v", got, ok, err)
	}
	if _, ok, err := s.TakeReportSending(ctx, "a", want, now.Add(time.Minute), 3); ok || err != nil {
		t.Errorf("a sending held was taken again: %v, %v", ok, err)
	}
	// Its attempt failed for one address: retried when due, at most 3 times.
	got.State, got.Delivered, got.Pending, got.Detail = store.SendingRetrying, 1, []string{"boss@client.example"}, "550 no such user"
	got.Updated, got.NextAttempt = now.Add(time.Second), now.Add(15*time.Minute)
	if ok, err := s.RecordReportSending(ctx, "a", got); !ok || err != nil {
		t.Fatalf("recording the first attempt: %v, %v", ok, err)
	}
	if _, ok, _ := s.TakeReportSending(ctx, "a", want, now.Add(14*time.Minute), 3); ok {
		t.Errorf("a retry was taken before it was due")
	}
	for attempt := 2; attempt <= 3; attempt++ {
		at := now.Add(time.Duration(attempt) * time.Hour)
		want.NextAttempt = at.Add(10 * time.Minute)
		again, ok, err := s.TakeReportSending(ctx, "a", want, at, 3)
		if err != nil || !ok || again.Attempts != attempt || again.Delivered != 1 || !reflect.DeepEqual(again.Pending, []string{"boss@client.example"}) {
			t.Fatalf("attempt %d took %+v, %v, %v", attempt, again, ok, err)
		}
		if ok, _ := s.RecordReportSending(ctx, "a", got); ok {
			t.Errorf("attempt %d: an earlier attempt's record overwrote it", attempt)
		}
		again.State, again.Updated, again.NextAttempt = store.SendingRetrying, at, at
		if ok, err := s.RecordReportSending(ctx, "a", again); !ok || err != nil {
			t.Fatalf("recording attempt %d: %v, %v", attempt, ok, err)
		}
	}
	if _, ok, _ := s.TakeReportSending(ctx, "a", want, now.Add(10*time.Hour), 3); ok {
		t.Errorf("a fourth attempt was taken of 3 at most")
	}

	// A period sent is never taken again.
	month := store.ReportSending{Schedule: "m1", Period: "2026-10", Words: "October 2026", Pending: monthly.Addresses, NextAttempt: now.Add(time.Hour)}
	sent, _, _ := s.TakeReportSending(ctx, "a", month, now.Add(time.Hour), 3)
	sent.State, sent.Delivered, sent.Pending, sent.Updated, sent.NextAttempt = store.SendingSent, 1, nil, now, now
	if ok, err := s.RecordReportSending(ctx, "a", sent); !ok || err != nil {
		t.Fatalf("recording a sending: %v, %v", ok, err)
	}
	if row, ok, _ := s.TakeReportSending(ctx, "a", month, now.Add(48*time.Hour), 3); ok || row.State != store.SendingSent || row.Delivered != 1 {
		t.Errorf("a period sent was taken again, or not said sent: %v, %+v", ok, row)
	}
	if list, err := s.ReportSendings(ctx, "a", 1); err != nil || len(list) != 1 || list[0].Schedule != "m1" || list[0].State != store.SendingSent {
		t.Errorf("a's last sending = %+v, %v", list, err)
	}
	if list, _ := s.ReportSendings(ctx, "b", 10); len(list) != 0 {
		t.Errorf("b has sendings %+v", list)
	}

	// A schedule removed is not sent for; nor is one of an account
	// disconnected, whose sendings go with it.
	if ok, err := s.RemoveReportSchedule(ctx, "b", "w1"); !ok || err != nil {
		t.Errorf("removing b's schedule: %v, %v", ok, err)
	}
	if _, ok, _ := s.TakeReportSending(ctx, "b", want, now, 3); ok {
		t.Errorf("a removed schedule's sending was taken")
	}
	if n, err := s.PruneReportSendings(ctx, now.Add(2*time.Hour)); err != nil || n != 3 {
		t.Errorf("pruning a's three sendings: %d, %v", n, err)
	}
	if _, err := s.DisconnectAccount(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.ReportSchedules(ctx, "a"); len(got) != 0 {
		t.Errorf("a disconnected keeps schedules %+v", got)
	}
	if _, ok, _ := s.TakeReportSending(ctx, "a", month, now.Add(72*time.Hour), 3); ok {
		t.Errorf("a disconnected account's sending was taken")
	}
}
