package storetest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// testFactsOfAlerts: the first refresh of an account's alerts records no
// facts; later ones record an alert the cache did not hold arriving open,
// and one held open turning overdue, once each, whether written in one
// call or in pages; an alert arriving closed, one opened and closed or
// changed and changed back within a refresh, and one written and removed
// record nothing.
func testFactsOfAlerts(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	mustReplaceLayout(t, s, testLayout("a", false))
	facts := &factReader{t: t, s: s}
	x1 := alert("x1", "a-1", t0, true, false)
	x2 := alert("x2", "a-2", t0, true, true)
	x3 := alert("x3", "a-3", t0, false, false)
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{x1, x2, x3}, SeenAt: t0})
	facts.expect("the first refresh, the baseline")

	x4 := alert("x4", "a-4", t0.Add(30*time.Minute), true, false)
	x4.Type, x4.MACs = domain.AlertJam, []string{"0000000000B4", "0000000000C4"}
	x5 := alert("x5", "a-4", t0.Add(40*time.Minute), false, false)
	refreshAlerts(t, s, "a", t0.Add(time.Hour), []domain.Alert{x1, x2}, []domain.Alert{x3, x4, x5})
	facts.expect("a refresh listing an alert new and open, and one new and closed",
		store.Fact{Account: "a", Kind: store.FactAlertOpened, AlertID: "x4", AlertType: domain.AlertJam, MAC: "0000000000B4", LocationID: "a-4", At: x4.Created})
	refreshAlerts(t, s, "a", t0.Add(90*time.Minute), []domain.Alert{x1, x2, x3, x4, x5})
	facts.expect("the same refresh again")

	x1.Overdue = true
	seen := t0.Add(2 * time.Hour)
	refreshAlerts(t, s, "a", seen, []domain.Alert{x1, x2, x3, x4, x5})
	facts.expect("x1 overdue", overdueFact("a", x1, seen))
	refreshAlerts(t, s, "a", seen.Add(time.Hour), []domain.Alert{x1, x2, x3, x4, x5})
	facts.expect("x1 still overdue")
	x2.RefillCount = 4
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{x2}, SeenAt: seen.Add(time.Hour)})
	facts.expect("more refills of an overdue alert")
	x2.Overdue = false
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{x2}, SeenAt: seen.Add(2 * time.Hour)})
	facts.expect("an overdue alert no longer overdue")
	x2.Overdue = true
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{x2}, SeenAt: seen.Add(3 * time.Hour)})
	facts.expect("the alert overdue again, since when the cache first saw it", overdueFact("a", x2, t0))

	x6 := alert("x6", "a-1", t0.Add(3*time.Hour), true, true)
	x6.MACs = nil
	seen = t0.Add(4 * time.Hour)
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{x6}, SeenAt: seen})
	facts.expect("an alert new, open and overdue, without devices",
		store.Fact{Account: "a", Kind: store.FactAlertOpened, AlertID: "x6", AlertType: domain.AlertConsumableOut, LocationID: "a-1", At: x6.Created},
		overdueFact("a", x6, seen))

	x7 := alert("x7", "a-2", t0.Add(5*time.Hour), true, false)
	x7closed := alert("x7", "a-2", t0.Add(5*time.Hour), false, false)
	x4overdue := x4
	x4overdue.Overdue = true
	refreshAlerts(t, s, "a", t0.Add(6*time.Hour), []domain.Alert{x7, x4overdue}, []domain.Alert{x7closed, x4})
	facts.expect("an alert read open then closed, and one overdue then not, in one refresh")
	x8 := alert("x8", "a-2", t0.Add(5*time.Hour), true, true)
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{x8}, Remove: []string{"x8"}, SeenAt: t0.Add(6 * time.Hour)})
	facts.expect("an alert written and removed")
	x1.Status, x1.Resolved, x1.Resolution = domain.AlertClosed, t0.Add(7*time.Hour), domain.ResolvedByUser
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{x1}, Remove: []string{"x2"}, SeenAt: t0.Add(7 * time.Hour)})
	facts.expect("an alert closed and one removed")

	// Alerts new on a page long enough to be written before the next,
	// one of them listed again there, overdue: still new to the cache.
	var page []domain.Alert
	for i := range 100 {
		page = append(page, alert(fmt.Sprint("n", i), "a-3", t0.Add(time.Duration(i)*time.Minute), true, false))
	}
	n0 := page[0]
	n0.Overdue = true
	seen = t0.Add(8 * time.Hour)
	refreshAlerts(t, s, "a", seen, page, []domain.Alert{n0})
	want := []store.Fact{openedFact("a", n0), overdueFact("a", n0, seen)}
	for _, a := range page[1:] {
		want = append(want, openedFact("a", a))
	}
	facts.expect("alerts new on a page, one listed again on the next, overdue", want...)
}

// testFactsOfAlertEvents: events record what a refresh would, once;
// before the alerts' baseline they record nothing and make none.
func testFactsOfAlertEvents(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	facts := &factReader{t: t, s: s}
	apply := func(seen time.Time, events ...domain.Alert) {
		t.Helper()
		if _, err := s.ApplyAlertEvents(ctx, "a", events, seen); err != nil {
			t.Fatal(err)
		}
	}
	e1 := alert("e1", "a-1", t0, true, true)
	apply(t0, e1)
	facts.expect("an event before the baseline")
	x1 := alert("x1", "a-1", t0, true, false)
	x2 := alert("x2", "a-2", t0, true, true)
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{e1, x1, x2}, SeenAt: t0.Add(time.Minute)})
	facts.expect("the first refresh after an event, the baseline")

	e2 := alert("e2", "a-3", t0.Add(time.Hour), true, false)
	apply(t0.Add(time.Hour), e2)
	facts.expect("an event opening an alert", openedFact("a", e2))
	apply(t0.Add(2*time.Hour), e2)
	facts.expect("the event again")

	x1overdue := x1
	x1overdue.Overdue = true
	seen := t0.Add(3 * time.Hour)
	apply(seen, x1overdue)
	facts.expect("an event making an alert overdue", overdueFact("a", x1overdue, seen))
	apply(seen.Add(time.Hour), x1overdue, x1)
	facts.expect("the event again, and one out of date")

	e3 := alert("e3", "a-4", t0.Add(4*time.Hour), false, true)
	e2closed := alert("e2", "a-3", t0.Add(time.Hour), false, false)
	x2more := x2
	x2more.RefillCount = 5
	apply(t0.Add(5*time.Hour), e3, e2closed, x2more)
	facts.expect("events of an alert new and closed, one closing, one adding refills to an overdue alert")
}

// testFactsOfDevices: the first refresh of an account's devices records
// no facts; later ones record a device running out, its battery going low
// and it going offline, once each; a device new after the baseline
// records the state it arrives in; a device removed records nothing.
func testFactsOfDevices(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	facts := &factReader{t: t, s: s}
	seen := time.Date(2026, 11, 18, 9, 0, 0, 0, time.UTC)
	a1 := device("0000000000A1", "a-1", 80)
	a1.Compartments = []domain.Compartment{{Level: 80}, {Level: 60}}
	a2 := device("0000000000A2", "a-2", 80)
	a3 := device("0000000000A3", "a-3", 80)
	a4 := device("0000000000A4", "a-4", 0)
	a4.Offline, a4.BatteryState = true, domain.BatteryLow
	mustReplaceDevices(t, s, "a", []domain.Device{a1, a2, a3, a4})
	facts.expect("the first refresh, the baseline: a device out, low and offline already")

	next := func(d *domain.Device, minutes int) {
		d.LastSeen = seen.Add(time.Duration(minutes) * time.Minute)
	}
	a1.Compartments = []domain.Compartment{{Level: 0, Low: true, Out: true}, {Level: 0, Low: true, Out: true}}
	next(&a1, 10)
	a2.BatteryState, a2.Battery = domain.BatteryLow, intp(15)
	next(&a2, 20)
	a3.Offline = true
	a4.Compartments[0].Level = 5
	refreshDevices(t, s, "a", []domain.Device{a1, a2}, []domain.Device{a3, a4})
	facts.expect("a device out of both products, one low, one offline",
		deviceFact("a", store.FactProductOut, a1), deviceFact("a", store.FactBatteryLow, a2), deviceFact("a", store.FactDeviceOffline, a3))
	next(&a1, 30)
	next(&a2, 30)
	mustReplaceDevices(t, s, "a", []domain.Device{a1, a2, a3, a4})
	facts.expect("the same states again")

	a2.BatteryState = domain.BatteryShutdown
	a1.Compartments[1] = domain.Compartment{Level: 100}
	mustReplaceDevices(t, s, "a", []domain.Device{a1, a2, a3, a4})
	facts.expect("a battery from low to shut down, a compartment refilled")
	a1.Compartments[1] = domain.Compartment{Level: 0, Low: true, Out: true}
	next(&a1, 40)
	a2.BatteryState = domain.BatteryNormal
	a3.Offline = false
	next(&a3, 40)
	mustReplaceDevices(t, s, "a", []domain.Device{a1, a2, a3, a4})
	facts.expect("another compartment of a device out already", deviceFact("a", store.FactProductOut, a1))
	a2.BatteryState = domain.BatteryShutdown
	next(&a2, 50)
	a3.Offline = true
	mustReplaceDevices(t, s, "a", []domain.Device{a1, a2, a3, a4})
	facts.expect("a battery from normal to shut down, a device offline again",
		deviceFact("a", store.FactBatteryLow, a2), deviceFact("a", store.FactDeviceOffline, a3))

	b1 := device("0000000000B1", "a-1", 50)
	b1.Offline = true
	b2 := device("0000000000B2", "a-2", 50)
	b3 := device("0000000000B3", "a-3", 0)
	b3.BatteryState = domain.BatteryLow
	b4 := domain.Device{MAC: "0000000000B4", LocationID: "a-4", Offline: true} // never seen
	before := time.Now().Truncate(time.Millisecond)
	mustReplaceDevices(t, s, "a", []domain.Device{a1, a2, a3, b1, b2, b3, b4})
	after := time.Now()
	got := facts.next()
	if len(got) == 4 && !got[3].At.Before(before) && !got[3].At.After(after) {
		got[3].At = time.Time{} // when the refresh saw it: checked, and left out of the comparison
	}
	want := []store.Fact{
		deviceFact("a", store.FactDeviceOffline, b1), deviceFact("a", store.FactProductOut, b3), deviceFact("a", store.FactBatteryLow, b3),
		{Account: "a", Kind: store.FactDeviceOffline, MAC: "0000000000B4", LocationID: "a-4"},
	}
	if !sameFacts(got, want) {
		t.Errorf("devices new after the baseline, and one removed, recorded\n%s\nwant\n%s", factLines(got), factLines(want))
	}

	// Out on the first page, as before on the second: nothing.
	r, err := s.BeginDevices(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Rollback()
	b2out := device("0000000000B2", "a-2", 0)
	if err := r.Write(ctx, []domain.Device{a1, a2, a3, b1, b2out, b3, b4}); err != nil {
		t.Fatal(err)
	}
	if err := r.Write(ctx, []domain.Device{b2}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	facts.expect("a device read out, then as it was, in one refresh")

	// A device out on a page long enough to be written before the next,
	// and read again there: out once, of what the cache held before.
	var many []domain.Device
	for i := range 100 {
		many = append(many, device(fmt.Sprintf("0000000000C%d", i), "a-4", 50))
	}
	mustReplaceDevices(t, s, "a", many)
	facts.expect("devices new and in order")
	for i := range many {
		many[i].Compartments[0].Level = 40
	}
	c0 := device("0000000000C0", "a-4", 0)
	many[0] = c0
	c0.LastSeen = c0.LastSeen.Add(time.Minute)
	refreshDevices(t, s, "a", many, []domain.Device{c0})
	facts.expect("a device out on a page, and again on the next", deviceFact("a", store.FactProductOut, c0))
}

// testFactsOfAFailedRefresh: a refresh that rolls back, or whose commit
// fails, records no facts, and a first one makes no baseline.
func testFactsOfAFailedRefresh(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	facts := &factReader{t: t, s: s}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	x1 := alert("x1", "a-1", t0, true, false)
	x2 := alert("x2", "a-2", t0, true, true)
	x3 := alert("x3", "a-3", t0, true, true)
	a1 := device("0000000000A1", "a-1", 80)
	a1.Offline = true
	a2 := device("0000000000A2", "a-2", 0)

	// failAlerts writes alerts and rolls back, then writes them and
	// commits with a cancelled context.
	failAlerts := func(alerts ...domain.Alert) {
		t.Helper()
		for _, commit := range []bool{false, true} {
			r, err := s.BeginAlerts(ctx, "a")
			if err != nil {
				t.Fatal(err)
			}
			r.SeenAt(t0.Add(time.Hour))
			if err := r.Write(ctx, alerts); err != nil {
				t.Fatal(err)
			}
			if commit {
				if _, err := r.Commit(cancelled, nil, time.Time{}); err == nil {
					t.Error("a refresh of alerts committed with a cancelled context succeeded")
				}
			}
			r.Rollback()
		}
	}
	failDevices := func(devices ...domain.Device) {
		t.Helper()
		for _, commit := range []bool{false, true} {
			r, err := s.BeginDevices(ctx, "a")
			if err != nil {
				t.Fatal(err)
			}
			if err := r.Write(ctx, devices); err != nil {
				t.Fatal(err)
			}
			if commit {
				if _, err := r.Commit(cancelled); err == nil {
					t.Error("a refresh of devices committed with a cancelled context succeeded")
				}
			}
			r.Rollback()
		}
	}

	failAlerts(x1)
	failDevices(a1)
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{x1, x2}, SeenAt: t0})
	mustReplaceDevices(t, s, "a", []domain.Device{a1})
	facts.expect("the first refreshes that commit, after some that failed: the baselines")

	failAlerts(x1, x2, x3)
	failDevices(a1, a2)
	facts.expect("refreshes that failed")
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{x1, x2, x3}, SeenAt: t0.Add(time.Hour)})
	mustReplaceDevices(t, s, "a", []domain.Device{a1, a2})
	facts.expect("the same refreshes committed",
		openedFact("a", x3), overdueFact("a", x3, t0.Add(time.Hour)), deviceFact("a", store.FactProductOut, a2))
}

// testFactsInOrder: facts come back by seq, across accounts, each with
// its account, as many as the limit allows (1000 without one) after the
// seq given; pruning removes those up to a seq and no seq is given twice.
// Each account and resource has its own baseline.
func testFactsInOrder(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	mustReplaceLayout(t, s, testLayout("b", true))
	for _, account := range []string{"a", "b"} {
		mustApplyAlerts(t, s, account, store.AlertWrite{SeenAt: t0})
		mustReplaceDevices(t, s, account, nil)
	}
	x1 := alert("x1", "a-1", t0, true, false)
	y1 := alert("y1", "1", t0, true, false)
	out := device("0000000000A1", "a-1", 0)
	offline := device("0000000000A1", "1", 50) // the same MAC in the other account
	offline.Offline = true
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{x1}, SeenAt: t0})
	mustReplaceDevices(t, s, "b", []domain.Device{offline})
	mustReplaceDevices(t, s, "a", []domain.Device{out})
	mustApplyAlerts(t, s, "b", store.AlertWrite{Upserts: []domain.Alert{y1}, SeenAt: t0})
	// An account without baselines: its first refreshes record nothing.
	mustApplyAlerts(t, s, "c", store.AlertWrite{Upserts: []domain.Alert{alert("z1", "1", t0, true, true)}, SeenAt: t0})
	mustReplaceDevices(t, s, "c", []domain.Device{offline})

	want := []store.Fact{
		openedFact("a", x1), deviceFact("b", store.FactDeviceOffline, offline),
		deviceFact("a", store.FactProductOut, out), openedFact("b", y1),
	}
	all := factsAfter(t, s, 0, 0)
	if !sameFacts(all, want) {
		t.Fatalf("facts of two accounts\n%s\nwant\n%s", factLines(all), factLines(want))
	}
	for i := 1; i < len(all); i++ {
		if all[i].Seq <= all[i-1].Seq {
			t.Errorf("seq %d follows seq %d", all[i].Seq, all[i-1].Seq)
		}
	}
	if got := factsAfter(t, s, 0, 2); !sameFacts(got, want[:2]) {
		t.Errorf("the first two:\n%s", factLines(got))
	}
	if got := factsAfter(t, s, all[1].Seq, 0); !sameFacts(got, want[2:]) {
		t.Errorf("after the second:\n%s", factLines(got))
	}
	if got := factsAfter(t, s, all[3].Seq, 0); len(got) != 0 {
		t.Errorf("after the last:\n%s", factLines(got))
	}

	if err := s.PruneFacts(ctx, all[1].Seq); err != nil {
		t.Fatal(err)
	}
	if got := factsAfter(t, s, 0, 0); !sameFacts(got, want[2:]) || got[0].Seq != all[2].Seq {
		t.Errorf("after pruning the first two:\n%s", factLines(got))
	}
	if err := s.PruneFacts(ctx, all[3].Seq); err != nil {
		t.Fatal(err)
	}
	if got := factsAfter(t, s, 0, 0); len(got) != 0 {
		t.Errorf("after pruning all:\n%s", factLines(got))
	}

	// Past the default limit; the seqs go on from before the pruning.
	var many []domain.Alert
	for i := range 1001 {
		many = append(many, alert(fmt.Sprint("m", i), "a-2", t0.Add(time.Duration(i)*time.Second), true, false))
	}
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: many, SeenAt: t0})
	first := factsAfter(t, s, 0, 0)
	if len(first) != 1000 || first[0].Seq <= all[3].Seq || first[0].AlertID != "m0" || first[999].AlertID != "m999" {
		t.Fatalf("without a limit, %d facts: %s ... ; want 1000, m0 first, after seq %d", len(first), factLines(first[:min(len(first), 1)]), all[3].Seq)
	}
	if rest := factsAfter(t, s, first[999].Seq, -1); len(rest) != 1 || rest[0].AlertID != "m1000" {
		t.Errorf("the rest: %s", factLines(rest))
	}
}

// refreshAlerts writes an account's alerts as the service was seen at
// seen, a page at a time, and commits.
func refreshAlerts(t *testing.T, s store.Store, account string, seen time.Time, pages ...[]domain.Alert) {
	t.Helper()
	ctx := t.Context()
	r, err := s.BeginAlerts(ctx, account)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Rollback()
	r.SeenAt(seen)
	for _, p := range pages {
		if err := r.Write(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.Commit(ctx, nil, time.Time{}); err != nil {
		t.Fatal(err)
	}
}

// refreshDevices writes an account's devices a page at a time, and
// commits.
func refreshDevices(t *testing.T, s store.Store, account string, pages ...[]domain.Device) {
	t.Helper()
	ctx := t.Context()
	r, err := s.BeginDevices(ctx, account)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Rollback()
	for _, p := range pages {
		if err := r.Write(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.Commit(ctx); err != nil {
		t.Fatal(err)
	}
}

// factReader reads a store's facts as a notifier does: each next returns
// those recorded since the last, checking that their seqs increase.
type factReader struct {
	t     *testing.T
	s     store.Store
	after int64
}

func (r *factReader) next() []store.Fact {
	r.t.Helper()
	got := factsAfter(r.t, r.s, r.after, 0)
	for _, f := range got {
		if f.Seq <= r.after {
			r.t.Errorf("seq %d after seq %d", f.Seq, r.after)
		}
		r.after = f.Seq
	}
	return got
}

// expect checks the facts recorded since the last read.
func (r *factReader) expect(step string, want ...store.Fact) {
	r.t.Helper()
	if got := r.next(); !sameFacts(got, want) {
		r.t.Errorf("%s recorded\n%s\nwant\n%s", step, factLines(got), factLines(want))
	}
}

func factsAfter(t *testing.T, s store.Store, after int64, limit int) []store.Fact {
	t.Helper()
	got, err := s.FactsAfter(t.Context(), after, limit)
	if err != nil {
		t.Fatalf("FactsAfter(%d, %d): %v", after, limit, err)
	}
	return got
}

// sameFacts compares facts but for their seqs, their times by instant.
func sameFacts(got, want []store.Fact) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		g, w := got[i], want[i]
		if !g.At.Equal(w.At) {
			return false
		}
		g.Seq, w.Seq, g.At, w.At = 0, 0, time.Time{}, time.Time{}
		if g != w {
			return false
		}
	}
	return true
}

func factLines(facts []store.Fact) string {
	if len(facts) == 0 {
		return "  (none)"
	}
	var b strings.Builder
	for i, f := range facts {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "  %s %s alert=%q %s mac=%q location=%q at %s", f.Account, f.Kind, f.AlertID, f.AlertType, f.MAC, f.LocationID, f.At.UTC().Format(time.RFC3339))
	}
	return b.String()
}

func openedFact(account string, a domain.Alert) store.Fact {
	f := alertFact(account, a)
	f.Kind, f.At = store.FactAlertOpened, a.Created
	return f
}

func overdueFact(account string, a domain.Alert, at time.Time) store.Fact {
	f := alertFact(account, a)
	f.Kind, f.At = store.FactAlertOverdue, at
	return f
}

func alertFact(account string, a domain.Alert) store.Fact {
	f := store.Fact{Account: account, AlertID: a.ID, AlertType: a.Type, LocationID: a.LocationID}
	if len(a.MACs) > 0 {
		f.MAC = a.MACs[0]
	}
	return f
}

// deviceFact is a fact of d, at its last-seen time.
func deviceFact(account string, kind store.FactKind, d domain.Device) store.Fact {
	return store.Fact{Account: account, Kind: kind, MAC: d.MAC, LocationID: d.LocationID, At: d.LastSeen}
}
