-- The notifications' outbox: what happened to an account's alerts and
-- devices that a notification may be about (store.Fact), recorded by the
-- transaction that wrote it. A reader reads the facts by seq and deletes
-- those it decided.
--
-- A reader that has read up to a seq must miss nothing committed later,
-- so seqs must become visible in order. A sequence alone does not do it:
-- of two transactions, the one given the lower seq may commit last. The
-- writes that record facts take a transaction-scoped advisory lock just
-- before (see recordFacts), so that they are given seqs and commit one
-- after the other. The sequence caches no values (CACHE 1, the default),
-- which a session would hand out out of order.
CREATE TABLE facts (
    seq         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id  bigint NOT NULL,
    kind        text NOT NULL, -- alert.opened, alert.overdue, product.out, battery.low, device.offline
    alert_id    text COLLATE "C" NOT NULL, -- '' for the device kinds
    alert_type  text NOT NULL,             -- '' for the device kinds
    mac         text COLLATE "C" NOT NULL, -- the device; an alert's first MAC, or ''
    location_id text COLLATE "C" NOT NULL,
    at          timestamptz NOT NULL
);

-- The baselines: when the account's first refresh of its alerts, and of
-- its devices, committed; NULL until then. That refresh records no facts,
-- the writes after it record what they change.
ALTER TABLE accounts ADD COLUMN alerts_baseline timestamptz, ADD COLUMN devices_baseline timestamptz;

-- Accounts refreshed before facts were recorded have their baselines: the
-- cache holds some of their rows, or a refresh of them succeeded.
UPDATE accounts a SET alerts_baseline = now()
WHERE EXISTS (SELECT 1 FROM alerts WHERE account_id = a.key)
    OR EXISTS (SELECT 1 FROM sync_status WHERE account_id = a.key AND resource = 'alerts' AND last_success IS NOT NULL);
UPDATE accounts a SET devices_baseline = now()
WHERE EXISTS (SELECT 1 FROM devices WHERE account_id = a.key)
    OR EXISTS (SELECT 1 FROM sync_status WHERE account_id = a.key AND resource = 'devices' AND last_success IS NOT NULL);
