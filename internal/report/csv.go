package report

import (
	"iter"
	"strconv"
	"strings"
	"time"
)

// CSVTable is a table of the report that downloads as CSV
// (/reports/shift.csv?table=opened): its name in the address, its title on
// the page, its header and its rows, each with as many cells as the
// header. The cells are the values as they are: the caller guards them
// against spreadsheets' formulas.
type CSVTable struct {
	Name   string
	Label  string
	Header []string
	Rows   func(Report) iter.Seq[[]string]
}

// csvTables are the tables, in the order the page lists them. A new table
// is one more here.
var csvTables = []CSVTable{
	{Name: "opened", Label: "Alerts opened", Header: alertHeader, Rows: func(r Report) iter.Seq[[]string] { return alertCells(r.Opened) }},
	{Name: "resolved", Label: "Alerts resolved", Header: alertHeader, Rows: func(r Report) iter.Seq[[]string] { return alertCells(r.Resolved) }},
	{Name: "open", Label: "Alerts still open", Header: alertHeader, Rows: func(r Report) iter.Seq[[]string] { return alertCells(r.StillOpen) }},
	{Name: "offline", Label: "Devices offline", Header: withPlace("device_macid", "offline_since", "last_seen", "alert_id"), Rows: offlineCells},
	{Name: "top", Label: "Locations with the most alerts", Header: withPlace("alerts_opened", "alert_types"), Rows: topCells},
	{Name: "picklist", Label: "Pick list", Header: []string{"building", "floor", "product", "refills", "battery_sets"}, Rows: pickListCells},
	{Name: "runningout", Label: "Will run out during the next shift", Header: []string{"building", "floor", "product", "refills", "runs_out_before"}, Rows: runningOutCells},
	{Name: "handled", Label: "Who handled what", Header: withPlace("name", "note", "alert_id", "type", "claimed_at", "time_to_claim_minutes", "ended_at", "ended_by",
		"time_to_resolve_minutes"), Rows: handledCells},
	{Name: "done", Label: "Reported done", Header: withPlace("name", "outcome", "reason", "alert_id", "type", "reported_at", "contradicted"), Rows: doneCells},
}

// CSVTables returns the tables that download as CSV, in the order the
// page lists them.
func CSVTables() []CSVTable { return append([]CSVTable(nil), csvTables...) }

// FindCSVTable returns the table of that name.
func FindCSVTable(name string) (CSVTable, bool) {
	for _, t := range csvTables {
		if t.Name == name {
			return t, true
		}
	}
	return CSVTable{}, false
}

// placeHeader names the columns of a row's place, last in the tables of
// alerts and locations.
var placeHeader = []string{"building", "floor", "room", "location", "location_id"}

func withPlace(columns ...string) []string { return append(columns, placeHeader...) }

func placeCells(p Place) []string {
	return []string{p.Building, p.Floor, p.Room, p.Location, p.LocationID}
}

var alertHeader = withPlace("alert_id", "type", "created_at", "resolved_at", "resolution_type", "not_necessarily_fixed",
	"time_to_resolve_minutes", "open_at_end", "overdue_at_end", "refill_count", "device_macids")

func alertCells(rows []AlertRow) iter.Seq[[]string] {
	return func(yield func([]string) bool) {
		for _, row := range rows {
			a := row.Alert
			cells := []string{a.ID, string(a.Type), csvTime(a.Created), csvTime(a.Resolved), strings.ToLower(string(a.Resolution)),
				strconv.FormatBool(row.MayBeUnfixed), csvMinutes(row.TimeToResolve), strconv.FormatBool(row.OpenAtEnd),
				strconv.FormatBool(row.OverdueAtEnd), strconv.Itoa(a.RefillCount), strings.Join(a.MACs, ";")}
			if !yield(append(cells, placeCells(row.Place)...)) {
				return
			}
		}
	}
}

func offlineCells(r Report) iter.Seq[[]string] {
	return func(yield func([]string) bool) {
		for _, o := range r.Offline {
			if !yield(append([]string{o.MAC, csvTime(o.Since), csvTime(o.LastSeen), o.AlertID}, placeCells(o.Place)...)) {
				return
			}
		}
	}
}

func topCells(r Report) iter.Seq[[]string] {
	return func(yield func([]string) bool) {
		for _, l := range r.TopLocations {
			types := make([]string, len(l.Types))
			for i, t := range l.Types {
				types[i] = string(t)
			}
			if !yield(append([]string{strconv.Itoa(l.Opened), strings.Join(types, ";")}, placeCells(l.Place)...)) {
				return
			}
		}
	}
}

func handledCells(r Report) iter.Seq[[]string] {
	return func(yield func([]string) bool) {
		for _, by := range r.Handled {
			for _, h := range by.Rows {
				c := h.Claim
				cells := []string{c.Name, c.Note, c.AlertID, string(h.Alert.Alert.Type), csvTime(c.At),
					strconv.Itoa(int(h.TimeToClaim / time.Minute)), csvTime(c.Ended), string(c.EndedBy), csvMinutes(h.Alert.TimeToResolve)}
				if !yield(append(cells, placeCells(h.Alert.Place)...)) {
					return
				}
			}
		}
	}
}

// doneCells are the "done" reports, contradicted naming how: still_open,
// still_empty, or empty.
func doneCells(r Report) iter.Seq[[]string] {
	return func(yield func([]string) bool) {
		for _, d := range r.Done {
			cells := []string{d.Done.Name, string(d.Done.Outcome), d.Done.Reason, d.Done.AlertID, string(d.Alert.Alert.Type),
				csvTime(d.Done.At), string(d.Contradiction)}
			if !yield(append(cells, placeCells(d.Alert.Place)...)) {
				return
			}
		}
	}
}

// pickListCells are a row per product of each floor, then one for its
// battery sets.
func pickListCells(r Report) iter.Seq[[]string] {
	return func(yield func([]string) bool) {
		for _, row := range r.PickList.Rows {
			for _, rf := range row.Refills {
				if !yield([]string{row.Building, row.Floor, string(rf.Type), strconv.Itoa(rf.Count), ""}) {
					return
				}
			}
			if row.BatterySets > 0 && !yield([]string{row.Building, row.Floor, "", "", strconv.Itoa(row.BatterySets)}) {
				return
			}
		}
	}
}

func runningOutCells(r Report) iter.Seq[[]string] {
	return func(yield func([]string) bool) {
		for _, row := range r.RunningOut.Rows {
			for _, rf := range row.Refills {
				if !yield([]string{row.Building, row.Floor, string(rf.Type), strconv.Itoa(rf.Count), csvTime(r.NextShiftEnd)}) {
					return
				}
			}
		}
	}
}

// csvTime writes a time as the CSV files do: ISO 8601 in UTC, to the
// second; "" for the zero time.
func csvTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02T15:04:05Z")
}

// csvMinutes writes a duration in whole minutes; "" for none.
func csvMinutes(d time.Duration) string {
	if d <= 0 {
		return ""
	}
	return strconv.Itoa(int(d / time.Minute))
}
