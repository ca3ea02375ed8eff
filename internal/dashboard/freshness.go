package dashboard

import (
	"context"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
	"washboard/internal/syncer"
)

// Freshness says how old an account's data is, and why it may be out of
// date: a refresh that failed, data older than two sync intervals, or the
// credentials cred rejected by the service.
func (s *Service) Freshness(ctx context.Context, account string, cred domain.Credentials) domain.Freshness {
	var f domain.Freshness
	statuses, err := s.store.SyncStatuses(ctx, account)
	if err != nil {
		f.Failed, f.Reason = true, "the cache could not be read"
		return f
	}
	dev, al := statuses[domain.ResourceDevices], statuses[domain.ResourceAlerts]
	// While the service's events arrive, alerts are polled every few
	// minutes and are fresh all the same: the devices say how old the data
	// is.
	f.Live = s.sync.Live(account)
	if dev.LastSuccess.IsZero() || al.LastSuccess.IsZero() {
		f.FirstSync = true
	} else {
		f.AsOf = dev.LastSuccess.Add(dev.Duration)
		if t := al.LastSuccess.Add(al.Duration); t.Before(f.AsOf) && !f.Live {
			f.AsOf = t
		}
	}
	for _, st := range []store.SyncStatus{dev, al, statuses[domain.ResourceMetadata]} {
		if st.LastError != "" {
			f.Failed, f.Reason = true, st.LastError
			break
		}
	}
	if !f.AsOf.IsZero() && s.clock.Now().Sub(f.AsOf) > 2*s.sync.Config().Interval {
		f.Stale = true
		if f.Reason == "" {
			f.Reason = "the last refresh is more than two sync intervals old"
		}
	}
	if why, rejected := s.sync.Rejected(syncer.CredentialID(cred)); rejected {
		f.Rejected, f.Rejection = true, string(why)
	}
	return f
}

// FirstSyncDone reports whether the account's cache has been filled once.
func (s *Service) FirstSyncDone(ctx context.Context, account string) (bool, error) {
	statuses, err := s.store.SyncStatuses(ctx, account)
	if err != nil {
		return false, err
	}
	return !statuses[domain.ResourceDevices].LastSuccess.IsZero() && !statuses[domain.ResourceAlerts].LastSuccess.IsZero(), nil
}

// alertsAsOf is the end of the account's last successful alerts refresh;
// zero before the first.
func (s *Service) alertsAsOf(ctx context.Context, account string) (time.Time, error) {
	statuses, err := s.store.SyncStatuses(ctx, account)
	if err != nil {
		return time.Time{}, err
	}
	if al := statuses[domain.ResourceAlerts]; !al.LastSuccess.IsZero() {
		return al.LastSuccess.Add(al.Duration), nil
	}
	return time.Time{}, nil
}
