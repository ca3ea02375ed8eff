-- The client report mailed on a schedule (see docs/service-levels.md):
-- each account's schedules, the addresses and buildings one a line.
CREATE TABLE report_schedules (
    account_id INTEGER NOT NULL,
    id         TEXT NOT NULL,
    cadence    TEXT NOT NULL,
    addresses  TEXT NOT NULL,
    buildings  TEXT NOT NULL,
    created    INTEGER NOT NULL,
    created_by TEXT NOT NULL,
    PRIMARY KEY (account_id, id)
) WITHOUT ROWID;

-- Each sending of a schedule's period, one row per period: taken for an
-- attempt by one replica at a time, never again once sent. Pending holds
-- the addresses still to take it, one a line.
CREATE TABLE report_sendings (
    account_id   INTEGER NOT NULL,
    schedule_id  TEXT NOT NULL,
    period       TEXT NOT NULL,
    words        TEXT NOT NULL,
    state        TEXT NOT NULL,
    attempts     INTEGER NOT NULL,
    addresses    INTEGER NOT NULL,
    delivered    INTEGER NOT NULL,
    pending      TEXT NOT NULL,
    detail       TEXT NOT NULL,
    started      INTEGER NOT NULL,
    updated      INTEGER NOT NULL,
    next_attempt INTEGER NOT NULL,
    PRIMARY KEY (account_id, schedule_id, period)
) WITHOUT ROWID;
-- The page lists an account's last; housekeeping removes the oldest.
CREATE INDEX report_sendings_started ON report_sendings (account_id, started);
CREATE INDEX report_sendings_pruned ON report_sendings (started);
