package clientreport

import (
	"strings"
	"testing"
	"time"

	"washboard/internal/i18n"
	"washboard/internal/rounds"
)

// Checks saved are said with the language's numbers: the share of
// visits saved, the visits and out-hours of both; rounds from need that
// made more visits say so, and a period without any says there were
// none rather than "100% fewer"; the CSV has a building's figures on its
// whole row.
func TestChecksSavedInWords(t *testing.T) {
	t.Parallel()
	b := rounds.Checks{NeedVisits: 65, FixedVisits: 532, NeedOut: rounds.OutTime{Out: 27*time.Hour + 48*time.Minute, InService: 90 * time.Minute},
		FixedOut: rounds.OutTime{Out: 31*time.Hour + 24*time.Minute, InService: 2 * time.Hour}}
	r := Report{Buildings: map[string]string{"b1": "North"},
		Checks: Checks{Read: true, Every: 2 * time.Hour, ServiceHours: true, Total: b, ByBuilding: []ChecksBuilding{{Building: "b1", Checks: b}}}}
	en, fr := i18n.For("en"), i18n.For("fr")
	if got := strings.Join(r.ChecksSummary(en), " | "); got != "87.8% fewer room visits than fixed rounds every 2 h. | "+
		"Room visits: 65 by rounds from need, against 532 by fixed rounds every 2 h. | "+
		"Out-hours: 27.8 hours under rounds from need, against 31.4 hours under fixed rounds (estimated). | "+
		"Within service hours: 1.5 hours against 2.0 hours." {
		t.Errorf("in English: %q", got)
	}
	if got := r.Checks.SavedWords(fr); got != "87,8\u00a0% de visites de salles en moins qu'avec des tournées fixes toutes les 2 h." {
		t.Errorf("in French: %q", got)
	}
	more := r
	more.Checks.Total.NeedVisits = 600
	if got := more.Checks.SavedWords(en); !strings.Contains(got, "more room visits") || !strings.Contains(got, "600 against 532") {
		t.Errorf("more visits than fixed rounds: %q", got)
	}
	none := Report{Checks: Checks{Read: true, Every: 2 * time.Hour, Total: rounds.Checks{FixedVisits: 532}}}
	if got := none.ChecksSummary(en); len(got) != 1 || got[0] != "No rounds from need in this period." {
		t.Errorf("without rounds from need: %q", got)
	}
	rows := r.CSVRows()
	if len(rows) != 1 || strings.Join(rows[0][len(rows[0])-9:len(rows[0])-2], ",") != "2,65,532,27.8,31.4,1.5,2.0" || len(rows[0]) != len(CSVHeader) {
		t.Errorf("the CSV's rows: %q", rows)
	}
}
