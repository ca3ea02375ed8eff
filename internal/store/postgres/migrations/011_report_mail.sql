-- The client report mailed on a schedule (see docs/service-levels.md):
-- each account's schedules, the addresses and buildings one a line.
CREATE TABLE report_schedules (
    account_id bigint NOT NULL,
    id         text COLLATE "C" NOT NULL,
    cadence    text COLLATE "C" NOT NULL,
    addresses  text NOT NULL,
    buildings  text NOT NULL,
    created    timestamptz NOT NULL,
    created_by text NOT NULL,
    PRIMARY KEY (account_id, id)
);

-- Each sending of a schedule's period, one row per period: taken for an
-- attempt by one replica at a time, never again once sent. Pending holds
-- the addresses still to take it, one a line.
CREATE TABLE report_sendings (
    account_id   bigint NOT NULL,
    schedule_id  text COLLATE "C" NOT NULL,
    period       text COLLATE "C" NOT NULL,
    words        text NOT NULL,
    state        text COLLATE "C" NOT NULL,
    attempts     integer NOT NULL,
    addresses    integer NOT NULL,
    delivered    integer NOT NULL,
    pending      text NOT NULL,
    detail       text NOT NULL,
    started      timestamptz NOT NULL,
    updated      timestamptz NOT NULL,
    next_attempt timestamptz NOT NULL,
    PRIMARY KEY (account_id, schedule_id, period)
);
-- The page lists an account's last; housekeeping removes the oldest.
CREATE INDEX report_sendings_started ON report_sendings (account_id, started);
CREATE INDEX report_sendings_pruned ON report_sendings (started);
