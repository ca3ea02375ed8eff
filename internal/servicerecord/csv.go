package servicerecord

import (
	"strconv"
	"strings"
	"time"
)

// CSVHeader is the header of a record's CSV: one row per visit and
// dispenser of its room (a visit of a room without dispensers has one
// row, without them). Headers and cells are English, for spreadsheets
// and scripts.
var CSVHeader = []string{"visit_start", "visit_end", "building", "floor", "room", "person", "done",
	"location", "device_mac", "device_position", "device_type",
	"before_state", "before_levels", "before_reported_at", "after_state", "after_levels", "after_reported_at"}

// Names names a record's places for its CSV: a room's building, floor
// and room, and a location's name ("" when the layout no longer has it).
type Names struct {
	Room     func(roomID string) (building, floor, room string)
	Location func(locationID string) string
}

// CSVRows is the record's rows, in the order of CSVHeader, newest visit
// first.
func (r Record) CSVRows(n Names) [][]string {
	var rows [][]string
	for _, v := range r.Visits {
		b, f, room := n.Room(v.RoomID)
		visit := []string{isoTime(v.Start), isoTime(v.End), b, f, room, v.Name, entriesWords(v.Entries, n.Location)}
		if len(v.Dispensers) == 0 {
			rows = append(rows, append(visit, "", "", "", "", "", "", "", "", "", ""))
			continue
		}
		for _, d := range v.Dispensers {
			row := append(append([]string(nil), visit...), d.Location, d.MAC, d.Position, string(d.Type))
			rows = append(rows, append(append(row, stateCells(d.Before)...), stateCells(d.After)...))
		}
	}
	return rows
}

// entriesWords is what a visit's entries say was done, in English, one
// after the other: "refilled (consumable_out at Sinks); claimed
// (consumable_out at Sinks, taking over from Ana)".
func entriesWords(entries []Entry, location func(string) string) string {
	parts := make([]string, 0, len(entries))
	for _, e := range entries {
		what := string(e.AlertType)
		if e.LocationID != "" {
			what += " at " + location(e.LocationID)
		}
		switch e.Kind {
		case Done:
			s := string(e.Outcome) + " (" + what
			if e.Reason != "" {
				s += ", because: " + e.Reason
			}
			parts = append(parts, s+")")
		case Claimed:
			if e.TookOver != "" {
				what += ", taking over from " + e.TookOver
			}
			parts = append(parts, "claimed ("+what+")")
		default:
			parts = append(parts, string(e.Kind))
		}
	}
	return strings.Join(parts, "; ")
}

// stateCells is a state's level, its compartments' levels separated by
// ";", and when it was reported.
func stateCells(s State) []string {
	levels := make([]string, len(s.Levels))
	for i, l := range s.Levels {
		levels[i] = strconv.Itoa(l)
	}
	return []string{string(s.Level()), strings.Join(levels, ";"), isoTime(s.At)}
}

func isoTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02T15:04:05Z")
}
