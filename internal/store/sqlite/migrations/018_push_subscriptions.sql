-- Web Push subscriptions (see docs/notifications.md, "Push to phones"): a
-- person's devices that receive pushes. The push service's address and the
-- device's keys are sealed with the server's key; endpoint_hash (a MAC of
-- the address) tells a device subscribed again from a new one.
CREATE TABLE push_subscriptions (
    id            TEXT PRIMARY KEY,
    person_id     TEXT NOT NULL,
    endpoint_hash BLOB NOT NULL,
    sealed        BLOB NOT NULL,
    device        TEXT NOT NULL, -- the device in words: "Firefox on Android"
    created       INTEGER NOT NULL,
    UNIQUE (person_id, endpoint_hash)
) WITHOUT ROWID;
CREATE INDEX push_subscriptions_person ON push_subscriptions (person_id, created);
