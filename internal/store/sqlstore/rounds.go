package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// Rounds from need (docs/rounds.md): a row of rounds each, the buildings
// it covers in round_buildings, its stops and what it left for the next
// round in round_stops. Lists (its part, a stop's needs) are JSON text.

const roundCols = `id, buildings, floors, person_id, team, name, made_by, made_at, limit_rooms, limit_minutes, per_room, per_floor_change, ended`

// SaveRound keeps a new round, and lets go of the account's rounds made
// before pruneBefore and of the oldest beyond keep.
func (s *Store) SaveRound(ctx context.Context, account string, r domain.Round, pruneBefore time.Time, keep int) error {
	if keep <= 0 {
		keep = store.RoundsKept
	}
	if len(r.Stops) > store.RoundStopsKept {
		return fmt.Errorf("round %q has %d stops, more than %d: %w", r.ID, len(r.Stops), store.RoundStopsKept, domain.ErrLimit)
	}
	acc, err := s.accountKey(ctx, account, true)
	if err != nil {
		return err
	}
	buildings, err := json.Marshal(nonNil(r.Buildings))
	if err != nil {
		return err
	}
	floors, err := json.Marshal(nonNil(r.Floors))
	if err != nil {
		return err
	}
	stmts := []Statement{{SQL: `INSERT INTO rounds (account_id, ` + roundCols + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		Args: []any{acc, r.ID, string(buildings), string(floors), r.PersonID, r.Team, r.Name, r.MadeBy, s.d.Time(r.MadeAt),
			r.Limits.Rooms, r.Limits.Minutes, int64(r.Limits.PerRoom / time.Second), int64(r.Limits.PerFloorChange / time.Second),
			s.d.TimeOrNever(time.Time{})}}}
	for _, b := range r.InBuildings {
		stmts = append(stmts, Statement{SQL: `INSERT INTO round_buildings (account_id, round_id, building_id) VALUES (?, ?, ?)
			ON CONFLICT (account_id, round_id, building_id) DO NOTHING`, Args: []any{acc, r.ID, b}})
	}
	stops, err := s.stopStatements(acc, r.ID, 0, false, r.Stops)
	if err != nil {
		return err
	}
	stmts = append(stmts, stops...)
	return s.inTx(ctx, func(tx Tx) error {
		if err := s.pruneRounds(ctx, tx, acc, pruneBefore, keep); err != nil {
			return err
		}
		return tx.Batch(ctx, stmts)
	})
}

// pruneRounds lets go of the account's rounds made before the time
// (unless zero), and of the oldest beyond keep - 1, to make room for one
// more.
func (s *Store) pruneRounds(ctx context.Context, tx Tx, acc int64, before time.Time, keep int) error {
	var gone []string
	var id string
	add := func() error { gone = append(gone, id); return nil }
	if !before.IsZero() {
		if err := each(ctx, tx, `SELECT id FROM rounds WHERE account_id = ? AND made_at < ?`, []any{acc, s.d.Time(before)}, []any{&id}, add); err != nil {
			return err
		}
	}
	// The newest round beyond the bound, and those older.
	var made time.Time
	var last string
	err := tx.QueryRow(ctx, `SELECT made_at, id FROM rounds WHERE account_id = ? ORDER BY made_at DESC, id DESC LIMIT 1 OFFSET ?`,
		acc, keep-1).Scan(s.d.ScanTime(&made), &last)
	if err == nil {
		err = each(ctx, tx, `SELECT id FROM rounds WHERE account_id = ? AND (made_at < ? OR (made_at = ? AND id <= ?))`,
			[]any{acc, s.d.Time(made), s.d.Time(made), last}, []any{&id}, add)
	} else if errors.Is(err, sql.ErrNoRows) {
		err = nil
	}
	if err != nil {
		return err
	}
	return chunks(gone, s.d.MaxList(), func(part []string) error {
		in, args := s.d.In(part)
		for _, table := range []string{"round_stops", "round_buildings"} {
			if _, err := tx.Exec(ctx, `DELETE FROM `+table+` WHERE account_id = ? AND round_id `+in, append([]any{acc}, args...)...); err != nil {
				return err
			}
		}
		_, err := tx.Exec(ctx, `DELETE FROM rounds WHERE account_id = ? AND id `+in, append([]any{acc}, args...)...)
		return err
	})
}

// stopStatements are the inserts of stops from position first on.
func (s *Store) stopStatements(acc int64, id string, first int, forNext bool, stops []domain.RoundStop) ([]Statement, error) {
	out := make([]Statement, 0, len(stops))
	for i, st := range stops {
		needs, err := json.Marshal(nonNil(st.Needs))
		if err != nil {
			return nil, err
		}
		status := st.Status
		if status == "" {
			status = domain.StopToDo
		}
		out = append(out, Statement{SQL: `INSERT INTO round_stops (account_id, round_id, position, for_next, room_id, needs, status, reason, person_id, name, at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			Args: []any{acc, id, first + i, s.d.Bool(forNext), st.RoomID, string(needs), string(status), st.Reason, st.PersonID, st.Name, s.d.TimeOrNever(st.At)}})
	}
	return out, nil
}

// nonNil is list, or an empty one for nil, so that JSON says [].
func nonNil[T any](list []T) []T {
	if list == nil {
		return []T{}
	}
	return list
}

// nilIfEmpty is list, or nil when it is empty: a list read back is what
// was kept.
func nilIfEmpty[T any](list []T) []T {
	if len(list) == 0 {
		return nil
	}
	return list
}

// Round reads a round with its stops.
func (s *Store) Round(ctx context.Context, account, id string) (domain.Round, error) {
	acc, err := s.accountKey(ctx, account, false)
	if err != nil {
		return domain.Round{}, err
	}
	list, err := s.readRounds(ctx, `WHERE account_id = ? AND id = ?`, []any{acc, id}, acc)
	if err == nil && len(list) == 0 {
		err = fmt.Errorf("round %q: %w", id, domain.ErrNotFound)
	}
	if err != nil {
		return domain.Round{}, err
	}
	return list[0], nil
}

// FindRounds lists rounds, newest first, with their stops.
func (s *Store) FindRounds(ctx context.Context, f store.RoundFilter) ([]domain.Round, error) {
	if f.Buildings != nil && len(f.Buildings) == 0 {
		return nil, nil
	}
	acc, err := s.accountKey(ctx, f.Account, false)
	if err != nil {
		return nil, err
	}
	where, args := `WHERE account_id = ?`, []any{acc}
	if f.PersonID != "" {
		where, args = where+` AND person_id = ?`, append(args, f.PersonID)
	}
	if f.Running {
		where += ` AND ended ` + s.never()
	}
	if f.Buildings != nil {
		in, bs := s.d.In(f.Buildings)
		where += ` AND NOT EXISTS (SELECT 1 FROM round_buildings b WHERE b.account_id = rounds.account_id AND b.round_id = rounds.id
			AND NOT (b.building_id ` + in + `))`
		args = append(args, bs...)
	}
	if f.Limit <= 0 {
		f.Limit = 50
	}
	return s.readRounds(ctx, where+` ORDER BY made_at DESC, id DESC LIMIT ?`, append(args, f.Limit), acc)
}

// never is the condition of a time column kept with TimeOrNever that
// holds "never".
func (s *Store) never() string {
	if s.d.TimeOrNever(time.Time{}) == nil {
		return `IS NULL`
	}
	return `= 0`
}

// readRounds reads the rounds a condition chooses, with their stops and
// buildings.
func (s *Store) readRounds(ctx context.Context, where string, args []any, acc int64) ([]domain.Round, error) {
	var out []domain.Round
	byID := map[string]int{}
	var r domain.Round
	var buildings, floors string
	var perRoom, perFloor int64
	err := each(ctx, s.read, `SELECT `+roundCols+` FROM rounds `+where, args,
		[]any{&r.ID, &buildings, &floors, &r.PersonID, &r.Team, &r.Name, &r.MadeBy, s.d.ScanTime(&r.MadeAt),
			&r.Limits.Rooms, &r.Limits.Minutes, &perRoom, &perFloor, s.d.ScanTime(&r.Ended)}, func() error {
			r.Buildings, r.Floors, r.Stops, r.Left, r.InBuildings = nil, nil, nil, nil, nil
			if err := json.Unmarshal([]byte(buildings), &r.Buildings); err != nil {
				return fmt.Errorf("round %q: buildings: %w", r.ID, err)
			}
			if err := json.Unmarshal([]byte(floors), &r.Floors); err != nil {
				return fmt.Errorf("round %q: floors: %w", r.ID, err)
			}
			r.Buildings, r.Floors = nilIfEmpty(r.Buildings), nilIfEmpty(r.Floors)
			r.Limits.PerRoom, r.Limits.PerFloorChange = time.Duration(perRoom)*time.Second, time.Duration(perFloor)*time.Second
			byID[r.ID] = len(out)
			out = append(out, r)
			return nil
		})
	if err != nil || len(out) == 0 {
		return out, err
	}
	ids := make([]string, 0, len(out))
	for _, r := range out {
		ids = append(ids, r.ID)
	}
	err = chunks(ids, s.d.MaxList(), func(part []string) error {
		in, inArgs := s.d.In(part)
		var roundID, building, needs, status string
		var forNext int
		var st domain.RoundStop
		if err := each(ctx, s.read, `SELECT round_id, building_id FROM round_buildings WHERE account_id = ? AND round_id `+in+` ORDER BY round_id, building_id`,
			append([]any{acc}, inArgs...), []any{&roundID, &building}, func() error {
				r := &out[byID[roundID]]
				r.InBuildings = append(r.InBuildings, building)
				return nil
			}); err != nil {
			return err
		}
		return each(ctx, s.read, `SELECT round_id, CASE WHEN for_next THEN 1 ELSE 0 END, room_id, needs, status, reason, person_id, name, at
			FROM round_stops WHERE account_id = ? AND round_id `+in+` ORDER BY round_id, position`,
			append([]any{acc}, inArgs...), []any{&roundID, &forNext, &st.RoomID, &needs, &status, &st.Reason, &st.PersonID, &st.Name, s.d.ScanTime(&st.At)},
			func() error {
				st.Needs = nil
				if err := json.Unmarshal([]byte(needs), &st.Needs); err != nil {
					return fmt.Errorf("round %q: needs: %w", roundID, err)
				}
				st.Needs, st.Status = nilIfEmpty(st.Needs), domain.StopStatus(status)
				r := &out[byID[roundID]]
				if forNext == 1 {
					r.Left = append(r.Left, st)
				} else {
					r.Stops = append(r.Stops, st)
				}
				return nil
			})
	})
	return out, err
}

// TickRoundStop sets a stop of a running round.
func (s *Store) TickRoundStop(ctx context.Context, account, id string, position int, st domain.RoundStop) error {
	acc, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	n, err := s.write.Exec(ctx, `UPDATE round_stops SET status = ?, reason = ?, person_id = ?, name = ?, at = ?
		WHERE account_id = ? AND round_id = ? AND position = ? AND for_next = `+s.d.BoolLiteral(false)+`
		AND EXISTS (SELECT 1 FROM rounds r WHERE r.account_id = round_stops.account_id AND r.id = round_stops.round_id AND r.ended `+s.never()+`)`,
		string(st.Status), st.Reason, st.PersonID, st.Name, s.d.TimeOrNever(st.At), acc, id, position)
	return oneRow(n, err, "stop of running round", fmt.Sprintf("%s/%d", id, position))
}

// EndRound ends a running round, keeping what it left for the next.
func (s *Store) EndRound(ctx context.Context, account, id string, at time.Time, left []domain.RoundStop) error {
	if len(left) > store.RoundStopsKept {
		left = left[:store.RoundStopsKept]
	}
	acc, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	return s.inTx(ctx, func(tx Tx) error {
		n, err := tx.Exec(ctx, `UPDATE rounds SET ended = ? WHERE account_id = ? AND id = ? AND ended `+s.never(), s.d.Time(at), acc, id)
		if err := oneRow(n, err, "running round", id); err != nil {
			return err
		}
		var stops int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM round_stops WHERE account_id = ? AND round_id = ?`, acc, id).Scan(&stops); err != nil {
			return err
		}
		stmts, err := s.stopStatements(acc, id, stops, true, left)
		if err != nil {
			return err
		}
		return tx.Batch(ctx, stmts)
	})
}

const roundScheduleCols = `id, buildings, floors, person_id, team, name, limit_rooms, limit_minutes, per_room, per_floor_change, made_by, created`

// AddRoundSchedule keeps a schedule, unless the account has max (see
// insertWithinLimit).
func (s *Store) AddRoundSchedule(ctx context.Context, account string, rs domain.RoundSchedule, max int) error {
	acc, err := s.accountKey(ctx, account, true)
	if err != nil {
		return err
	}
	buildings, err := json.Marshal(nonNil(rs.Buildings))
	if err != nil {
		return err
	}
	floors, err := json.Marshal(nonNil(rs.Floors))
	if err != nil {
		return err
	}
	return s.insertWithinLimit(ctx, acc, max, `INSERT INTO round_schedules (account_id, `+roundScheduleCols+`)
		SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
		WHERE (SELECT count(*) FROM round_schedules WHERE account_id = ?) < ?`,
		acc, rs.ID, string(buildings), string(floors), rs.PersonID, rs.Team, rs.Name, rs.Limits.Rooms, rs.Limits.Minutes,
		int64(rs.Limits.PerRoom/time.Second), int64(rs.Limits.PerFloorChange/time.Second), rs.MadeBy, s.d.Time(rs.Created))
}

// RoundSchedules lists the account's schedules, oldest first.
func (s *Store) RoundSchedules(ctx context.Context, account string) ([]domain.RoundSchedule, error) {
	acc, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	list, err := s.readRoundSchedules(ctx, `WHERE r.account_id = ? ORDER BY r.created, r.id`, acc)
	out := make([]domain.RoundSchedule, 0, len(list))
	for _, rs := range list {
		out = append(out, rs.RoundSchedule)
	}
	return out, err
}

// EveryRoundSchedule lists every account's schedules, by account.
func (s *Store) EveryRoundSchedule(ctx context.Context, limit int) ([]store.AccountRoundSchedule, error) {
	return s.readRoundSchedules(ctx, `ORDER BY a.id, r.created, r.id LIMIT ?`, limit)
}

func (s *Store) readRoundSchedules(ctx context.Context, where string, args ...any) ([]store.AccountRoundSchedule, error) {
	var out []store.AccountRoundSchedule
	var rs store.AccountRoundSchedule
	var buildings, floors string
	var perRoom, perFloor int64
	cols := "r." + strings.ReplaceAll(roundScheduleCols, ", ", ", r.")
	err := each(ctx, s.read, `SELECT a.id, `+cols+` FROM round_schedules r JOIN accounts a ON a.key = r.account_id `+where, args,
		[]any{&rs.Account, &rs.ID, &buildings, &floors, &rs.PersonID, &rs.Team, &rs.Name, &rs.Limits.Rooms, &rs.Limits.Minutes,
			&perRoom, &perFloor, &rs.MadeBy, s.d.ScanTime(&rs.Created)}, func() error {
			rs.Buildings, rs.Floors = nil, nil
			if err := json.Unmarshal([]byte(buildings), &rs.Buildings); err != nil {
				return fmt.Errorf("round schedule %q: %w", rs.ID, err)
			}
			if err := json.Unmarshal([]byte(floors), &rs.Floors); err != nil {
				return fmt.Errorf("round schedule %q: %w", rs.ID, err)
			}
			rs.Buildings, rs.Floors = nilIfEmpty(rs.Buildings), nilIfEmpty(rs.Floors)
			rs.Limits.PerRoom, rs.Limits.PerFloorChange = time.Duration(perRoom)*time.Second, time.Duration(perFloor)*time.Second
			out = append(out, rs)
			return nil
		})
	return out, err
}

// RemoveRoundSchedule removes a schedule of the account, and the shift
// starts it took.
func (s *Store) RemoveRoundSchedule(ctx context.Context, account, id string) error {
	acc, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	return s.inTx(ctx, func(tx Tx) error {
		n, err := tx.Exec(ctx, `DELETE FROM round_schedules WHERE account_id = ? AND id = ?`, acc, id)
		if err := oneRow(n, err, "round schedule", id); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM round_schedule_runs WHERE account_id = ? AND schedule_id = ?`, acc, id)
		return err
	})
}

// TakeRoundShift takes a shift start for a schedule, once: the insert
// that loses a race inserts nothing.
func (s *Store) TakeRoundShift(ctx context.Context, account, scheduleID string, start, pruneBefore time.Time) (bool, error) {
	acc, err := s.accountKey(ctx, account, false)
	if err != nil {
		return false, err
	}
	var n int64
	err = s.inTx(ctx, func(tx Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM round_schedule_runs WHERE shift_start < ?`, s.d.Time(pruneBefore)); err != nil {
			return err
		}
		n, err = tx.Exec(ctx, `INSERT INTO round_schedule_runs (account_id, schedule_id, shift_start) VALUES (?, ?, ?)
			ON CONFLICT (account_id, schedule_id, shift_start) DO NOTHING`, acc, scheduleID, s.d.Time(start))
		return err
	})
	return n == 1, err
}
