package syncer

import (
	"context"
	"time"

	"washboard/internal/domain"
	"washboard/internal/upstream"
)

// Coverage says which alerts the cache holds: every alert created since
// From (closed ones older than the history are pruned; open ones older
// than the lookback are not read).
type Coverage struct {
	From time.Time
}

// Coverage returns what the cache holds now.
func (e *Engine) Coverage() Coverage {
	return Coverage{From: e.clock.Now().Add(-min(e.cfg.History, e.cfg.Lookback))}
}

// Window is what PastAlerts read: the alerts created from CreatedFrom and
// open at some moment of [From, To) that are still open or were resolved
// before ResolvedTo. An alert resolved later is missing from it.
type Window struct {
	From, To    time.Time
	CreatedFrom time.Time
	ResolvedTo  time.Time
}

// PastAlerts reads from the service, not the cache, the alerts open at any
// moment of [from, to), within the spec's rules: open alerts by creation
// date, from the lookback before from until to; closed alerts by
// resolution date, from from until the lookback after to (or now). It is
// for periods the cache no longer covers.
func (e *Engine) PastAlerts(ctx context.Context, cred upstream.Credentials, from, to time.Time) ([]domain.Alert, Window, error) {
	now := e.clock.Now()
	w := Window{From: from, To: to, CreatedFrom: from.Add(-e.cfg.Lookback), ResolvedTo: to.Add(e.cfg.Lookback)}
	if w.ResolvedTo.After(now) {
		w.ResolvedTo = now
	}
	byID := map[string]domain.Alert{}
	keep := func(page []domain.Alert) error {
		for _, a := range page {
			if !a.Created.Before(to) || a.Created.Before(w.CreatedFrom) {
				continue
			}
			if !a.Open() && a.Resolved.Before(from) {
				continue
			}
			byID[a.ID] = a
		}
		return nil
	}
	if _, err := e.src.Alerts(ctx, cred, domain.AlertClosed, from, w.ResolvedTo, keep); err != nil {
		return nil, w, err
	}
	// Open alerts last: an alert listed both ways while it closed between
	// the two reads keeps its closed version.
	if _, err := e.src.Alerts(ctx, cred, domain.AlertOpen, w.CreatedFrom, to, func(page []domain.Alert) error {
		var fresh []domain.Alert
		for _, a := range page {
			if _, ok := byID[a.ID]; !ok {
				fresh = append(fresh, a)
			}
		}
		return keep(fresh)
	}); err != nil {
		return nil, w, err
	}
	out := make([]domain.Alert, 0, len(byID))
	for _, a := range byID {
		out = append(out, a)
	}
	return out, w, nil
}
