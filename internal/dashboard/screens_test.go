package dashboard

import (
	"reflect"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/forecast"
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
