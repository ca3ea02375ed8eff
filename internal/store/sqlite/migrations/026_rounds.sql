-- Rounds from need (docs/rounds.md): the rooms of a part of an account a
-- person or team visits, in walking order, with what to do in each.
-- Rounds made longer ago than the alerts' history are let go, and an
-- account keeps at most store.RoundsKept of them.
CREATE TABLE rounds (
    account_id       INTEGER NOT NULL,
    id               TEXT NOT NULL,
    buildings        TEXT NOT NULL, -- a JSON array of whole buildings' ids
    floors           TEXT NOT NULL, -- a JSON array of floors' ids
    person_id        TEXT NOT NULL, -- '' for a team's round
    team             TEXT NOT NULL,
    name             TEXT NOT NULL, -- the person's name when it was made
    made_by          TEXT NOT NULL, -- a person's id, or 'schedule'
    made_at          INTEGER NOT NULL,
    limit_rooms      INTEGER NOT NULL, -- 0: no limit
    limit_minutes    INTEGER NOT NULL, -- 0: no limit
    per_room         INTEGER NOT NULL, -- seconds
    per_floor_change INTEGER NOT NULL, -- seconds
    ended            INTEGER NOT NULL, -- 0: running
    PRIMARY KEY (account_id, id)
) WITHOUT ROWID;
CREATE INDEX rounds_made ON rounds (account_id, made_at);
-- The buildings a round covers (its whole buildings and its floors'), for
-- a person limited to some buildings.
CREATE TABLE round_buildings (
    account_id  INTEGER NOT NULL,
    round_id    TEXT NOT NULL,
    building_id TEXT NOT NULL,
    PRIMARY KEY (account_id, round_id, building_id)
) WITHOUT ROWID;
-- A round's rooms in walking order, and once it ended (for_next = 1) what
-- it left for the next round.
CREATE TABLE round_stops (
    account_id INTEGER NOT NULL,
    round_id   TEXT NOT NULL,
    position   INTEGER NOT NULL,
    for_next   INTEGER NOT NULL,
    room_id    TEXT NOT NULL,
    needs      TEXT NOT NULL, -- a JSON array of domain.RoundNeed
    status     TEXT NOT NULL, -- todo, done, skipped
    reason     TEXT NOT NULL,
    person_id  TEXT NOT NULL, -- who ticked it
    name       TEXT NOT NULL,
    at         INTEGER NOT NULL, -- 0: not ticked
    PRIMARY KEY (account_id, round_id, position)
) WITHOUT ROWID;
-- A wall screen may show the rounds running in its place, with the rooms
-- they have left (docs/wall-screens.md).
ALTER TABLE screens ADD COLUMN show_rounds INTEGER NOT NULL DEFAULT 0;
-- Schedules that make a round at each start of a shift of the account,
-- and the shift starts each one took: a start is taken once, by one
-- replica, which makes its round.
CREATE TABLE round_schedules (
    account_id       INTEGER NOT NULL,
    id               TEXT NOT NULL,
    buildings        TEXT NOT NULL, -- a JSON array
    floors           TEXT NOT NULL, -- a JSON array
    person_id        TEXT NOT NULL,
    team             TEXT NOT NULL,
    name             TEXT NOT NULL,
    limit_rooms      INTEGER NOT NULL,
    limit_minutes    INTEGER NOT NULL,
    per_room         INTEGER NOT NULL, -- seconds
    per_floor_change INTEGER NOT NULL, -- seconds
    made_by          TEXT NOT NULL,
    created          INTEGER NOT NULL,
    PRIMARY KEY (account_id, id)
) WITHOUT ROWID;
CREATE TABLE round_schedule_runs (
    account_id  INTEGER NOT NULL,
    schedule_id TEXT NOT NULL,
    shift_start INTEGER NOT NULL,
    PRIMARY KEY (account_id, schedule_id, shift_start)
) WITHOUT ROWID;
CREATE INDEX round_schedule_runs_start ON round_schedule_runs (shift_start);
