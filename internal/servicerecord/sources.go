package servicerecord

import (
	"context"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// The sources of the record, one adapter each. A new kind of record (the
// rooms a round ticked off, the scans at a room's door) is one more
// Source, listed where the dashboard lists them (serviceSources in
// internal/dashboard/servicerecord.go).

// DoneStore reads the "done" reports of rooms.
type DoneStore interface {
	DoneReportsIn(ctx context.Context, f store.ServiceFilter) ([]store.PlacedDoneReport, error)
}

// DoneReports is the source of the "done" reports of "My work".
func DoneReports(st DoneStore) Source { return doneSource{st} }

type doneSource struct{ st DoneStore }

func (s doneSource) Entries(ctx context.Context, q Query) ([]Entry, error) {
	reports, err := s.st.DoneReportsIn(ctx, filterOf(q))
	if err != nil {
		return nil, err
	}
	out := make([]Entry, len(reports))
	for i, r := range reports {
		out[i] = Entry{Kind: Done, At: r.At, PersonID: r.PersonID, Name: r.Name, RoomID: r.RoomID, LocationID: r.LocationID,
			AlertType: r.Type, Outcome: r.Outcome, Reason: r.Reason}
	}
	return out, nil
}

// ClaimStore reads the claims of rooms' alerts.
type ClaimStore interface {
	ClaimsIn(ctx context.Context, f store.ServiceFilter) ([]store.PlacedClaim, error)
}

// Claims is the source of the claims, and of the hand-overs: a claim that
// took another over says whose.
func Claims(st ClaimStore) Source { return claimSource{st} }

type claimSource struct{ st ClaimStore }

func (s claimSource) Entries(ctx context.Context, q Query) ([]Entry, error) {
	claims, err := s.st.ClaimsIn(ctx, filterOf(q))
	if err != nil {
		return nil, err
	}
	out := make([]Entry, len(claims))
	for i, c := range claims {
		out[i] = Entry{Kind: Claimed, At: c.At, PersonID: c.PersonID, Name: c.Name, RoomID: c.RoomID, LocationID: c.LocationID,
			AlertType: c.Type, TookOver: c.TookOver}
	}
	return out, nil
}

// ScanStore reads the scans of rooms' codes at their doors.
type ScanStore interface {
	PresenceScansIn(ctx context.Context, f store.ServiceFilter) ([]domain.PresenceScan, error)
}

// DoorScans is the source of the scans of rooms' codes: a person who
// scanned a room's code was there.
func DoorScans(st ScanStore) Source { return scanSource{st} }

type scanSource struct{ st ScanStore }

func (s scanSource) Entries(ctx context.Context, q Query) ([]Entry, error) {
	scans, err := s.st.PresenceScansIn(ctx, filterOf(q))
	if err != nil {
		return nil, err
	}
	out := make([]Entry, len(scans))
	for i, sc := range scans {
		out[i] = Entry{Kind: DoorScan, At: sc.At, PersonID: sc.PersonID, Name: sc.Name, RoomID: sc.RoomID}
	}
	return out, nil
}

// TickStore reads the rooms ticked done on rounds.
type TickStore interface {
	RoundTicksIn(ctx context.Context, f store.ServiceFilter) ([]store.RoundTick, error)
}

// RoundTicks is the source of the rooms ticked done on rounds from need:
// a person who ticked a room done was there. A room skipped is not a
// visit: its round's end says why.
func RoundTicks(st TickStore) Source { return tickSource{st} }

type tickSource struct{ st TickStore }

func (s tickSource) Entries(ctx context.Context, q Query) ([]Entry, error) {
	ticks, err := s.st.RoundTicksIn(ctx, filterOf(q))
	if err != nil {
		return nil, err
	}
	out := make([]Entry, len(ticks))
	for i, t := range ticks {
		out[i] = Entry{Kind: RoomTicked, At: t.At, PersonID: t.PersonID, Name: t.Name, RoomID: t.RoomID}
	}
	return out, nil
}

func filterOf(q Query) store.ServiceFilter {
	return store.ServiceFilter{Account: q.Account, Buildings: q.Buildings, RoomID: q.RoomID, From: q.From, To: q.To, Limit: q.Limit}
}
