package dashboard

import (
	"context"
	"slices"
	"time"

	"washboard/internal/clientreport"
	"washboard/internal/domain"
)

// ChecksSaved reads what rounds from need saved over [from, to) against
// fixed rounds every every (clientreport.ReadChecks), in the rooms of the
// buildings the scope sees, or of building alone when set.
func (s *Service) ChecksSaved(ctx context.Context, account string, sc domain.BuildingScope, building string, from, to time.Time, every time.Duration) (clientreport.Checks, error) {
	places, err := s.allPlaces(ctx, account)
	if err != nil {
		return clientreport.Checks{}, err
	}
	q := clientreport.ChecksQuery{Account: account, Buildings: sc.IDs(), Locations: map[string]string{}, From: from, To: to, Now: s.clock.Now(), Every: every}
	if building != "" {
		q.Buildings = []string{building}
	}
	var buildings []string
	for id := range places.Rooms {
		b, _, _, _ := places.Path(id)
		if !sc.Sees(b.ID) || (building != "" && b.ID != building) {
			continue
		}
		q.Rooms = append(q.Rooms, clientreport.ChecksRoom{RoomID: id, Building: b.ID})
		if !slices.Contains(buildings, b.ID) {
			buildings = append(buildings, b.ID)
		}
	}
	for _, b := range buildings {
		locs, err := s.store.LocationsIn(ctx, account, b, "", "")
		if err != nil {
			return clientreport.Checks{}, err
		}
		for _, l := range locs {
			q.Locations[l.ID] = l.RoomID
		}
	}
	return clientreport.ReadChecks(ctx, s.store, q)
}

// checksKey names the checks saved of a trends page.
type checksKey struct {
	trendsKey
	every time.Duration
}

// TrendChecks is ChecksSaved over the trends' period [from, to) of days
// days in zone, kept as the trends' alerts are: asked for again within
// TrendsKeptFor, it answers from memory.
func (s *Service) TrendChecks(ctx context.Context, account string, sc domain.BuildingScope, building string, days int, zone *time.Location, from, to time.Time, every time.Duration) (clientreport.Checks, error) {
	key := checksKey{trendsKey{account: account, building: building, zone: zone.String(), days: days, scope: sc.Key()}, every}
	return s.trendChecks.get(ctx, key, s.clock.Now(), TrendsKeptFor, func(ctx context.Context) (clientreport.Checks, error) {
		return s.ChecksSaved(ctx, account, sc, building, from, to, every)
	})
}
