-- Notifications (store.Notifications): the channels and rules made on the
-- /notifications page, the seq of the last fact decided, and what was
-- decided from the facts: the delivery queue and its log.

-- An account's channels and rules, sealed by the web layer before they
-- reach this table. No row: none made.
CREATE TABLE notification_settings (
    account_id bigint PRIMARY KEY,
    sealed     bytea NOT NULL,
    updated    timestamptz NOT NULL
);

-- The seq of the last fact decided (DecidedThrough): one row, 0 before the
-- first decision. The transaction that records a decision moves it on, and
-- only on, and deletes the facts up to it.
CREATE TABLE notification_cursor (
    one     boolean PRIMARY KEY DEFAULT true CHECK (one),
    through bigint NOT NULL
);
INSERT INTO notification_cursor (through) VALUES (0);

-- One notification decided for one channel of an account. The id is its
-- idempotency key: a decision made again adds nothing.
CREATE TABLE notifications (
    id           text COLLATE "C" PRIMARY KEY,
    account_id   bigint NOT NULL,
    rule         text COLLATE "C" NOT NULL,
    channel      text COLLATE "C" NOT NULL,
    kind         text NOT NULL,             -- a notify.Kind, or digest
    subject      text COLLATE "C" NOT NULL, -- an alert's id, a device's MAC; '' for a digest
    state        text NOT NULL,             -- waiting, pending, sent, failed, dropped, cancelled, digested
    created      timestamptz NOT NULL,
    due          timestamptz NOT NULL,
    attempts     integer NOT NULL,
    last_attempt timestamptz, -- NULL before the first
    sent         timestamptz, -- NULL until sent
    note         text NOT NULL
);
-- The queue: the notifications still to be checked or sent, by when they
-- are due. The finished ones, most of the table, are not in it.
CREATE INDEX notifications_due ON notifications (due, id) WHERE state IN ('waiting', 'pending');
-- The log of a channel, newest first; an account's open digest.
CREATE INDEX notifications_log ON notifications (account_id, channel, created, id);

-- What a notification is about, as the worker encoded it: one item, or a
-- digest's several, in the order they were added.
CREATE TABLE notification_items (
    notification_id text COLLATE "C" NOT NULL,
    position        integer NOT NULL, -- from 0
    item            bytea NOT NULL,
    PRIMARY KEY (notification_id, position)
);
