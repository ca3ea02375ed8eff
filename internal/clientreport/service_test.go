package clientreport

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/servicerecord"
	"washboard/internal/store"
)

// serviceReport is a report of November whose service record has visits
// to two of North's three rooms, and a cut.
func serviceReport(t *testing.T) Report {
	t.Helper()
	nov, _ := ParseMonth("2026-11", time.UTC)
	st := fakeStore{levels: map[string]store.ServiceLevel{"": {}}, buildings: []domain.Building{{ID: "b1", Name: "North"}, {ID: "b2", Name: "South"}},
		measures: []store.AlertMeasure{measure("b1", "l1", nov.From.Add(time.Hour), 5*time.Minute)}}
	r, err := Build(context.Background(), st, "a", domain.EveryBuilding(), nov)
	if err != nil {
		t.Fatal(err)
	}
	visit := func(room, name string, day int) servicerecord.Visit {
		at := nov.From.AddDate(0, 0, day).Add(9 * time.Hour)
		return servicerecord.Visit{RoomID: room, Name: name, Start: at, End: at}
	}
	rec := servicerecord.Record{Since: nov.From.AddDate(0, 0, 2), Visits: []servicerecord.Visit{
		visit("r1", "Ana", 20), visit("r1", "Ben", 10), visit("r2", "Cy", 5), visit("r9", "Dee", 6)}}
	r.AddService(rec, []ServiceRoom{
		{RoomID: "r1", Building: "b1", BuildingName: "North", Floor: "Level 1", Room: "Gents 1.02"},
		{RoomID: "r2", Building: "b1", BuildingName: "North", Floor: "Level 1", Room: "Ladies 1.04"},
		{RoomID: "r3", Building: "b1", BuildingName: "North", Floor: "Level 2", Room: "Gents 2.02"},
		{RoomID: "r4", Building: "b2", BuildingName: "South", Floor: "Ground", Room: "Kitchen"},
	})
	return r
}

// The service record's section counts the visits of each building and
// its rooms visited, and lists the rooms visited least first (none
// before one, an older last visit before a newer one); a visit of a room
// outside the report's buildings is not counted there.
func TestTheClientReportsServiceRecord(t *testing.T) {
	t.Parallel()
	r := serviceReport(t)
	s := r.Service
	if !s.Read || s.Visits != 4 || len(s.ByBuilding) != 2 {
		t.Fatalf("the section: %+v", s)
	}
	if b := s.ByBuilding[0]; b.Building != "b1" || b.Visits != 3 || b.Rooms != 3 || b.RoomsVisited != 2 {
		t.Errorf("North: %+v; want 3 visits, 2 of 3 rooms visited", b)
	}
	var least []string
	for _, room := range s.Least {
		least = append(least, room.Room+" "+room.LastVisitWords(en, time.UTC))
	}
	want := []string{"Gents 2.02 None in the period", "Kitchen None in the period", "Ladies 1.04 6 Nov 2026 09:00, Cy", "Gents 1.02 21 Nov 2026 09:00, Ana"}
	if strings.Join(least, "|") != strings.Join(want, "|") {
		t.Errorf("the rooms visited least:\n%q\nwant\n%q", least, want)
	}
	if got := r.ServiceSummary(en); len(got) != 2 || got[0] != "4 visits in November 2026, as people recorded them in Washboard." || !strings.Contains(got[1], "3 Nov 2026 00:00") {
		t.Errorf("the section's summary: %q", got)
	}
	var rows []string
	for _, row := range r.CSVRows() {
		rows = append(rows, strings.Join(row, ","))
	}
	if !strings.Contains(strings.Join(rows, "\n"), "South,all,0,0,0,,,,0,0,,,,,,,0,1,0") || CSVHeader[18] != "rooms_visited" {
		t.Errorf("the CSV's rows of each building's whole:\n%s", strings.Join(rows, "\n"))
	}

	// Of many rooms, the report lists the MaxLeastVisited visited least.
	many := make([]ServiceRoom, 3*MaxLeastVisited)
	for i := range many {
		many[i] = ServiceRoom{RoomID: fmt.Sprint("m", i), Building: "b1", Room: fmt.Sprintf("Room %02d", i)}
	}
	r.AddService(servicerecord.Record{}, many)
	if len(r.Service.Least) != MaxLeastVisited || r.Service.Least[0].Room != "Room 00" || r.Service.ByBuilding[0].Rooms != 3*MaxLeastVisited {
		t.Errorf("of %d rooms the report lists %d, first %+v", len(many), len(r.Service.Least), r.Service.Least[0])
	}
}

// The PDF says the section in its language, with the rooms visited
// least, bounded.
func TestThePDFsServiceRecord(t *testing.T) {
	t.Parallel()
	pdftotext, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("needs pdftotext (apt-get install poppler-utils)")
	}
	r := serviceReport(t)
	for _, tc := range []struct {
		lang string
		want []string
	}{
		{"en", []string{"Service record", "4 visits in November 2026", "Rooms visited least", "Gents 2.02 (Level 2)", "2 of 3", "21 Nov 2026 09:00, Ana"}},
		{"de", []string{"Reinigungsnachweis", "4 Besuche im Zeitraum November 2026", "Am wenigsten besuchte Räume", "Keiner im Zeitraum"}},
		{"fr", []string{"Registre d'entretien", "Salles les moins visitées", "2 sur 3"}},
	} {
		path := filepath.Join(t.TempDir(), tc.lang+".pdf")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.WritePDF(f, PDF{Account: "Acme", Scope: "All", Zone: time.UTC, Generated: r.Period.To, Words: i18n.For(tc.lang)}); err != nil {
			t.Fatal(err)
		}
		f.Close()
		out, err := exec.Command(pdftotext, path, "-").Output()
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(strings.ReplaceAll(string(out), "\u00a0", " ")), " ")
		for _, want := range tc.want {
			if !strings.Contains(text, want) {
				t.Errorf("the %s PDF does not say %q:\n%s", tc.lang, want, text)
			}
		}
	}
}
