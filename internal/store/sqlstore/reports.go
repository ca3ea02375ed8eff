package sqlstore

import (
	"context"
	"database/sql"
	"errors"

	"washboard/internal/store"
)

// ReportSettings returns the account's report settings; ok is false when
// the account has none saved and the defaults apply.
func (s *Store) ReportSettings(ctx context.Context, account string) (rs store.ReportSettings, ok bool, err error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return store.ReportSettings{}, false, err
	}
	err = s.read.QueryRow(ctx, `SELECT shifts, zone, updated FROM report_settings WHERE account_id = ?`, key).
		Scan(&rs.Shifts, &rs.Zone, s.d.ScanTime(&rs.Updated))
	if errors.Is(err, sql.ErrNoRows) {
		return store.ReportSettings{}, false, nil
	}
	if err != nil {
		return store.ReportSettings{}, false, err
	}
	return rs, true, nil
}

// SaveReportSettings stores the account's report settings.
func (s *Store) SaveReportSettings(ctx context.Context, account string, rs store.ReportSettings) error {
	key, err := s.accountKey(ctx, account, true)
	if err != nil {
		return err
	}
	_, err = s.write.Exec(ctx, `INSERT INTO report_settings (account_id, shifts, zone, updated) VALUES (?, ?, ?, ?)
		ON CONFLICT (account_id) DO UPDATE SET shifts = excluded.shifts, zone = excluded.zone, updated = excluded.updated`,
		key, rs.Shifts, rs.Zone, s.d.Time(rs.Updated))
	return err
}
