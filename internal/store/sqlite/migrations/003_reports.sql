-- When the sync first saw an alert overdue: the service says whether an
-- alert is overdue, not since when, and a shift report counts the alerts
-- that were overdue at the shift's end.
ALTER TABLE alerts ADD COLUMN overdue_ms INTEGER;
CREATE INDEX alerts_overdue_unseen ON alerts (account_id) WHERE overdue = 1 AND overdue_ms IS NULL;

-- An account's shift report settings: its shifts ("Early 06:00-14:00, ...")
-- and the IANA time zone they are in. No row: the defaults.
CREATE TABLE report_settings (
    account_id INTEGER PRIMARY KEY,
    shifts     TEXT NOT NULL,
    zone       TEXT NOT NULL,
    updated_ms INTEGER NOT NULL
);
