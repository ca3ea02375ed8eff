-- The notifications' outbox: what happened to an account's alerts and
-- devices that a notification may be about (store.Fact), recorded by the
-- transaction that wrote it. A reader reads the facts by seq and deletes
-- those it decided. AUTOINCREMENT: a seq is never given twice, not even
-- once the facts up to it are deleted, so that a reader that has read up
-- to a seq misses nothing recorded later. The one writer connection
-- commits in the order it gives them.
CREATE TABLE facts (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id  INTEGER NOT NULL,
    kind        TEXT NOT NULL, -- alert.opened, alert.overdue, product.out, battery.low, device.offline
    alert_id    TEXT NOT NULL, -- '' for the device kinds
    alert_type  TEXT NOT NULL, -- '' for the device kinds
    mac         TEXT NOT NULL, -- the device; an alert's first MAC, or ''
    location_id TEXT NOT NULL,
    at_ms       INTEGER NOT NULL
);

-- The baselines: when the account's first refresh of its alerts, and of
-- its devices, committed; 0 until then. That refresh records no facts,
-- the writes after it record what they change.
ALTER TABLE accounts ADD COLUMN alerts_baseline_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN devices_baseline_ms INTEGER NOT NULL DEFAULT 0;

-- Accounts refreshed before facts were recorded have their baselines: the
-- cache holds some of their rows, or a refresh of them succeeded.
UPDATE accounts SET alerts_baseline_ms = unixepoch() * 1000
WHERE EXISTS (SELECT 1 FROM alerts WHERE account_id = accounts.key)
    OR EXISTS (SELECT 1 FROM sync_status WHERE account_id = accounts.key AND resource = 'alerts' AND last_success_ms > 0);
UPDATE accounts SET devices_baseline_ms = unixepoch() * 1000
WHERE EXISTS (SELECT 1 FROM devices WHERE account_id = accounts.key)
    OR EXISTS (SELECT 1 FROM sync_status WHERE account_id = accounts.key AND resource = 'devices' AND last_success_ms > 0);
