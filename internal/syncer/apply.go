package syncer

import (
	"context"
	"time"

	"washboard/internal/domain"
	"washboard/internal/upstream"
)

// ApplyAlerts writes what the service's events said of the account's
// alerts, each in its later state of the cached one and the event's (see
// domain.Later), moves the account's generation and announces the change
// to the account's subscribers, as a refresh does. It also notes that
// events arrive for the account: see Live.
func (e *Engine) ApplyAlerts(ctx context.Context, account string, alerts []upstream.Alert) (domain.Change, error) {
	now := e.clock.Now()
	e.mu.Lock()
	e.eventsAt[account] = now
	e.mu.Unlock()
	out := make([]domain.Alert, len(alerts))
	for i, a := range alerts {
		out[i] = alertFromUpstream(a)
	}
	c, err := e.store.ApplyAlertEvents(ctx, account, out, now)
	if err != nil {
		return c, err
	}
	if !c.Empty() {
		e.changed(account)
		e.announce(Event{Account: account, Kind: EventChanged, Resource: domain.ResourceAlerts, Change: c, At: now}, "", true)
	} else {
		e.announceLive(account, now)
	}
	return c, nil
}

// Live reports whether the service's events have reached the account
// within the last two sync intervals: its alerts are then fresh within
// seconds, not within the interval.
func (e *Engine) Live(account string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.liveLocked(account, e.clock.Now())
}

func (e *Engine) liveLocked(account string, now time.Time) bool {
	at, ok := e.eventsAt[account]
	return ok && now.Sub(at) < 2*e.cfg.Interval
}

// alertsInterval is how long the account's alerts wait between polls:
// the configured interval, or, while events arrive, the spec's 5 minutes
// for polling that drives notifications, the events keeping the alerts
// fresh meanwhile. Polling stays the safety net for events lost.
func (e *Engine) alertsInterval(account string) time.Duration {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.liveLocked(account, e.clock.Now()) {
		return max(e.cfg.Interval, EventsPollInterval)
	}
	return e.cfg.Interval
}

// EventsPollInterval is how often alerts are polled while the service's
// events arrive: the spec's interval "when polling drives notifications".
const EventsPollInterval = 5 * time.Minute

// Changed announces a change Washboard itself made to what an account's
// pages show of a resource (someone claimed an alert): it moves the
// account's generation and tells the account's subscribers and the other
// replicas, as a refresh that changed the resource does. The change must be
// committed before.
func (e *Engine) Changed(account string, res domain.Resource) {
	e.changed(account)
	e.announce(Event{Account: account, Kind: EventChanged, Resource: res, At: e.clock.Now()}, "", false)
}
