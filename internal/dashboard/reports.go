package dashboard

import (
	"context"
	"fmt"
	"time"

	"washboard/internal/domain"
	"washboard/internal/forecast"
	"washboard/internal/i18n"
	"washboard/internal/report"
	"washboard/internal/store"
	"washboard/internal/syncer"
)

// pastAlertsTimeout bounds reading a period the cache no longer covers
// from the service.
const pastAlertsTimeout = 30 * time.Second

// devicesCurrentFor is how long after a period's end the devices' state
// still stands for the state at its end: the pick list and the offline
// table then use it.
const devicesCurrentFor = time.Hour

// maxReportClaims is how many claims a report lists at most.
const maxReportClaims = 1000

// ReportSettings returns the account's shifts and their time zone, or the
// defaults: three 8-hour shifts in zone.
func (s *Service) ReportSettings(ctx context.Context, account string, zone *time.Location) (report.Shifts, *time.Location, error) {
	rs, ok, err := s.store.ReportSettings(ctx, account)
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return report.DefaultShifts(), zone, nil
	}
	shifts, err := report.ParseShifts(rs.Shifts)
	if err != nil {
		return nil, nil, fmt.Errorf("the saved shifts of account %s: %w", account, err)
	}
	saved, err := time.LoadLocation(rs.Zone)
	if err != nil {
		return nil, nil, fmt.Errorf("the saved time zone of account %s: %w", account, err)
	}
	return shifts, saved, nil
}

// SaveReportSettings keeps the account's shifts and their time zone, and
// announces the change: what runs out before a shift ends moves with it.
func (s *Service) SaveReportSettings(ctx context.Context, account string, shifts report.Shifts, zone *time.Location) error {
	err := s.store.SaveReportSettings(ctx, account, store.ReportSettings{Shifts: shifts.String(), Zone: zone.String(), Updated: s.clock.Now()})
	if err == nil {
		s.announce(account, domain.ResourceMetadata)
	}
	return err
}

// announce moves the account's generation and tells its pages and the
// other replicas of a change Washboard made to what they show.
func (s *Service) announce(account string, res domain.Resource) {
	if s.sync != nil {
		s.sync.Changed(account, res)
	}
}

// Buildings lists the account's buildings the scope sees.
func (s *Service) Buildings(ctx context.Context, account string, sc domain.BuildingScope) ([]domain.Building, error) {
	bs, err := s.store.Buildings(ctx, account)
	return seen(sc, bs), err
}

// Report is a shift report with what the page says about where its data
// came from and what it may miss.
type Report struct {
	report.Report
	Sources []string
	Gaps    []string
	// AsOf is the end of the account's last successful alerts refresh;
	// zero before the first.
	AsOf time.Time
}

// Report builds the report of a period for the whole account, or one
// building when building is not empty. Its alerts come from the cache; a
// period older than the cache holds is read from the service with cred,
// and if that fails the report says so and counts what the cache has.
// Without credentials (zero cred), such a period counts what the cache
// has, and the report says so.
//
// A scope of some buildings reports on theirs alone: their alerts,
// devices and the claims of their alerts.
func (s *Service) Report(ctx context.Context, account string, sc domain.BuildingScope, cred domain.Credentials, building string, p report.Period, now time.Time) (Report, error) {
	var out Report
	if building != "" && !sc.Sees(building) {
		return out, notSeen("building", building)
	}
	var alerts []domain.Alert
	zone := p.Start.Location()
	l := i18n.From(ctx) // the words of the notes: the language of whoever asks
	fromService := false
	if cov := s.sync.Coverage(); p.Start.Before(cov.From) && cred == (domain.Credentials{}) {
		out.Gaps = append(out.Gaps, l.T("report.gap_cache_only", "since", dateTimeIn(l, cov.From, zone)))
	} else if p.Start.Before(cov.From) {
		past, err := s.pastReads.get(ctx, pastKey{account: account, from: p.Start.UnixMilli(), to: p.End.UnixMilli()}, now,
			func(rctx context.Context) (pastRead, error) {
				alerts, w, err := s.sync.PastAlerts(rctx, cred, p.Start, p.End)
				return pastRead{alerts: alerts, window: w, at: now}, err
			})
		since := dateTimeIn(l, cov.From, zone)
		if err != nil {
			out.Gaps = append(out.Gaps, l.T("report.gap_read_failed", "since", since, "error", syncer.Explain(err).Words(l)))
		} else {
			alerts, fromService = past.alerts, true
			out.Sources = append(out.Sources, l.T("report.source_service", "since", since, "when", readAgo(l, past.at, now, zone),
				"minutes", l.Number(int(PastReadsKeptFor/time.Minute))))
			w := past.window
			out.Gaps = append(out.Gaps, l.T("report.gap_window", "created", dateTimeIn(l, w.CreatedFrom, zone), "resolved", dateTimeIn(l, w.ResolvedTo, zone),
				"days", l.Number(int(s.sync.Config().Lookback/(24*time.Hour)))))
		}
	}
	if !fromService {
		var err error
		alerts, err = s.store.FindAlerts(ctx, store.AlertFilter{Account: account, Buildings: sc.IDs(), BuildingID: building, OpenFrom: p.Start, OpenTo: p.End})
		if err != nil {
			return out, err
		}
	}

	devicesCurrent := now.Sub(p.End) <= devicesCurrentFor
	var devices []domain.Device
	if devicesCurrent {
		var err error
		if devices, err = s.store.FindDevices(ctx, store.DeviceFilter{Account: account, Buildings: sc.IDs(), BuildingID: building}); err != nil {
			return out, err
		}
	}
	ids := make([]string, 0, len(alerts)+len(devices))
	for _, a := range alerts {
		ids = append(ids, a.LocationID)
	}
	for _, d := range devices {
		ids = append(ids, d.LocationID)
	}
	paths, err := s.store.Paths(ctx, account, ids)
	if err != nil {
		return out, err
	}
	places := make(map[string]report.Place, len(paths))
	for id, pa := range paths {
		places[id] = report.Place{LocationID: id, Location: pa.Location.Name, Room: pa.Room.Name,
			FloorID: pa.Floor.ID, Floor: pa.Floor.Name, BuildingID: pa.Building.ID, Building: pa.Building.Name, Type: pa.Location.Type}
	}
	if fromService && (building != "" || sc.Limited()) {
		// The service was asked for the whole account; its read is kept
		// for others, so the building's alerts are a copy.
		kept := make([]domain.Alert, 0, len(alerts))
		for _, a := range alerts {
			pl, ok := places[a.LocationID]
			if ok && (building == "" || pl.BuildingID == building) && sc.Sees(pl.BuildingID) {
				kept = append(kept, a)
			}
		}
		alerts = kept
	}
	claims, err := s.store.ClaimsDuring(ctx, account, p.Start, p.End, sc.IDs(), maxReportClaims+1)
	if err != nil {
		return out, err
	}
	if len(claims) > maxReportClaims {
		claims = claims[:maxReportClaims]
		out.Gaps = append(out.Gaps, l.T("report.gap_claims", "max", l.Number(maxReportClaims)))
	}
	done, err := s.store.DoneReportsDuring(ctx, account, p.Start, p.End, maxReportClaims+1)
	if err != nil {
		return out, err
	}
	if len(done) > maxReportClaims {
		done = done[:maxReportClaims]
		out.Gaps = append(out.Gaps, l.T("report.gap_done", "max", l.Number(maxReportClaims)))
	}
	// The next shift begins as the period ends and lasts as long.
	in := report.Input{Period: p, Alerts: alerts, Places: places, Devices: devices, DevicesCurrent: devicesCurrent, Claims: claims,
		NextShiftEnd: p.End.Add(p.End.Sub(p.Start)), Done: done, CheckedAt: now, DoneGrace: s.doneGrace()}
	if s.forecast != nil && devicesCurrent {
		in.RunsOut = map[string]time.Time{}
		for mac, e := range s.forecast.Estimates(account) {
			if e.Basis != forecast.ReportedOut {
				in.RunsOut[mac] = e.At
			}
		}
	}
	out.Report = report.Build(in)

	if out.AsOf, err = s.alertsAsOf(ctx, account); err != nil {
		return out, err
	}
	if !out.AsOf.IsZero() && out.AsOf.Before(p.End) && p.End.Before(now) {
		out.Gaps = append(out.Gaps, l.T("report.gap_sync", "at", dateTimeIn(l, out.AsOf, zone)))
	}
	return out, nil
}

// readAgo says when a read was made: "just now", or "at 14:05, 3 minutes
// ago".
func readAgo(l *i18n.Localizer, at, now time.Time, zone *time.Location) string {
	mins := int(now.Sub(at) / time.Minute)
	switch {
	case mins < 1:
		return l.T("report.read_just_now")
	}
	return l.N("report.read_ago", mins, "at", l.Time(at, zone))
}

// dateTimeIn is t in zone as l's language writes it, with the zone:
// "17 Nov 2026 09:30 UTC".
func dateTimeIn(l *i18n.Localizer, t time.Time, zone *time.Location) string {
	return l.DateTime(t, zone) + " " + t.In(zone).Format("MST")
}
