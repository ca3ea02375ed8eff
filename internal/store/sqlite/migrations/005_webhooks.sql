-- Receivers of the service's events (webhooks): one per address Washboard
-- gave out. The signing secret is sealed by the caller before it reaches
-- this table; the previous one, after a rotation, is accepted until
-- previous_until_ms.
CREATE TABLE webhook_receivers (
    id                TEXT PRIMARY KEY,
    account_id        INTEGER NOT NULL,
    secret            BLOB NOT NULL,
    previous_secret   BLOB,
    previous_until_ms INTEGER NOT NULL DEFAULT 0,
    created_ms        INTEGER NOT NULL,
    rotated_ms        INTEGER NOT NULL DEFAULT 0,
    last_event_ms     INTEGER NOT NULL DEFAULT 0,
    accepted          INTEGER NOT NULL DEFAULT 0,
    rejected          INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE INDEX webhook_receivers_account ON webhook_receivers (account_id);
