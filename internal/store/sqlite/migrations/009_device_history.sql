-- Each device's readings over time (store.History): one row per device
-- and UTC day in which a write recorded one, holding that day's readings
-- as store/readings encodes them. A write appends to the day's row.
CREATE TABLE device_history (
    account_id INTEGER NOT NULL,
    mac        TEXT NOT NULL,
    day        INTEGER NOT NULL, -- days since 1970-01-01, UTC
    readings   BLOB NOT NULL,
    PRIMARY KEY (account_id, mac, day)
) WITHOUT ROWID;

-- The sum of what a reading holds of each device (readings.Sum): a write
-- records a reading of a device whose sum it changes. 0 until the next
-- write, which records a reading of every device: the history starts
-- with it. That write rewrites every device once, to write its sum: a
-- hash of 0 is taken to match no content.
ALTER TABLE devices ADD COLUMN reading INTEGER NOT NULL DEFAULT 0;
UPDATE devices SET hash = 0;
