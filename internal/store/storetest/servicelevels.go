package storetest

import (
	"reflect"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

func serviceLevels(t *testing.T, s store.Store, account string) map[string]store.ServiceLevel {
	t.Helper()
	got, err := s.ServiceLevels(t.Context(), account)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func testServiceLevels(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	if got := serviceLevels(t, s, "a"); len(got) != 0 {
		t.Fatalf("an account never set has service levels %+v", got)
	}
	own := store.ServiceLevel{Week: "Mon-Fri 06:00-22:00", Holidays: "2026-12-25", Zone: "Europe/Berlin", Updated: t0.Truncate(time.Millisecond),
		Targets: []store.ServiceTarget{{Type: domain.AlertConsumableOut, Claim: 15 * time.Minute, Resolve: time.Hour},
			{Type: domain.AlertBatteryOut, Resolve: 4 * time.Hour}}}
	tower := store.ServiceLevel{Building: "a-b1", Week: "always", Zone: "UTC", Updated: t0,
		Targets: []store.ServiceTarget{{Type: domain.AlertJam, Claim: 30 * time.Minute}}}
	for _, sl := range []store.ServiceLevel{own, tower} {
		if err := s.SaveServiceLevel(ctx, "a", sl); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]store.ServiceLevel{"": own, "a-b1": tower}
	if got := serviceLevels(t, s, "a"); !reflect.DeepEqual(got, want) {
		t.Fatalf("service levels = %+v;\nwant %+v", got, want)
	}
	if got := serviceLevels(t, s, "b"); len(got) != 0 {
		t.Errorf("another account has service levels %+v", got)
	}
	// Saved again, the account's replaces what it had; removed, the
	// building's is gone.
	own.Week, own.Targets, own.Updated = "daily 00:00-24:00", nil, t0.Add(time.Hour)
	if err := s.SaveServiceLevel(ctx, "a", own); err != nil {
		t.Fatal(err)
	}
	if err := s.RemoveServiceLevel(ctx, "a", "a-b1"); err != nil {
		t.Fatal(err)
	}
	if got, want := serviceLevels(t, s, "a"), map[string]store.ServiceLevel{"": own}; !reflect.DeepEqual(got, want) {
		t.Errorf("after saving again and removing the building's, service levels = %+v;\nwant %+v", got, want)
	}
}

// plainMeasure is a Measurer for the contract: the service level of the
// alert's building, or else the account's; time counted on the wall
// clock, whatever the hours; met when within the target.
func plainMeasure(levels map[string]store.ServiceLevel, in store.AlertMeasure) (store.AlertMeasure, bool) {
	sl, ok := levels[in.BuildingID]
	if !ok {
		if sl, ok = levels[""]; !ok {
			return in, false
		}
	}
	outcome := func(target, used time.Duration) store.MeasureOutcome {
		switch {
		case target == 0:
			return store.MeasureOutcome{State: "not-applicable"}
		case used <= target:
			return store.MeasureOutcome{State: "met", Target: target, Used: used}
		}
		return store.MeasureOutcome{State: "missed", Target: target, Used: used}
	}
	for _, t := range sl.Targets {
		if t.Type == in.Type {
			claimed := in.Claimed
			if claimed.IsZero() || claimed.After(in.Closed) {
				claimed = in.Closed
			}
			in.Claim, in.Resolve = outcome(t.Claim, claimed.Sub(in.Created)), outcome(t.Resolve, in.Closed.Sub(in.Created))
			in.Policy, in.Explanation = "plain: "+sl.Week+" "+sl.Zone, "the clock never stops"
			return in, true
		}
	}
	return in, false
}

// testAlertMeasures: alerts seen to close are measured once, by the
// store's Measurer, against the service levels as they are then, and
// pruned with their closing time.
func testAlertMeasures(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	s.MeasureWith(plainMeasure)
	mustReplaceLayout(t, s, testLayout("a", false))
	level := store.ServiceLevel{Week: "always", Zone: "UTC", Updated: t0,
		Targets: []store.ServiceTarget{{Type: domain.AlertConsumableOut, Claim: 15 * time.Minute, Resolve: time.Hour}}}
	if err := s.SaveServiceLevel(ctx, "a", level); err != nil {
		t.Fatal(err)
	}
	closed := func(a domain.Alert, at time.Time) domain.Alert {
		a.Status, a.Resolved, a.Resolution = domain.AlertClosed, at, domain.ResolvedByUser
		return a
	}
	x1, x2, x3 := alert("x1", "a-1", t0, true, false), alert("x2", "a-2", t0, false, false), alert("x3", "a-3", t0, true, false)
	battery := alert("x5", "a-4", t0, true, false)
	battery.Type = domain.AlertBatteryOut
	// The baseline measures nothing, not even the alert it brings closed.
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{x1, x2, battery}, SeenAt: t0})
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{x1, x2, x3, battery}, SeenAt: t0.Add(time.Minute)})
	mustClaim(t, s, "a", domain.Claim{AlertID: "x1", Name: "Sam", At: t0.Add(20 * time.Minute)})
	mustClaim(t, s, "a", domain.Claim{AlertID: "x1", Name: "Kim", At: t0.Add(30 * time.Minute)})
	if first, err := s.FirstClaims(ctx, "a", []string{"x1", "x3"}); err != nil || !reflect.DeepEqual(first, map[string]time.Time{"x1": t0.Add(20 * time.Minute)}) {
		t.Errorf("FirstClaims = %v, %v; want x1's first, Sam's", first, err)
	}
	// x1 claimed late and resolved in time; x3 closed in 5 minutes
	// unclaimed; x4 came and went between two refreshes, in 2 hours; the
	// battery alert has no target.
	x4 := closed(alert("x4", "a-1", t0, true, false), t0.Add(2*time.Hour))
	seen := t0.Add(2 * time.Hour)
	mustApplyAlerts(t, s, "a", store.AlertWrite{SeenAt: seen, Upserts: []domain.Alert{
		closed(x1, t0.Add(50*time.Minute)), x2, closed(x3, t0.Add(5*time.Minute)), x4, closed(battery, t0.Add(time.Hour))}})
	got, err := s.AlertMeasures(ctx, "a", []string{"x1", "x2", "x3", "x4", "x5", "nothing"})
	if err != nil {
		t.Fatal(err)
	}
	policy := "plain: always UTC"
	outcome := func(state string, target, used time.Duration) store.MeasureOutcome {
		return store.MeasureOutcome{State: state, Target: target, Used: used}
	}
	want := map[string]store.AlertMeasure{
		"x1": {AlertID: "x1", Type: domain.AlertConsumableOut, LocationID: "a-1", BuildingID: "a-b1", Created: t0,
			Claimed: t0.Add(20 * time.Minute), Closed: t0.Add(50 * time.Minute),
			Claim: outcome("missed", 15*time.Minute, 20*time.Minute), Resolve: outcome("met", time.Hour, 50*time.Minute)},
		"x3": {AlertID: "x3", Type: domain.AlertConsumableOut, LocationID: "a-3", BuildingID: "a-b1", Created: t0,
			Closed: t0.Add(5 * time.Minute),
			Claim:  outcome("met", 15*time.Minute, 5*time.Minute), Resolve: outcome("met", time.Hour, 5*time.Minute)},
		"x4": {AlertID: "x4", Type: domain.AlertConsumableOut, LocationID: "a-1", BuildingID: "a-b1", Created: t0,
			Closed: t0.Add(2 * time.Hour),
			Claim:  outcome("missed", 15*time.Minute, 2*time.Hour), Resolve: outcome("missed", time.Hour, 2*time.Hour)},
	}
	for id, m := range got {
		if m.Policy != policy {
			t.Errorf("%s's policy = %q; want %q", id, m.Policy, policy)
		}
		if m.Explanation != "the clock never stops" {
			t.Errorf("%s's explanation is %q; want the measurer's", id, m.Explanation)
		}
		m.Policy, m.Explanation = "", ""
		got[id] = m
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("measures = %+v;\nwant %+v", got, want)
	}

	// Measured once: a later target, and the alert written again changed,
	// keep the measure of its closing.
	level.Targets[0].Claim = time.Hour
	if err := s.SaveServiceLevel(ctx, "a", level); err != nil {
		t.Fatal(err)
	}
	again := closed(x1, t0.Add(50*time.Minute))
	again.Resolution = domain.ResolvedByDevice
	mustApplyAlerts(t, s, "a", store.AlertWrite{SeenAt: seen.Add(time.Minute), Upserts: []domain.Alert{again, x2, x4}})
	if m, err := s.AlertMeasures(ctx, "a", []string{"x1"}); err != nil || m["x1"].Claim.State != "missed" {
		t.Errorf("after the targets changed, x1's claim = %+v, %v; want its first measure, missed", m["x1"].Claim, err)
	}

	// An event that closes an alert measures it; a building's service
	// level overrides the account's.
	tower := level
	tower.Building, tower.Targets = "a-b1", []store.ServiceTarget{{Type: domain.AlertConsumableOut, Claim: 2 * time.Hour}}
	if err := s.SaveServiceLevel(ctx, "a", tower); err != nil {
		t.Fatal(err)
	}
	x6 := alert("x6", "a-2", t0.Add(3*time.Hour), true, false)
	if _, err := s.ApplyAlertEvents(ctx, "a", []domain.Alert{x6}, t0.Add(3*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ApplyAlertEvents(ctx, "a", []domain.Alert{closed(x6, t0.Add(4*time.Hour))}, t0.Add(4*time.Hour)); err != nil {
		t.Fatal(err)
	}
	m, err := s.AlertMeasures(ctx, "a", []string{"x6"})
	if err != nil {
		t.Fatal(err)
	}
	if c, r := m["x6"].Claim, m["x6"].Resolve; c.State != "met" || c.Target != 2*time.Hour || r.State != "not-applicable" {
		t.Errorf("x6 closed by an event under the building's service level: claim %+v, resolve %+v; want met within 2 h, no resolve target", c, r)
	}
	if other, err := s.AlertMeasures(ctx, "b", []string{"x1", "x6"}); err != nil || len(other) != 0 {
		t.Errorf("another account reads measures %+v, %v", other, err)
	}

	// A period's measures, in the order the alerts closed, of some
	// buildings or all.
	each := func(from, to time.Time, buildings []string) []string {
		t.Helper()
		var ids []string
		if err := s.EachAlertMeasure(ctx, "a", from, to, buildings, func(m store.AlertMeasure) error {
			ids = append(ids, m.AlertID)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return ids
	}
	for _, c := range []struct {
		from, to  time.Time
		buildings []string
		want      []string
	}{
		{time.Time{}, time.Time{}, nil, []string{"x3", "x1", "x4", "x6"}},
		{t0.Add(10 * time.Minute), t0.Add(2 * time.Hour), nil, []string{"x1"}},
		{t0.Add(2 * time.Hour), time.Time{}, []string{"a-b1"}, []string{"x4", "x6"}},
		{time.Time{}, time.Time{}, []string{"elsewhere"}, nil},
		{time.Time{}, time.Time{}, []string{}, nil},
	} {
		if got := each(c.from, c.to, c.buildings); !reflect.DeepEqual(got, c.want) {
			t.Errorf("measures closed in [%v, %v) of %v: %v; want %v", c.from, c.to, c.buildings, got, c.want)
		}
	}

	// Pruning removes the measures of alerts closed before a time.
	if n, err := s.PruneAlertMeasures(ctx, t0.Add(time.Hour)); err != nil || n != 2 {
		t.Errorf("PruneAlertMeasures = %d, %v; want the 2 closed before then", n, err)
	}
	left, err := s.AlertMeasures(ctx, "a", []string{"x1", "x3", "x4", "x6"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := left["x4"]; len(left) != 2 || !ok {
		t.Errorf("after pruning, measures of %v are kept; want x4 and x6", left)
	}
}

// testNoMeasurerMeasuresNothing: a store that was given no Measurer
// keeps no measures, service levels or not.
func testNoMeasurerMeasuresNothing(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	if err := s.SaveServiceLevel(ctx, "a", store.ServiceLevel{Week: "always", Zone: "UTC", Updated: t0,
		Targets: []store.ServiceTarget{{Type: domain.AlertConsumableOut, Claim: 15 * time.Minute}}}); err != nil {
		t.Fatal(err)
	}
	x1 := alert("x1", "a-1", t0, true, false)
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{x1}, SeenAt: t0})
	x1.Status, x1.Resolved = domain.AlertClosed, t0.Add(time.Hour)
	mustApplyAlerts(t, s, "a", store.AlertWrite{Upserts: []domain.Alert{x1}, SeenAt: t0.Add(time.Hour)})
	if m, err := s.AlertMeasures(ctx, "a", []string{"x1"}); err != nil || len(m) != 0 {
		t.Errorf("without a Measurer, measures %v, %v; want none", m, err)
	}
}
