-- Service levels (see docs/service-levels.md): an account's, with building
-- '', and a building's, which overrides the account's for its alerts. The
-- hours and holidays are kept as typed back by internal/servicelevel;
-- targets one line per alert type: "type claim_minutes resolve_minutes".
CREATE TABLE service_levels (
    account_id  INTEGER NOT NULL,
    building_id TEXT NOT NULL,
    week        TEXT NOT NULL,
    holidays    TEXT NOT NULL,
    zone        TEXT NOT NULL,
    targets     TEXT NOT NULL,
    updated     INTEGER NOT NULL,
    PRIMARY KEY (account_id, building_id)
) WITHOUT ROWID;

-- Each alert measured against its targets when the cache saw it close,
-- once: the states met or missed, the service time used and the target of
-- each kind (0 when none), the service level in force in words, and where
-- the clock stopped. Kept after the alert leaves the cache, for the client
-- report, until housekeeping prunes them.
CREATE TABLE alert_measures (
    account_id     INTEGER NOT NULL,
    alert_id       TEXT NOT NULL,
    type           TEXT NOT NULL,
    location_id    TEXT NOT NULL,
    building_id    TEXT NOT NULL,
    created        INTEGER NOT NULL,
    claimed        INTEGER, -- NULL when never claimed
    closed         INTEGER NOT NULL,
    claim_state    TEXT NOT NULL,
    claim_used     INTEGER NOT NULL, -- milliseconds of service time
    claim_target   INTEGER NOT NULL,
    resolve_state  TEXT NOT NULL,
    resolve_used   INTEGER NOT NULL,
    resolve_target INTEGER NOT NULL,
    policy         TEXT NOT NULL,
    explanation    TEXT NOT NULL,
    PRIMARY KEY (account_id, alert_id)
) WITHOUT ROWID;
-- Housekeeping removes the oldest of every account; a report reads an
-- account's of a period.
CREATE INDEX alert_measures_closed ON alert_measures (closed);
CREATE INDEX alert_measures_account ON alert_measures (account_id, closed);
