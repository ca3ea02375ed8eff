package storetest

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// testNotificationsDue: what Decide adds comes back from DueNotifications
// as it was given, with its account and items, when it is waiting or
// pending and due: earliest first, at most limit of them.
func testNotificationsDue(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	n1 := notification("n1", "a", store.NotificationPending, t0.Add(10*time.Minute), "item 1")
	n1.Rule, n1.Channel, n1.Kind, n1.Subject = "Overdue", "email", "alert.overdue", "x1"
	n2 := notification("n2", "b", store.NotificationWaiting, t0.Add(5*time.Minute), "item 2")
	n3 := notification("n3", "a", store.NotificationPending, t0.Add(20*time.Minute), "item 3a", "item 3b")
	n3.Attempts, n3.LastAttempt, n3.Note = 2, t0.Add(time.Minute), "the server answered 503"
	n4 := notification("n4", "a", store.NotificationPending, t0.Add(2*time.Hour), "later")
	n5 := notification("n5", "a", store.NotificationSent, t0, "sent already")
	n5.Sent = t0.Add(time.Minute)
	n6 := notification("n6", "b", store.NotificationPending, t0.Add(10*time.Minute))
	decide(t, s, store.Decision{New: []store.Notification{n4, n3, n5, n2, n1, n6}})

	now := t0.Add(20 * time.Minute)
	if got := dueNotifications(t, s, now, 0); !reflect.DeepEqual(got, []store.Notification{n2, n1, n6, n3}) {
		t.Errorf("due at %s:\n%s\nwant n2, n1, n6 (no items), n3; not n4 (later) nor n5 (sent)", now.Format(time.TimeOnly), notificationLines(got))
	}
	if got := dueNotifications(t, s, now, 2); len(got) != 2 || got[0].ID != "n2" || got[1].ID != "n1" {
		t.Errorf("at most 2 due:\n%s", notificationLines(got))
	}
	if got := dueNotifications(t, s, t0, 0); len(got) != 0 {
		t.Errorf("due before any is:\n%s", notificationLines(got))
	}
}

// testNotificationsBounded: DueNotifications and NotificationLog return
// store.NotificationsLimit notifications without a limit, and no more than
// store.NotificationsMax whatever the limit.
func testNotificationsBounded(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	var many []store.Notification
	for i := range store.NotificationsMax + 1 {
		n := notification(fmt.Sprintf("n%04d", i), "a", store.NotificationPending, t0.Add(time.Duration(i)*time.Second), "item")
		n.Created = n.Due
		many = append(many, n)
	}
	decide(t, s, store.Decision{New: many})
	now := t0.Add(time.Hour)
	for _, c := range []struct {
		limit, want int
	}{{0, store.NotificationsLimit}, {-1, store.NotificationsLimit}, {5000, store.NotificationsMax}, {7, 7}} {
		if got := dueNotifications(t, s, now, c.limit); len(got) != c.want || got[0].ID != "n0000" {
			t.Errorf("DueNotifications with limit %d: %d, the first %q; want %d, from n0000", c.limit, len(got), firstID(got), c.want)
		}
		if got := notificationLog(t, s, "a", "ops", c.limit); len(got) != c.want || got[0].ID != "n1000" {
			t.Errorf("NotificationLog with limit %d: %d, the first %q; want %d, from n1000", c.limit, len(got), firstID(got), c.want)
		}
	}
}

// testNotificationIDsAreIdempotent: a notification decided again, in a
// later decision or twice in one, keeps what was decided first, its items
// included.
func testNotificationIDsAreIdempotent(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	first := notification("n1", "a", store.NotificationPending, t0, "first", "second")
	again := notification("n1", "a", store.NotificationWaiting, t0.Add(-time.Hour), "other")
	again.Rule, again.Note = "Another rule", "decided again"
	decide(t, s, store.Decision{New: []store.Notification{first}})
	decide(t, s, store.Decision{New: []store.Notification{again}})
	twice := notification("n2", "a", store.NotificationPending, t0.Add(time.Minute), "one")
	decide(t, s, store.Decision{New: []store.Notification{twice, again, notification("n2", "a", store.NotificationPending, t0, "two", "three")}})
	if got := dueNotifications(t, s, t0.Add(time.Hour), 0); !reflect.DeepEqual(got, []store.Notification{first, twice}) {
		t.Errorf("notifications decided again:\n%s\nwant each as decided first:\n%s", notificationLines(got), notificationLines([]store.Notification{first, twice}))
	}
}

// testDigests: a digest collects the items added to it after those it
// opened with, in order, across decisions; OpenDigest finds the newest
// digest of an account's rule to a channel while it is pending and never
// attempted, with how many items it holds, and no other notification.
func testDigests(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	var openItems int // the items of the digest openDigest found last
	openDigest := func(account, rule, channel string) string {
		t.Helper()
		id, items, ok, err := s.OpenDigest(ctx, account, rule, channel)
		openItems = items
		if err != nil {
			t.Fatal(err)
		}
		if ok == (id == "") {
			t.Errorf("OpenDigest(%s, %s, %s) = %q, %v", account, rule, channel, id, ok)
		}
		return id
	}
	single := notification("single", "a", store.NotificationPending, t0.Add(time.Hour), "an item alone")
	decide(t, s, store.Decision{New: []store.Notification{single}})
	if id := openDigest("a", "Low", "ops"); id != "" {
		t.Errorf("before any digest, the open one is %q", id)
	}

	d1 := digest("d1", "a", t0, "i1")
	decide(t, s, store.Decision{New: []store.Notification{d1}, DigestItems: []store.DigestItem{{ID: "d1", Item: []byte("i2")}}})
	decide(t, s, store.Decision{DigestItems: []store.DigestItem{{ID: "d1", Item: []byte("i3")}, {ID: "d1", Item: []byte("i4")}}})
	decide(t, s, store.Decision{DigestItems: []store.DigestItem{{ID: "d1", Item: []byte("i5")}}})
	got := dueNotifications(t, s, t0.Add(time.Hour), 0)
	if len(got) != 2 || got[0].ID != "d1" || got[0].ItemCount != 5 || itemText(got[0].Items) != "i1 i2 i3 i4 i5" {
		t.Errorf("due:\n%s\nwant d1 with i1 to i5, then single", notificationLines(got))
	}
	if id := openDigest("a", "Low", "ops"); id != "d1" || openItems != 5 {
		t.Errorf("the open digest is %q, of %d items; want d1, of 5", id, openItems)
	}
	for _, other := range [][3]string{{"b", "Low", "ops"}, {"a", "Other", "ops"}, {"a", "Low", "email"}} {
		if id := openDigest(other[0], other[1], other[2]); id != "" {
			t.Errorf("the open digest of account %s, rule %s, channel %s is %q; want none", other[0], other[1], other[2], id)
		}
	}

	d2 := digest("d2", "a", t0.Add(time.Minute), "j1")
	decide(t, s, store.Decision{New: []store.Notification{d2}})
	if id := openDigest("a", "Low", "ops"); id != "d2" {
		t.Errorf("with two open, the open digest is %q; want the newer, d2", id)
	}
	// An attempt that failed leaves d2 pending, to be tried again: it
	// collects no more.
	decide(t, s, store.Decision{Updates: []store.NotificationUpdate{{ID: "d2", State: store.NotificationPending,
		Due: t0.Add(time.Hour), Attempts: 1, LastAttempt: t0.Add(30 * time.Minute), Note: "timed out"}}})
	if id := openDigest("a", "Low", "ops"); id != "d1" {
		t.Errorf("after d2 was attempted, the open digest is %q; want d1", id)
	}
	decide(t, s, store.Decision{Updates: []store.NotificationUpdate{{ID: "d1", State: store.NotificationSent,
		Due: t0.Add(time.Hour), Attempts: 1, LastAttempt: t0.Add(time.Hour), Sent: t0.Add(time.Hour)}}})
	if id := openDigest("a", "Low", "ops"); id != "" {
		t.Errorf("after both were attempted, the open digest is %q; want none", id)
	}
	d3 := digest("d3", "a", t0.Add(2*time.Minute))
	d3.State = store.NotificationWaiting
	decide(t, s, store.Decision{New: []store.Notification{d3}})
	if id := openDigest("a", "Low", "ops"); id != "" {
		t.Errorf("with a digest waiting, the open digest is %q; want none", id)
	}
}

// testDecisionsAreWhole: a decision that fails, with an item for a digest
// or an update of a notification the store does not hold, records
// nothing: neither its notifications nor how far it decided.
func testDecisionsAreWhole(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	facts := recordFacts(t, s, 2)
	n1 := notification("n1", "a", store.NotificationPending, t0, "one")
	for _, d := range []store.Decision{
		{Through: facts[0].Seq, New: []store.Notification{n1}, DigestItems: []store.DigestItem{{ID: "no-such-digest", Item: []byte("x")}}},
		{Through: facts[0].Seq, New: []store.Notification{n1}, Updates: []store.NotificationUpdate{{ID: "no-such-notification", State: store.NotificationSent}}},
	} {
		if err := s.Decide(ctx, d); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("a decision naming a notification the store does not hold: %v; want ErrNotFound", err)
		}
	}
	if got := dueNotifications(t, s, t0, 0); len(got) != 0 {
		t.Errorf("after failed decisions, due:\n%s", notificationLines(got))
	}
	if through := decidedThrough(t, s); through != 0 {
		t.Errorf("after failed decisions, DecidedThrough = %d; want 0", through)
	}
	if got := factsAfter(t, s, 0, 0); len(got) != 2 {
		t.Errorf("after failed decisions, facts:\n%s\nwant both", factLines(got))
	}
}

// testNotificationUpdates: an update replaces a notification's state, due
// time, attempts, last attempt, sent time and note, and leaves the rest.
func testNotificationUpdates(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	n1 := notification("n1", "a", store.NotificationPending, t0, "one")
	n2 := notification("n2", "a", store.NotificationWaiting, t0.Add(time.Minute), "two")
	n2.Created = t0.Add(-time.Minute)
	decide(t, s, store.Decision{New: []store.Notification{n1, n2}})

	retry := store.NotificationUpdate{ID: "n1", State: store.NotificationPending, Due: t0.Add(5 * time.Minute),
		Attempts: 1, LastAttempt: t0.Add(time.Minute), Note: "the server answered 502"}
	decide(t, s, store.Decision{Updates: []store.NotificationUpdate{retry}})
	n1 = updated(n1, retry)
	if got := dueNotifications(t, s, t0.Add(5*time.Minute), 0); !reflect.DeepEqual(got, []store.Notification{n2, n1}) {
		t.Errorf("after a failed attempt, due:\n%s\nwant\n%s", notificationLines(got), notificationLines([]store.Notification{n2, n1}))
	}

	sent := store.NotificationUpdate{ID: "n1", State: store.NotificationSent, Due: t0.Add(5 * time.Minute),
		Attempts: 2, LastAttempt: t0.Add(5 * time.Minute), Sent: t0.Add(5 * time.Minute)}
	cancelled := store.NotificationUpdate{ID: "n2", State: store.NotificationCancelled, Due: t0.Add(time.Minute), Note: "claimed by Sam"}
	decide(t, s, store.Decision{Updates: []store.NotificationUpdate{sent, cancelled}})
	n1, n2 = updated(n1, sent), updated(n2, cancelled)
	if got := dueNotifications(t, s, t0.Add(time.Hour), 0); len(got) != 0 {
		t.Errorf("after they were sent and cancelled, due:\n%s", notificationLines(got))
	}
	want := []store.Notification{withoutItems(n1), withoutItems(n2)}
	if got := notificationLog(t, s, "a", "ops", 0); !reflect.DeepEqual(got, want) {
		t.Errorf("the log:\n%s\nwant\n%s", notificationLines(got), notificationLines(want))
	}
}

// testNotificationNotesAreCut: a note longer than store.NoteMax
// characters keeps its first store.NoteMax, whole.
func testNotificationNotesAreCut(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	long := strings.Repeat("é", store.NoteMax-1) + "🔔 and more"
	n1 := notification("n1", "a", store.NotificationFailed, t0, "one")
	n1.Note = long
	n2 := notification("n2", "a", store.NotificationPending, t0.Add(time.Minute), "two")
	decide(t, s, store.Decision{New: []store.Notification{n1, n2}})
	decide(t, s, store.Decision{Updates: []store.NotificationUpdate{{ID: "n2", State: store.NotificationFailed, Due: t0, Note: "x" + long}}})
	want := map[string]string{
		"n1": strings.Repeat("é", store.NoteMax-1) + "🔔",
		"n2": "x" + strings.Repeat("é", store.NoteMax-1),
	}
	for _, n := range notificationLog(t, s, "a", "ops", 0) {
		if n.Note != want[n.ID] {
			t.Errorf("%s's note: %d characters, %q...; want %d, ending %q", n.ID, utf8.RuneCountInString(n.Note),
				n.Note[max(0, len(n.Note)-8):], utf8.RuneCountInString(want[n.ID]), want[n.ID][len(want[n.ID])-8:])
		}
	}
	if got := store.CutNote("short"); got != "short" {
		t.Errorf("CutNote(short) = %q", got)
	}
}

// testDecidedThrough: a decision moves DecidedThrough on to its Through,
// and removes the facts up to it; one with a lower Through, or none,
// moves nothing back and removes nothing.
func testDecidedThrough(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	if through := decidedThrough(t, s); through != 0 {
		t.Fatalf("DecidedThrough before any decision = %d; want 0", through)
	}
	facts := recordFacts(t, s, 4)
	decide(t, s, store.Decision{Through: facts[1].Seq})
	if through := decidedThrough(t, s); through != facts[1].Seq {
		t.Errorf("after deciding through the second fact, DecidedThrough = %d; want %d", through, facts[1].Seq)
	}
	if got := factsAfter(t, s, 0, 0); !sameFacts(got, facts[2:]) {
		t.Errorf("after deciding through the second fact, the facts:\n%s\nwant the last two", factLines(got))
	}

	decide(t, s, store.Decision{Through: facts[0].Seq})
	decide(t, s, store.Decision{New: []store.Notification{notification("n1", "a", store.NotificationPending, t0, "one")}})
	if through := decidedThrough(t, s); through != facts[1].Seq {
		t.Errorf("after decisions through an earlier fact, and through none, DecidedThrough = %d; want %d", through, facts[1].Seq)
	}
	if got := factsAfter(t, s, 0, 0); !sameFacts(got, facts[2:]) {
		t.Errorf("after decisions through an earlier fact, and through none, the facts:\n%s\nwant the last two", factLines(got))
	}

	decide(t, s, store.Decision{Through: facts[3].Seq})
	if got := factsAfter(t, s, 0, 0); len(got) != 0 {
		t.Errorf("after deciding them all, the facts:\n%s", factLines(got))
	}
	more := alert("later", "a-1", t0.Add(time.Hour), true, false)
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{more}, SeenAt: t0.Add(time.Hour)})
	if got := factsAfter(t, s, decidedThrough(t, s), 0); !sameFacts(got, []store.Fact{openedFact("a", more)}) {
		t.Errorf("a fact recorded after the decisions:\n%s", factLines(got))
	}
}

// testDecidedThroughAtOnce: decisions recorded at once, through facts in
// any order, never move DecidedThrough back; it ends at the highest.
func testDecidedThroughAtOnce(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	const decisions = 40
	order := rand.Perm(decisions)
	var wg sync.WaitGroup
	errs := make(chan error, decisions)
	done := make(chan struct{})
	for _, i := range order {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- s.Decide(ctx, store.Decision{Through: int64(i + 1)})
		}()
	}
	go func() {
		wg.Wait()
		close(done)
	}()
	var last int64
	for reading := true; reading; {
		select {
		case <-done:
			reading = false
		default:
		}
		through, err := s.DecidedThrough(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if through < last {
			t.Errorf("DecidedThrough went back from %d to %d", last, through)
		}
		last = through
	}
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("Decide: %v", err)
		}
	}
	if through := decidedThrough(t, s); through != decisions {
		t.Errorf("after decisions through 1 to %d, DecidedThrough = %d", decisions, through)
	}
}

// testNextDue: NextDue is the earliest due time of the notifications
// waiting or pending, whatever the finished ones say.
func testNextDue(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	next := func(want time.Time, step string) {
		t.Helper()
		due, ok, err := s.NextDue(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if ok != !want.IsZero() || !due.Equal(want) {
			t.Errorf("%s: NextDue = %s, %v; want %s", step, due, ok, want)
		}
	}
	next(time.Time{}, "without notifications")
	sent := notification("sent", "a", store.NotificationSent, t0, "x")
	decide(t, s, store.Decision{New: []store.Notification{sent}})
	next(time.Time{}, "with one sent")
	decide(t, s, store.Decision{New: []store.Notification{
		notification("waiting", "a", store.NotificationWaiting, t0.Add(2*time.Hour), "x"),
		notification("pending", "b", store.NotificationPending, t0.Add(time.Hour), "x"),
	}})
	next(t0.Add(time.Hour), "with one waiting and one pending")
	decide(t, s, store.Decision{Updates: []store.NotificationUpdate{{ID: "pending", State: store.NotificationDropped, Due: t0.Add(time.Hour)}}})
	next(t0.Add(2*time.Hour), "once the pending one is dropped")
}

// testNotificationLog: the log of an account's channel is its
// notifications to that channel, of every state, newest first, without
// their items but with how many; other channels and accounts keep theirs.
func testNotificationLog(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	n1 := notification("n1", "a", store.NotificationSent, t0.Add(time.Hour), "one")
	n1.Created = t0
	d2 := digest("d2", "a", t0.Add(2*time.Minute), "i1", "i2", "i3")
	d2.Channel = "ops"
	n3 := notification("n3", "a", store.NotificationWaiting, t0.Add(time.Hour), "three")
	n3.Created = t0.Add(time.Minute)
	email := notification("email", "a", store.NotificationPending, t0, "to email")
	email.Channel = "email"
	other := notification("other", "b", store.NotificationPending, t0, "of b")
	decide(t, s, store.Decision{New: []store.Notification{n1, other, d2, email, n3}})

	want := []store.Notification{withoutItems(d2), withoutItems(n3), withoutItems(n1)}
	if got := notificationLog(t, s, "a", "ops", 0); !reflect.DeepEqual(got, want) {
		t.Errorf("account a's log of ops:\n%s\nwant\n%s", notificationLines(got), notificationLines(want))
	}
	if got := notificationLog(t, s, "a", "ops", 2); !reflect.DeepEqual(got, want[:2]) {
		t.Errorf("the two latest:\n%s", notificationLines(got))
	}
	if got := notificationLog(t, s, "a", "email", 0); !reflect.DeepEqual(got, []store.Notification{withoutItems(email)}) {
		t.Errorf("account a's log of email:\n%s", notificationLines(got))
	}
	if got := notificationLog(t, s, "b", "ops", 0); !reflect.DeepEqual(got, []store.Notification{withoutItems(other)}) {
		t.Errorf("account b's log of ops:\n%s", notificationLines(got))
	}
	if got := notificationLog(t, s, "c", "ops", 0); len(got) != 0 {
		t.Errorf("an unknown account's log:\n%s", notificationLines(got))
	}
}

// testPruneNotifications: pruning removes the finished notifications
// created before a time, with their items, and keeps those waiting or
// pending however old.
func testPruneNotifications(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	cut := t0.Add(time.Hour)
	var all []store.Notification
	for i, state := range []store.NotificationState{store.NotificationWaiting, store.NotificationPending, store.NotificationSent,
		store.NotificationFailed, store.NotificationDropped, store.NotificationCancelled, store.NotificationDigested} {
		for _, created := range []time.Time{t0, cut} {
			n := notification(fmt.Sprintf("%s-%d", state, created.Hour()), "a", state, t0.Add(time.Duration(i)*time.Minute), "old item")
			n.Created = created
			all = append(all, n)
		}
	}
	decide(t, s, store.Decision{New: all})
	n, err := s.PruneNotifications(ctx, cut)
	if err != nil || n != 5 {
		t.Errorf("PruneNotifications = %d, %v; want the 5 finished ones created before", n, err)
	}
	var left []string
	for _, n := range notificationLog(t, s, "a", "ops", 0) {
		left = append(left, n.ID)
	}
	want := []string{"waiting-8", "waiting-9", "pending-8", "pending-9", "sent-9", "failed-9", "dropped-9", "cancelled-9", "digested-9"}
	if !sameSet(left, want) {
		t.Errorf("after pruning, the log holds %v; want %v", left, want)
	}
	// A notification pruned is gone with its items: its id decided again
	// is new, with only its new items.
	again := notification("sent-8", "a", store.NotificationPending, t0, "new item")
	decide(t, s, store.Decision{New: []store.Notification{again}})
	for _, n := range dueNotifications(t, s, t0, 0) {
		if n.ID == again.ID && !reflect.DeepEqual(n, again) {
			t.Errorf("a pruned notification decided again:\n%s\nwant\n%s", notificationLines([]store.Notification{n}), notificationLines([]store.Notification{again}))
		}
	}
	if got := notificationLog(t, s, "a", "ops", 0); len(got) != len(want)+1 {
		t.Errorf("after a pruned notification was decided again, the log:\n%s", notificationLines(got))
	}
}

// testNotificationSettings: an account's sealed settings come back as
// saved, replaced by the next save, and every account's together;
// resealing replaces those that still hold what was read.
func testNotificationSettings(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	settings := func(account string) string {
		t.Helper()
		b, err := s.NotificationSettings(ctx, account)
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			return "(none)"
		}
		return string(b)
	}
	saved := map[string][]byte{}
	save := func(account, sealed string) {
		t.Helper()
		if err := s.SaveNotificationSettings(ctx, account, saved[account], []byte(sealed), t0); err != nil {
			t.Fatal(err)
		}
		saved[account] = []byte(sealed)
	}
	all := func() map[string]string {
		t.Helper()
		m, err := s.AllNotificationSettings(ctx)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for account, b := range m {
			out[account] = string(b)
		}
		return out
	}
	if got := settings("a"); got != "(none)" {
		t.Errorf("a new account's settings: %q", got)
	}
	if got := all(); len(got) != 0 {
		t.Errorf("every account's settings, before any: %v", got)
	}
	save("a", "sealed-a1")
	save("b", "sealed-b1")
	save("a", "sealed-a2")
	if got := settings("a"); got != "sealed-a2" {
		t.Errorf("account a's settings = %q; want sealed-a2", got)
	}
	if got := all(); !maps.Equal(got, map[string]string{"a": "sealed-a2", "b": "sealed-b1"}) {
		t.Errorf("every account's settings = %v", got)
	}
	// A save from settings that changed meanwhile changes nothing, and
	// says so: from none when some were saved, or from others.
	for _, previous := range [][]byte{nil, []byte("sealed-a1")} {
		if err := s.SaveNotificationSettings(ctx, "a", previous, []byte("lost"), t0); !errors.Is(err, store.ErrChanged) {
			t.Errorf("saving from %q once a has sealed-a2: %v, want store.ErrChanged", previous, err)
		}
	}
	if got := settings("a"); got != "sealed-a2" {
		t.Errorf("after saves from settings changed meanwhile, account a's = %q; want sealed-a2", got)
	}
	// b saves after its settings were read: it keeps what it saved.
	save("b", "sealed-b2")
	n, err := s.ResealNotificationSettings(ctx, map[string]store.Reseal{
		"a": {Old: []byte("sealed-a2"), New: []byte("resealed-a")},
		"b": {Old: []byte("sealed-b1"), New: []byte("resealed-b")},
		"c": {Old: []byte("sealed-c"), New: []byte("resealed-c")},
	})
	if err != nil || n != 1 {
		t.Errorf("ResealNotificationSettings = %d, %v; want 1", n, err)
	}
	if got := all(); !maps.Equal(got, map[string]string{"a": "resealed-a", "b": "sealed-b2"}) {
		t.Errorf("after resealing: %v", got)
	}
}

// notification is one pending to channel ops of rule Low, created at t0,
// with the items given.
func notification(id, account string, state store.NotificationState, due time.Time, items ...string) store.Notification {
	n := store.Notification{ID: id, Account: account, Rule: "Low", Channel: "ops", Kind: "battery.low", Subject: "0000000000A1",
		State: state, Created: t0, Due: due}
	for _, it := range items {
		n.Items = append(n.Items, []byte(it))
	}
	n.ItemCount = len(n.Items)
	return n
}

// digest is an open digest of rule Low to channel ops, due an hour after
// it was created.
func digest(id, account string, created time.Time, items ...string) store.Notification {
	n := notification(id, account, store.NotificationPending, created.Add(time.Hour), items...)
	n.Kind, n.Subject, n.Created = "digest", "", created
	return n
}

// updated is n after u.
func updated(n store.Notification, u store.NotificationUpdate) store.Notification {
	n.State, n.Due, n.Attempts, n.LastAttempt, n.Sent, n.Note = u.State, u.Due, u.Attempts, u.LastAttempt, u.Sent, u.Note
	return n
}

// withoutItems is n as NotificationLog returns it.
func withoutItems(n store.Notification) store.Notification {
	n.Items = nil
	return n
}

// recordFacts records n facts of account a, alert.opened each, through
// the store's writes of alerts, and returns them as FactsAfter does.
func recordFacts(t *testing.T, s store.Store, n int) []store.Fact {
	t.Helper()
	mustReplaceLayout(t, s, testLayout("a", false))
	mustApplyAlerts(t, s, "a", store.AlertWrite{SeenAt: t0})
	var alerts []domain.Alert
	for i := range n {
		alerts = append(alerts, alert(fmt.Sprint("f", i), "a-1", t0.Add(time.Duration(i)*time.Minute), true, false))
	}
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: alerts, SeenAt: t0})
	facts := factsAfter(t, s, 0, 0)
	if len(facts) != n {
		t.Fatalf("%d alerts opened recorded\n%s", n, factLines(facts))
	}
	return facts
}

func decide(t *testing.T, s store.Store, d store.Decision) {
	t.Helper()
	if err := s.Decide(t.Context(), d); err != nil {
		t.Fatalf("Decide: %v", err)
	}
}

func decidedThrough(t *testing.T, s store.Store) int64 {
	t.Helper()
	through, err := s.DecidedThrough(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return through
}

func dueNotifications(t *testing.T, s store.Store, now time.Time, limit int) []store.Notification {
	t.Helper()
	got, err := s.DueNotifications(t.Context(), now, limit)
	if err != nil {
		t.Fatalf("DueNotifications(%s, %d): %v", now, limit, err)
	}
	return got
}

func notificationLog(t *testing.T, s store.Store, account, channel string, limit int) []store.Notification {
	t.Helper()
	got, err := s.NotificationLog(t.Context(), account, channel, limit)
	if err != nil {
		t.Fatalf("NotificationLog(%s, %s, %d): %v", account, channel, limit, err)
	}
	return got
}

func firstID(ns []store.Notification) string {
	if len(ns) == 0 {
		return ""
	}
	return ns[0].ID
}

// itemText is items as text, separated by spaces.
func itemText(items [][]byte) string {
	var words []string
	for _, it := range items {
		words = append(words, string(it))
	}
	return strings.Join(words, " ")
}

func sameSet(a, b []string) bool {
	count := map[string]int{}
	for _, s := range a {
		count[s]++
	}
	for _, s := range b {
		count[s]--
	}
	for _, c := range count {
		if c != 0 {
			return false
		}
	}
	return true
}

func notificationLines(ns []store.Notification) string {
	if len(ns) == 0 {
		return "  (none)"
	}
	var b strings.Builder
	for i, n := range ns {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "  %s %s %s/%s %s %q %s created %s due %s attempts %d last %s sent %s note %q items [%s] (%d)",
			n.ID, n.Account, n.Rule, n.Channel, n.Kind, n.Subject, n.State, n.Created.Format(time.RFC3339), n.Due.Format(time.RFC3339),
			n.Attempts, n.LastAttempt.Format(time.RFC3339), n.Sent.Format(time.RFC3339), n.Note, itemText(n.Items), n.ItemCount)
	}
	return b.String()
}
