-- "Done" reports: what a person says they did about an open alert from
-- "My work" (docs/my-work.md): refilled, batteries changed, fault
-- cleared, or could not fix and why. Each is kept under the idempotency
-- key of the form it came from, unique in the account: a form sent twice
-- is one report.
CREATE TABLE done_reports (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id bigint NOT NULL,
    alert_id   text COLLATE "C" NOT NULL,
    person_id  text COLLATE "C" NOT NULL,
    name       text NOT NULL,
    outcome    text NOT NULL,
    reason     text NOT NULL,
    done       timestamptz NOT NULL,
    action_key text COLLATE "C" NOT NULL
);
CREATE UNIQUE INDEX done_reports_key ON done_reports (account_id, action_key);
-- An alert's reports, newest last.
CREATE INDEX done_reports_alert ON done_reports (account_id, alert_id, done);
-- The idempotency keys of the other actions of "My work" ("I'm on it"):
-- a key seen is an action done, and the same key again does nothing.
-- Keys older than a week are let go (a phone keeps its actions less).
CREATE TABLE action_keys (
    account_id bigint NOT NULL,
    action_key text COLLATE "C" NOT NULL,
    used       timestamptz NOT NULL,
    PRIMARY KEY (account_id, action_key)
);
CREATE INDEX action_keys_used ON action_keys (used);
