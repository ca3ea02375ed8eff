-- Claims: who said "I'm on it" for an open alert. Every claim is kept,
-- active and ended, for the record of who was on what; an alert has at
-- most one active claim. A claim ends when it is released, handed to a new
-- claim, or when its alert closes or leaves the cache (ended_by says
-- which): the refresh that closes or removes the alert ends it.
CREATE TABLE claims (
    id         INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL,
    alert_id   TEXT NOT NULL,
    name       TEXT NOT NULL,
    note       TEXT NOT NULL,
    claimed_ms INTEGER NOT NULL,
    ended_ms   INTEGER, -- NULL while active
    ended_by   TEXT,    -- released, handed, closed; NULL while active
    CHECK ((ended_ms IS NULL) = (ended_by IS NULL))
);
-- At most one active claim per alert.
CREATE UNIQUE INDEX claims_active ON claims (account_id, alert_id) WHERE ended_ms IS NULL;
-- An account's active claims (NULL comes first) and those ended after a
-- time: a refresh reads the first, a span of time both, and neither reads
-- the whole history.
CREATE INDEX claims_ended ON claims (account_id, ended_ms);
