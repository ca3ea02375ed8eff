-- Service levels (see docs/service-levels.md): an account's, with building
-- '', and a building's, which overrides the account's for its alerts. The
-- hours and holidays are kept as typed back by internal/servicelevel;
-- targets one line per alert type: "type claim_minutes resolve_minutes".
CREATE TABLE service_levels (
    account_id  bigint NOT NULL,
    building_id text COLLATE "C" NOT NULL,
    week        text NOT NULL,
    holidays    text NOT NULL,
    zone        text NOT NULL,
    targets     text NOT NULL,
    updated     timestamptz NOT NULL,
    PRIMARY KEY (account_id, building_id)
);

-- Each alert measured against its targets when the cache saw it close,
-- once: the states met or missed, the service time used and the target of
-- each kind (0 when none), the service level in force in words, and where
-- the clock stopped. Kept after the alert leaves the cache, for the client
-- report, until housekeeping prunes them.
CREATE TABLE alert_measures (
    account_id     bigint NOT NULL,
    alert_id       text COLLATE "C" NOT NULL,
    type           text COLLATE "C" NOT NULL,
    location_id    text COLLATE "C" NOT NULL,
    building_id    text COLLATE "C" NOT NULL,
    created        timestamptz NOT NULL,
    claimed        timestamptz, -- NULL when never claimed
    closed         timestamptz NOT NULL,
    claim_state    text COLLATE "C" NOT NULL,
    claim_used     bigint NOT NULL, -- milliseconds of service time
    claim_target   bigint NOT NULL,
    resolve_state  text COLLATE "C" NOT NULL,
    resolve_used   bigint NOT NULL,
    resolve_target bigint NOT NULL,
    policy         text NOT NULL,
    explanation    text NOT NULL,
    PRIMARY KEY (account_id, alert_id)
);
-- Housekeeping removes the oldest of every account; a report reads an
-- account's of a period.
CREATE INDEX alert_measures_closed ON alert_measures (closed);
CREATE INDEX alert_measures_account ON alert_measures (account_id, closed);
