package report

import (
	"strings"
	"testing"
	"time"

	"washboard/internal/domain"
)

// Every table that downloads as CSV writes each row with as many cells as
// its header names, so that no column of a spreadsheet holds another's
// values, and tables differ by name.
func TestCSVTablesRowsMatchTheirHeader(t *testing.T) {
	place := Place{Building: "North Tower", Floor: "Level 3", Room: "Men's Restroom 3.12", Location: "Stall 2", LocationID: "l1"}
	alert := AlertRow{Alert: closedAlert("a1", "l1", domain.AlertConsumableOut, at(6, 10), at(6, 40), domain.ResolvedByUser), Place: place,
		TimeToResolve: 30 * time.Minute}
	refills := []Refill{{Type: domain.Tissue, Count: 2}}
	r := Report{
		Opened: []AlertRow{alert}, Resolved: []AlertRow{alert}, StillOpen: []AlertRow{alert},
		Offline:      []OfflineRow{{Place: place, MAC: "aa:bb", Since: at(7, 0), AlertID: "a2"}},
		TopLocations: []LocationCount{{Place: place, Opened: 3, Types: []domain.AlertType{domain.AlertConsumableOut, domain.AlertBatteryOut}}},
		PickList:     PickList{Rows: []PickRow{{Building: "North Tower", Floor: "Level 3", Refills: refills, BatterySets: 1}}},
		RunningOut:   PickList{Rows: []PickRow{{Building: "North Tower", Floor: "Level 3", Refills: refills}}},
		NextShiftEnd: at(22, 0),
		Handled: []HandledBy{{Name: "Maria", Rows: []HandledRow{{Claim: domain.Claim{AlertID: "a1", Name: "Maria", Note: "on it", At: at(6, 15)},
			Alert: alert, TimeToClaim: 5 * time.Minute}}}},
		Done: []DoneRow{{Done: domain.DoneReport{AlertID: "a1", Name: "Maria", Outcome: domain.Refilled, At: at(6, 20)}, Alert: alert,
			Contradiction: domain.StillEmpty}},
	}
	seen := map[string]bool{}
	for _, table := range CSVTables() {
		if seen[table.Name] || table.Name == "" || table.Label == "" {
			t.Errorf("the table %q (%q) has no name or label, or another has its name", table.Name, table.Label)
		}
		seen[table.Name] = true
		rows := 0
		for row := range table.Rows(r) {
			rows++
			if len(row) != len(table.Header) {
				t.Errorf("the table %s writes a row of %d cells under a header of %d:\n%s\n%s", table.Name, len(row), len(table.Header),
					strings.Join(table.Header, ","), strings.Join(row, ","))
			}
		}
		if rows == 0 {
			t.Errorf("the table %s wrote no row of a report with one of everything", table.Name)
		}
		if found, ok := FindCSVTable(table.Name); !ok || found.Label != table.Label {
			t.Errorf("FindCSVTable(%q) = %v, %v", table.Name, found.Label, ok)
		}
	}
	if _, ok := FindCSVTable("secrets"); ok {
		t.Error("FindCSVTable finds a table the report does not have")
	}
}
