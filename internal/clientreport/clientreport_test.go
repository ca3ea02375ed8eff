package clientreport

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/store"
)

// fakeStore holds measures and a layout; EachAlertMeasure filters them
// as the store does.
type fakeStore struct {
	measures  []store.AlertMeasure
	buildings []domain.Building
	levels    map[string]store.ServiceLevel
	history   []store.DeviceReadings
}

func (f fakeStore) ServiceLevels(context.Context, string) (map[string]store.ServiceLevel, error) {
	return f.levels, nil
}

func (f fakeStore) EachAlertMeasure(_ context.Context, _ string, from, to time.Time, buildings []string, fn func(store.AlertMeasure) error) error {
	for _, m := range f.measures {
		if m.Closed.Before(from) || !m.Closed.Before(to) || (buildings != nil && !slices.Contains(buildings, m.BuildingID)) {
			continue
		}
		if err := fn(m); err != nil {
			return err
		}
	}
	return nil
}

func (f fakeStore) Buildings(context.Context, string) ([]domain.Building, error) {
	return f.buildings, nil
}

func (f fakeStore) Paths(_ context.Context, _ string, ids []string) (map[string]store.Path, error) {
	out := map[string]store.Path{}
	for _, id := range ids {
		out[id] = store.Path{Location: domain.Location{ID: id, Name: "Loc " + id}, Room: domain.Room{Name: "Room"}, Floor: domain.Floor{Name: "Floor"}}
	}
	return out, nil
}

func measure(building, loc string, closed time.Time, claimUsed time.Duration) store.AlertMeasure {
	state := "met"
	if claimUsed > 15*time.Minute {
		state = "missed"
	}
	return store.AlertMeasure{Type: domain.AlertJam, BuildingID: building, LocationID: loc, Closed: closed,
		Claim:   store.MeasureOutcome{State: state, Target: 15 * time.Minute, Used: claimUsed},
		Resolve: store.MeasureOutcome{State: "not-applicable"}}
}

func TestParsePeriods(t *testing.T) {
	t.Parallel()
	zone := time.FixedZone("X", 3600)
	p, err := ParseMonth("2026-11", zone)
	if err != nil || p.String() != "November 2026" || p.Before().String() != "October 2026" || p.Days() != 30 {
		t.Errorf("2026-11 reads as %v (%v), before it %v", p, err, p.Before())
	}
	for _, bad := range []string{"2026-13", "Nov", ""} {
		if _, err := ParseMonth(bad, zone); err == nil || !strings.Contains(err.Error(), "not a month such as 2026-11") {
			t.Errorf("ParseMonth(%q) = %v, want an error naming the form", bad, err)
		}
	}
	d, err := ParseDays("2026-11-01", "2026-11-15", zone)
	if err != nil || d.Days() != 15 || d.Before().String() != "17 Oct 2026 – 31 Oct 2026" {
		t.Errorf("1 to 15 Nov reads as %v (%v), before it %v", d, err, d.Before())
	}
	if _, err := ParseDays("2026-11-15", "2026-11-01", zone); err == nil || !strings.Contains(err.Error(), "before the first") {
		t.Errorf("a range backwards gives %v", err)
	}
	for _, from := range []string{"2024-01-01", "0001-01-01"} {
		if _, err := ParseDays(from, "2026-11-01", zone); err == nil || !strings.Contains(err.Error(), "longer than the 400 days") {
			t.Errorf("a range from %s gives %v", from, err)
		}
	}
	if p, err := ParseDays("2025-10-03", "2026-11-06", zone); err != nil || p.Days() != 400 {
		t.Errorf("400 days read as %v, %v", p, err)
	}
}

// TestBuild: shares, percentiles, the period before and the scope.
func TestBuild(t *testing.T) {
	t.Parallel()
	nov, _ := ParseMonth("2026-11", time.UTC)
	at := nov.From.Add(48 * time.Hour)
	st := fakeStore{levels: map[string]store.ServiceLevel{"": {}},
		buildings: []domain.Building{{ID: "b1", Name: "North"}, {ID: "b2", Name: "South"}},
		measures: []store.AlertMeasure{
			measure("b1", "l1", at, 5*time.Minute), measure("b1", "l1", at, 20*time.Minute), measure("b1", "l2", at, 10*time.Minute),
			measure("b2", "l3", at, 40*time.Minute),
			measure("b1", "l1", nov.From.Add(-time.Hour), 5*time.Minute), // October
		}}
	r, err := Build(context.Background(), st, "a", domain.EveryBuilding(), nov)
	if err != nil {
		t.Fatal(err)
	}
	if got := Share(en, r.Now.All.Claim); got != "50% (2 of 4)" {
		t.Errorf("share met = %q, want 50%% (2 of 4)", got)
	}
	if got := Time(en, r.Now.All.Claim, r.Now.All.Claim.Median); got != "10 min" {
		t.Errorf("median = %q", got)
	}
	if got := Change(en, r.Now.All.Claim, r.Then.All.Claim); got != "down 50 points" {
		t.Errorf("against October: %q", got)
	}
	if len(r.Worst) == 0 || r.Worst[0].Name != "Loc l1" && r.Worst[0].Name != "Loc l3" || r.Worst[0].Missed != 1 {
		t.Errorf("worst = %+v", r.Worst)
	}
	if a := r.Against(); len(a) != 1 || Share(en, a[0].Now.Claim) != "50% (2 of 4)" || Share(en, a[0].Then.Claim) != "100% (1 of 1)" {
		t.Errorf("against October: %+v", a)
	}
	rows := r.CSVRows()
	if len(rows) != 4 || rows[0][0] != "North" || rows[0][5] != "66" || rows[1][0] != "South" || rows[1][5] != "0" ||
		rows[2][0] != "North" || rows[2][1] != AllTypes || rows[2][2] != "3" || rows[3][0] != "South" || rows[3][1] != AllTypes {
		t.Errorf("CSV rows = %v", rows)
	}

	north, err := Build(context.Background(), st, "a", domain.OnlyBuildings("b1"), nov)
	if err != nil || north.Now.All.Alerts != 3 || len(north.Now.ByBuilding) != 1 {
		t.Errorf("limited to North: %+v, %v", north.Now, err)
	}
	var pdf bytes.Buffer
	if err := r.WritePDF(&pdf, PDF{Account: "Acme", Scope: "All buildings", Zone: time.UTC, Generated: at}); err != nil || !bytes.HasPrefix(pdf.Bytes(), []byte("%PDF-")) {
		t.Errorf("the PDF: %v, starts %q", err, pdf.Bytes()[:min(8, pdf.Len())])
	}
}

// TestPDFCutsLongNames: a name longer than its column is cut to fit
// with "...", in the fonts' encoding, so that it does not run over the
// next column.
func TestPDFCutsLongNames(t *testing.T) {
	t.Parallel()
	pdftotext, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("needs pdftotext (apt-get install poppler-utils)")
	}
	nov, _ := ParseMonth("2026-11", time.UTC)
	long := strings.Repeat("Südhaus ", 30)
	st := fakeStore{levels: map[string]store.ServiceLevel{"": {}}, buildings: []domain.Building{{ID: "b1", Name: long}},
		measures: []store.AlertMeasure{measure("b1", "l1", nov.From.Add(time.Hour), 5*time.Minute)}}
	r, err := Build(context.Background(), st, "a", domain.EveryBuilding(), nov)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "r.pdf")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.WritePDF(f, PDF{Account: "Acme", Scope: "All buildings", Zone: time.UTC, Generated: nov.To}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out, err := exec.Command(pdftotext, path, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	text := string(out)
	if !strings.Contains(text, "Südhaus Südhaus Südh") || !strings.Contains(text, "...") || strings.Contains(text, strings.TrimSpace(long)) {
		t.Errorf("the long building name is not cut to its column:\n%s", text)
	}
}

// en is English's localizer, in which the tests read the report's words.
var en = i18n.For("en")

// TestPDFWritesEachLanguagesLetters: the PDF is in the language asked
// for, and its built-in font writes what the four languages need (é, ü,
// ñ, ß, « », the no-break space before French colons: pdftotext reads it
// back as a space, and a letter the font cannot write as "?") in the
// report's words and in the names of the data.
func TestPDFWritesEachLanguagesLetters(t *testing.T) {
	t.Parallel()
	pdftotext, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("needs pdftotext (apt-get install poppler-utils)")
	}
	nov, _ := ParseMonth("2026-11", time.UTC)
	st := fakeStore{levels: map[string]store.ServiceLevel{"": {}}, buildings: []domain.Building{{ID: "b1", Name: "Straße «Señor» Café"}},
		measures: []store.AlertMeasure{measure("b1", "l1", nov.From.Add(time.Hour), 5*time.Minute)}}
	r, err := Build(context.Background(), st, "a", domain.EveryBuilding(), nov)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		lang string
		want []string
	}{
		{"de", []string{"Kundenbericht: Müller & Söhne", "November 2026", "Nach Gebäude", "Straße «Señor» Café", "Rechtzeitig übernommen", "Seite 1"}},
		{"fr", []string{"Rapport client : Müller & Söhne", "novembre 2026", "Par bâtiment", "Straße «Señor» Café", "Prises en charge à temps :", "Généré le"}},
		{"es", []string{"Informe para el cliente: Müller & Söhne", "noviembre de 2026", "Por edificio", "Straße «Señor» Café", "Asumidas a tiempo", "página 1"}},
	} {
		path := filepath.Join(t.TempDir(), tc.lang+".pdf")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.WritePDF(f, PDF{Account: "Müller & Söhne", Scope: "Alle", Zone: time.UTC, Generated: nov.To, Words: i18n.For(tc.lang)}); err != nil {
			t.Fatal(err)
		}
		f.Close()
		out, err := exec.Command(pdftotext, path, "-").Output()
		if err != nil {
			t.Fatal(err)
		}
		text := strings.ReplaceAll(string(out), "\u00a0", " ")
		for _, want := range tc.want {
			if !strings.Contains(text, want) {
				t.Errorf("the %s PDF lacks %q:\n%s", tc.lang, want, text)
			}
		}
		if strings.Contains(text, "?") || strings.Contains(text, "Client report") {
			t.Errorf("the %s PDF has letters its font could not write, or English:\n%s", tc.lang, text)
		}
	}
}
