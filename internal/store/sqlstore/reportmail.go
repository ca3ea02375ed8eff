package sqlstore

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// The client report mailed on a schedule (store.ReportMail).

// lines keeps a list one a line; unlines reads it back.
func lines(list []string) string { return strings.Join(list, "\n") }

func unlines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// ReportSchedules returns the account's schedules, oldest first.
func (s *Store) ReportSchedules(ctx context.Context, account string) ([]store.ReportSchedule, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	var out []store.ReportSchedule
	var rs store.ReportSchedule
	var addresses, buildings string
	err = each(ctx, s.read, `SELECT id, cadence, addresses, buildings, created, created_by, language FROM report_schedules
		WHERE account_id = ? ORDER BY created, id`, []any{key},
		[]any{&rs.ID, &rs.Cadence, &addresses, &buildings, s.d.ScanTime(&rs.Created), &rs.CreatedBy, &rs.Language}, func() error {
			rs.Addresses, rs.Buildings = unlines(addresses), unlines(buildings)
			out = append(out, rs)
			return nil
		})
	return out, err
}

// EveryReportSchedule returns the schedules of every connected account,
// at most limit, by account and id.
func (s *Store) EveryReportSchedule(ctx context.Context, limit int) ([]store.AccountReportSchedule, error) {
	var out []store.AccountReportSchedule
	var rs store.AccountReportSchedule
	var addresses, buildings string
	err := each(ctx, s.read, `SELECT a.id, r.id, r.cadence, r.addresses, r.buildings, r.created, r.created_by, r.language
		FROM report_schedules r JOIN accounts a ON a.key = r.account_id
		WHERE EXISTS (SELECT 1 FROM account_connections c WHERE c.account_id = r.account_id)
		ORDER BY a.id, r.id LIMIT ?`, []any{limit},
		[]any{&rs.Account, &rs.ID, &rs.Cadence, &addresses, &buildings, s.d.ScanTime(&rs.Created), &rs.CreatedBy, &rs.Language}, func() error {
			rs.Addresses, rs.Buildings = unlines(addresses), unlines(buildings)
			out = append(out, rs)
			return nil
		})
	return out, err
}

// AddReportSchedule keeps a new schedule of a connected account that has
// fewer than max.
func (s *Store) AddReportSchedule(ctx context.Context, account string, rs store.ReportSchedule, max int) error {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return err
	}
	return s.inTx(ctx, func(tx Tx) error {
		if err := tx.LockLimits(ctx, key); err != nil {
			return err
		}
		var connected, held int
		if err := tx.QueryRow(ctx, `SELECT (SELECT count(*) FROM account_connections WHERE account_id = ?1),
			(SELECT count(*) FROM report_schedules WHERE account_id = ?1)`, key).Scan(&connected, &held); err != nil {
			return err
		}
		switch {
		case connected == 0:
			return fmt.Errorf("account %q: %w", account, domain.ErrNotConnected)
		case held >= max:
			return store.ErrTooManySchedules
		}
		_, err := tx.Exec(ctx, `INSERT INTO report_schedules (account_id, id, cadence, addresses, buildings, created, created_by, language)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, key, rs.ID, rs.Cadence, lines(rs.Addresses), lines(rs.Buildings), s.d.Time(rs.Created), rs.CreatedBy,
			cmp.Or(rs.Language, "en"))
		return err
	})
}

// ChangeReportSchedule writes a schedule anew, by its id.
func (s *Store) ChangeReportSchedule(ctx context.Context, account string, rs store.ReportSchedule) (bool, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return false, err
	}
	n, err := s.write.Exec(ctx, `UPDATE report_schedules SET cadence = ?, addresses = ?, buildings = ?, created = ?, created_by = ?, language = ?
		WHERE account_id = ? AND id = ?`, rs.Cadence, lines(rs.Addresses), lines(rs.Buildings), s.d.Time(rs.Created), rs.CreatedBy,
		cmp.Or(rs.Language, "en"), key, rs.ID)
	return n > 0, err
}

// RemoveReportSchedule removes a schedule; its sendings stay on record.
func (s *Store) RemoveReportSchedule(ctx context.Context, account, id string) (bool, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return false, err
	}
	n, err := s.write.Exec(ctx, `DELETE FROM report_schedules WHERE account_id = ? AND id = ?`, key, id)
	return n > 0, err
}

const sendingCols = `schedule_id, period, words, state, attempts, addresses, delivered, pending, detail, started, updated, next_attempt`

// TakeReportSending takes a schedule's period for an attempt: the first,
// by writing its row, or another, by taking the row again (see
// store.ReportMail). The row is written only while the schedule is
// there, so that a schedule removed, or an account disconnected, is not
// sent for.
func (s *Store) TakeReportSending(ctx context.Context, account string, rs store.ReportSending, now time.Time, maxAttempts int) (store.ReportSending, bool, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return rs, false, err
	}
	n, err := s.write.Exec(ctx, `INSERT INTO report_sendings (account_id, `+sendingCols+`)
		SELECT ?, ?, ?, ?, ?, 1, ?, 0, ?, '', ?, ?, ?
		WHERE EXISTS (SELECT 1 FROM report_schedules WHERE account_id = ? AND id = ?)
		ON CONFLICT (account_id, schedule_id, period) DO NOTHING`,
		key, rs.Schedule, rs.Period, rs.Words, store.SendingTaken, len(rs.Pending), lines(rs.Pending),
		s.d.Time(now), s.d.Time(now), s.d.Time(rs.NextAttempt), key, rs.Schedule)
	if err != nil {
		return rs, false, err
	}
	if n == 0 {
		n, err = s.write.Exec(ctx, `UPDATE report_sendings SET state = ?, attempts = attempts + 1, next_attempt = ?
			WHERE account_id = ? AND schedule_id = ? AND period = ? AND state IN (?, ?) AND next_attempt <= ? AND attempts < ?
			AND EXISTS (SELECT 1 FROM report_schedules WHERE account_id = ? AND id = ?)`,
			store.SendingTaken, s.d.Time(rs.NextAttempt), key, rs.Schedule, rs.Period, store.SendingTaken, store.SendingRetrying,
			s.d.Time(now), maxAttempts, key, rs.Schedule)
		if err != nil {
			return rs, false, err
		}
	}
	row, err := s.reportSendings(ctx, s.write, `WHERE account_id = ? AND schedule_id = ? AND period = ?`, key, rs.Schedule, rs.Period)
	if err != nil || len(row) == 0 {
		return rs, false, err
	}
	return row[0], n > 0, nil
}

// RecordReportSending writes what an attempt did to the row it took.
func (s *Store) RecordReportSending(ctx context.Context, account string, rs store.ReportSending) (bool, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return false, err
	}
	n, err := s.write.Exec(ctx, `UPDATE report_sendings SET state = ?, delivered = ?, pending = ?, detail = ?, updated = ?, next_attempt = ?
		WHERE account_id = ? AND schedule_id = ? AND period = ? AND attempts = ? AND state = ?`,
		rs.State, rs.Delivered, lines(rs.Pending), rs.Detail, s.d.Time(rs.Updated), s.d.Time(rs.NextAttempt),
		key, rs.Schedule, rs.Period, rs.Attempts, store.SendingTaken)
	return n > 0, err
}

// ReportSendings returns the account's last sendings, newest first.
func (s *Store) ReportSendings(ctx context.Context, account string, limit int) ([]store.ReportSending, error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	return s.reportSendings(ctx, s.read, `WHERE account_id = ? ORDER BY started DESC, schedule_id, period LIMIT ?`, key, limit)
}

func (s *Store) reportSendings(ctx context.Context, q Querier, where string, args ...any) ([]store.ReportSending, error) {
	var out []store.ReportSending
	var rs store.ReportSending
	var pending string
	err := each(ctx, q, `SELECT `+sendingCols+` FROM report_sendings `+where, args,
		[]any{&rs.Schedule, &rs.Period, &rs.Words, &rs.State, &rs.Attempts, &rs.Addresses, &rs.Delivered, &pending, &rs.Detail,
			s.d.ScanTime(&rs.Started), s.d.ScanTime(&rs.Updated), s.d.ScanTime(&rs.NextAttempt)}, func() error {
			rs.Pending = unlines(pending)
			out = append(out, rs)
			return nil
		})
	if errors.Is(err, sql.ErrNoRows) {
		err = nil
	}
	return out, err
}

// PruneReportSendings removes the records of sendings begun before before.
func (s *Store) PruneReportSendings(ctx context.Context, before time.Time) (int, error) {
	n, err := s.write.Exec(ctx, `DELETE FROM report_sendings WHERE started < ?`, s.d.Time(before))
	return int(n), err
}
