-- Web Push subscriptions: the table of store/sqlite's
-- 018_push_subscriptions.sql.
CREATE TABLE push_subscriptions (
    id            text COLLATE "C" PRIMARY KEY,
    person_id     text COLLATE "C" NOT NULL,
    endpoint_hash bytea NOT NULL,
    sealed        bytea NOT NULL,
    device        text NOT NULL, -- the device in words: "Firefox on Android"
    created       timestamptz NOT NULL,
    UNIQUE (person_id, endpoint_hash)
);
CREATE INDEX push_subscriptions_person ON push_subscriptions (person_id, created);
