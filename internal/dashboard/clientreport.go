package dashboard

import (
	"context"
	"time"

	"washboard/internal/clientreport"
	"washboard/internal/domain"
)

// ClientReportZone is the time zone of the account's client report: its
// service level's, else zone.
func (s *Service) ClientReportZone(ctx context.Context, account string, zone *time.Location) (*time.Location, error) {
	kept, err := s.store.ServiceLevels(ctx, account)
	if err != nil {
		return nil, err
	}
	if sl, ok := kept[""]; ok {
		if z, err := time.LoadLocation(sl.Zone); err == nil {
			return z, nil
		}
	}
	return zone, nil
}

// ClientReport is the client report of the account's alerts closed in
// the period, of the buildings the scope sees (clientreport.Build).
func (s *Service) ClientReport(ctx context.Context, account string, sc domain.BuildingScope, p clientreport.Period) (clientreport.Report, error) {
	return clientreport.Build(ctx, s.store, account, sc, p)
}
