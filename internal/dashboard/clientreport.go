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
	return clientreport.Zone(ctx, s.store, account, zone)
}

// ClientReport is the client report of the account's alerts closed in
// the period, of the buildings the scope sees (clientreport.Build).
func (s *Service) ClientReport(ctx context.Context, account string, sc domain.BuildingScope, p clientreport.Period) (clientreport.Report, error) {
	return clientreport.Build(ctx, s.store, account, sc, p)
}
