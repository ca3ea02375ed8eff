-- Floor plans (docs/floor-plans.md): a floor's image, at most 10 MB, of
-- width × height pixels, who put it there and when; review says that it
-- replaced a plan of another size, and that its placements were scaled
-- to it and wait to be looked at.
CREATE TABLE floor_plans (
    account_id   bigint NOT NULL,
    floor_id     text COLLATE "C" NOT NULL,
    content_type text NOT NULL,
    body         bytea NOT NULL,
    width        integer NOT NULL,
    height       integer NOT NULL,
    updated      timestamptz NOT NULL,
    updated_by   text COLLATE "C" NOT NULL,
    review       boolean NOT NULL,
    PRIMARY KEY (account_id, floor_id)
);
-- Where the floor's locations (kind 'location', one point) and rooms
-- (kind 'room', the corners of a polygon) are on its plan: points are
-- "x,y" pairs in the plan's pixels, separated by spaces.
CREATE TABLE floor_placements (
    account_id bigint NOT NULL,
    floor_id   text COLLATE "C" NOT NULL,
    kind       text COLLATE "C" NOT NULL,
    item_id    text COLLATE "C" NOT NULL,
    points     text NOT NULL,
    PRIMARY KEY (account_id, floor_id, kind, item_id)
);
