-- Portfolio wall screens (see docs/wall-screens.md): a screen showing the
-- clients of an organisation, one line each. Its link works as an account
-- screen's (only the token's hash is kept); it keeps no credentials, since
-- it reads the accounts the organisation's connections keep current, as
-- its maker sees them.
CREATE TABLE portfolio_screens (
    id              TEXT PRIMARY KEY,
    organisation_id TEXT NOT NULL,
    maker_id        TEXT NOT NULL, -- the person whose view it shows
    name            TEXT NOT NULL,
    accounts        TEXT NOT NULL, -- a JSON array of account ids; [] for every account
    page_seconds    INTEGER NOT NULL,
    dim_from        INTEGER NOT NULL, -- minutes after midnight; -1 for no dimming
    dim_to          INTEGER NOT NULL,
    contact         TEXT NOT NULL,
    token_hash      BLOB NOT NULL UNIQUE,
    created         INTEGER NOT NULL,
    last_seen       INTEGER NOT NULL, -- 0: never opened
    revoked         INTEGER NOT NULL  -- 0: active
) WITHOUT ROWID;
CREATE INDEX portfolio_screens_organisation ON portfolio_screens (organisation_id);
