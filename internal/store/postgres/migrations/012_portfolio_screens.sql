-- Portfolio wall screens (see docs/wall-screens.md): the table of
-- store/sqlite's 016_portfolio_screens.sql.
CREATE TABLE portfolio_screens (
    id              text COLLATE "C" PRIMARY KEY,
    organisation_id text COLLATE "C" NOT NULL,
    maker_id        text COLLATE "C" NOT NULL, -- the person whose view it shows
    name            text NOT NULL,
    accounts        text NOT NULL, -- a JSON array of account ids; [] for every account
    page_seconds    integer NOT NULL,
    dim_from        integer NOT NULL, -- minutes after midnight; -1 for no dimming
    dim_to          integer NOT NULL,
    contact         text NOT NULL,
    token_hash      bytea NOT NULL UNIQUE,
    created         timestamptz NOT NULL,
    last_seen       timestamptz, -- NULL: never opened
    revoked         timestamptz  -- NULL: active
);
CREATE INDEX portfolio_screens_organisation ON portfolio_screens (organisation_id);
