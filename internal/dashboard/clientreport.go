package dashboard

import (
	"context"
	"fmt"
	"time"

	"washboard/internal/clientreport"
	"washboard/internal/domain"
)

// ClientReportZone is the time zone of the account's client report: its
// service level's, else zone.
func (s *Service) ClientReportZone(ctx context.Context, account string, zone *time.Location) (*time.Location, error) {
	return clientreport.Zone(ctx, s.store, account, zone)
}

// ClientReport is the client report of the account's alerts closed in
// the period, of the buildings the scope sees (clientreport.Build), with
// how long their dispensers were out of product (AddOutHours).
//
// The report reads the account several times; an account disconnected
// meanwhile would leave it half read (what was kept of the account is
// removed at once). So the account must be connected, by the same
// connection, before the first read and after the last:
// domain.ErrNotConnected otherwise, and no report.
func (s *Service) ClientReport(ctx context.Context, account string, sc domain.BuildingScope, p clientreport.Period) (clientreport.Report, error) {
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
