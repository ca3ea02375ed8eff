-- Wall screens. A screen is opened once with a link holding a random token;
-- only the token's hash is kept. The credentials it syncs with are sealed
-- by the web layer before they reach this table.
CREATE TABLE screens (
    id           TEXT PRIMARY KEY,
    account_id   INTEGER NOT NULL,
    name         TEXT NOT NULL,
    scope        TEXT NOT NULL, -- account, building, floor
    scope_id     TEXT NOT NULL, -- '' for the account
    healths      TEXT NOT NULL, -- health classes shown, comma-separated
    page_seconds INTEGER NOT NULL,
    dim_from     INTEGER NOT NULL, -- minutes after midnight; -1 for no dimming
    dim_to       INTEGER NOT NULL,
    contact      TEXT NOT NULL,
    token_hash   BLOB NOT NULL UNIQUE,
    credentials  BLOB NOT NULL,
    created_ms   INTEGER NOT NULL,
    last_seen_ms INTEGER NOT NULL, -- 0: never opened
    revoked_ms   INTEGER NOT NULL  -- 0: active
) WITHOUT ROWID;
CREATE INDEX screens_account ON screens (account_id);
