-- Notifications (store.Notifications): the channels and rules made on the
-- /notifications page, the seq of the last fact decided, and what was
-- decided from the facts: the delivery queue and its log.

-- An account's channels and rules, sealed by the web layer before they
-- reach this table. No row: none made.
CREATE TABLE notification_settings (
    account_id INTEGER PRIMARY KEY,
    sealed     BLOB NOT NULL,
    updated_ms INTEGER NOT NULL
);

-- The seq of the last fact decided (DecidedThrough): one row, 0 before the
-- first decision. The transaction that records a decision moves it on and
-- deletes the facts up to it.
CREATE TABLE notification_cursor (
    one     INTEGER PRIMARY KEY CHECK (one = 1),
    through INTEGER NOT NULL
);
INSERT INTO notification_cursor (one, through) VALUES (1, 0);

-- One notification decided for one channel of an account. The id is its
-- idempotency key: a decision made again adds nothing.
CREATE TABLE notifications (
    id              TEXT PRIMARY KEY,
    account_id      INTEGER NOT NULL,
    rule            TEXT NOT NULL,
    channel         TEXT NOT NULL,
    kind            TEXT NOT NULL, -- a notify.Kind, or digest
    subject         TEXT NOT NULL, -- an alert's id, a device's MAC; '' for a digest
    state           TEXT NOT NULL, -- waiting, pending, sent, failed, dropped, cancelled, digested
    created_ms      INTEGER NOT NULL,
    due_ms          INTEGER NOT NULL,
    attempts        INTEGER NOT NULL,
    last_attempt_ms INTEGER NOT NULL, -- 0 before the first
    sent_ms         INTEGER NOT NULL, -- 0 until sent
    note            TEXT NOT NULL
);
-- The queue: the notifications still to be checked or sent, by when they
-- are due. The finished ones, most of the table, are not in it.
CREATE INDEX notifications_due ON notifications (due_ms, id) WHERE state IN ('waiting', 'pending');
-- The log of a channel, newest first; an account's open digest.
CREATE INDEX notifications_log ON notifications (account_id, channel, created_ms, id);

-- What a notification is about, as the worker encoded it: one item, or a
-- digest's several, in the order they were added.
CREATE TABLE notification_items (
    notification_id TEXT NOT NULL,
    position        INTEGER NOT NULL, -- from 0
    item            BLOB NOT NULL,
    PRIMARY KEY (notification_id, position)
) WITHOUT ROWID;
