package runout

import (
	"context"

	"washboard/internal/domain"
	"washboard/internal/forecast"
	"washboard/internal/store"
)

// ForecastsFromScratch makes the account's estimates as Refresh does, with
// the models it holds, but from each dispenser's whole history since the
// window of the last fit and all its alerts since then, read now: what a
// projection keeps of them between reads must give the same.
func (s *Service) ForecastsFromScratch(ctx context.Context, accountID string) (map[string]forecast.Estimate, error) {
	s.mu.Lock()
	a := s.accounts[accountID]
	s.mu.Unlock()
	now := s.clk.Now()
	devices, err := s.st.DeviceStates(ctx, accountID)
	if err != nil {
		return nil, err
	}
	alerts, err := s.st.FindAlerts(ctx, store.AlertFilter{Account: accountID, Type: domain.AlertConsumableOut, From: a.fitted.Add(-forecast.AlertWindow)})
	if err != nil {
		return nil, err
	}
	readings, err := s.st.DeviceHistory(ctx, accountID, nil, a.fitted.Add(-forecast.Window))
	if err != nil {
		return nil, err
	}
	byDevice := alertsByDevice(devices, alerts)
	out := map[string]forecast.Estimate{}
	for _, d := range devices {
		m := a.models[d.MAC]
		if m == nil {
			continue
		}
		var k kept
		k.add(readings[d.MAC])
		h := k.h
		h.Gaps = silent(h.Gaps, d.LastSeen, now)
		h.Refills = refills(byDevice[d.MAC])
		if e, ok := m.Forecast(&h, now); ok {
			out[d.MAC] = e
		}
	}
	return out, nil
}
