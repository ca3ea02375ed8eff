// Package runout keeps, for each account Washboard syncs, the estimate of
// when each dispenser will next report a compartment out (internal/forecast),
// from the history the cache keeps of its levels and the account's alerts.
//
// Models are fitted once a day per account, from the last 28 days of
// history and 90 days of consumable_out alerts; estimates are made again
// after each change to the account's cache (Touch), from the last three
// days of history, at most once every MinInterval per account. Both run on
// one worker, so that a burst of syncs costs one projection, and what it
// computes is kept in memory: every replica computes its own from the
// shared cache, and reads of it cost a map lookup.
package runout

import (
	"cmp"
	"context"
	"log/slog"
	"slices"
	"sync"
	"time"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/forecast"
	"washboard/internal/store"
)

const (
	// MinInterval is the least time between two projections of an account.
	MinInterval = 30 * time.Second
	// FitEvery is how often an account's models are fitted again;
	// FitThinEvery, while some of its dispensers have too little history
	// for a model, so that they get one soon after they have enough.
	FitEvery     = 24 * time.Hour
	FitThinEvery = 6 * time.Hour
	// recent is the history a projection reads: the latest level of each
	// compartment is in it, or is the reading before it.
	recent = 72 * time.Hour
)

// Store is what the estimates are made from.
type Store interface {
	DeviceHistory(ctx context.Context, account string, macs []string, from time.Time) (map[string][]store.Reading, error)
	FindAlerts(ctx context.Context, f store.AlertFilter) ([]domain.Alert, error)
	FindDevices(ctx context.Context, f store.DeviceFilter) ([]domain.Device, error)
}

// Service keeps the accounts' estimates.
type Service struct {
	st   Store
	clk  clock.Clock
	zone *time.Location
	log  *slog.Logger

	mu       sync.Mutex
	accounts map[string]*account
	dirty    map[string]bool
	wake     chan struct{}
}

// account is what the service keeps of one account.
type account struct {
	fitted    time.Time
	models    map[string]*forecast.Model // by MAC
	alerts    []domain.Alert             // consumable_out, read at the fit
	thin      bool                       // some models had too little data
	estimates map[string]forecast.Estimate
	projected time.Time
}

// New returns a service; Run starts its worker. zone is the buildings'
// time zone, the hours of the week consumption is learned by.
func New(st Store, clk clock.Clock, zone *time.Location, log *slog.Logger) *Service {
	return &Service{
		st: st, clk: cmp.Or[clock.Clock](clk, clock.Real{}), zone: cmp.Or(zone, time.UTC),
		log:      cmp.Or(log, slog.New(slog.DiscardHandler)),
		accounts: map[string]*account{}, dirty: map[string]bool{}, wake: make(chan struct{}, 1),
	}
}

// Touch says the account's cache changed: its estimates are made again
// soon.
func (s *Service) Touch(accountID string) {
	s.mu.Lock()
	s.dirty[accountID] = true
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Run makes the estimates of the accounts touched until ctx ends.
func (s *Service) Run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		case <-time.After(MinInterval):
		}
		for _, id := range s.due() {
			if err := s.Refresh(ctx, id); err != nil && ctx.Err() == nil {
				s.log.Warn("forecasts: estimating when dispensers run out", "account", id, "error", err.Error())
			}
		}
	}
}

// due returns the accounts touched whose last projection is MinInterval
// old, and takes them off the list.
func (s *Service) due() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clk.Now()
	var out []string
	for id := range s.dirty {
		if a := s.accounts[id]; a == nil || now.Sub(a.projected) >= MinInterval {
			out = append(out, id)
			delete(s.dirty, id)
		}
	}
	slices.Sort(out)
	return out
}

// Estimates returns the account's estimates by MAC: only devices with one.
// The map is the service's: a caller only reads it.
func (s *Service) Estimates(accountID string) map[string]forecast.Estimate {
	s.mu.Lock()
	defer s.mu.Unlock()
	if a := s.accounts[accountID]; a != nil {
		return a.estimates
	}
	return nil
}

// Refresh fits the account's models when they are a day old, and makes
// its estimates again.
func (s *Service) Refresh(ctx context.Context, accountID string) error {
	now := s.clk.Now()
	s.mu.Lock()
	a := s.accounts[accountID]
	s.mu.Unlock()
	next := &account{projected: now}
	if a != nil && !now.Before(a.fitted) && (now.Sub(a.fitted) < FitThinEvery || !a.thin && now.Sub(a.fitted) < FitEvery) {
		next.fitted, next.models, next.alerts, next.thin = a.fitted, a.models, a.alerts, a.thin
	}
	devices, err := s.st.FindDevices(ctx, store.DeviceFilter{Account: accountID})
	if err != nil {
		return err
	}
	// Alerts: 90 days of them at a fit; since then, those open at any
	// moment after the fit, which bring the ones that opened or closed.
	filter := store.AlertFilter{Account: accountID, Type: domain.AlertConsumableOut, From: now.Add(-forecast.AlertWindow)}
	from := now.Add(-forecast.Window)
	if next.models != nil {
		filter = store.AlertFilter{Account: accountID, Type: domain.AlertConsumableOut, OpenFrom: next.fitted}
		from = now.Add(-recent)
	}
	alerts, err := s.st.FindAlerts(ctx, filter)
	if err != nil {
		return err
	}
	if next.models != nil {
		alerts = merged(next.alerts, alerts)
	} else {
		next.alerts = alerts
	}
	readings, err := s.st.DeviceHistory(ctx, accountID, nil, from)
	if err != nil {
		return err
	}
	byDevice := alertsByDevice(devices, alerts)
	if next.models == nil {
		next.fitted, next.models = now, make(map[string]*forecast.Model, len(devices))
	}
	next.estimates = make(map[string]forecast.Estimate, len(devices))
	for _, d := range devices {
		if len(d.Compartments) == 0 {
			continue
		}
		h := historyOf(readings[d.MAC], byDevice[d.MAC])
		m := next.models[d.MAC]
		if m == nil {
			m = forecast.Fit(&h, now, s.zone)
			next.models[d.MAC] = m
			next.thin = next.thin || m.Basis() == forecast.TooLittleData
		}
		if e, ok := m.Forecast(&h, now); ok {
			next.estimates[d.MAC] = e
		}
	}
	s.mu.Lock()
	s.accounts[accountID] = next
	s.mu.Unlock()
	return nil
}

// merged is kept with the alerts of recent in place of those of the
// same ids.
func merged(kept, recent []domain.Alert) []domain.Alert {
	ids := make(map[string]bool, len(recent))
	for _, a := range recent {
		ids[a.ID] = true
	}
	out := make([]domain.Alert, 0, len(kept)+len(recent))
	for _, a := range kept {
		if !ids[a.ID] {
			out = append(out, a)
		}
	}
	return append(out, recent...)
}

// alertsByDevice files the consumable_out alerts under the devices they
// name, or under the only device of their location.
func alertsByDevice(devices []domain.Device, alerts []domain.Alert) map[string][]domain.Alert {
	atLocation := map[string][]string{}
	for _, d := range devices {
		atLocation[d.LocationID] = append(atLocation[d.LocationID], d.MAC)
	}
	out := map[string][]domain.Alert{}
	for _, a := range alerts {
		macs := a.MACs
		if len(macs) == 0 && len(atLocation[a.LocationID]) == 1 {
			macs = atLocation[a.LocationID]
		}
		for _, mac := range macs {
			out[mac] = append(out[mac], a)
		}
	}
	return out
}

// historyOf is a device's forecast history: each compartment's levels
// when they changed, the spans it was offline, its refills (its
// consumable_out alerts closed by the device or by staff) and its
// consumable_out alerts' creation times.
func historyOf(readings []store.Reading, alerts []domain.Alert) forecast.History {
	var h forecast.History
	var offline *forecast.Span
	for _, r := range readings {
		for i, level := range r.Levels {
			for len(h.Levels) <= i {
				h.Levels = append(h.Levels, nil)
			}
			if n := len(h.Levels[i]); n == 0 || h.Levels[i][n-1].Level != level {
				h.Levels[i] = append(h.Levels[i], forecast.Sample{At: r.At, Level: level})
			}
		}
		switch {
		case r.Offline && offline == nil:
			from := r.LastSeen
			if from.IsZero() || from.After(r.At) {
				from = r.At
			}
			offline = &forecast.Span{From: from}
		case !r.Offline && offline != nil:
			offline.To = r.At
			h.Gaps = append(h.Gaps, *offline)
			offline = nil
		}
	}
	if offline != nil {
		h.Gaps = append(h.Gaps, *offline)
	}
	for _, a := range alerts {
		h.Outs = append(h.Outs, a.Created)
		if !a.Open() && (a.Resolution == domain.ResolvedByDevice || a.Resolution == domain.ResolvedByUser) {
			h.Refills = append(h.Refills, a.Resolved)
		}
	}
	slices.SortFunc(h.Outs, time.Time.Compare)
	slices.SortFunc(h.Refills, time.Time.Compare)
	return h
}
