-- The devices people sign in from (see docs/people.md): a browser is given
-- a random cookie at its first sign-in, of which only the hash is kept
-- here, with the person. A sign-in from a device not in this table is
-- recorded in the account's audit log (signin.new_device). The tables of
-- store/sqlite's 012_signin_devices.sql.
CREATE TABLE signin_devices (
    person_id   text COLLATE "C" NOT NULL,
    device_hash bytea NOT NULL,
    first_seen  timestamptz NOT NULL,
    last_seen   timestamptz NOT NULL,
    PRIMARY KEY (person_id, device_hash)
);
CREATE INDEX signin_devices_seen ON signin_devices (person_id, last_seen);

-- The enrolled device a session signs in, '' for none: revoking the
-- device ends its sessions.
ALTER TABLE session_people ADD COLUMN device_id text COLLATE "C" NOT NULL DEFAULT '';
CREATE INDEX session_people_device ON session_people (device_id) WHERE device_id != '';
