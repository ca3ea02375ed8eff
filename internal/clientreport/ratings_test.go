package clientreport

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/store"
)

// The report adds up visitors' ratings by building, lists the rooms rated
// lowest, puts them in its CSV's building rows, and writes them in its
// PDF in the language asked for.
func TestTheReportSaysWhatVisitorsRated(t *testing.T) {
	t.Parallel()
	nov, _ := ParseMonth("2026-11", time.UTC)
	st := fakeStore{levels: map[string]store.ServiceLevel{"": {}}, buildings: []domain.Building{{ID: "b1", Name: "North"}, {ID: "b2", Name: "South"}},
		measures: []store.AlertMeasure{measure("b1", "l1", nov.From.Add(time.Hour), 5*time.Minute)}}
	r, err := Build(context.Background(), st, "a", domain.EveryBuilding(), nov)
	if err != nil {
		t.Fatal(err)
	}
	at := nov.From.Add(2 * time.Hour)
	r.AddRatings([]domain.Rating{{RoomID: "r1", At: at, Rating: 5}, {RoomID: "r1", At: at, Rating: 4}, {RoomID: "r2", At: at, Rating: 1},
		{RoomID: "r3", At: at, Rating: 2}}, map[string]RoomPlace{
		"r1": {BuildingID: "b1", Building: "North", Floor: "Ground", Room: "Room G.01"},
		"r2": {BuildingID: "b1", Building: "North", Floor: "Ground", Room: "Room G.02"},
		"r3": {BuildingID: "b2", Building: "South", Floor: "Level 1", Room: "Room 1.01"},
	})
	g := r.Ratings
	if g.Count != 4 || g.Average != 3 || len(g.ByBuilding) != 2 || g.ByBuilding[0].Building != "b1" || g.ByBuilding[0].Count != 3 ||
		g.ByBuilding[0].Average != 10.0/3 || g.ByBuilding[1].Average != 2 || len(g.Lowest) != 3 || g.Lowest[0].Room != "Room G.02" || g.Lowest[1].Room != "Room 1.01" {
		t.Errorf("ratings = %+v", g)
	}
	rows := r.CSVRows()
	last := CSVHeader[len(CSVHeader)-2:]
	if last[0] != "visitor_ratings" || last[1] != "visitor_rating_average" {
		t.Errorf("the CSV's last columns = %v", last)
	}
	var south []string
	for _, row := range rows {
		if len(row) != len(CSVHeader) {
			t.Errorf("a row of %d cells for %d columns: %v", len(row), len(CSVHeader), row)
		}
		if row[0] == "South" && row[1] == AllTypes {
			south = row
		}
	}
	if south == nil || south[len(south)-2] != "1" || south[len(south)-1] != "2.00" {
		t.Errorf("South's row, rated only = %v", south)
	}

	pdftotext, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("needs pdftotext (apt-get install poppler-utils)")
	}
	for _, tc := range []struct{ lang, want string }{
		{"en", "3.0 of 5 on average, from 4 ratings"},
		{"de", "Am schlechtesten bewertete Räume"},
		{"fr", "1,0 sur 5 (1 note)"},
	} {
		path := filepath.Join(t.TempDir(), "r.pdf")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.WritePDF(f, PDF{Account: "Acme", Scope: "All", Zone: time.UTC, Generated: nov.To, Words: i18n.For(tc.lang)}); err != nil {
			t.Fatal(err)
		}
		f.Close()
		out, err := exec.Command(pdftotext, path, "-").Output()
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(string(out)), " ")
		if !strings.Contains(text, tc.want) || !strings.Contains(text, "Room G.02") {
			t.Errorf("the PDF in %s does not say %q and Room G.02:\n%s", tc.lang, tc.want, text)
		}
	}
}
