package runout

import (
	"cmp"
	"context"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"time"

	"washboard/internal/clock"
	"washboard/internal/domain"
	"washboard/internal/forecast"
	"washboard/internal/store"
	"washboard/internal/store/readings"
)

const (
	// MinInterval is the least time between two projections of an account.
	MinInterval = 30 * time.Second
	// FitEvery is how often an account's models are fitted again;
	// FitThinEvery, while some of its dispensers have too little history
	// for a model, so that they get one soon after they have enough.
	FitEvery     = 24 * time.Hour
	FitThinEvery = 6 * time.Hour
	// overlap is how far before the last projection the next one reads
	// the history and alerts: what a sync that was under way then
	// committed afterwards, dated when it read the service.
	overlap = time.Hour
	// silentAfter is how old a device's last_seen must be for it to count
	// as not heard from: four of a dispenser's 15-minute heartbeats.
	silentAfter = time.Hour
)

// Store is what the estimates are made from.
type Store interface {
	DeviceHistory(ctx context.Context, account string, macs []string, from time.Time) (map[string][]store.Reading, error)
	FindAlerts(ctx context.Context, f store.AlertFilter) ([]domain.Alert, error)
	DeviceStates(ctx context.Context, account string) ([]store.DeviceState, error)
}

// Service keeps the accounts' estimates.
type Service struct {
	st   Store
	clk  clock.Clock
	zone *time.Location
	log  *slog.Logger

	refreshing sync.Mutex // one Refresh at a time: it changes what it keeps

	mu       sync.Mutex
	accounts map[string]*account
	dirty    map[string]bool
	wake     chan struct{}
}

// account is what the service keeps of one account.
type account struct {
	fitted    time.Time
	models    map[string]*forecast.Model // by MAC
	thin      bool                       // some models had too little data
	devices   map[string]*kept           // by MAC
	estimates map[string]forecast.Estimate
	projected time.Time // when the history and alerts were last read
}

// kept is what the service keeps of a dispenser's history between
// projections: what Forecast reads of it.
type kept struct {
	// h holds each compartment's rows since its last refill, the span it
	// has been offline if it is, and the refills its alerts list since
	// the first of those rows.
	h    forecast.History
	last store.Reading // the latest reading read; its Levels its own
	sum  int64         // the device's state's sum when its history was last read (store.DeviceState)
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
	s.refreshing.Lock()
	defer s.refreshing.Unlock()
	now := s.clk.Now()
	s.mu.Lock()
	a := s.accounts[accountID]
	s.mu.Unlock()
	devices, err := s.st.DeviceStates(ctx, accountID)
	if err != nil {
		return err
	}
	var next *account
	if a == nil || now.Before(a.fitted) || now.Sub(a.fitted) >= FitEvery || a.thin && now.Sub(a.fitted) >= FitThinEvery {
		next, err = s.fit(ctx, accountID, devices, now)
	} else {
		next, err = s.catchUp(ctx, accountID, a, devices, now)
	}
	if err != nil {
		return err
	}
	next.projected = now
	next.estimates = make(map[string]forecast.Estimate, len(next.devices))
	for _, d := range devices {
		k, m := next.devices[d.MAC], next.models[d.MAC]
		if k == nil || m == nil {
			continue
		}
		h := k.h
		h.Gaps = silent(h.Gaps[:len(h.Gaps):len(h.Gaps)], d.LastSeen, now)
		if e, ok := m.Forecast(&h, now); ok {
			next.estimates[d.MAC] = e
		}
	}
	s.mu.Lock()
	s.accounts[accountID] = next
	s.mu.Unlock()
	return nil
}

// fit fits the model of every dispenser of the account from its last
// Window of history and AlertWindow of consumable_out alerts, and keeps
// what the projections read of them.
func (s *Service) fit(ctx context.Context, accountID string, devices []store.DeviceState, now time.Time) (*account, error) {
	alerts, err := s.st.FindAlerts(ctx, store.AlertFilter{Account: accountID, Type: domain.AlertConsumableOut, From: now.Add(-forecast.AlertWindow)})
	if err != nil {
		return nil, err
	}
	readings, err := s.st.DeviceHistory(ctx, accountID, nil, now.Add(-forecast.Window))
	if err != nil {
		return nil, err
	}
	a := &account{fitted: now, models: make(map[string]*forecast.Model, len(devices)), devices: make(map[string]*kept, len(devices))}
	s.add(a, devices, readings, alertsByDevice(devices, alerts), now)
	return a, nil
}

// catchUp brings what is kept of the account's dispensers up to now: the
// history of those whose state's sum differs from the one read with their
// history last, the refills of the alerts resolved since, and the models
// of dispensers new since the fit, from their own history without alerts;
// it forgets the dispensers gone.
func (s *Service) catchUp(ctx context.Context, accountID string, a *account, devices []store.DeviceState, now time.Time) (*account, error) {
	next := &account{fitted: a.fitted, models: a.models, thin: a.thin, devices: a.devices}
	var changed []store.DeviceState
	var added []string
	listed := 0
	for _, d := range devices {
		if !d.Dispenser {
			continue
		}
		switch k := a.devices[d.MAC]; {
		case k == nil:
			added = append(added, d.MAC)
		case k.sum != d.Sum:
			changed = append(changed, d)
			listed++
		default:
			listed++
		}
	}
	if listed < len(a.devices) || len(added) > 0 { // some went, or came
		next.devices = make(map[string]*kept, listed+len(added))
		for _, d := range devices {
			if k := a.devices[d.MAC]; k != nil && d.Dispenser {
				next.devices[d.MAC] = k
			}
		}
	}
	from := a.projected.Add(-overlap)
	if len(changed) > 0 {
		macs := make([]string, len(changed))
		for i, d := range changed {
			macs[i] = d.MAC
		}
		readings, err := s.st.DeviceHistory(ctx, accountID, macs, from)
		if err != nil {
			return nil, err
		}
		for mac, rs := range readings {
			if k := next.devices[mac]; k != nil {
				k.add(rs)
				k.trim()
			}
		}
		for _, d := range changed {
			next.devices[d.MAC].sum = d.Sum
		}
	}
	resolved, err := s.st.FindAlerts(ctx, store.AlertFilter{Account: accountID, Type: domain.AlertConsumableOut, Status: domain.AlertClosed, From: from})
	if err != nil {
		return nil, err
	}
	for mac, alerts := range alertsByDevice(devices, resolved) {
		if k := next.devices[mac]; k != nil {
			for _, t := range refills(alerts) {
				if n := len(k.h.Refills); n == 0 || t.After(k.h.Refills[n-1]) {
					k.h.Refills = append(k.h.Refills, t) // read again within the overlap otherwise
				}
			}
		}
	}
	if len(added) > 0 {
		readings, err := s.st.DeviceHistory(ctx, accountID, added, now.Add(-forecast.Window))
		if err != nil {
			return nil, err
		}
		next.models = maps.Clone(a.models)
		s.add(next, devices, readings, nil, now)
	}
	return next, nil
}

// add fits the models of the dispensers that a does not hold yet, from
// their readings and alerts, and keeps what the projections read of them.
// A fit learns from the history as the cache records it: a silence now,
// not yet offline, is no gap to it, as the silences before were not
// either (BenchmarkBacktestThroughSync's estimates were further off when
// it was).
func (s *Service) add(a *account, devices []store.DeviceState, readings map[string][]store.Reading, alerts map[string][]domain.Alert, now time.Time) {
	for _, d := range devices {
		if !d.Dispenser || a.devices[d.MAC] != nil {
			continue
		}
		k := &kept{sum: d.Sum}
		k.add(readings[d.MAC])
		h := k.h
		h.Refills = refills(alerts[d.MAC])
		for _, al := range alerts[d.MAC] {
			h.Outs = append(h.Outs, al.Created)
		}
		slices.SortFunc(h.Outs, time.Time.Compare)
		m := forecast.Fit(&h, now, s.zone)
		a.models[d.MAC] = m
		a.thin = a.thin || m.Basis() == forecast.TooLittleData
		k.h.Refills = h.Refills
		k.trim()
		a.devices[d.MAC] = k
	}
}

// alertsByDevice files the consumable_out alerts under the devices they
// name, or under the only device of their location.
func alertsByDevice(devices []store.DeviceState, alerts []domain.Alert) map[string][]domain.Alert {
	var atLocation map[string][]string // once an alert names no device
	out := map[string][]domain.Alert{}
	for _, a := range alerts {
		macs := a.MACs
		if len(macs) == 0 && atLocation == nil {
			atLocation = map[string][]string{}
			for _, d := range devices {
				atLocation[d.LocationID] = append(atLocation[d.LocationID], d.MAC)
			}
		}
		if len(macs) == 0 && len(atLocation[a.LocationID]) == 1 {
			macs = atLocation[a.LocationID]
		}
		for _, mac := range macs {
			out[mac] = append(out[mac], a)
		}
	}
	return out
}

// refills are the times of the refills the alerts list, in order: the
// consumable_out alerts closed by the device or by staff.
func refills(alerts []domain.Alert) []time.Time {
	var out []time.Time
	for _, a := range alerts {
		if a.TellsOfRefill() {
			out = append(out, a.Resolved)
		}
	}
	slices.SortFunc(out, time.Time.Compare)
	return out
}

// add appends to the history the readings after the last one read: each
// compartment's level when it changed, and the spans offline.
func (k *kept) add(rs []store.Reading) {
	for _, r := range rs {
		if !k.last.At.IsZero() && (r.At.Before(k.last.At) || r.At.Equal(k.last.At) && readings.SameState(r, k.last)) {
			continue // read before
		}
		for i, level := range r.Levels {
			for len(k.h.Levels) <= i {
				k.h.Levels = append(k.h.Levels, nil)
			}
			if n := len(k.h.Levels[i]); n == 0 || k.h.Levels[i][n-1].Level != level {
				k.h.Levels[i] = append(k.h.Levels[i], forecast.Sample{At: r.At, Level: level})
			}
		}
		n := len(k.h.Gaps)
		open := n > 0 && k.h.Gaps[n-1].To.IsZero()
		switch {
		case r.Offline && !open:
			k.h.Gaps = append(k.h.Gaps, forecast.Span{From: r.OfflineSince()})
		case !r.Offline && open:
			k.h.Gaps[n-1].To = r.At
		}
		k.last = r
	}
	// The readings read may share their Levels' arrays with many others.
	k.last.Levels = slices.Clone(k.last.Levels)
}

// trim drops what a projection no longer reads: each compartment's rows
// before its last refill (a row RefillRise or more above the row before
// it; Forecast reads no further back), the spans offline that ended, and
// the refills before the first row kept.
func (k *kept) trim() {
	var first time.Time
	for i, s := range k.h.Levels {
		for j := len(s) - 1; j > 0; j-- {
			if forecast.IsRefill(s[j-1].Level, s[j].Level) {
				s = slices.Clone(s[j:])
				k.h.Levels[i] = s
				break
			}
		}
		if len(s) > 0 && (first.IsZero() || s[0].At.Before(first)) {
			first = s[0].At
		}
	}
	if n := len(k.h.Gaps); n > 0 && k.h.Gaps[n-1].To.IsZero() {
		k.h.Gaps = k.h.Gaps[n-1:]
	} else {
		k.h.Gaps = nil
	}
	i := 0
	for i < len(k.h.Refills) && k.h.Refills[i].Before(first) {
		i++
	}
	k.h.Refills = k.h.Refills[i:]
}

// silent returns gaps with, when the device is not in one and its
// last_seen is more than silentAfter before now, the span since then: the
// history records nothing of a silence until the device goes offline, as
// the service repeats what it last heard, but its last_seen tells.
func silent(gaps []forecast.Span, lastSeen, now time.Time) []forecast.Span {
	if n := len(gaps); n > 0 && gaps[n-1].To.IsZero() || lastSeen.IsZero() || now.Sub(lastSeen) <= silentAfter {
		return gaps
	}
	return append(gaps, forecast.Span{From: lastSeen})
}
