-- What the washrooms' visitors say, and who was there (docs/visitors.md).
--
-- A room's code: the token its QR code and NFC tag carry, of which the
-- hash is looked up and the token kept sealed with the server's key, for
-- the floor's sheet to print again. A room has one current code
-- (replaced = 0); a replaced one is kept, to say so when it is opened.
CREATE TABLE room_codes (
    token_hash BLOB PRIMARY KEY,
    account_id INTEGER NOT NULL,
    room_id    TEXT NOT NULL,
    sealed     BLOB NOT NULL,
    created    INTEGER NOT NULL,
    replaced   INTEGER NOT NULL
) WITHOUT ROWID;
CREATE UNIQUE INDEX room_codes_current ON room_codes (account_id, room_id) WHERE replaced = 0;
CREATE INDEX room_codes_room ON room_codes (account_id, room_id, replaced);
-- "I am here": a person opened a room's code, signed in. One a person,
-- room and minute: a double scan counts once.
CREATE TABLE presence_scans (
    id         INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL,
    room_id    TEXT NOT NULL,
    person_id  TEXT NOT NULL,
    name       TEXT NOT NULL,
    at         INTEGER NOT NULL,
    minute     INTEGER NOT NULL
);
CREATE UNIQUE INDEX presence_scans_once ON presence_scans (account_id, room_id, person_id, minute);
CREATE INDEX presence_scans_at ON presence_scans (account_id, at);
-- A visitor's report: what is wrong (kind, and a short text for
-- "other"), a rating (0 for none, 1 to 5), when; and, once closed, when
-- and by what ('done', 'service', 'person'). Nothing about the visitor.
CREATE TABLE visitor_reports (
    id         INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL,
    room_id    TEXT NOT NULL,
    kind       TEXT NOT NULL,
    text       TEXT NOT NULL,
    rating     INTEGER NOT NULL,
    created    INTEGER NOT NULL,
    closed     INTEGER NOT NULL,
    closed_by  TEXT NOT NULL
);
CREATE INDEX visitor_reports_room ON visitor_reports (account_id, room_id, created);
CREATE INDEX visitor_reports_created ON visitor_reports (account_id, created);
