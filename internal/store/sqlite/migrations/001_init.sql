-- Every row belongs to an account; every query names its account. Rows
-- name their account by its integer key, which keeps indexes small.
-- Times are INTEGER Unix milliseconds in UTC. Each cached row carries the
-- hash of its content, so that a refresh writes only what changed.

CREATE TABLE accounts (
    key        INTEGER PRIMARY KEY,
    id         TEXT NOT NULL UNIQUE, -- the service's account_id
    name       TEXT NOT NULL,
    updated_ms INTEGER NOT NULL
);

CREATE TABLE buildings (
    account_id INTEGER NOT NULL,
    id         TEXT NOT NULL,
    name       TEXT NOT NULL,
    position   INTEGER NOT NULL, -- order in the service's listing
    hash       INTEGER NOT NULL,
    PRIMARY KEY (account_id, id)
) WITHOUT ROWID;

CREATE TABLE floors (
    account_id  INTEGER NOT NULL,
    id          TEXT NOT NULL,
    building_id TEXT NOT NULL,
    name        TEXT NOT NULL,
    position    INTEGER NOT NULL,
    hash        INTEGER NOT NULL,
    PRIMARY KEY (account_id, id)
) WITHOUT ROWID;
CREATE INDEX floors_building ON floors (account_id, building_id);

CREATE TABLE rooms (
    account_id  INTEGER NOT NULL,
    id          TEXT NOT NULL,
    floor_id    TEXT NOT NULL,
    building_id TEXT NOT NULL,
    name        TEXT NOT NULL,
    position    INTEGER NOT NULL,
    hash        INTEGER NOT NULL,
    PRIMARY KEY (account_id, id)
) WITHOUT ROWID;
CREATE INDEX rooms_floor ON rooms (account_id, floor_id);

CREATE TABLE locations (
    account_id  INTEGER NOT NULL,
    id          TEXT NOT NULL,
    room_id     TEXT NOT NULL,
    floor_id    TEXT NOT NULL,
    building_id TEXT NOT NULL,
    name        TEXT NOT NULL,
    type        TEXT NOT NULL,
    position    INTEGER NOT NULL,
    hash        INTEGER NOT NULL,
    PRIMARY KEY (account_id, id)
) WITHOUT ROWID;
CREATE INDEX locations_room ON locations (account_id, room_id);
CREATE INDEX locations_floor ON locations (account_id, floor_id);

CREATE TABLE devices (
    account_id    INTEGER NOT NULL,
    mac           TEXT NOT NULL,
    location_id   TEXT NOT NULL,
    position      TEXT NOT NULL,
    generation    TEXT NOT NULL,
    compartments  TEXT NOT NULL, -- JSON
    battery       INTEGER,       -- percent; NULL when not reported
    battery_state TEXT NOT NULL,
    faults        TEXT NOT NULL, -- JSON
    offline       INTEGER NOT NULL,
    last_seen_ms  INTEGER NOT NULL,
    health        INTEGER NOT NULL, -- domain.Health of the device alone
    hash          INTEGER NOT NULL,
    PRIMARY KEY (account_id, mac)
) WITHOUT ROWID;
CREATE INDEX devices_location ON devices (account_id, location_id);

CREATE TABLE alerts (
    account_id   INTEGER NOT NULL,
    id           TEXT NOT NULL,
    location_id  TEXT NOT NULL,
    macs         TEXT NOT NULL, -- joined with ';'
    status       TEXT NOT NULL,
    type         TEXT NOT NULL,
    created_ms   INTEGER NOT NULL,
    resolved_ms  INTEGER,
    resolution   TEXT NOT NULL,
    overdue      INTEGER NOT NULL,
    refill_count INTEGER NOT NULL,
    hash         INTEGER NOT NULL,
    UNIQUE (account_id, id)
); -- a rowid table: rows arrive in creation order, identifiers in random order
CREATE INDEX alerts_status ON alerts (account_id, status, overdue DESC, created_ms); -- open alerts, overdue first, then oldest
CREATE INDEX alerts_resolved ON alerts (account_id, resolved_ms);
CREATE INDEX alerts_open_location ON alerts (account_id, location_id) WHERE status = 'OPEN'; -- cards: few rows to keep

-- Health counts and alert counts per account, building, floor and room,
-- kept current by every refresh so that pages read them without scanning.
CREATE TABLE rollups (
    account_id     INTEGER NOT NULL,
    scope          TEXT NOT NULL, -- account, building, floor, room
    scope_id       TEXT NOT NULL, -- the account's service id, or the building, floor or room id
    ok             INTEGER NOT NULL,
    attention      INTEGER NOT NULL,
    action         INTEGER NOT NULL,
    offline        INTEGER NOT NULL,
    open_alerts    INTEGER NOT NULL,
    overdue_alerts INTEGER NOT NULL,
    PRIMARY KEY (account_id, scope, scope_id)
) WITHOUT ROWID;

CREATE TABLE sync_status (
    account_id      INTEGER NOT NULL,
    resource        TEXT NOT NULL, -- metadata, devices, alerts
    last_attempt_ms INTEGER NOT NULL,
    last_success_ms INTEGER NOT NULL, -- 0: never
    duration_ms     INTEGER NOT NULL,
    added           INTEGER NOT NULL,
    changed         INTEGER NOT NULL,
    removed         INTEGER NOT NULL,
    skipped         INTEGER NOT NULL,
    last_error      TEXT NOT NULL,
    PRIMARY KEY (account_id, resource)
) WITHOUT ROWID;

-- Sessions, in the layout of scs's SQLite store.
CREATE TABLE sessions (
    token  TEXT PRIMARY KEY,
    data   BLOB NOT NULL,
    expiry REAL NOT NULL
);
CREATE INDEX sessions_expiry_idx ON sessions (expiry);
