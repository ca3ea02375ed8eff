-- Claims: who said "I'm on it" for an open alert. Every claim is kept,
-- active and ended, for the record of who was on what; an alert has at
-- most one active claim. A claim ends when it is released, handed to a new
-- claim, or when its alert closes or leaves the cache (ended_by says
-- which): the refresh that closes or removes the alert ends it.
CREATE TABLE claims (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id bigint NOT NULL,
    alert_id   text COLLATE "C" NOT NULL,
    name       text NOT NULL,
    note       text NOT NULL,
    claimed    timestamptz NOT NULL,
    ended      timestamptz, -- NULL while active
    ended_by   text,        -- released, handed, closed; NULL while active
    CHECK ((ended IS NULL) = (ended_by IS NULL))
);
-- At most one active claim per alert; an account's active claims, which a
-- refresh reads.
CREATE UNIQUE INDEX claims_active ON claims (account_id, alert_id) WHERE ended IS NULL;
-- The claims ended after a time: a span of time reads those, with the
-- active ones, never the whole history.
CREATE INDEX claims_ended ON claims (account_id, ended);
