package dashboard

import (
	"context"
	"fmt"
	"time"

	"washboard/internal/clientreport"
	"washboard/internal/domain"
	"washboard/internal/servicerecord"
)

// ClientReportZone is the time zone of the account's client report: its
// service level's, else zone.
func (s *Service) ClientReportZone(ctx context.Context, account string, zone *time.Location) (*time.Location, error) {
	return clientreport.Zone(ctx, s.store, account, zone)
}

// ClientReport is the client report of the account's alerts closed in
// the period, of the buildings the scope sees (clientreport.Build), with
// how long their dispensers were out of product (AddOutHours), the
// service record's visits, and what rounds from need saved against fixed
// rounds every every (ChecksSaved).
//
// The report reads the account several times; an account disconnected
// meanwhile would leave it half read (what was kept of the account is
// removed at once). So the account must be connected, by the same
// connection, before the first read and after the last:
// domain.ErrNotConnected otherwise, and no report.
func (s *Service) ClientReport(ctx context.Context, account string, sc domain.BuildingScope, p clientreport.Period, every time.Duration) (clientreport.Report, error) {
	before, err := s.store.Connection(ctx, account)
	if err != nil {
		return clientreport.Report{}, err
	}
	r, err := clientreport.Build(ctx, s.store, account, sc, p)
	if err != nil {
		return clientreport.Report{}, err
	}
	if err := r.AddOutHours(ctx, s.store, account, sc, s.clock.Now()); err != nil {
		return clientreport.Report{}, err
	}
	if err := s.addService(ctx, &r, account, sc, p); err != nil {
		return clientreport.Report{}, err
	}
	if r.Checks, err = s.ChecksSaved(ctx, account, sc, "", p.From, p.To, every); err != nil {
		return clientreport.Report{}, err
	}
	if err := s.addRatings(ctx, account, sc, &r); err != nil {
		return clientreport.Report{}, err
	}
	after, err := s.store.Connection(ctx, account)
	if err != nil {
		return clientreport.Report{}, err
	}
	if !after.Connected.Equal(before.Connected) {
		return clientreport.Report{}, fmt.Errorf("account %q was connected again while its report was made: %w", account, domain.ErrNotConnected)
	}
	return r, nil
}

// addService adds the service record's visits of the period to the
// report, read servicerecord.MaxDays at a time (a visit across two of
// them counts twice), of the rooms of the buildings the scope sees.
func (s *Service) addService(ctx context.Context, r *clientreport.Report, account string, sc domain.BuildingScope, p clientreport.Period) error {
	places, err := s.allPlaces(ctx, account)
	if err != nil {
		return err
	}
	var rooms []clientreport.ServiceRoom
	for id := range places.Rooms {
		b, f, room, _ := places.Path(id)
		if sc.Sees(b.ID) {
			rooms = append(rooms, clientreport.ServiceRoom{RoomID: id, Building: b.ID, BuildingName: b.Name, Floor: f.Name, Room: room.Name})
		}
	}
	var all servicerecord.Record
	for from := p.From; from.Before(p.To); {
		to := from.AddDate(0, 0, servicerecord.MaxDays)
		if to.After(p.To) {
			to = p.To
		}
		rec, err := s.AccountServiceRecord(ctx, account, sc, from, to, false)
		if err != nil {
			return err
		}
		for _, v := range rec.Visits {
			all.Visits = append(all.Visits, servicerecord.Visit{RoomID: v.RoomID, PersonID: v.PersonID, Name: v.Name, Start: v.Start, End: v.End})
		}
		if rec.Since.After(all.Since) {
			all.Since = rec.Since
		}
		from = to
	}
	r.AddService(all, rooms)
	return nil
}

// addRatings adds to the report what visitors rated the rooms of the
// buildings the scope sees in its period (and of the building it is of,
// when it is of one).
func (s *Service) addRatings(ctx context.Context, account string, sc domain.BuildingScope, r *clientreport.Report) error {
	rs, err := s.store.RatingsDuring(ctx, account, r.Period.From, r.Period.To)
	if err != nil || len(rs) == 0 {
		return err
	}
	all, err := s.allPlaces(ctx, account)
	if err != nil {
		return err
	}
	places := map[string]clientreport.RoomPlace{}
	seen := rs[:0:0]
	for _, x := range rs {
		b, f, room, _ := all.Path(x.RoomID)
		if !sc.Sees(b.ID) {
			continue
		}
		seen = append(seen, x)
		places[x.RoomID] = clientreport.RoomPlace{BuildingID: b.ID, Building: b.Name, Floor: f.Name, Room: room.Name}
		if _, ok := r.Buildings[b.ID]; !ok && b.ID != "" {
			if r.Buildings == nil {
				r.Buildings = map[string]string{}
			}
			r.Buildings[b.ID] = b.Name
		}
	}
	r.AddRatings(seen, places)
	return nil
}
