package storetest

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// testSyncStatuses: a success is recorded with its counts; a failed
// attempt keeps the last success and its counts; accounts and resources
// keep their own; the caller's copy is its own.
func testSyncStatuses(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	at := time.Date(2026, 11, 18, 9, 0, 0, 0, time.UTC)
	ok := store.SyncStatus{Resource: domain.ResourceDevices, LastAttempt: at, LastSuccess: at, Duration: 1500 * time.Millisecond,
		Change: domain.Change{Added: 3, Changed: 2, Removed: 1}, Skipped: 4}
	if err := s.RecordSync(ctx, "acc", ok); err != nil {
		t.Fatal(err)
	}
	meta := store.SyncStatus{Resource: domain.ResourceMetadata, LastAttempt: at, LastError: "service unavailable", Duration: time.Second}
	if err := s.RecordSync(ctx, "acc", meta); err != nil {
		t.Fatal(err)
	}
	got, err := s.SyncStatuses(ctx, "acc")
	if err != nil || !reflect.DeepEqual(got, map[domain.Resource]store.SyncStatus{domain.ResourceDevices: ok, domain.ResourceMetadata: meta}) {
		t.Fatalf("after a success and a failure: %+v, %v", got, err)
	}
	got[domain.ResourceDevices] = store.SyncStatus{LastError: "changed by the caller"}
	delete(got, domain.ResourceMetadata)

	failed := at.Add(time.Minute)
	if err := s.RecordSync(ctx, "acc", store.SyncStatus{Resource: domain.ResourceDevices, LastAttempt: failed, Duration: 2 * time.Second, LastError: "boom"}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		got, err = s.SyncStatuses(ctx, "acc")
		if err != nil {
			t.Fatal(err)
		}
		want := ok
		want.LastAttempt, want.Duration, want.LastError = failed, 2*time.Second, "boom"
		if st := got[domain.ResourceDevices]; !reflect.DeepEqual(st, want) {
			t.Errorf("read %d after a failure: %+v, want %+v: the failure, the last success and its counts", i, st, want)
		}
		if len(got) != 2 {
			t.Errorf("read %d: %d records, want 2", i, len(got))
		}
	}
	// The next success clears the error.
	next := ok
	next.LastAttempt, next.LastSuccess, next.Change = failed.Add(time.Minute), failed.Add(time.Minute), domain.Change{}
	if err := s.RecordSync(ctx, "acc", next); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.SyncStatuses(ctx, "acc"); !reflect.DeepEqual(got[domain.ResourceDevices], next) {
		t.Errorf("after a new success: %+v, want %+v", got[domain.ResourceDevices], next)
	}
	if other, err := s.SyncStatuses(ctx, "other"); err != nil || len(other) != 0 {
		t.Errorf("an account without records reads %v, %v", other, err)
	}
}

// testSyncStatusesShowTheLastRecord races readers against a writer: once
// RecordSync returns, every read shows that record or a later one.
func testSyncStatusesShowTheLastRecord(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	base := time.Date(2026, 11, 18, 9, 0, 0, 0, time.UTC)
	if err := s.RecordSync(ctx, "acc", store.SyncStatus{Resource: domain.ResourceAlerts, LastAttempt: base, LastSuccess: base}); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 3 {
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
	defer wg.Wait()
	defer close(stop)
	for i := 1; i <= 30; i++ {
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
}

// testReportSettings: an account without settings has none (the defaults
// apply); saved ones come back and can be changed; accounts keep their own.
func testReportSettings(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	if _, ok, err := s.ReportSettings(ctx, "a"); ok || err != nil {
		t.Fatalf("settings of a new account: ok %v, err %v; want none", ok, err)
	}
	for _, rs := range []store.ReportSettings{
		{Shifts: "Day 07:00-19:00, Night 19:00-07:00", Zone: "Europe/Berlin", Updated: t0},
		{Shifts: "Day 08:00-16:00", Zone: "America/Chicago", Updated: t0.Add(time.Hour)},
	} {
		if err := s.SaveReportSettings(ctx, "a", rs); err != nil {
			t.Fatal(err)
		}
		got, ok, err := s.ReportSettings(ctx, "a")
		if err != nil || !ok || !reflect.DeepEqual(got, rs) {
			t.Errorf("settings = %+v, %v, %v; want %+v", got, ok, err, rs)
		}
	}
	if _, ok, _ := s.ReportSettings(ctx, "b"); ok {
		t.Error("account b sees account a's settings")
	}
}

func testScreens(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	for _, acc := range []string{"a", "b"} {
		mustReplaceLayout(t, s, testLayout(acc, false))
	}
	sc := domain.Screen{ID: "scr1", Account: "a", Name: "Staff room", Scope: domain.ScreenScope{Kind: "floor", ID: "a-f1"},
		Healths: []domain.Health{domain.HealthAction, domain.HealthOffline}, PageSeconds: 15, DimFrom: 22 * 60, DimTo: 6 * 60,
		Contact: "Facilities desk", Created: t0}
	if err := s.CreateScreen(ctx, sc, []byte("hash-1"), []byte("sealed"), 0); err != nil {
		t.Fatal(err)
	}
	got, sealed, err := s.ScreenByToken(ctx, []byte("hash-1"))
	if err != nil || !reflect.DeepEqual(got, sc) || string(sealed) != "sealed" {
		t.Fatalf("by token: %+v %q %v; want %+v", got, sealed, err, sc)
	}
	older := domain.Screen{ID: "scr0", Account: "a", Name: "Lobby", Scope: domain.ScreenScope{Kind: "account"}, DimFrom: -1, DimTo: -1, Created: t0.Add(-time.Hour)}
	newer := domain.Screen{ID: "scr2", Account: "a", Name: "Annex", Scope: domain.ScreenScope{Kind: "building", ID: "a-b1"}, Created: t0.Add(time.Hour),
		Healths: []domain.Health{domain.HealthOK, domain.HealthAttention, domain.HealthAction, domain.HealthOffline}}
	for i, x := range []domain.Screen{older, newer} {
		if err := s.CreateScreen(ctx, x, fmt.Appendf(nil, "hash-x%d", i), []byte("sealed"), 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CreateScreen(ctx, domain.Screen{ID: "scr9", Account: "b", Created: t0}, []byte("hash-1"), []byte("x"), 0); err == nil {
		t.Error("a second screen with the same token's hash was created")
	}
	list, err := s.Screens(ctx, "a")
	if err != nil || !reflect.DeepEqual(list, []domain.Screen{newer, sc, older}) {
		t.Errorf("account a's screens = %+v, %v; want newest first", list, err)
	}
	if list, _ := s.Screens(ctx, "b"); len(list) != 0 {
		t.Errorf("account b sees %d screens of account a", len(list))
	}

	sc.Name, sc.Scope, sc.Healths, sc.PageSeconds, sc.DimFrom, sc.DimTo, sc.Contact = "Lobby", domain.ScreenScope{Kind: "account"},
		[]domain.Health{domain.HealthAttention}, 30, -1, -1, "Front desk"
	if err := s.UpdateScreen(ctx, sc); err != nil {
		t.Fatal(err)
	}
	if err := s.TouchScreen(ctx, "scr1", t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	sc.LastSeen = t0.Add(time.Minute)
	if got, err := s.Screen(ctx, "a", "scr1"); err != nil || !reflect.DeepEqual(got, sc) {
		t.Errorf("after update and check-in: %+v, %v; want %+v", got, err, sc)
	}
	if err := s.RevokeScreen(ctx, "a", "scr1", t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.RevokeScreen(ctx, "a", "scr1", t0.Add(2*time.Hour)); err != nil {
		t.Errorf("revoking again: %v", err)
	}
	got, _, _ = s.ScreenByToken(ctx, []byte("hash-1"))
	if !got.Revoked.Equal(t0.Add(time.Hour)) {
		t.Errorf("revoked screen: revoked %v, want the first revocation's time", got.Revoked)
	}
	if err := s.RelinkScreen(ctx, "a", "scr1", []byte("hash-3"), []byte("sealed-2")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.ScreenByToken(ctx, []byte("hash-1")); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("the old token after a new link: %v, want ErrNotFound", err)
	}
	got, sealed, _ = s.ScreenByToken(ctx, []byte("hash-3"))
	if !got.Revoked.IsZero() || !got.LastSeen.IsZero() || string(sealed) != "sealed-2" {
		t.Errorf("after a new link: revoked %v, last seen %v, sealed %q; want active, never opened", got.Revoked, got.LastSeen, sealed)
	}

	// Active: linked and checked in since the time asked, of any account.
	now := t0.Add(3 * time.Hour)
	other := domain.Screen{ID: "scr-b", Account: "b", Name: "B", Created: t0}
	if err := s.CreateScreen(ctx, other, []byte("hash-b"), []byte("sealed"), 0); err != nil {
		t.Fatal(err)
	}
	for id, at := range map[string]time.Time{"scr1": now, "scr0": now.Add(-2 * time.Hour), "scr2": now.Add(-time.Minute), "scr-b": now} {
		if err := s.TouchScreen(ctx, id, at); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.RevokeScreen(ctx, "a", "scr2", now); err != nil {
		t.Fatal(err)
	}
	if n, err := s.CountActiveScreens(ctx, now.Add(-time.Hour)); err != nil || n != 2 {
		t.Errorf("CountActiveScreens = %d, %v; want scr1 and scr-b", n, err)
	}
	if err := s.TouchScreen(ctx, "no-such-screen", now); err != nil {
		t.Errorf("touching an unknown screen: %v", err)
	}
}

// testScreenCredentials: the sealed credentials of an account's screens,
// or of all, and resealing them, which leaves those changed meanwhile.
func testScreenCredentials(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	for i, x := range []struct{ id, account string }{{"s1", "a"}, {"s2", "a"}, {"s3", "b"}} {
		sc := domain.Screen{ID: x.id, Account: x.account, Name: x.id, Created: t0.Add(time.Duration(i) * time.Minute)}
		if err := s.CreateScreen(ctx, sc, []byte("hash-"+x.id), []byte("old-"+x.id), 0); err != nil {
			t.Fatal(err)
		}
	}
	creds := func(account string) map[string]string {
		m, err := s.ScreenCredentials(ctx, account)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for id, b := range m {
			out[id] = string(b)
		}
		return out
	}
	if got := creds("a"); !maps.Equal(got, map[string]string{"s1": "old-s1", "s2": "old-s2"}) {
		t.Errorf("account a's credentials = %v", got)
	}
	if got := creds(""); len(got) != 3 {
		t.Errorf("every account's credentials = %v", got)
	}
	if got := creds("nobody"); len(got) != 0 {
		t.Errorf("an unknown account's credentials = %v", got)
	}
	// s2 is relinked after its credentials were read.
	if err := s.RelinkScreen(ctx, "a", "s2", []byte("hash-s2b"), []byte("relinked")); err != nil {
		t.Fatal(err)
	}
	n, err := s.ResealScreenCredentials(ctx, map[string]store.Reseal{
		"s1": {Old: []byte("old-s1"), New: []byte("new-s1")},
		"s2": {Old: []byte("old-s2"), New: []byte("new-s2")},
		"s3": {Old: []byte("old-s3"), New: []byte("new-s3")},
		"s9": {Old: []byte("old-s9"), New: []byte("new-s9")},
	})
	if err != nil || n != 2 {
		t.Errorf("ResealScreenCredentials = %d, %v; want 2", n, err)
	}
	if got := creds(""); !maps.Equal(got, map[string]string{"s1": "new-s1", "s2": "relinked", "s3": "new-s3"}) {
		t.Errorf("after resealing: %v", got)
	}
	if _, sealed, err := s.ScreenByToken(ctx, []byte("hash-s1")); err != nil || string(sealed) != "new-s1" {
		t.Errorf("s1 by token: %q, %v", sealed, err)
	}
}

// testRemoveRevokedScreens: a revoked screen of the account is removed for
// good, with its sealed credentials, and no longer counts toward the
// account's limit; a linked screen is refused (domain.ErrScreenLinked);
// another account's screen and an unknown one are not found.
func testRemoveRevokedScreens(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	const max = 2
	create := func(account, id string) error {
		return s.CreateScreen(ctx, domain.Screen{ID: id, Account: account, Name: id, Scope: domain.ScreenScope{Kind: "account"}, Created: t0},
			[]byte("hash-"+id), []byte("sealed-"+id), max)
	}
	for _, x := range []struct{ account, id string }{{"a", "old"}, {"a", "live"}, {"b", "theirs"}} {
		if err := create(x.account, x.id); err != nil {
			t.Fatal(err)
		}
	}
	for _, x := range []struct{ account, id string }{{"a", "old"}, {"b", "theirs"}} {
		if err := s.RevokeScreen(ctx, x.account, x.id, t0.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	if err := create("a", "new"); !errors.Is(err, domain.ErrLimit) {
		t.Fatalf("a third screen with a limit of 2 before any removal: %v, want ErrLimit", err)
	}

	for name, x := range map[string]struct {
		account, id string
		want        error
	}{
		"a linked screen":          {"a", "live", domain.ErrScreenLinked},
		"another account's screen": {"a", "theirs", domain.ErrNotFound},
		"an unknown screen":        {"a", "nope", domain.ErrNotFound},
		"an unknown account's":     {"nobody", "old", domain.ErrNotFound},
	} {
		if err := s.RemoveScreen(ctx, x.account, x.id); !errors.Is(err, x.want) {
			t.Errorf("removing %s: %v, want %v", name, err, x.want)
		}
	}
	if err := s.RemoveScreen(ctx, "a", "old"); err != nil {
		t.Fatalf("removing a revoked screen: %v", err)
	}
	if err := s.RemoveScreen(ctx, "a", "old"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("removing it again: %v, want ErrNotFound", err)
	}

	ids := func(account string) string {
		list, err := s.Screens(ctx, account)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, sc := range list {
			out = append(out, sc.ID)
		}
		return strings.Join(out, " ")
	}
	if got := ids("a"); got != "live" {
		t.Errorf("account a's screens after the removal: %q, want live", got)
	}
	if got := ids("b"); got != "theirs" {
		t.Errorf("account b's screens after account a's removals: %q, want theirs", got)
	}
	if _, err := s.Screen(ctx, "a", "old"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("the removed screen: %v, want ErrNotFound", err)
	}
	if _, _, err := s.ScreenByToken(ctx, []byte("hash-old")); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("the removed screen's link: %v, want ErrNotFound", err)
	}
	if sealed, err := s.ScreenCredentials(ctx, ""); err != nil || sealed["old"] != nil || len(sealed) != 2 {
		t.Errorf("sealed credentials after the removal: %d (%v), the removed screen's %q; want only live's and theirs", len(sealed), err, sealed["old"])
	}
	if err := create("a", "new"); err != nil {
		t.Errorf("a new screen in the removed one's place, at the limit: %v", err)
	}
}

func testReceivers(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	r1 := store.Receiver{ID: "r1", Account: "a", Secret: []byte("secret-1"), Created: t0}
	r2 := store.Receiver{ID: "r2", Account: "a", Secret: []byte("secret-2"), Created: t0.Add(time.Minute)}
	r3 := store.Receiver{ID: "r3", Account: "b", Secret: []byte("secret-3"), Created: t0.Add(-time.Minute)}
	for _, r := range []store.Receiver{r2, r1, r3} {
		if err := s.CreateReceiver(ctx, r, 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CreateReceiver(ctx, store.Receiver{ID: "r1", Account: "b", Secret: []byte("x"), Created: t0}, 0); err == nil {
		t.Error("a second receiver with the same id was created")
	}
	list, err := s.Receivers(ctx, "a")
	if err != nil || !reflect.DeepEqual(list, []store.Receiver{r1, r2}) {
		t.Errorf("account a's receivers = %+v, %v; want r1 then r2", list, err)
	}
	if list, _ := s.Receivers(ctx, "b"); len(list) != 1 || list[0].ID != "r3" {
		t.Errorf("account b's receivers = %+v", list)
	}
	if got, err := s.Receiver(ctx, "r3"); err != nil || !reflect.DeepEqual(got, r3) {
		t.Errorf("Receiver(r3) = %+v, %v; want %+v", got, err, r3)
	}

	at, until := t0.Add(time.Hour), t0.Add(25*time.Hour)
	if err := s.RotateReceiver(ctx, "a", "r1", []byte("secret-1b"), at, until); err != nil {
		t.Fatal(err)
	}
	r1.Previous, r1.Secret, r1.PreviousUntil, r1.Rotated = r1.Secret, []byte("secret-1b"), until, at
	if got, err := s.Receiver(ctx, "r1"); err != nil || !reflect.DeepEqual(got, r1) {
		t.Errorf("after rotating: %+v, %v; want %+v", got, err, r1)
	}

	last := t0.Add(2 * time.Hour)
	if err := s.RecordReceived(ctx, map[string]store.ReceiverCounts{
		"r1":   {Accepted: 2, Rejected: 1, LastEvent: last},
		"r2":   {Rejected: 3},
		"gone": {Accepted: 1, LastEvent: last},
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordReceived(ctx, map[string]store.ReceiverCounts{"r1": {Accepted: 1, LastEvent: last.Add(-time.Minute)}}); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordReceived(ctx, nil); err != nil {
		t.Fatal(err)
	}
	r1.Accepted, r1.Rejected, r1.LastEvent = 3, 1, last
	r2.Rejected = 3
	if list, _ := s.Receivers(ctx, "a"); !reflect.DeepEqual(list, []store.Receiver{r1, r2}) {
		t.Errorf("after recording: %+v\nwant %+v", list, []store.Receiver{r1, r2})
	}

	secrets, err := s.ReceiverSecrets(ctx)
	if err != nil || len(secrets) != 3 || string(secrets["r1"]) != "secret-1b" || string(secrets["r3"]) != "secret-3" {
		t.Errorf("ReceiverSecrets = %q, %v", secrets, err)
	}
	// r3 rotated after its secret was read: it keeps its new one.
	if err := s.RotateReceiver(ctx, "b", "r3", []byte("secret-3b"), at, until); err != nil {
		t.Fatal(err)
	}
	n, err := s.ResealReceiverSecrets(ctx, map[string]store.Reseal{
		"r1": {Old: []byte("secret-1b"), New: []byte("resealed-1")},
		"r3": {Old: []byte("secret-3"), New: []byte("resealed-3")},
	})
	if err != nil || n != 1 {
		t.Errorf("ResealReceiverSecrets = %d, %v; want 1", n, err)
	}
	secrets, _ = s.ReceiverSecrets(ctx)
	if string(secrets["r1"]) != "resealed-1" || string(secrets["r3"]) != "secret-3b" || string(secrets["r2"]) != "secret-2" {
		t.Errorf("after resealing: %q", secrets)
	}

	if err := s.RemoveReceiver(ctx, "a", "r2"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Receiver(ctx, "r2"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("a removed receiver: %v, want ErrNotFound", err)
	}
	if list, _ := s.Receivers(ctx, "a"); len(list) != 1 || list[0].ID != "r1" {
		t.Errorf("account a's receivers after a removal = %+v", list)
	}
}

// testSessions: sessions are found until they expire, written again,
// deleted, counted, and resealed; expired ones are left out of all.
func testSessions(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	// The engines compare expiries with their own clocks: the test's
	// expiries are far from now either way.
	now := time.Now().UTC().Truncate(time.Millisecond)
	live, expired := now.Add(time.Hour), now.Add(-time.Hour)
	for token, expiry := range map[string]time.Time{"live": live, "stale": live, "broken": live, "expired": expired} {
		if err := s.CommitSession(ctx, token, []byte("data-"+token), expiry); err != nil {
			t.Fatal(err)
		}
	}
	data, expiry, found, err := s.FindSession(ctx, "live")
	if err != nil || !found || string(data) != "data-live" || !expiry.Equal(live) {
		t.Errorf("FindSession(live) = %q, %v, %v, %v; want its data, expiring at %v", data, expiry, found, err, live)
	}
	for _, token := range []string{"expired", "unknown"} {
		if data, _, found, err := s.FindSession(ctx, token); err != nil || found || data != nil {
			t.Errorf("FindSession(%s) = %q, %v, %v; want none", token, data, found, err)
		}
	}
	if n, err := s.CountSessions(ctx); err != nil || n != 3 {
		t.Errorf("CountSessions = %d, %v; want the 3 unexpired", n, err)
	}

	// Written again with new data and a later expiry.
	later := live.Add(time.Hour)
	if err := s.CommitSession(ctx, "live", []byte("data-live-2"), later); err != nil {
		t.Fatal(err)
	}
	if data, expiry, found, _ := s.FindSession(ctx, "live"); !found || string(data) != "data-live-2" || !expiry.Equal(later) {
		t.Errorf("after a new commit: %q, %v, %v", data, expiry, found)
	}
	// An expired session written again with a later expiry is found again.
	if err := s.CommitSession(ctx, "expired", []byte("data-back"), live); err != nil {
		t.Fatal(err)
	}
	if data, _, found, _ := s.FindSession(ctx, "expired"); !found || string(data) != "data-back" {
		t.Errorf("a session renewed: %q, %v", data, found)
	}
	if err := s.CommitSession(ctx, "expired", []byte("data-expired"), expired); err != nil {
		t.Fatal(err)
	}

	var seen []string
	n, err := s.ResealSessions(ctx, func(b []byte) ([]byte, bool, error) {
		seen = append(seen, string(b))
		switch string(b) {
		case "data-live-2":
			return []byte("resealed"), true, nil
		case "data-broken":
			return nil, false, errors.New("cannot open it")
		}
		return b, false, nil
	})
	if err != nil || n != 1 {
		t.Errorf("ResealSessions = %d, %v; want 1", n, err)
	}
	if len(seen) != 3 {
		t.Errorf("reseal saw %q; want the 3 unexpired sessions", seen)
	}
	for token, want := range map[string]string{"live": "resealed", "stale": "data-stale", "broken": "data-broken"} {
		if data, _, _, _ := s.FindSession(ctx, token); string(data) != want {
			t.Errorf("%s after resealing: %q, want %q", token, data, want)
		}
	}

	if err := s.DeleteExpiredSessions(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteSession(ctx, "stale"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteSession(ctx, "unknown"); err != nil {
		t.Errorf("deleting an unknown session: %v", err)
	}
	if _, _, found, _ := s.FindSession(ctx, "stale"); found {
		t.Error("a deleted session is found")
	}
	if n, err := s.CountSessions(ctx); err != nil || n != 2 {
		t.Errorf("CountSessions after deleting = %d, %v; want live and broken", n, err)
	}
	// Deleting the expired ones leaves the others.
	if data, _, found, _ := s.FindSession(ctx, "live"); !found || string(data) != "resealed" {
		t.Errorf("live after DeleteExpiredSessions: %q, %v", data, found)
	}
	// An expired session's token can be used again.
	if err := s.CommitSession(ctx, "expired", []byte("again"), live); err != nil {
		t.Fatal(err)
	}
	if data, _, found, _ := s.FindSession(ctx, "expired"); !found || string(data) != "again" {
		t.Errorf("a token used again: %q, %v", data, found)
	}
}

// testLimitsHoldAtOnce: an account's screens and receivers stop at the
// limit their creation is given, however many are created at once; the
// refused are domain.ErrLimit, and another account is not counted.
func testLimitsHoldAtOnce(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	const max = 3
	kinds := []struct {
		name   string
		create func(account string, i int) error
	}{
		{"screens", func(account string, i int) error {
			id := fmt.Sprintf("%s-scr%d", account, i)
			return s.CreateScreen(ctx, domain.Screen{ID: id, Account: account, Name: id, Scope: domain.ScreenScope{Kind: "account"}, Created: t0},
				[]byte("hash-"+id), []byte("sealed"), max)
		}},
		{"receivers", func(account string, i int) error {
			return s.CreateReceiver(ctx, store.Receiver{ID: fmt.Sprintf("%s-rcv%d", account, i), Account: account, Secret: []byte("s"), Created: t0}, max)
		}},
	}
	for _, k := range kinds {
		if err := k.create("a", 0); err != nil {
			t.Fatalf("the first of account a's %s: %v", k.name, err)
		}
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = k.create("a", i+1)
			}()
		}
		wg.Wait()
		made, refused := 1, 0
		for _, err := range errs {
			switch {
			case err == nil:
				made++
			case errors.Is(err, domain.ErrLimit):
				refused++
			default:
				t.Errorf("creating %s at once: %v", k.name, err)
			}
		}
		if made != max || refused != len(errs)+1-max {
			t.Errorf("%d %s made at once from 1 with a limit of %d: %d made, %d refused", len(errs), k.name, max, made, refused)
		}
		if err := k.create("b", 0); err != nil {
			t.Errorf("account b's first %s, account a at its limit: %v", k.name, err)
		}
	}
	if list, err := s.Screens(ctx, "a"); err != nil || len(list) != max {
		t.Errorf("account a keeps %d screens (%v); want %d", len(list), err, max)
	}
	if list, err := s.Receivers(ctx, "a"); err != nil || len(list) != max {
		t.Errorf("account a keeps %d receivers (%v); want %d", len(list), err, max)
	}
}
