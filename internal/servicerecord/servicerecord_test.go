package servicerecord

import (
	"context"
	"fmt"
	"testing"
	"time"

	"washboard/internal/store"
)

var t0 = time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)

func at(minutes int) time.Time { return t0.Add(time.Duration(minutes) * time.Minute) }

// fakeSource gives the entries of its function.
type fakeSource struct {
	entries func(q Query) []Entry
}

func (f fakeSource) Entries(_ context.Context, q Query) ([]Entry, error) { return f.entries(q), nil }

// What one person did in one room with no more than an hour between one
// thing and the next is one visit; another person, another room, or a
// longer pause is another.
func TestVisitsAreOnePersonsWorkInOneRoom(t *testing.T) {
	ana := func(room string, minutes int) Entry {
		return Entry{Kind: Done, At: at(minutes), PersonID: "p-ana", Name: "Ana", RoomID: room}
	}
	ben := Entry{Kind: Claimed, At: at(10), Name: "Ben", RoomID: "r1"}
	visits := Group([]Entry{ana("r1", 0), ana("r1", 50), ben, ana("r2", 20), ana("r1", 50+61)})
	var got []string
	for _, v := range visits {
		got = append(got, fmt.Sprintf("%s %s %d-%d %d", v.Name, v.RoomID, int(v.Start.Sub(t0).Minutes()), int(v.End.Sub(t0).Minutes()), len(v.Entries)))
	}
	want := []string{"Ana r1 111-111 1", "Ana r2 20-20 1", "Ben r1 10-10 1", "Ana r1 0-50 2"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("visits = %q; want %q", got, want)
	}

	// What was done at one moment reads in the order one does it.
	at0 := []Entry{{Kind: Done, At: at(0), Name: "Cy", RoomID: "r1"}, {Kind: RoomTicked, At: at(0), Name: "Cy", RoomID: "r1"},
		{Kind: Claimed, At: at(0), Name: "Cy", RoomID: "r1"}, {Kind: DoorScan, At: at(0), Name: "Cy", RoomID: "r1"}}
	var kinds []Kind
	for _, e := range Group(at0)[0].Entries {
		kinds = append(kinds, e.Kind)
	}
	if fmt.Sprint(kinds) != fmt.Sprint([]Kind{DoorScan, Claimed, Done, RoomTicked}) {
		t.Errorf("the entries of one moment read %v", kinds)
	}
}

// A source with more entries than a record reads cuts the record: it
// holds what came after the oldest entry read, from every source, and
// says since when.
func TestARecordOfMoreThanItHoldsSaysSinceWhen(t *testing.T) {
	busy := fakeSource{func(q Query) []Entry {
		var out []Entry
		for i := 0; i < q.Limit; i++ { // newest first, a visit each
			out = append(out, Entry{Kind: Done, At: at(1000 - 2*i), PersonID: fmt.Sprint("p", i), RoomID: "r1"})
		}
		return out
	}}
	quiet := fakeSource{func(q Query) []Entry {
		return []Entry{{Kind: Claimed, At: at(999), Name: "Cy", RoomID: "r2"}, {Kind: Claimed, At: at(0), Name: "Cy", RoomID: "r2"}}
	}}
	rec, err := Read(context.Background(), []Source{busy, quiet}, Query{Account: "a", From: t0, To: at(2000)}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Cut() || len(rec.Visits) != 3 || !rec.Visits[0].Start.Equal(at(1000)) || rec.Visits[1].Name != "Cy" {
		t.Errorf("record = %+v; want the newest 3 visits, Cy's second, and a cut", rec)
	}
	if !rec.Since.Equal(at(996)) {
		t.Errorf("the record says it holds what came after %v; want after %v, the fourth newest visit", rec.Since, at(996))
	}
	for _, v := range rec.Visits {
		if !v.Start.After(rec.Since) {
			t.Errorf("visit %+v is not after %v", v, rec.Since)
		}
	}
	if _, err := Read(context.Background(), []Source{quiet}, Query{Account: "a", From: t0, To: t0.AddDate(0, 0, 32)}, 3); err == nil {
		t.Error("a record of 32 days was read")
	}
	all, err := Read(context.Background(), []Source{quiet}, Query{Account: "a", From: t0, To: at(2000)}, 3)
	if err != nil || all.Cut() || len(all.Visits) != 2 {
		t.Errorf("a record of less than it holds: %+v, %v; want both of Cy's visits, and no cut", all, err)
	}
}

// A dispenser's state is said in one word from its emptiest compartment;
// an offline one is offline; none known is unknown.
func TestAStateInOneWord(t *testing.T) {
	readings := []store.Reading{{At: at(0), Levels: []int{100, 0}}, {At: at(10), Levels: []int{12}}, {At: at(20), Levels: []int{50}},
		{At: at(30), Levels: []int{95, 90}}, {At: at(40), Levels: []int{95}, Offline: true}}
	for _, c := range []struct {
		minutes int
		want    Level
	}{{-1, Unknown}, {0, Out}, {5, Out}, {10, Low}, {20, Some}, {35, Full}, {40, Offline}} {
		if got := stateAt(readings, at(c.minutes)).Level(); got != c.want {
			t.Errorf("the state at minute %d is %s; want %s", c.minutes, got, c.want)
		}
	}
	if got := (State{Known: true}).Level(); got != Unknown {
		t.Errorf("a reading of no levels: %s", got)
	}
}
