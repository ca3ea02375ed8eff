package domain

import (
	"testing"
	"time"
)

// TestDoneIsContradictedByWhatTheServiceSaysAfterwards: a "done" stands
// while the service has not had the time to say otherwise; after it, an
// alert still open contradicts it, and so does a refilled dispenser that
// still reports a compartment out, once it has reported since.
func TestDoneIsContradictedByWhatTheServiceSaysAfterwards(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 27, 14, 0, 0, 0, time.UTC)
	grace := 10 * time.Minute
	later := at.Add(time.Hour)
	open := Alert{ID: "a1", Status: AlertOpen}
	closed := Alert{ID: "a1", Status: AlertClosed}
	empty := &Device{Compartments: []Compartment{{Level: 80}, {Level: 0, Out: true}}, LastSeen: later}
	full := &Device{Compartments: []Compartment{{Level: 80}, {Level: 95}}, LastSeen: later}
	staleEmpty := &Device{Compartments: []Compartment{{Level: 0, Out: true}}, LastSeen: at.Add(5 * time.Minute)}
	offlineEmpty := &Device{Compartments: []Compartment{{Level: 0, Out: true}}, LastSeen: later, Offline: true}
	refilled := DoneReport{AlertID: "a1", Outcome: Refilled, At: at}
	batteries := DoneReport{AlertID: "a1", Outcome: BatteriesChanged, At: at}
	couldNot := DoneReport{AlertID: "a1", Outcome: CouldNotFix, Reason: "no key", At: at}
	for _, tc := range []struct {
		name   string
		r      DoneReport
		alert  Alert
		device *Device
		now    time.Time
		want   Contradiction
	}{
		{"open within the grace", refilled, open, nil, at.Add(grace), NotContradicted},
		{"open after the grace", refilled, open, nil, later, StillOpen},
		{"could not fix, open", couldNot, open, empty, later, NotContradicted},
		{"closed, refilled, full", refilled, closed, full, later, NotContradicted},
		{"closed, refilled, still empty", refilled, closed, empty, later, StillEmpty},
		{"closed, refilled, empty but not heard from since", refilled, closed, staleEmpty, later, NotContradicted},
		{"closed, refilled, empty but offline", refilled, closed, offlineEmpty, later, NotContradicted},
		{"closed, refilled, no device known", refilled, closed, nil, later, NotContradicted},
		{"closed, batteries changed, empty", batteries, closed, empty, later, NotContradicted},
		{"no report", DoneReport{}, open, nil, later, NotContradicted},
	} {
		if got := tc.r.ContradictedBy(tc.alert, tc.device, tc.now, grace); got != tc.want {
			t.Errorf("%s: %q; want %q", tc.name, got, tc.want)
		}
	}
}
