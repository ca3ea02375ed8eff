package dashboard

import (
	"context"
	"time"

	"washboard/internal/domain"
	"washboard/internal/servicerecord"
)

// The service record (docs/service-record.md): who was in a room, when,
// what they did, and its dispensers before and after, read from what
// other parts keep (internal/servicerecord).

// serviceSources are where the record learns what was done in rooms, one
// adapter each: a new kind of record (the rooms a round ticked off, the
// scans at a room's door) is one more line here.
func (s *Service) serviceSources() []servicerecord.Source {
	return []servicerecord.Source{
		servicerecord.DoneReports(s.store),
		servicerecord.Claims(s.store),
		servicerecord.DoorScans(s.store),
		servicerecord.RoundTicks(s.store),
	}
}

// RecentService is how far back a room's page shows its service record,
// and RecentVisits how many of its visits.
const (
	RecentService = 7 * 24 * time.Hour
	RecentVisits  = 5
)

// ServiceRecord is a service record with the names of its places.
type ServiceRecord struct {
	servicerecord.Record
	// Places names the buildings, floors and rooms of the visits;
	// Locations the locations of their entries and dispensers.
	Places    Places
	Locations map[string]domain.Location
}

// Where is the location of the id's name; "" when the layout no longer
// has it.
func (r ServiceRecord) Where(locationID string) string { return r.Locations[locationID].Name }

// RoomServiceRecord reads the service record of a room the scope sees
// over [from, to): at most max visits (at most servicerecord.MaxVisits),
// newest first, with the room's dispensers before and after each, as of
// now. A room outside the scope answers as an unknown one.
func (s *Service) RoomServiceRecord(ctx context.Context, account string, sc domain.BuildingScope, roomID string, from, to time.Time, max int) (ServiceRecord, error) {
	out := ServiceRecord{Places: newPlaces()}
	r, err := s.store.Room(ctx, account, roomID)
	if err != nil {
		return out, err
	}
	f, err := s.store.Floor(ctx, account, r.FloorID)
	if err != nil {
		return out, err
	}
	if !sc.Sees(f.BuildingID) {
		return out, notSeen("room", roomID)
	}
	b, err := s.store.Building(ctx, account, f.BuildingID)
	if err != nil {
		return out, err
	}
	out.Places = placesIn(b, f, []domain.Room{r})
	q := servicerecord.Query{Account: account, Buildings: sc.IDs(), RoomID: roomID, From: from, To: to}
	if out.Record, err = servicerecord.Read(ctx, s.serviceSources(), q, min(max, servicerecord.MaxVisits)); err != nil {
		return out, err
	}
	if err := servicerecord.AddStates(ctx, s.store, account, sc.IDs(), roomID, &out.Record, s.clock.Now()); err != nil {
		return out, err
	}
	out.Locations, err = s.locationsIn(ctx, account, roomID)
	return out, err
}

// AccountServiceRecord reads the service record of the rooms of the
// buildings the scope sees over [from, to): at most
// servicerecord.MaxAccountVisits visits, newest first, with their rooms'
// dispensers before and after each when states is set.
func (s *Service) AccountServiceRecord(ctx context.Context, account string, sc domain.BuildingScope, from, to time.Time, states bool) (ServiceRecord, error) {
	out := ServiceRecord{}
	var err error
	if out.Places, err = s.allPlaces(ctx, account); err != nil {
		return out, err
	}
	q := servicerecord.Query{Account: account, Buildings: sc.IDs(), From: from, To: to}
	if out.Record, err = servicerecord.Read(ctx, s.serviceSources(), q, servicerecord.MaxAccountVisits); err != nil {
		return out, err
	}
	if states {
		if err := servicerecord.AddStates(ctx, s.store, account, sc.IDs(), "", &out.Record, s.clock.Now()); err != nil {
			return out, err
		}
	}
	out.Locations, err = s.locationsIn(ctx, account, "")
	return out, err
}

// locationsIn reads the locations of a room, or of the whole account, by
// id.
func (s *Service) locationsIn(ctx context.Context, account, roomID string) (map[string]domain.Location, error) {
	ls, err := s.store.LocationsIn(ctx, account, "", "", roomID)
	if err != nil {
		return nil, err
	}
	out := make(map[string]domain.Location, len(ls))
	for _, l := range ls {
		out[l.ID] = l
	}
	return out, nil
}
