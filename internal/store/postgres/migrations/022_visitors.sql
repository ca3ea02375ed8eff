-- What the washrooms' visitors say, and who was there: the tables of
-- store/sqlite's 027_visitors.sql (docs/visitors.md).
CREATE TABLE room_codes (
    token_hash bytea PRIMARY KEY,
    account_id bigint NOT NULL,
    room_id    text COLLATE "C" NOT NULL,
    sealed     bytea NOT NULL,
    created    timestamptz NOT NULL,
    replaced   timestamptz
);
CREATE UNIQUE INDEX room_codes_current ON room_codes (account_id, room_id) WHERE replaced IS NULL;
CREATE INDEX room_codes_room ON room_codes (account_id, room_id, replaced);
CREATE TABLE presence_scans (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id bigint NOT NULL,
    room_id    text COLLATE "C" NOT NULL,
    person_id  text COLLATE "C" NOT NULL,
    name       text NOT NULL,
    at         timestamptz NOT NULL,
    minute     timestamptz NOT NULL
);
CREATE UNIQUE INDEX presence_scans_once ON presence_scans (account_id, room_id, person_id, minute);
CREATE INDEX presence_scans_at ON presence_scans (account_id, at);
CREATE TABLE visitor_reports (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id bigint NOT NULL,
    room_id    text COLLATE "C" NOT NULL,
    kind       text COLLATE "C" NOT NULL,
    text       text NOT NULL,
    rating     integer NOT NULL,
    created    timestamptz NOT NULL,
    closed     timestamptz,
    closed_by  text COLLATE "C" NOT NULL
);
CREATE INDEX visitor_reports_room ON visitor_reports (account_id, room_id, created);
CREATE INDEX visitor_reports_created ON visitor_reports (account_id, created);
