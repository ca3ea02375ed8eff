-- The cache on PostgreSQL: the tables of store/sqlite, in PostgreSQL's
-- types. Every row belongs to an account; every query names its account,
-- by the account's integer key, which keeps indexes small. Identifiers
-- compare byte by byte (COLLATE "C"), whatever the database's locale:
-- cheaper in indexes, and no language's order means anything for them.
-- Times are timestamptz; NULL is "never". Each cached row carries the
-- hash of its content, so that a refresh writes only what changed.

CREATE TABLE accounts (
    key     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id      text COLLATE "C" NOT NULL UNIQUE, -- the service's account_id
    name    text NOT NULL,        -- '' until the layout arrives
    updated timestamptz NOT NULL
);

CREATE TABLE buildings (
    account_id bigint NOT NULL,
    id         text COLLATE "C" NOT NULL,
    name       text NOT NULL,
    position   integer NOT NULL, -- order in the service's listing
    hash       bigint NOT NULL,
    PRIMARY KEY (account_id, id)
);

CREATE TABLE floors (
    account_id  bigint NOT NULL,
    id          text COLLATE "C" NOT NULL,
    building_id text COLLATE "C" NOT NULL,
    name        text NOT NULL,
    position    integer NOT NULL,
    hash        bigint NOT NULL,
    PRIMARY KEY (account_id, id)
);
CREATE INDEX floors_building ON floors (account_id, building_id);

CREATE TABLE rooms (
    account_id  bigint NOT NULL,
    id          text COLLATE "C" NOT NULL,
    floor_id    text COLLATE "C" NOT NULL,
    building_id text COLLATE "C" NOT NULL,
    name        text NOT NULL,
    position    integer NOT NULL,
    hash        bigint NOT NULL,
    PRIMARY KEY (account_id, id)
);
CREATE INDEX rooms_floor ON rooms (account_id, floor_id);

CREATE TABLE locations (
    account_id  bigint NOT NULL,
    id          text COLLATE "C" NOT NULL,
    room_id     text COLLATE "C" NOT NULL,
    floor_id    text COLLATE "C" NOT NULL,
    building_id text COLLATE "C" NOT NULL,
    name        text NOT NULL,
    type        text NOT NULL,
    position    integer NOT NULL,
    hash        bigint NOT NULL,
    PRIMARY KEY (account_id, id)
);
CREATE INDEX locations_room ON locations (account_id, room_id);
CREATE INDEX locations_floor ON locations (account_id, floor_id);

CREATE TABLE devices (
    account_id    bigint NOT NULL,
    mac           text COLLATE "C" NOT NULL,
    location_id   text COLLATE "C" NOT NULL,
    position      text NOT NULL,
    generation    text NOT NULL,
    compartments  jsonb NOT NULL,
    battery       integer,      -- percent; NULL when not reported
    battery_state text NOT NULL,
    faults        jsonb NOT NULL,
    offline       boolean NOT NULL,
    last_seen     timestamptz,
    health        smallint NOT NULL, -- domain.Health of the device alone
    hash          bigint NOT NULL,
    PRIMARY KEY (account_id, mac)
);
CREATE INDEX devices_location ON devices (account_id, location_id);

CREATE TABLE alerts (
    account_id    bigint NOT NULL,
    id            text COLLATE "C" NOT NULL,
    -- The order the cache first listed the alerts in, the service's: it
    -- orders alerts created at the same time.
    seq           bigint GENERATED ALWAYS AS IDENTITY,
    location_id   text COLLATE "C" NOT NULL,
    macs          text[] NOT NULL,
    status        text NOT NULL,
    type          text NOT NULL,
    created       timestamptz NOT NULL,
    resolved      timestamptz,
    resolution    text NOT NULL,
    overdue       boolean NOT NULL,
    refill_count  integer NOT NULL,
    -- When the sync first saw the alert overdue: the service says whether
    -- an alert is overdue, not since when.
    overdue_since timestamptz,
    hash          bigint NOT NULL,
    PRIMARY KEY (account_id, id)
);
-- Open alerts, overdue first, then oldest: the few that pages list.
CREATE INDEX alerts_open ON alerts (account_id, overdue DESC, created) WHERE status = 'OPEN';
CREATE INDEX alerts_open_location ON alerts (account_id, location_id) WHERE status = 'OPEN';
-- The history by creation and by resolution. Alerts arrive about in the
-- order they were created: both take their entries at their ends, which
-- costs a refresh less than an index of every alert by status would.
CREATE INDEX alerts_created ON alerts (account_id, created);
CREATE INDEX alerts_resolved ON alerts (account_id, resolved);
CREATE INDEX alerts_overdue_unseen ON alerts (account_id) WHERE overdue AND overdue_since IS NULL;

-- Health counts and alert counts per account, building, floor and room,
-- kept current by every refresh so that pages read them without scanning.
CREATE TABLE rollups (
    account_id     bigint NOT NULL,
    scope          text COLLATE "C" NOT NULL, -- account, building, floor, room
    scope_id       text COLLATE "C" NOT NULL, -- the account's service id, or the building, floor or room id
    ok             integer NOT NULL,
    attention      integer NOT NULL,
    action         integer NOT NULL,
    offline        integer NOT NULL,
    open_alerts    integer NOT NULL,
    overdue_alerts integer NOT NULL,
    PRIMARY KEY (account_id, scope, scope_id)
);

CREATE TABLE sync_status (
    account_id   bigint NOT NULL,
    resource     text COLLATE "C" NOT NULL, -- metadata, devices, alerts
    last_attempt timestamptz NOT NULL,
    last_success timestamptz, -- NULL: never
    duration_ms  bigint NOT NULL,
    added        integer NOT NULL,
    changed      integer NOT NULL,
    removed      integer NOT NULL,
    skipped      integer NOT NULL,
    last_error   text NOT NULL,
    PRIMARY KEY (account_id, resource)
);

-- Sessions, in the layout of scs's PostgreSQL store (pgxstore), which
-- writes them.
CREATE TABLE sessions (
    token  text PRIMARY KEY,
    data   bytea NOT NULL,
    expiry timestamptz NOT NULL
);
CREATE INDEX sessions_expiry_idx ON sessions (expiry);

-- Wall screens. A screen is opened once with a link holding a random token;
-- only the token's hash is kept. The credentials it syncs with are sealed
-- by the web layer before they reach this table.
CREATE TABLE screens (
    id           text COLLATE "C" PRIMARY KEY,
    account_id   bigint NOT NULL,
    name         text NOT NULL,
    scope        text NOT NULL, -- account, building, floor
    scope_id     text COLLATE "C" NOT NULL, -- '' for the account
    healths      text NOT NULL, -- health classes shown, comma-separated
    page_seconds integer NOT NULL,
    dim_from     integer NOT NULL, -- minutes after midnight; -1 for no dimming
    dim_to       integer NOT NULL,
    contact      text NOT NULL,
    token_hash   bytea NOT NULL UNIQUE,
    credentials  bytea NOT NULL,
    created      timestamptz NOT NULL,
    last_seen    timestamptz, -- NULL: never opened
    revoked      timestamptz  -- NULL: active
);
CREATE INDEX screens_account ON screens (account_id);

-- An account's shift report settings: its shifts ("Early 06:00-14:00, ...")
-- and the IANA time zone they are in. No row: the defaults.
CREATE TABLE report_settings (
    account_id bigint PRIMARY KEY,
    shifts     text NOT NULL,
    zone       text NOT NULL,
    updated    timestamptz NOT NULL
);

-- Settings of the server itself, by name: the check value of the secret
-- key that sealed what the database holds.
CREATE TABLE settings (
    name  text COLLATE "C" PRIMARY KEY,
    value text NOT NULL
);

-- Receivers of the service's events (webhooks): one per address Washboard
-- gave out. The signing secret is sealed by the caller before it reaches
-- this table; the previous one, after a rotation, is accepted until
-- previous_until.
CREATE TABLE webhook_receivers (
    id              text COLLATE "C" PRIMARY KEY,
    account_id      bigint NOT NULL,
    secret          bytea NOT NULL,
    previous_secret bytea,
    previous_until  timestamptz,
    created         timestamptz NOT NULL,
    rotated         timestamptz, -- NULL: never rotated
    last_event      timestamptz, -- NULL: none yet
    accepted        bigint NOT NULL DEFAULT 0,
    rejected        bigint NOT NULL DEFAULT 0
);
CREATE INDEX webhook_receivers_account ON webhook_receivers (account_id);
