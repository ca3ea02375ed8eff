package dashboard

import (
	"context"
	"strconv"
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
	statuses, err := s.syncStatuses(ctx, account)
	if err != nil {
		f.Failed, f.Reason = true, domain.ReasonCacheUnreadable
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
			f.Reason = domain.ReasonStale
		}
	}
	if why, rejected := s.sync.Rejected(syncer.CredentialID(cred)); rejected {
		f.Rejected, f.Rejection = true, string(why)
	}
	return f
}

// FirstSyncDone reports whether the account's cache has been filled once.
func (s *Service) FirstSyncDone(ctx context.Context, account string) (bool, error) {
	statuses, err := s.syncStatuses(ctx, account)
	if err != nil {
		return false, err
	}
	return !statuses[domain.ResourceDevices].LastSuccess.IsZero() && !statuses[domain.ResourceAlerts].LastSuccess.IsZero(), nil
}

// alertsAsOf is the end of the account's last successful alerts refresh;
// zero before the first.
func (s *Service) alertsAsOf(ctx context.Context, account string) (time.Time, error) {
	statuses, err := s.syncStatuses(ctx, account)
	if err != nil {
		return time.Time{}, err
	}
	if al := statuses[domain.ResourceAlerts]; !al.LastSuccess.IsZero() {
		return al.LastSuccess.Add(al.Duration), nil
	}
	return time.Time{}, nil
}

// statusesKept is how long the sync states read for an account answer
// again, unless the sync engine knows they changed. Every page and
// fragment asks for them: on PostgreSQL, that is a round trip to the
// server a request, and the pages' own freshness moves by the second
// anyway. The states another replica records without announcing them (a
// refresh that changed nothing) show here at most this much later.
const statusesKept = time.Second

// keptStatuses are an account's sync states as read at a status version.
type keptStatuses struct {
	version  uint64
	read     time.Time // by the machine's clock, not the dashboard's
	statuses map[domain.Resource]store.SyncStatus
}

// syncStatuses reads the account's sync states, or the ones read within
// statusesKept at the engine's current status version. The map returned
// is shared: callers read it only.
func (s *Service) syncStatuses(ctx context.Context, account string) (map[domain.Resource]store.SyncStatus, error) {
	version := s.sync.StatusVersion(account)
	if kept, ok := s.keptStatuses(account, version); ok {
		return kept, nil
	}
	// Every request that finds them old at once waits for one read: a
	// page served to many at the turn of a second reads them once. One
	// that found them old just before a read ended finds them kept now.
	ch := s.statusReads.DoChan(account+"\x00"+strconv.FormatUint(version, 10), func() (any, error) {
		if kept, ok := s.keptStatuses(account, version); ok {
			return kept, nil
		}
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), statusReadTimeout)
		defer cancel()
		return s.readStatuses(rctx, account, version)
	})
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case r := <-ch:
		if r.Err != nil {
			return nil, r.Err
		}
		return r.Val.(map[domain.Resource]store.SyncStatus), nil
	}
}

// keptStatuses are the account's sync states kept at version, if they are
// recent enough to answer again.
func (s *Service) keptStatuses(account string, version uint64) (map[domain.Resource]store.SyncStatus, bool) {
	s.statusMu.Lock()
	defer s.statusMu.Unlock()
	kept, ok := s.statuses[account]
	if ok && kept.version == version && time.Since(kept.read) < statusesKept {
		return kept.statuses, true
	}
	return nil, false
}

// statusReadTimeout bounds a read of sync states shared by several
// requests, which none of them alone may cancel.
const statusReadTimeout = 10 * time.Second

// readStatuses reads the account's sync states and keeps them.
func (s *Service) readStatuses(ctx context.Context, account string, version uint64) (map[domain.Resource]store.SyncStatus, error) {
	read := time.Now()
	statuses, err := s.store.SyncStatuses(ctx, account)
	if err != nil {
		return nil, err
	}
	s.statusMu.Lock()
	defer s.statusMu.Unlock()
	if len(s.statuses) >= maxKeptStatuses {
		for a, k := range s.statuses {
			if time.Since(k.read) >= statusesKept {
				delete(s.statuses, a)
			}
		}
	}
	if len(s.statuses) < maxKeptStatuses {
		s.statuses[account] = keptStatuses{version: version, read: read, statuses: statuses}
	}
	return statuses, nil
}

// maxKeptStatuses bounds the accounts whose states are kept at once.
const maxKeptStatuses = 4096
