package sqlstore

import (
	"context"
	"errors"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// The service record's reads: what people did about the alerts of a room,
// or of a scope's buildings, each with where its alert is.

// servicePlace is the condition on l, the locations of the alerts, that
// keeps the filter's room or buildings, and its arguments.
func (s *Store) servicePlace(f store.ServiceFilter) (string, []any) {
	cond, args := s.inBuildings("l.building_id", f.Buildings)
	if f.RoomID != "" {
		cond, args = cond+" AND l.room_id = ?", append(args, f.RoomID)
	}
	return cond, args
}

// DoneReportsIn returns the "done" reports the filter selects, newest
// first, at most its Limit, each with its alert's location and type.
func (s *Store) DoneReportsIn(ctx context.Context, f store.ServiceFilter) ([]store.PlacedDoneReport, error) {
	if f.Limit <= 0 {
		return nil, errors.New("a read of the service record needs a limit")
	}
	acc, err := s.accountKey(ctx, f.Account, false)
	if err != nil {
		return nil, err
	}
	cond, condArgs := s.servicePlace(f)
	args := append(append([]any{acc, s.d.Time(f.From), s.d.Time(f.To)}, condArgs...), f.Limit)
	var out []store.PlacedDoneReport
	var r store.PlacedDoneReport
	var outcome, typ string
	err = each(ctx, s.read, `SELECT d.alert_id, d.person_id, d.name, d.outcome, d.reason, d.done, a.location_id, l.room_id, a.type
		FROM done_reports d
		JOIN alerts a ON a.account_id = d.account_id AND a.id = d.alert_id
		JOIN locations l ON l.account_id = a.account_id AND l.id = a.location_id
		WHERE d.account_id = ? AND d.done >= ? AND d.done < ?`+cond+`
		ORDER BY d.done DESC, d.id DESC LIMIT ?`, args,
		[]any{&r.AlertID, &r.PersonID, &r.Name, &outcome, &r.Reason, s.d.ScanTime(&r.At), &r.LocationID, &r.RoomID, &typ}, func() error {
			r.Outcome, r.Type = domain.Outcome(outcome), domain.AlertType(typ)
			out = append(out, r)
			return nil
		})
	return out, err
}

// ClaimsIn returns the claims made in the filter's span that it selects,
// newest first, at most its Limit, each with its alert's location and
// type, and the name of the holder of the claim it ended as handed over.
func (s *Store) ClaimsIn(ctx context.Context, f store.ServiceFilter) ([]store.PlacedClaim, error) {
	if f.Limit <= 0 {
		return nil, errors.New("a read of the service record needs a limit")
	}
	acc, err := s.accountKey(ctx, f.Account, false)
	if err != nil {
		return nil, err
	}
	cond, condArgs := s.servicePlace(f)
	args := append(append([]any{acc, s.d.Time(f.From), s.d.Time(f.To)}, condArgs...), f.Limit)
	var out []store.PlacedClaim
	var c store.PlacedClaim
	var endedBy, typ string
	var id int64
	// A claim handed over ends when the next one is made: the one this
	// took over is that of the same alert that ended, handed, as it began.
	err = each(ctx, s.read, `SELECT `+claimCols+`, a.location_id, l.room_id, a.type,
			coalesce((SELECT coalesce(p2.name, h.name) FROM claims h LEFT JOIN people p2 ON p2.id = h.person_id
				WHERE h.account_id = c.account_id AND h.alert_id = c.alert_id AND h.ended_by = 'handed' AND h.ended = c.claimed
				ORDER BY h.id DESC LIMIT 1), '')
		FROM `+claimsOfPeople+`
		JOIN alerts a ON a.account_id = c.account_id AND a.id = c.alert_id
		JOIN locations l ON l.account_id = a.account_id AND l.id = a.location_id
		WHERE c.account_id = ? AND c.claimed >= ? AND c.claimed < ?`+cond+`
		ORDER BY c.claimed DESC, c.id DESC LIMIT ?`, args,
		[]any{&c.AlertID, &c.PersonID, &c.Name, &c.Note, s.d.ScanTime(&c.At), s.d.ScanTime(&c.Ended), &endedBy, &id, &c.LocationID, &c.RoomID, &typ, &c.TookOver},
		func() error {
			c.EndedBy, c.Type = domain.ClaimEnd(endedBy), domain.AlertType(typ)
			out = append(out, c)
			return nil
		})
	return out, err
}

// PresenceScansIn returns the scans of rooms' codes the filter selects,
// newest first, at most its Limit.
func (s *Store) PresenceScansIn(ctx context.Context, f store.ServiceFilter) ([]domain.PresenceScan, error) {
	if f.Limit <= 0 {
		return nil, errors.New("a read of the service record needs a limit")
	}
	acc, err := s.accountKey(ctx, f.Account, false)
	if err != nil {
		return nil, err
	}
	cond, condArgs := s.inBuildings("r.building_id", f.Buildings)
	if f.RoomID != "" {
		cond, condArgs = cond+" AND r.id = ?", append(condArgs, f.RoomID)
	}
	args := append(append([]any{acc, s.d.Time(f.From), s.d.Time(f.To)}, condArgs...), f.Limit)
	var out []domain.PresenceScan
	var sc domain.PresenceScan
	err = each(ctx, s.read, `SELECT p.room_id, p.person_id, p.name, p.at
		FROM presence_scans p
		JOIN rooms r ON r.account_id = p.account_id AND r.id = p.room_id
		WHERE p.account_id = ? AND p.at >= ? AND p.at < ?`+cond+`
		ORDER BY p.at DESC, p.id DESC LIMIT ?`, args,
		[]any{&sc.RoomID, &sc.PersonID, &sc.Name, s.d.ScanTime(&sc.At)}, func() error {
			out = append(out, sc)
			return nil
		})
	return out, err
}

// RoundTicksIn returns the rooms ticked done on rounds that the filter
// selects, newest first, at most its Limit. The account's stops are
// bounded (store.RoundsKept rounds of store.RoundStopsKept stops).
func (s *Store) RoundTicksIn(ctx context.Context, f store.ServiceFilter) ([]store.RoundTick, error) {
	if f.Limit <= 0 {
		return nil, errors.New("a read of the service record needs a limit")
	}
	acc, err := s.accountKey(ctx, f.Account, false)
	if err != nil {
		return nil, err
	}
	cond, condArgs := s.inBuildings("r.building_id", f.Buildings)
	if f.RoomID != "" {
		cond, condArgs = cond+" AND r.id = ?", append(condArgs, f.RoomID)
	}
	args := append(append([]any{acc, string(domain.StopDone), s.d.Time(f.From), s.d.Time(f.To)}, condArgs...), f.Limit)
	var out []store.RoundTick
	var t store.RoundTick
	err = each(ctx, s.read, `SELECT st.round_id, st.room_id, st.person_id, st.name, st.at
		FROM round_stops st
		JOIN rooms r ON r.account_id = st.account_id AND r.id = st.room_id
		WHERE st.account_id = ? AND st.for_next = `+s.d.BoolLiteral(false)+` AND st.status = ? AND st.at >= ? AND st.at < ?`+cond+`
		ORDER BY st.at DESC, st.round_id DESC, st.position DESC LIMIT ?`, args,
		[]any{&t.RoundID, &t.RoomID, &t.PersonID, &t.Name, s.d.ScanTime(&t.At)}, func() error {
			out = append(out, t)
			return nil
		})
	return out, err
}
