// Package servicerecord is the service record of an account's rooms:
// who was in a room, when, what they did there, and the state of its
// dispensers before and after as the service reported them (docs/
// service-record.md). It keeps nothing of its own: it reads what other
// parts keep, each through one Source (the "done" reports and the claims
// today), and the readings of the dispensers' history (store.History), so
// that the record lasts as long as what it is read from.
package servicerecord

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"washboard/internal/domain"
)

// Bounds of a record.
const (
	// MaxDays is the longest period a record covers.
	MaxDays = 31
	// MaxVisits is the most visits a record of a room holds, and
	// MaxAccountVisits of an account (its CSV, the client report's
	// counts): a period with more holds the newest.
	MaxVisits        = 200
	MaxAccountVisits = 5000
	// VisitGap is the longest time between two things one person did in
	// one room that are still one visit.
	VisitGap = time.Hour
	// Settle is how long before a visit's first entry its dispensers'
	// state before is taken, and how long after its last entry their state
	// after: a person may tap "done" a few minutes before the service
	// reports the refill, or after.
	Settle = 15 * time.Minute
)

// entriesPerVisit is how many entries a source reads for each visit a
// record may hold.
const entriesPerVisit = 4

// Kind is what an entry says was done.
type Kind string

// The kinds of entries.
const (
	// Done is a "done" report of "My work": an outcome, about an alert.
	Done Kind = "done"
	// Claimed is a claim of an alert ("I'm on it", or put on it by a
	// supervisor), which may have taken over another's.
	Claimed Kind = "claimed"
	// RoomTicked is a room ticked off on a round.
	RoomTicked Kind = "room_ticked"
	// DoorScan is a scan of the room's code at its door.
	DoorScan Kind = "door_scan"
)

// kindOrder orders the entries of one moment as one does things: at the
// door, on it, done, the room ticked off.
var kindOrder = map[Kind]int{DoorScan: 0, Claimed: 1, Done: 2, RoomTicked: 3}

// Entry is one thing a source says a person did in a room.
type Entry struct {
	Kind Kind
	At   time.Time
	// PersonID is the person's id; "" for a name typed. Name is their
	// name as the source keeps it.
	PersonID, Name string
	RoomID         string
	// LocationID and AlertType are those of the alert the entry is
	// about; empty for an entry of the whole room.
	LocationID string
	AlertType  domain.AlertType
	// Outcome and Reason are a "done" report's.
	Outcome domain.Outcome
	Reason  string
	// TookOver is, of a claim, the name of whoever's claim it took over.
	TookOver string
}

// who tells people apart: their id, or the name typed.
func (e Entry) who() string {
	if e.PersonID != "" {
		return "id:" + e.PersonID
	}
	return "name:" + e.Name
}

// Query selects the entries a source gives: those made in [From, To) in
// one room (RoomID), or in the buildings of a scope (Buildings, as
// domain.BuildingScope.IDs gives them: nil for every one), newest first,
// at most Limit.
type Query struct {
	Account   string
	Buildings []string
	RoomID    string
	From, To  time.Time
	Limit     int
}

// Source is where the record learns what was done in rooms: one adapter
// per kind of record (sources.go).
type Source interface {
	Entries(ctx context.Context, q Query) ([]Entry, error)
}

// Visit is what one person did in one room with no more than VisitGap
// between one thing and the next.
type Visit struct {
	RoomID         string
	PersonID, Name string
	Start, End     time.Time
	// Entries are what was done, oldest first.
	Entries []Entry
	// Dispensers are the room's dispensers, before and after the visit
	// (AddStates); none until read.
	Dispensers []Dispenser
}

// Record is the service record of a room, or of a scope's rooms, over a
// period.
type Record struct {
	From, To time.Time
	// Visits are newest first.
	Visits []Visit
	// Since is set when more was done in the period than the record
	// holds: it holds what was done after Since alone.
	Since time.Time
}

// Cut reports whether the record holds less than its period.
func (r Record) Cut() bool { return !r.Since.IsZero() }

// CheckPeriod says what is wrong with a record's period: empty, reversed,
// or longer than MaxDays.
func CheckPeriod(from, to time.Time) error {
	switch {
	case !to.After(from):
		return errors.New("the period ends before it begins")
	case to.Sub(from) > MaxDays*24*time.Hour+time.Hour: // a day of 25 hours
		return fmt.Errorf("the period is longer than the %d days a record covers", MaxDays)
	}
	return nil
}

// Read reads the record of q's room or buildings over [q.From, q.To)
// from every source, grouped into visits, newest first, at most
// maxVisits (q.Limit is set from it).
func Read(ctx context.Context, sources []Source, q Query, maxVisits int) (Record, error) {
	rec := Record{From: q.From, To: q.To}
	if err := CheckPeriod(q.From, q.To); err != nil {
		return rec, err
	}
	q.Limit = maxVisits*entriesPerVisit + 1
	var entries []Entry
	var cut time.Time // the oldest entry read of a source that had more
	for _, src := range sources {
		got, err := src.Entries(ctx, q)
		if err != nil {
			return rec, err
		}
		if len(got) >= q.Limit {
			oldest := got[len(got)-1].At
			for _, e := range got {
				oldest = minTime(oldest, e.At)
			}
			cut = maxTime(cut, oldest)
		}
		entries = append(entries, got...)
	}
	if !cut.IsZero() {
		// What came before the cut may be missing from a source: the
		// record holds what came after it, from every source.
		entries = slices.DeleteFunc(entries, func(e Entry) bool { return !e.At.After(cut) })
		rec.Since = cut
	}
	rec.Visits = Group(entries)
	if len(rec.Visits) > maxVisits {
		rec.Since = maxTime(rec.Since, rec.Visits[maxVisits].Start)
		rec.Visits = rec.Visits[:maxVisits]
	}
	return rec, nil
}

// Group groups entries into visits: one person's in one room, with no
// more than VisitGap between one and the next; newest first.
func Group(entries []Entry) []Visit {
	slices.SortStableFunc(entries, func(a, b Entry) int {
		return cmp.Or(a.At.Compare(b.At), strings.Compare(a.RoomID, b.RoomID), strings.Compare(a.who(), b.who()),
			cmp.Compare(kindOrder[a.Kind], kindOrder[b.Kind]))
	})
	type key struct{ room, who string }
	open := map[key]int{} // the index of each person's last visit of each room
	var visits []Visit
	for _, e := range entries {
		k := key{e.RoomID, e.who()}
		if i, ok := open[k]; ok && e.At.Sub(visits[i].End) <= VisitGap {
			visits[i].End = e.At
			visits[i].Entries = append(visits[i].Entries, e)
			if e.Name != "" {
				visits[i].Name = e.Name
			}
			continue
		}
		open[k] = len(visits)
		visits = append(visits, Visit{RoomID: e.RoomID, PersonID: e.PersonID, Name: e.Name, Start: e.At, End: e.At, Entries: []Entry{e}})
	}
	slices.SortStableFunc(visits, func(a, b Visit) int {
		return cmp.Or(b.Start.Compare(a.Start), b.End.Compare(a.End), strings.Compare(a.RoomID, b.RoomID), strings.Compare(a.Name, b.Name))
	})
	return visits
}

func minTime(a, b time.Time) time.Time {
	if a.IsZero() || b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
