package levels

import (
	"strings"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// TestMeasure: an alert that closed is measured against its building's
// service level, or else the account's, in service hours, with where the
// clock stopped; a type without targets, or a level that no longer reads,
// is not measured.
func TestMeasure(t *testing.T) {
	t.Parallel()
	// Fri 27 Nov 2026, hours Mon-Fri 08:00-18:00 in Berlin (UTC+1).
	berlin := store.ServiceLevel{Week: "Mon-Fri 08:00-18:00", Zone: "Europe/Berlin",
		Targets: []store.ServiceTarget{{Type: domain.AlertJam, Claim: 15 * time.Minute, Resolve: time.Hour}}}
	tower := store.ServiceLevel{Week: "always", Zone: "UTC", Targets: []store.ServiceTarget{{Type: domain.AlertJam, Claim: 4 * time.Hour}}}
	kept := map[string]store.ServiceLevel{"": berlin, "tower": tower, "lost": {Week: "always", Zone: "Nowhere/Lost",
		Targets: tower.Targets}}
	created := time.Date(2026, 11, 27, 16, 50, 0, 0, time.UTC) // 17:50 in Berlin: 10 min before closing
	closed := time.Date(2026, 11, 30, 7, 30, 0, 0, time.UTC)   // Mon 08:30 in Berlin
	in := store.AlertMeasure{AlertID: "x", Type: domain.AlertJam, BuildingID: "b1", Created: created, Claimed: created.Add(5 * time.Minute), Closed: closed}

	m, ok := Measure(kept, in)
	if !ok {
		t.Fatal("a jam under the account's service level was not measured")
	}
	if m.Claim != (store.MeasureOutcome{State: "met", Target: 15 * time.Minute, Used: 5 * time.Minute}) ||
		m.Resolve != (store.MeasureOutcome{State: "met", Target: time.Hour, Used: 40 * time.Minute}) {
		t.Errorf("measured %+v and %+v; want claimed in 5 min and resolved in 40 min of service time, both met", m.Claim, m.Resolve)
	}
	if !strings.HasPrefix(m.Explanation, "The clock stopped for 2 d 14 h:") || m.Policy != "Mon-Fri 08:00-18:00 (Europe/Berlin); Jammed: claim 15 min, resolve 1 h" {
		t.Errorf("explanation %q, policy %q", m.Explanation, m.Policy)
	}

	in.BuildingID = "tower"
	if m, ok := Measure(kept, in); !ok || m.Claim != (store.MeasureOutcome{State: "met", Target: 4 * time.Hour, Used: 5 * time.Minute}) || m.Resolve.State != "not-applicable" || m.Explanation != "" {
		t.Errorf("under the building's level: %+v, %v; want the claim met within its 4 h, no resolve target, no stop", m, ok)
	}
	in.BuildingID = "lost"
	if _, ok := Measure(kept, in); ok {
		t.Error("a service level whose zone no longer reads measured an alert")
	}
	in.BuildingID, in.Type = "b1", domain.AlertBatteryOut
	if _, ok := Measure(kept, in); ok {
		t.Error("a type without targets was measured")
	}
}
