-- Rounds from need (docs/rounds.md): the rooms of a part of an account a
-- person or team visits, in walking order, with what to do in each.
-- Rounds made longer ago than the alerts' history are let go, and an
-- account keeps at most store.RoundsKept of them.
CREATE TABLE rounds (
    account_id       bigint NOT NULL,
    id               text COLLATE "C" NOT NULL,
    buildings        text NOT NULL, -- a JSON array of whole buildings' ids
    floors           text NOT NULL, -- a JSON array of floors' ids
    person_id        text COLLATE "C" NOT NULL, -- '' for a team's round
    team             text NOT NULL,
    name             text NOT NULL, -- the person's name when it was made
    made_by          text COLLATE "C" NOT NULL, -- a person's id, or 'schedule'
    made_at          timestamptz NOT NULL,
    limit_rooms      integer NOT NULL, -- 0: no limit
    limit_minutes    integer NOT NULL, -- 0: no limit
    per_room         integer NOT NULL, -- seconds
    per_floor_change integer NOT NULL, -- seconds
    ended            timestamptz, -- NULL: running
    PRIMARY KEY (account_id, id)
);
CREATE INDEX rounds_made ON rounds (account_id, made_at);
-- The buildings a round covers (its whole buildings and its floors'), for
-- a person limited to some buildings.
CREATE TABLE round_buildings (
    account_id  bigint NOT NULL,
    round_id    text COLLATE "C" NOT NULL,
    building_id text COLLATE "C" NOT NULL,
    PRIMARY KEY (account_id, round_id, building_id)
);
-- A round's rooms in walking order, and once it ended (for_next) what it
-- left for the next round.
CREATE TABLE round_stops (
    account_id bigint NOT NULL,
    round_id   text COLLATE "C" NOT NULL,
    position   integer NOT NULL,
    for_next   boolean NOT NULL,
    room_id    text COLLATE "C" NOT NULL,
    needs      text NOT NULL, -- a JSON array of domain.RoundNeed
    status     text NOT NULL, -- todo, done, skipped
    reason     text NOT NULL,
    person_id  text COLLATE "C" NOT NULL, -- who ticked it
    name       text NOT NULL,
    at         timestamptz, -- NULL: not ticked
    PRIMARY KEY (account_id, round_id, position)
);
-- A wall screen may show the rounds running in its place, with the rooms
-- they have left (docs/wall-screens.md).
ALTER TABLE screens ADD COLUMN show_rounds boolean NOT NULL DEFAULT false;
-- Schedules that make a round at each start of a shift of the account,
-- and the shift starts each one took: a start is taken once, by one
-- replica, which makes its round.
CREATE TABLE round_schedules (
    account_id       bigint NOT NULL,
    id               text COLLATE "C" NOT NULL,
    buildings        text NOT NULL, -- a JSON array
    floors           text NOT NULL, -- a JSON array
    person_id        text COLLATE "C" NOT NULL,
    team             text NOT NULL,
    name             text NOT NULL,
    limit_rooms      integer NOT NULL,
    limit_minutes    integer NOT NULL,
    per_room         integer NOT NULL, -- seconds
    per_floor_change integer NOT NULL, -- seconds
    made_by          text COLLATE "C" NOT NULL,
    created          timestamptz NOT NULL,
    PRIMARY KEY (account_id, id)
);
CREATE TABLE round_schedule_runs (
    account_id  bigint NOT NULL,
    schedule_id text COLLATE "C" NOT NULL,
    shift_start timestamptz NOT NULL,
    PRIMARY KEY (account_id, schedule_id, shift_start)
);
CREATE INDEX round_schedule_runs_start ON round_schedule_runs (shift_start);
