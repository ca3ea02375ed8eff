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
	after, err := s.store.Connection(ctx, account)
	if err != nil {
		return clientreport.Report{}, err
	}
	if !after.Connected.Equal(before.Connected) {
		return clientreport.Report{}, fmt.Errorf("account %q was connected again while its report was made: %w", account, domain.ErrNotConnected)
	}
	return r, nil
}
