package trends

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"washboard/internal/domain"
	"washboard/internal/report"
	"washboard/internal/store"
)

// Alerts is what a period's alerts say.
type Alerts struct {
	// Types are the types of the alerts created in the period: those
	// Washboard knows in the order of domain.AlertTypes, then others by
	// name. Every ByType below is indexed as Types.
	Types []domain.AlertType
	// Days are the period's days, first to last, with the alerts created
	// on each.
	Days []Day
	// Weeks are the weeks the period touches, with the alerts resolved in
	// each within the period.
	Weeks []Week
	// Locations and Rooms are every location and room where alerts were
	// created in the period, most alerts first; ties by where they are,
	// building, floor, room and location names, then by id. An alert of a
	// location the places do not name counts for its location only.
	Locations []Count
	Rooms     []Count
	// Created and Resolved count the alerts created, and resolved, in the
	// period.
	Created, Resolved int
}

// Day is a day of the period and the alerts created on it.
type Day struct {
	Start  time.Time // midnight, in the period's zone
	ByType []int
	Total  int
}

// Week is a week of the period and the alerts resolved in it.
type Week struct {
	// Start and End bound the part of the week in the period: from
	// Monday 00:00, or the period's start, to the next Monday, or the
	// period's end (now). Partial is set when that is not the whole week.
	Start, End time.Time
	Partial    bool
	// Resolved counts the alerts resolved in the week; Median is the
	// median of their times to resolve, from creation to resolution
	// (zero when none).
	Resolved int
	Median   time.Duration
}

// Count is a location or room and the alerts created there.
type Count struct {
	ID     string // the location's or the room's
	Place  Place
	Alerts int
	ByType []int
}

// Place is where a location or a room is. A room's Location and
// LocationID are empty; a location not in the account's layout has only
// its LocationID.
type Place struct {
	BuildingID, Building string
	Floor                string
	RoomID, Room         string
	LocationID, Location string
}

// Known reports whether the place is in the account's layout.
func (p Place) Known() bool { return p.RoomID != "" }

// comparePlaces orders places by building, floor, room and location name;
// places not in the layout last.
func comparePlaces(a, b Place) int {
	return cmp.Or(
		report.CompareNames(a.Building, b.Building),
		report.CompareNames(a.Floor, b.Floor),
		report.CompareNames(a.Room, b.Room),
		report.CompareNames(a.Location, b.Location),
	)
}

// CountAlerts counts the spans of a period: those created in it per day,
// location and room, those resolved in it per week. places gives, by
// location id, where each location is; spans outside the period are left
// out.
func CountAlerts(p Period, spans []store.AlertSpan, places map[string]Place) Alerts {
	var out Alerts
	days := p.dayStarts()
	weeks := p.weekStarts()
	typeIndex := map[domain.AlertType]int{}
	var types []domain.AlertType
	type counted struct {
		alerts int
		byType map[domain.AlertType]int
	}
	perDay := make([]map[domain.AlertType]int, p.Days)
	perLocation := map[string]*counted{}
	perRoom := map[string]*counted{}
	add := func(m map[string]*counted, id string, t domain.AlertType) {
		c := m[id]
		if c == nil {
			c = &counted{byType: map[domain.AlertType]int{}}
			m[id] = c
		}
		c.alerts++
		c.byType[t]++
	}
	durations := make([][]time.Duration, len(weeks)-1)
	for _, sp := range spans {
		if !sp.Resolved.IsZero() && !sp.Resolved.Before(p.Start) && sp.Resolved.Before(p.End) {
			if w, ok := index(weeks, sp.Resolved); ok {
				durations[w] = append(durations[w], max(sp.Resolved.Sub(sp.Created), 0))
				out.Resolved++
			}
		}
		if sp.Created.Before(p.Start) || !sp.Created.Before(p.End) {
			continue
		}
		d, ok := index(days, sp.Created)
		if !ok {
			continue
		}
		if _, ok := typeIndex[sp.Type]; !ok {
			typeIndex[sp.Type] = 0
			types = append(types, sp.Type)
		}
		if perDay[d] == nil {
			perDay[d] = map[domain.AlertType]int{}
		}
		perDay[d][sp.Type]++
		out.Created++
		add(perLocation, sp.LocationID, sp.Type)
		if pl, ok := places[sp.LocationID]; ok && pl.RoomID != "" {
			add(perRoom, pl.RoomID, sp.Type)
		}
	}

	slices.SortFunc(types, report.CompareAlertTypes)
	for i, t := range types {
		typeIndex[t] = i
	}
	out.Types = types
	byType := func(m map[domain.AlertType]int) []int {
		v := make([]int, len(types))
		for t, n := range m {
			v[typeIndex[t]] = n
		}
		return v
	}
	out.Days = make([]Day, p.Days)
	for i := range out.Days {
		out.Days[i] = Day{Start: days[i], ByType: byType(perDay[i])}
		for _, n := range out.Days[i].ByType {
			out.Days[i].Total += n
		}
	}
	out.Weeks = make([]Week, len(weeks)-1)
	for i := range out.Weeks {
		w := Week{Start: weeks[i], End: weeks[i+1], Resolved: len(durations[i]), Median: report.Median(durations[i])}
		if w.Start.Before(p.Start) {
			w.Start, w.Partial = p.Start, true
		}
		if w.End.After(p.End) {
			w.End, w.Partial = p.End, true
		}
		out.Weeks[i] = w
	}
	ranked := func(m map[string]*counted, place func(id string) Place) []Count {
		out := make([]Count, 0, len(m))
		for id, c := range m {
			out = append(out, Count{ID: id, Place: place(id), Alerts: c.alerts, ByType: byType(c.byType)})
		}
		slices.SortFunc(out, func(a, b Count) int {
			return cmp.Or(cmp.Compare(b.Alerts, a.Alerts), comparePlaces(a.Place, b.Place), strings.Compare(a.ID, b.ID))
		})
		return out
	}
	out.Locations = ranked(perLocation, func(id string) Place {
		pl, ok := places[id]
		if !ok {
			return Place{LocationID: id}
		}
		return pl
	})
	// A room's place is that of any of its locations, without the location.
	roomPlaces := map[string]Place{}
	for _, pl := range places {
		if _, ok := perRoom[pl.RoomID]; ok {
			pl.LocationID, pl.Location = "", ""
			roomPlaces[pl.RoomID] = pl
		}
	}
	out.Rooms = ranked(perRoom, func(id string) Place { return roomPlaces[id] })
	return out
}

// Tied returns how many of counts after the first n have as many alerts
// as the nth: those a list of the first n leaves out for no reason but
// their place in the order.
func Tied(counts []Count, n int) int {
	if n <= 0 || n >= len(counts) {
		return 0
	}
	last, tied := counts[n-1].Alerts, 0
	for _, c := range counts[n:] {
		if c.Alerts != last {
			break
		}
		tied++
	}
	return tied
}

// Totals are an account's alerts of a period in a few figures, for a
// table of several accounts.
type Totals struct {
	// Created counts the alerts created in the period, LastWeek those of
	// its last 7 days (today and the 6 days before).
	Created, LastWeek int
	// Resolved counts the alerts resolved in the period, Median is the
	// median of their times to resolve (zero when none).
	Resolved int
	Median   time.Duration
}

// TotalsOf counts the spans of a period in a few figures.
func TotalsOf(p Period, spans []store.AlertSpan) Totals {
	var t Totals
	days := p.dayStarts()
	week := days[max(len(days)-1-7, 0)]
	var durations []time.Duration
	for _, sp := range spans {
		if !sp.Resolved.IsZero() && !sp.Resolved.Before(p.Start) && sp.Resolved.Before(p.End) {
			durations = append(durations, max(sp.Resolved.Sub(sp.Created), 0))
		}
		if sp.Created.Before(p.Start) || !sp.Created.Before(p.End) {
			continue
		}
		t.Created++
		if !sp.Created.Before(week) {
			t.LastWeek++
		}
	}
	t.Resolved, t.Median = len(durations), report.Median(durations)
	return t
}
