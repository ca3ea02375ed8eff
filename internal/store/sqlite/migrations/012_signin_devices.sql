-- The devices people sign in from (see docs/people.md): a browser is given
-- a random cookie at its first sign-in, of which only the hash is kept
-- here, with the person. A sign-in from a device not in this table is
-- recorded in the account's audit log (signin.new_device).
CREATE TABLE signin_devices (
    person_id   TEXT NOT NULL,
    device_hash BLOB NOT NULL,
    first_seen  INTEGER NOT NULL,
    last_seen   INTEGER NOT NULL,
    PRIMARY KEY (person_id, device_hash)
) WITHOUT ROWID;
CREATE INDEX signin_devices_seen ON signin_devices (person_id, last_seen);

-- The enrolled device a session signs in, '' for none: revoking the
-- device ends its sessions.
ALTER TABLE session_people ADD COLUMN device_id TEXT NOT NULL DEFAULT '';
CREATE INDEX session_people_device ON session_people (device_id) WHERE device_id != '';
