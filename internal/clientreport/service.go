package clientreport

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/go-pdf/fpdf"

	"washboard/internal/i18n"
	"washboard/internal/servicerecord"
)

// The service record of the period (internal/servicerecord), as a client
// asks to see it to be sure its washrooms were looked after: how many
// visits each building had and how many of its rooms were visited, and
// the rooms visited least, with their last visit.

// MaxLeastVisited is how many of the rooms visited least a report lists.
const MaxLeastVisited = 10

// Service is the service record's section of a report.
type Service struct {
	// Read says the section was read (AddService).
	Read   bool
	Visits int
	// Since is set when the period had more visits than a record holds:
	// the counts are of the visits after it.
	Since      time.Time
	ByBuilding []ServiceBuilding
	// Least are the rooms visited least, fewest first, then those whose
	// last visit is oldest; at most MaxLeastVisited.
	Least []ServiceRoom
}

// ServiceBuilding is a building's visits and rooms.
type ServiceBuilding struct {
	Building            string // its id
	Visits              int
	Rooms, RoomsVisited int
}

// ServiceRoom is a room of the report's buildings with its visits.
type ServiceRoom struct {
	RoomID, Building    string // ids
	BuildingName, Floor string
	Room                string
	Visits              int
	LastVisit           time.Time // zero when none in the period
	LastBy              string    // who made the last visit
}

// AddService counts the record's visits in the rooms given: those of the
// buildings the report covers, named.
func (r *Report) AddService(rec servicerecord.Record, rooms []ServiceRoom) {
	s := Service{Read: true, Visits: len(rec.Visits), Since: rec.Since}
	byRoom := make(map[string]*ServiceRoom, len(rooms))
	for i := range rooms {
		rooms[i].Visits, rooms[i].LastVisit, rooms[i].LastBy = 0, time.Time{}, ""
		byRoom[rooms[i].RoomID] = &rooms[i]
	}
	for _, v := range rec.Visits {
		room, ok := byRoom[v.RoomID]
		if !ok {
			continue
		}
		room.Visits++
		if v.Start.After(room.LastVisit) {
			room.LastVisit, room.LastBy = v.Start, v.Name
		}
	}
	byBuilding := map[string]*ServiceBuilding{}
	for _, room := range rooms {
		b := byBuilding[room.Building]
		if b == nil {
			b = &ServiceBuilding{Building: room.Building}
			byBuilding[room.Building] = b
		}
		b.Rooms++
		b.Visits += room.Visits
		if room.Visits > 0 {
			b.RoomsVisited++
		}
	}
	for _, b := range byBuilding {
		s.ByBuilding = append(s.ByBuilding, *b)
	}
	slices.SortFunc(s.ByBuilding, func(a, b ServiceBuilding) int {
		return cmp.Or(strings.Compare(r.BuildingName(a.Building), r.BuildingName(b.Building)), strings.Compare(a.Building, b.Building))
	})
	s.Least = slices.Clone(rooms)
	slices.SortFunc(s.Least, func(a, b ServiceRoom) int {
		return cmp.Or(cmp.Compare(a.Visits, b.Visits), a.LastVisit.Compare(b.LastVisit),
			strings.Compare(a.BuildingName, b.BuildingName), strings.Compare(a.Floor, b.Floor), strings.Compare(a.Room, b.Room))
	})
	s.Least = s.Least[:min(len(s.Least), MaxLeastVisited)]
	r.Service = s
}

// ServiceSummary is the section's figures in a sentence or two: the
// visits of the period, and whether more were made than were counted.
func (r Report) ServiceSummary(l *i18n.Localizer) []string {
	if !r.Service.Read {
		return nil
	}
	out := []string{l.N("servicerecord.client_visits", r.Service.Visits, "period", r.Period.In(l))}
	if !r.Service.Since.IsZero() {
		out = append(out, l.T("servicerecord.client_cut", "since", l.DateTime(r.Service.Since, r.Period.From.Location())))
	}
	return out
}

// LastVisitWords is a room's last visit in words: "24 Nov 2026 09:25,
// Ana", or that it had none in the period.
func (s ServiceRoom) LastVisitWords(l *i18n.Localizer, zone *time.Location) string {
	if s.LastVisit.IsZero() {
		return l.T("servicerecord.client_never")
	}
	return l.T("servicerecord.client_last", "when", l.DateTime(s.LastVisit, zone), "name", s.LastBy)
}

// Place is the room with its floor: "Men's Restroom 1.02 (Level 1)".
func (s ServiceRoom) Place() string {
	if s.Floor == "" {
		return s.Room
	}
	return s.Room + " (" + s.Floor + ")"
}

// writeService writes the service record's section: the visits by
// building and the rooms visited least, at most MaxLeastVisited.
func (r Report) writeService(l *i18n.Localizer, pdf *fpdf.Fpdf, text func(size float64, style, s string), heading func(string), fit func(string, float64) string) {
	if !r.Service.Read {
		return
	}
	heading(l.T("servicerecord.client_heading"))
	for _, line := range r.ServiceSummary(l) {
		text(10, "", line)
	}
	text(8, "I", l.T("servicerecord.client_help"))
	row := func(widths []float64, style string, cells ...string) {
		pdf.SetFont("Helvetica", style, 8)
		border := ""
		if style == "B" {
			border = "B"
		}
		for i, c := range cells {
			pdf.CellFormat(widths[i], 5, fit(c, widths[i]), border, 0, "L", false, 0, "")
		}
		pdf.Ln(-1)
	}
	if len(r.Service.ByBuilding) > 0 {
		pdf.Ln(1)
		bw := []float64{80, 30, 40}
		row(bw, "B", l.T("servicerecord.client_building"), l.T("servicerecord.client_visits_column"), l.T("servicerecord.client_rooms_visited"))
		for i, b := range r.Service.ByBuilding {
			if i == MaxPDFRows {
				text(8, "I", l.N("pdf.more_buildings", len(r.Service.ByBuilding)-MaxPDFRows))
				break
			}
			row(bw, "", r.BuildingNameIn(l, b.Building), l.Number(b.Visits), l.T("servicerecord.client_of", "visited", l.Number(b.RoomsVisited), "rooms", l.Number(b.Rooms)))
		}
	}
	if len(r.Service.Least) > 0 {
		pdf.Ln(2)
		lw := []float64{70, 45, 15, 50}
		row(lw, "B", l.T("servicerecord.client_least"), l.T("servicerecord.client_building"), l.T("servicerecord.client_visits_column"), l.T("servicerecord.client_last_visit"))
		for _, s := range r.Service.Least {
			row(lw, "", s.Place(), s.BuildingName, l.Number(s.Visits), s.LastVisitWords(l, r.Period.From.Location()))
		}
	}
}
