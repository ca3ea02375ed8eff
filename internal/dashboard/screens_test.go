package dashboard

import (
	"reflect"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/forecast"
	"washboard/internal/servicelevel"
)

// A wall screen counts, per room, the dispensers estimated to run out by
// its horizon, leaving out those out already and those that last longer;
// the rooms with the most come first.
func TestScreensCountWhatRunsOutPerRoom(t *testing.T) {
	now := time.Date(2026, 11, 24, 9, 30, 0, 0, time.UTC)
	by := now.Add(4*time.Hour + 30*time.Minute)
	p := Places{
		Buildings: map[string]domain.Building{"b1": {ID: "b1", Name: "North"}},
		Floors:    map[string]domain.Floor{"f1": {ID: "f1", BuildingID: "b1", Name: "Level 1"}},
		Rooms:     map[string]domain.Room{"r1": {ID: "r1", FloorID: "f1", Name: "Ladies"}, "r2": {ID: "r2", FloorID: "f1", Name: "Gents"}},
	}
	card := func(room string, estimates map[string]forecast.Estimate) Card {
		c := Card{Location: domain.Location{ID: room + "-loc", RoomID: room}, RunsOut: estimates}
		for mac := range estimates {
			c.Devices = append(c.Devices, domain.Device{MAC: mac})
		}
		return c
	}
	soon := forecast.Estimate{At: now.Add(2 * time.Hour), Earliest: now.Add(time.Hour), Latest: now.Add(3 * time.Hour), Basis: forecast.FromLevels}
	later := forecast.Estimate{At: by.Add(time.Minute), Earliest: now, Latest: by.Add(time.Hour), Basis: forecast.FromLevels}
	out := forecast.Estimate{At: now.Add(-time.Hour), Earliest: now.Add(-time.Hour), Latest: now.Add(-time.Hour), Basis: forecast.ReportedOut}
	cards := []Card{
		card("r1", map[string]forecast.Estimate{"A": soon, "B": later, "C": out}),
		card("r2", map[string]forecast.Estimate{"D": soon, "E": soon}),
	}
	got := runningOut(cards, domain.Screen{Scope: domain.ScreenScope{Kind: "account"}}, p, by)
	want := []RoomRunningOut{{Where: "North › Level 1 › Gents", Dispensers: 2}, {Where: "North › Level 1 › Ladies", Dispensers: 1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("running out: %+v, want %+v", got, want)
	}
}

// A wall screen's item says where its alert stands against its targets
// when at risk or past one: the device's own item carries its alert's, an
// alert past its target that no item stands for gets an item of its own,
// ranked with the overdue ones, and a location whose only trouble is such
// an alert shows on a screen of what needs action.
func TestScreenItemsSayTheirAlertsServiceLevel(t *testing.T) {
	now := time.Date(2026, 11, 24, 9, 30, 0, 0, time.UTC)
	p := Places{
		Buildings: map[string]domain.Building{"b1": {ID: "b1", Name: "North"}},
		Floors:    map[string]domain.Floor{"f1": {ID: "f1", BuildingID: "b1", Name: "Level 1"}},
		Rooms:     map[string]domain.Room{"r1": {ID: "r1", FloorID: "f1", Name: "Ladies"}, "r2": {ID: "r2", FloorID: "f1", Name: "Gents"}},
	}
	out := domain.Device{MAC: "A", Compartments: []domain.Compartment{{Out: true}}}
	jammed := domain.Device{MAC: "B", Faults: []domain.Fault{{Kind: domain.FaultJam, Key: "jam_fault"}}}
	fine := domain.Device{MAC: "C"}
	alert := func(id, mac string, typ domain.AlertType) domain.Alert {
		return domain.Alert{ID: id, MACs: []string{mac}, Status: domain.AlertOpen, Type: typ, Created: now.Add(-time.Hour)}
	}
	cards := []Card{
		cardOf(domain.Location{ID: "l1", RoomID: "r1", Name: "Stall 1"}, []domain.Device{out, jammed},
			[]domain.Alert{alert("a1", "A", domain.AlertConsumableOut), alert("a2", "B", domain.AlertJam), alert("a3", "B", domain.AlertSensor)}),
		cardOf(domain.Location{ID: "l2", RoomID: "r2", Name: "Sink"}, []domain.Device{fine}, []domain.Alert{alert("a4", "C", domain.AlertSystem)}),
	}
	atRisk := AlertLevel{Claim: servicelevel.Outcome{State: servicelevel.AtRisk}}
	missed := AlertLevel{Resolve: servicelevel.Outcome{State: servicelevel.Missed}}
	warnings := map[string]AlertLevel{"a1": atRisk, "a3": missed, "a4": atRisk}
	sc := domain.Screen{Scope: domain.ScreenScope{Kind: "account"}, Healths: []domain.Health{domain.HealthAction}}

	action, _ := screenGroups(cards, sc, p, warnings, nil)
	var got []string
	for _, g := range action {
		for _, it := range g.Items {
			line := g.Where + ": " + it.Problem
			if it.Level != nil {
				line += " (" + it.Level.Worst().String() + ")"
			}
			got = append(got, line)
		}
	}
	want := []string{
		"North › Level 1 › Ladies: Sensor fault (missed)",
		"North › Level 1 › Ladies: Product out (at-risk)",
		"North › Level 1 › Ladies: Jammed",
		"North › Level 1 › Gents: System fault (at-risk)",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("items:\n%q\nwant:\n%q", got, want)
	}
}
