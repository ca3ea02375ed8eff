package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// ReportSettings are an account's shift report settings, as text: the web
// layer parses and checks them before they are saved.
type ReportSettings struct {
	Shifts  string // "Early 06:00-14:00, Late 14:00-22:00, ..."
	Zone    string // an IANA time zone name
	Updated time.Time
}

// ReportSettings returns the account's report settings; ok is false when
// the account has none saved and the defaults apply.
func (s *Store) ReportSettings(ctx context.Context, account string) (rs ReportSettings, ok bool, err error) {
	key, err := s.accountKey(ctx, account, false)
	if err != nil {
		return ReportSettings{}, false, err
	}
	var updated int64
	err = s.read.QueryRowContext(ctx, `SELECT shifts, zone, updated_ms FROM report_settings WHERE account_id = ?`, key).
		Scan(&rs.Shifts, &rs.Zone, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return ReportSettings{}, false, nil
	}
	if err != nil {
		return ReportSettings{}, false, err
	}
	rs.Updated = fromMS(updated)
	return rs, true, nil
}

// SaveReportSettings stores the account's report settings.
func (s *Store) SaveReportSettings(ctx context.Context, account string, rs ReportSettings) error {
	key, err := s.accountKey(ctx, account, true)
	if err != nil {
		return err
	}
	_, err = s.write.ExecContext(ctx, `INSERT INTO report_settings (account_id, shifts, zone, updated_ms) VALUES (?, ?, ?, ?)
		ON CONFLICT (account_id) DO UPDATE SET shifts = excluded.shifts, zone = excluded.zone, updated_ms = excluded.updated_ms`,
		key, rs.Shifts, rs.Zone, ms(rs.Updated))
	return err
}
