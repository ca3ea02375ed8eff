package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// testClaims: a claim of an open alert is the alert's active claim; a
// closed alert, or one the cache does not hold, cannot be claimed; a new
// claim hands the alert over; a release ends the claim, and releasing
// an alert nobody is on does nothing.
func testClaims(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{
		alert("x1", "a-1", t0, true, false),
		alert("x2", "a-2", t0, true, true),
		alert("x9", "a-3", t0, false, false),
	}, SeenAt: t0})
	if got := activeClaims(t, s, "a"); len(got) != 0 {
		t.Errorf("active claims before any: %+v", got)
	}

	ana := domain.Claim{AlertID: "x1", Name: "Ana", Note: "bringing towels", At: t0.Add(10 * time.Minute)}
	mustClaim(t, s, "a", ana)
	if got, want := activeClaims(t, s, "a"), map[string]domain.Claim{"x1": ana}; !reflect.DeepEqual(got, want) {
		t.Errorf("active claims = %+v; want %+v", got, want)
	}

	for _, c := range []struct{ account, alertID, why string }{
		{"a", "x9", "a closed alert"},
		{"a", "x404", "an alert the cache does not hold"},
		{"nobody", "x1", "an account the cache does not hold"},
	} {
		err := s.ClaimAlert(ctx, c.account, domain.Claim{AlertID: c.alertID, Name: "Ana", At: t0.Add(11 * time.Minute)})
		if !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("claiming %s: %v; want ErrNotFound", c.why, err)
		}
	}
	if got, want := activeClaims(t, s, "a"), map[string]domain.Claim{"x1": ana}; !reflect.DeepEqual(got, want) {
		t.Errorf("after claims that failed, active claims = %+v; want %+v", got, want)
	}

	// Ben takes over: Ana's claim ends, handed over when Ben claimed.
	ben := domain.Claim{AlertID: "x1", Name: "Ben", At: t0.Add(25 * time.Minute)}
	mustClaim(t, s, "a", ben)
	if got, want := activeClaims(t, s, "a"), map[string]domain.Claim{"x1": ben}; !reflect.DeepEqual(got, want) {
		t.Errorf("after a handover, active claims = %+v; want %+v", got, want)
	}

	// Ben lets go; releasing again, or an alert nobody is on, or of an
	// account the cache does not hold, does nothing.
	released := t0.Add(40 * time.Minute)
	for _, r := range []struct {
		account, alertID string
		at               time.Time
	}{
		{"a", "x1", released}, {"a", "x1", released.Add(time.Minute)}, {"a", "x2", released}, {"a", "x404", released},
		{"nobody", "x1", released},
	} {
		if err := s.ReleaseClaim(ctx, r.account, r.alertID, r.at); err != nil {
			t.Errorf("ReleaseClaim(%s, %s): %v", r.account, r.alertID, err)
		}
	}
	if got := activeClaims(t, s, "a"); len(got) != 0 {
		t.Errorf("after the release, active claims = %+v; want none", got)
	}
	want := []domain.Claim{ended(ana, ben.At, domain.ClaimHanded), ended(ben, released, domain.ClaimReleased)}
	if got := claimsDuring(t, s, "a", t0, t0.Add(time.Hour), 0); !reflect.DeepEqual(got, want) {
		t.Errorf("claims of the hour = %+v;\nwant %+v", got, want)
	}

	// The alert can be claimed again. The store keeps what it is given,
	// beyond the limits the caller checks too.
	again := domain.Claim{AlertID: "x1", Name: strings.Repeat("Zoë ", 10*domain.MaxClaimName), Note: strings.Repeat("ü\n", 10*domain.MaxClaimNote),
		At: t0.Add(50 * time.Minute)}
	mustClaim(t, s, "a", again)
	if got := activeClaims(t, s, "a"); !reflect.DeepEqual(got["x1"], again) {
		t.Errorf("a claim with long text came back as %q, %q", got["x1"].Name, got["x1"].Note)
	}

	// A claim made at a time before the one it hands over (another
	// replica's clock) does not end that one before it began.
	early := domain.Claim{AlertID: "x1", Name: "Cy", At: again.At.Add(-time.Minute)}
	mustClaim(t, s, "a", early)
	for _, c := range claimsDuring(t, s, "a", t0, t0.Add(time.Hour), 0) {
		if c.Name == again.Name && (!c.Ended.Equal(again.At) || c.EndedBy != domain.ClaimHanded) {
			t.Errorf("the claim handed over at an earlier time ended %v, %s; want when it was made, %v, handed", c.Ended, c.EndedBy, again.At)
		}
	}
	if got, want := activeClaims(t, s, "a"), map[string]domain.Claim{"x1": early}; !reflect.DeepEqual(got, want) {
		t.Errorf("active claims = %+v; want %+v", got, want)
	}
}

// testClaimsOfPeople: a claim in a person's name shows the person's name
// as it is now, in the active claims and in the record of a span of time,
// of the whole account or of some buildings; a hand-over keeps each claim
// its person; a person removed from the account keeps their name on
// their claims; a claim of a person gone shows the name it kept; and a
// claim of a name typed, with no person, keeps that name.
func testClaimsOfPeople(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{
		alert("x1", "a-1", t0, true, false), alert("x2", "a-2", t0, true, false), alert("x3", "a-3", t0, true, false),
	}, SeenAt: t0})
	ana := newPerson("p-ana", "Ana", "")
	mustJoin(t, s, "a", ana, true)
	mustJoin(t, s, "a", newPerson("p-ben", "Ben", ""), true)

	onX1 := domain.Claim{AlertID: "x1", PersonID: "p-ana", Name: "Ana", Note: "towels", At: t0.Add(time.Minute)}
	typed := domain.Claim{AlertID: "x2", Name: "Maria", At: t0.Add(2 * time.Minute)}
	gone := domain.Claim{AlertID: "x3", PersonID: "p-gone", Name: "Cy", At: t0.Add(3 * time.Minute)}
	for _, c := range []domain.Claim{onX1, typed, gone} {
		mustClaim(t, s, "a", c)
	}
	if got, want := activeClaims(t, s, "a"), map[string]domain.Claim{"x1": onX1, "x2": typed, "x3": gone}; !reflect.DeepEqual(got, want) {
		t.Errorf("active claims = %+v;\nwant %+v", got, want)
	}

	// Ana renames herself: her claim follows.
	ana.Name = "Ana Pereira"
	if err := s.UpdatePerson(ctx, ana); err != nil {
		t.Fatal(err)
	}
	renamed := onX1
	renamed.Name = "Ana Pereira"
	if got := activeClaims(t, s, "a")["x1"]; !reflect.DeepEqual(got, renamed) {
		t.Errorf("after Ana renamed herself, her claim = %+v; want %+v", got, renamed)
	}

	// Ben takes x1 over: Ana's claim ends, still hers.
	ben := domain.Claim{AlertID: "x1", PersonID: "p-ben", Name: "Ben", At: t0.Add(10 * time.Minute)}
	mustClaim(t, s, "a", ben)
	want := []domain.Claim{ended(renamed, ben.At, domain.ClaimHanded), typed, gone, ben}
	if got := claimsDuring(t, s, "a", t0, t0.Add(time.Hour), 0); !reflect.DeepEqual(got, want) {
		t.Errorf("the claims of the hour = %+v;\nwant %+v", got, want)
	}
	if got, err := s.ClaimsDuring(ctx, "a", t0, t0.Add(time.Hour), []string{"a-b1"}, 0); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("the claims of the hour in North Tower = %+v, %v;\nwant %+v", got, err, want)
	}

	// Ben leaves the account: his claim keeps his name.
	if _, err := s.RemoveMember(ctx, "a", "p-ben", store.Audit{At: t0.Add(20 * time.Minute), ActorName: "Ana"}); err != nil {
		t.Fatal(err)
	}
	if got := activeClaims(t, s, "a")["x1"]; !reflect.DeepEqual(got, ben) {
		t.Errorf("after Ben left the account, his claim = %+v; want %+v", got, ben)
	}
}

// testClaimsEndWithTheirAlerts: the refresh, or the event, that closes an
// alert or removes it from the cache ends its claim, when the service was
// seen; a refresh that does not commit leaves the claims as they were.
func testClaimsEndWithTheirAlerts(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	var alerts []domain.Alert
	claims := map[string]domain.Claim{}
	for i := 1; i <= 6; i++ {
		id := fmt.Sprint("x", i)
		alerts = append(alerts, alert(id, fmt.Sprint("a-", 1+i%4), t0, true, false))
		claims[id] = domain.Claim{AlertID: id, Name: fmt.Sprint("Staff ", i), At: t0.Add(time.Duration(i) * time.Minute)}
	}
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: alerts, SeenAt: t0})
	for _, id := range []string{"x1", "x2", "x3", "x4", "x5", "x6"} {
		mustClaim(t, s, "a", claims[id])
	}
	// closed is alert xi closed at resolved.
	closed := func(i int, resolved time.Time) domain.Alert {
		a := alerts[i-1]
		a.Status, a.Resolved, a.Resolution = domain.AlertClosed, resolved, domain.ResolvedByUser
		return a
	}
	checkActive := func(step string, ids ...string) {
		t.Helper()
		want := map[string]domain.Claim{}
		for _, id := range ids {
			want[id] = claims[id]
		}
		if got := activeClaims(t, s, "a"); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: active claims = %+v;\nwant %+v", step, got, want)
		}
	}
	checkEnded := func(step, id string, at time.Time) {
		t.Helper()
		for _, c := range claimsDuring(t, s, "a", t0, t0.Add(24*time.Hour), 0) {
			if c.AlertID == id && c.Name == claims[id].Name {
				if want := ended(claims[id], at, domain.ClaimClosed); !reflect.DeepEqual(c, want) {
					t.Errorf("%s: %s's claim = %+v; want %+v", step, id, c, want)
				}
				return
			}
		}
		t.Errorf("%s: %s's claim is missing", step, id)
	}

	// A refresh that closes x1 and rolls back, and one whose commit
	// fails, leave every claim active.
	seen := t0.Add(time.Hour)
	r, err := s.BeginAlerts(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	r.SeenAt(seen)
	if err := r.Write(ctx, []domain.Alert{closed(1, seen.Add(-time.Minute))}); err != nil {
		t.Fatal(err)
	}
	r.Rollback()
	checkActive("after a refresh rolled back", "x1", "x2", "x3", "x4", "x5", "x6")
	r, err = s.BeginAlerts(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	r.SeenAt(seen)
	if err := r.Write(ctx, []domain.Alert{closed(1, seen.Add(-time.Minute))}); err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := r.Commit(cancelled, []string{"x2"}, time.Time{}); err == nil {
		t.Error("a refresh committed with a cancelled context succeeded")
	}
	r.Rollback()
	checkActive("after a refresh failed", "x1", "x2", "x3", "x4", "x5", "x6")

	// A refresh closes x1 and sees x2 no more: both claims end when it
	// saw the service, even though x1 was resolved earlier.
	r, err = s.BeginAlerts(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Rollback()
	r.SeenAt(seen)
	if err := r.Write(ctx, []domain.Alert{closed(1, seen.Add(-time.Minute)), alerts[2], alerts[3], alerts[4], alerts[5]}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Commit(ctx, []string{"x2"}, time.Time{}); err != nil {
		t.Fatal(err)
	}
	checkActive("after a refresh closed x1 and removed x2", "x3", "x4", "x5", "x6")
	checkEnded("x1 closed", "x1", seen)
	checkEnded("x2 removed", "x2", seen)

	// An event that resolves x3 ends its claim when the event arrived; one
	// that adds refills to x4 does not.
	eventSeen := t0.Add(2 * time.Hour)
	more := alerts[3]
	more.RefillCount = 3
	if _, err := s.ApplyAlertEvents(ctx, "a", []domain.Alert{closed(3, eventSeen.Add(-time.Minute)), more}, eventSeen); err != nil {
		t.Fatal(err)
	}
	checkActive("after an event resolved x3", "x4", "x5", "x6")
	checkEnded("x3 resolved by an event", "x3", eventSeen)

	// A refresh that read the service before x4 was claimed (its claim was
	// made at t0+4m) ends the claim when it was made, not before.
	mustApplyAlerts(t, s, "a", store.AlertWrite{Remove: []string{"x4"}, SeenAt: t0.Add(3 * time.Minute)})
	checkActive("after a refresh read before x4's claim removed x4", "x5", "x6")
	checkEnded("x4 removed by an earlier read", "x4", claims["x4"].At)

	// A write that does not say when it saw the service ends the claim of
	// the alert it closes when the alert was resolved.
	resolved := t0.Add(150 * time.Minute)
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{closed(5, resolved)}})
	checkActive("after a write without its time closed x5", "x6")
	checkEnded("x5 closed by a write without its time", "x5", resolved)
}

// testClaimsGoWithOldAlerts: a refresh that prunes the closed alerts
// created before a time removes the claims that ended before it of the
// alerts gone, so that the record of claims is kept as long as the
// alerts; the claims of an alert still held, active or ended, those ended
// since and other accounts' stay.
func testClaimsGoWithOldAlerts(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	mustReplaceLayout(t, s, testLayout("a", false))
	mustReplaceLayout(t, s, testLayout("b", false))
	x1, x2, x3 := alert("x1", "a-1", t0, true, false), alert("x2", "a-2", t0, true, false), alert("x3", "a-3", t0, true, false)
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{x1, x2, x3}, SeenAt: t0})
	mustApplyAlerts(t, s, "b", store.AlertWrite{Upserts: []domain.Alert{alert("y1", "b-1", t0, true, false)}, SeenAt: t0})
	claim := func(account, id string) domain.Claim {
		c := domain.Claim{AlertID: id, Name: "Staff " + id, At: t0.Add(time.Minute)}
		mustClaim(t, s, account, c)
		return c
	}
	release := func(account string, c domain.Claim, at time.Time) domain.Claim {
		if err := s.ReleaseClaim(t.Context(), account, c.AlertID, at); err != nil {
			t.Fatal(err)
		}
		return ended(c, at, domain.ClaimReleased)
	}
	release("a", claim("a", "x1"), t0.Add(2*time.Minute))
	c2 := release("a", claim("a", "x2"), t0.Add(3*time.Hour))
	c3 := release("a", claim("a", "x3"), t0.Add(4*time.Minute)) // x3 stays open
	c3again := domain.Claim{AlertID: "x3", Name: "Staff x3, again", At: t0.Add(5 * time.Minute)}
	mustClaim(t, s, "a", c3again)
	y1 := release("b", claim("b", "y1"), t0.Add(2*time.Minute))

	x1.Status, x1.Resolved, x1.Resolution = domain.AlertClosed, t0.Add(10*time.Minute), domain.ResolvedByUser
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{x1, x2, x3}, PruneBefore: t0.Add(time.Hour), SeenAt: t0.Add(4 * time.Hour)})
	if got, want := claimsDuring(t, s, "a", t0.Add(-24*time.Hour), t0.Add(24*time.Hour), 0), []domain.Claim{c2, c3, c3again}; !reflect.DeepEqual(got, want) {
		t.Errorf("after pruning the alerts closed and created an hour after t0, the claims are\n%+v;\nwant the one ended since and those of the open alert\n%+v", got, want)
	}
	if got := claimsDuring(t, s, "b", t0.Add(-24*time.Hour), t0.Add(24*time.Hour), 0); !reflect.DeepEqual(got, []domain.Claim{y1}) {
		t.Errorf("the other account's claims are %+v; want %+v", got, y1)
	}
}

// testClaimsDuring: the claims of a span of time are those active at any
// moment of it, in the order they were made, then by alert id, as many
// as the limit allows.
func testClaimsDuring(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	var alerts []domain.Alert
	for i := 1; i <= 7; i++ {
		alerts = append(alerts, alert(fmt.Sprint("x", i), "a-1", t0, true, false))
	}
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: alerts, SeenAt: t0})
	from, to := t0.Add(2*time.Hour), t0.Add(4*time.Hour)
	at := func(minutes int) time.Time { return t0.Add(time.Duration(minutes) * time.Minute) }
	claim := func(name, alertID string, minutes int) domain.Claim {
		c := domain.Claim{AlertID: alertID, Name: name, At: at(minutes)}
		mustClaim(t, s, "a", c)
		return c
	}
	release := func(alertID string, minutes int) {
		if err := s.ReleaseClaim(ctx, "a", alertID, at(minutes)); err != nil {
			t.Fatal(err)
		}
	}
	claim("ended before", "x1", 0)
	release("x1", 60)
	claim("ended at from", "x2", 60)
	release("x2", 120)
	endedInside := claim("ended inside", "x3", 90)
	release("x3", 150)
	claim("made at from", "x5", 120)
	claim("made after to", "x5", 300) // hands "made at from" over
	claim("made at to", "x6", 240)
	claim("active since before", "x7", 60)
	claim("inside, x4", "x4", 180)
	claim("inside, x1", "x1", 180) // made after x4's, listed before it

	names := func(claims []domain.Claim) string {
		var out []string
		for _, c := range claims {
			out = append(out, c.Name)
		}
		return strings.Join(out, "; ")
	}
	want := "active since before; ended inside; made at from; inside, x1; inside, x4"
	for _, limit := range []int{0, -1, 5, 100} {
		if got := names(claimsDuring(t, s, "a", from, to, limit)); got != want {
			t.Errorf("claims of [t0+2h, t0+4h), limit %d: %s;\nwant %s", limit, got, want)
		}
	}
	if got, want := names(claimsDuring(t, s, "a", from, to, 2)), "active since before; ended inside"; got != want {
		t.Errorf("the first 2 claims: %s; want %s", got, want)
	}
	all := claimsDuring(t, s, "a", t0, t0.Add(24*time.Hour), 0)
	want = "ended before; ended at from; active since before; ended inside; made at from; inside, x1; inside, x4; made at to; made after to"
	if got := names(all); got != want {
		t.Errorf("every claim: %s;\nwant %s", got, want)
	}
	for _, c := range all {
		if c.Name == endedInside.Name {
			if want := ended(endedInside, at(150), domain.ClaimReleased); !reflect.DeepEqual(c, want) {
				t.Errorf("a claim ended inside = %+v; want %+v", c, want)
			}
		}
		if c.Name == "made at from" && (!c.Ended.Equal(at(300)) || c.EndedBy != domain.ClaimHanded) {
			t.Errorf("a claim handed over = %+v; want ended at %v, handed", c, at(300))
		}
	}
	if got := claimsDuring(t, s, "nobody", t0, t0.Add(24*time.Hour), 0); len(got) != 0 {
		t.Errorf("claims of an account the cache does not hold: %+v", got)
	}
}

// testClaimsOfOneAccount: an account sees, claims, releases and ends its
// own alerts' claims only, even of an alert of the same id as another
// account's.
func testClaimsOfOneAccount(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	mustReplaceLayout(t, s, testLayout("b", true))
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{alert("xa", "a-1", t0, true, false), alert("same", "a-2", t0, true, false)}, SeenAt: t0})
	mustApplyAlerts(t, s, "b", store.AlertWrite{Upserts: []domain.Alert{alert("xb", "1", t0, true, false), alert("same", "2", t0, true, false)}, SeenAt: t0})
	onA := domain.Claim{AlertID: "xa", Name: "Ana", At: t0.Add(time.Minute)}
	sameA := domain.Claim{AlertID: "same", Name: "Ana", At: t0.Add(2 * time.Minute)}
	sameB := domain.Claim{AlertID: "same", Name: "Ben", At: t0.Add(3 * time.Minute)}
	mustClaim(t, s, "a", onA)
	mustClaim(t, s, "a", sameA)
	mustClaim(t, s, "b", sameB)

	if err := s.ClaimAlert(ctx, "b", domain.Claim{AlertID: "xa", Name: "Ben", At: t0.Add(4 * time.Minute)}); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("b claiming a's alert: %v; want ErrNotFound", err)
	}
	if err := s.ReleaseClaim(ctx, "b", "xa", t0.Add(5*time.Minute)); err != nil {
		t.Errorf("b releasing a's alert: %v", err)
	}
	if got, want := activeClaims(t, s, "b"), map[string]domain.Claim{"same": sameB}; !reflect.DeepEqual(got, want) {
		t.Errorf("b's active claims = %+v; want %+v", got, want)
	}
	if got, want := claimsDuring(t, s, "b", t0, t0.Add(time.Hour), 0), []domain.Claim{sameB}; !reflect.DeepEqual(got, want) {
		t.Errorf("b's claims = %+v; want %+v", got, want)
	}

	// b's refresh closes its alert "same" and no longer lists xa (which it
	// never held): a's claims stay.
	closedB := alert("same", "2", t0, false, false)
	mustApplyAlerts(t, s, "b", store.AlertWrite{Upserts: []domain.Alert{closedB}, Remove: []string{"xa"}, SeenAt: t0.Add(time.Hour)})
	if got, want := activeClaims(t, s, "a"), map[string]domain.Claim{"xa": onA, "same": sameA}; !reflect.DeepEqual(got, want) {
		t.Errorf("a's active claims after b's refresh = %+v; want %+v", got, want)
	}
	if got := activeClaims(t, s, "b"); len(got) != 0 {
		t.Errorf("b's active claims after its refresh = %+v; want none", got)
	}
}

// testClaimsAtOnce: claims of one alert made at once, as from several
// replicas, all succeed, one after the other: one stays active.
func testClaimsAtOnce(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{alert("x1", "1", t0, true, false)}, SeenAt: t0})
	const n = 8
	errs := make(chan error, n)
	for i := range n {
		go func() {
			errs <- s.ClaimAlert(ctx, "a", domain.Claim{AlertID: "x1", Name: fmt.Sprint("Staff ", i), At: t0.Add(time.Minute)})
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Errorf("a claim made with others: %v", err)
		}
	}
	if got := activeClaims(t, s, "a"); len(got) != 1 {
		t.Errorf("active claims = %+v; want one", got)
	}
}

func mustClaim(t *testing.T, s store.Store, account string, c domain.Claim) {
	t.Helper()
	if err := s.ClaimAlert(t.Context(), account, c); err != nil {
		t.Fatalf("ClaimAlert(%s, %s): %v", account, c.AlertID, err)
	}
}

func activeClaims(t *testing.T, s store.Store, account string) map[string]domain.Claim {
	t.Helper()
	got, err := s.ActiveClaims(t.Context(), account)
	if err != nil {
		t.Fatalf("ActiveClaims(%s): %v", account, err)
	}
	return got
}

func claimsDuring(t *testing.T, s store.Store, account string, from, to time.Time, limit int) []domain.Claim {
	t.Helper()
	got, err := s.ClaimsDuring(t.Context(), account, from, to, nil, limit)
	if err != nil {
		t.Fatalf("ClaimsDuring(%s): %v", account, err)
	}
	return got
}

// ended is c ended at at, by how.
func ended(c domain.Claim, at time.Time, how domain.ClaimEnd) domain.Claim {
	c.Ended, c.EndedBy = at, how
	return c
}
