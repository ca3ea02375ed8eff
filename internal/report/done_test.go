package report

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"washboard/internal/domain"
)

// TestReportedDone: the report lists the "done" reports made during the
// period on its alerts, by time, and says which the service contradicts
// now: an alert still open, or a refilled dispenser still out; the
// dispensers' state counts only when it is current.
func TestReportedDone(t *testing.T) {
	t.Parallel()
	out := openAlert("out", "l1", domain.AlertConsumableOut, at(6, 0))
	jam := closedAlert("jam", "l2", domain.AlertJam, at(6, 30), at(7, 10), domain.ResolvedByDevice)
	refill := closedAlert("refill", "l2", domain.AlertConsumableOut, at(7, 0), at(7, 30), domain.ResolvedByUser)
	refill.MACs = []string{"BB02"}
	reports := []domain.DoneReport{
		{AlertID: "refill", Name: "Ali", Outcome: domain.Refilled, At: at(7, 20)},
		{AlertID: "out", Name: "Maria", Outcome: domain.Refilled, At: at(6, 30)},
		{AlertID: "jam", Name: "Ali", Outcome: domain.FaultCleared, At: at(7, 5)},
		{AlertID: "out", Name: "Sam", Outcome: domain.CouldNotFix, Reason: "no key", At: at(8, 0)},
		{AlertID: "out", Name: "Lee", Outcome: domain.Refilled, At: at(5, 0)},  // before the shift
		{AlertID: "gone", Name: "Kim", Outcome: domain.Refilled, At: at(8, 0)}, // an alert not in the report
	}
	devices := []domain.Device{
		{MAC: "BB01", LocationID: "l2", Compartments: []domain.Compartment{{Level: 90}}, LastSeen: at(9, 0)},
		{MAC: "BB02", LocationID: "l2", Compartments: []domain.Compartment{{Level: 0, Out: true}}, LastSeen: at(9, 0)},
	}
	in := Input{Period: early(), Alerts: []domain.Alert{out, jam, refill}, Places: testPlaces(), Devices: devices, DevicesCurrent: true,
		Done: reports, CheckedAt: at(9, 30), DoneGrace: 10 * time.Minute}
	lines := func(r Report) []string {
		var got []string
		for _, d := range r.Done {
			got = append(got, fmt.Sprintf("%s %s %s at %s: %q", d.Done.Name, d.Done.Outcome, d.Done.AlertID, d.Alert.Place.Location, d.Contradiction))
		}
		return got
	}
	want := []string{
		`Maria refilled out at Stall 1: "still_open"`,
		`Ali fault_cleared jam at Sink Left: ""`,
		`Ali refilled refill at Sink Left: "still_empty"`,
		`Sam could_not_fix out at Stall 1: ""`,
	}
	r := Build(in)
	if got := lines(r); !reflect.DeepEqual(got, want) {
		t.Errorf("reported done:\n got %q\nwant %q", got, want)
	}
	if n := Contradicted(r.Done); n != 2 {
		t.Errorf("%d contradicted; want 2", n)
	}
	in.DevicesCurrent = false
	want[2] = `Ali refilled refill at Sink Left: ""`
	if got := lines(Build(in)); !reflect.DeepEqual(got, want) {
		t.Errorf("reported done, the devices not current:\n got %q\nwant %q", got, want)
	}
}
