package sqlstore

import (
	"context"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// AddDoneReport keeps r under the idempotency key, unique in the account:
// false, and nothing kept, when a report already has the key. The
// account's reports made before before go.
func (s *Store) AddDoneReport(ctx context.Context, account string, r domain.DoneReport, key string, before time.Time) (bool, error) {
	acc, err := s.accountKey(ctx, account, false)
	if err != nil {
		return false, err
	}
	var n int64
	err = s.inTx(ctx, func(tx Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM done_reports WHERE account_id = ? AND done < ?`, acc, s.d.Time(before)); err != nil {
			return err
		}
		n, err = tx.Exec(ctx, `INSERT INTO done_reports (account_id, alert_id, person_id, name, outcome, reason, done, action_key)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (account_id, action_key) DO NOTHING`,
			acc, r.AlertID, r.PersonID, r.Name, string(r.Outcome), r.Reason, s.d.Time(r.At), key)
		return err
	})
	return n == 1, err
}

// LastDoneReports returns the newest report of each of the alerts that
// has one, by alert id (of reports made at the same time, the last kept).
func (s *Store) LastDoneReports(ctx context.Context, account string, alertIDs []string) (map[string]domain.DoneReport, error) {
	acc, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	out := map[string]domain.DoneReport{}
	var r domain.DoneReport
	var outcome string
	err = chunks(alertIDs, s.d.MaxList(), func(part []string) error {
		in, args := s.d.In(part)
		return each(ctx, s.read, `SELECT alert_id, person_id, name, outcome, reason, done FROM done_reports
			WHERE account_id = ? AND alert_id `+in+` ORDER BY done, id`, append([]any{acc}, args...),
			[]any{&r.AlertID, &r.PersonID, &r.Name, &outcome, &r.Reason, s.d.ScanTime(&r.At)}, func() error {
				r.Outcome = domain.Outcome(outcome)
				out[r.AlertID] = r
				return nil
			})
	})
	return out, err
}

// ClaimAlertOnce is ClaimAlert under an action's idempotency key, in one
// transaction: false, and nothing done, when the account has the key
// already; a claim that fails keeps no key. Keys older than
// store.ActionKeysKept go.
func (s *Store) ClaimAlertOnce(ctx context.Context, account string, c domain.Claim, key string) (bool, error) {
	acc, err := s.accountKey(ctx, account, false)
	if err != nil {
		return false, err
	}
	var n int64
	err = s.inTx(ctx, func(tx Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM action_keys WHERE used < ?`, s.d.Time(c.At.Add(-store.ActionKeysKept))); err != nil {
			return err
		}
		if n, err = tx.Exec(ctx, `INSERT INTO action_keys (account_id, action_key, used) VALUES (?, ?, ?)
			ON CONFLICT (account_id, action_key) DO NOTHING`, acc, key, s.d.Time(c.At)); err != nil || n == 0 {
			return err
		}
		return s.claimAlert(ctx, tx, acc, c)
	})
	return n == 1, err
}

// DoneReportsDuring returns the account's reports made in [from, to), by
// the time they were made, at most limit of them (claimsLimit when
// limit <= 0).
func (s *Store) DoneReportsDuring(ctx context.Context, account string, from, to time.Time, limit int) ([]domain.DoneReport, error) {
	acc, err := s.accountKey(ctx, account, false)
	if err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = claimsLimit
	}
	var out []domain.DoneReport
	var r domain.DoneReport
	var outcome string
	err = each(ctx, s.read, `SELECT alert_id, person_id, name, outcome, reason, done FROM done_reports
		WHERE account_id = ? AND done >= ? AND done < ? ORDER BY done, id LIMIT ?`, []any{acc, s.d.Time(from), s.d.Time(to), limit},
		[]any{&r.AlertID, &r.PersonID, &r.Name, &outcome, &r.Reason, s.d.ScanTime(&r.At)}, func() error {
			r.Outcome = domain.Outcome(outcome)
			out = append(out, r)
			return nil
		})
	return out, err
}
