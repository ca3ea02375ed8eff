-- "Done" reports: what a person says they did about an open alert from
-- "My work" (docs/my-work.md): refilled, batteries changed, fault
-- cleared, or could not fix and why. Each is kept under the idempotency
-- key of the form it came from, unique in the account: a form sent twice
-- is one report.
CREATE TABLE done_reports (
    id         INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL,
    alert_id   TEXT NOT NULL,
    person_id  TEXT NOT NULL,
    name       TEXT NOT NULL,
    outcome    TEXT NOT NULL,
    reason     TEXT NOT NULL,
    done       INTEGER NOT NULL,
    action_key TEXT NOT NULL
);
CREATE UNIQUE INDEX done_reports_key ON done_reports (account_id, action_key);
-- An alert's reports, newest last.
CREATE INDEX done_reports_alert ON done_reports (account_id, alert_id, done);
-- The idempotency keys of the other actions of "My work" ("I'm on it"):
-- a key seen is an action done, and the same key again does nothing.
-- Keys older than a week are let go (a phone keeps its actions less).
CREATE TABLE action_keys (
    account_id INTEGER NOT NULL,
    action_key TEXT NOT NULL,
    used       INTEGER NOT NULL,
    PRIMARY KEY (account_id, action_key)
) WITHOUT ROWID;
CREATE INDEX action_keys_used ON action_keys (used);
