-- Floor plans (docs/floor-plans.md): a floor's image, at most 10 MB, of
-- width × height pixels, who put it there and when; review says that it
-- replaced a plan of another size, and that its placements were scaled
-- to it and wait to be looked at.
CREATE TABLE floor_plans (
    account_id   INTEGER NOT NULL,
    floor_id     TEXT NOT NULL,
    content_type TEXT NOT NULL,
    body         BLOB NOT NULL,
    width        INTEGER NOT NULL,
    height       INTEGER NOT NULL,
    updated      INTEGER NOT NULL,
    updated_by   TEXT NOT NULL,
    review       INTEGER NOT NULL,
    PRIMARY KEY (account_id, floor_id)
) WITHOUT ROWID;
-- Where the floor's locations (kind 'location', one point) and rooms
-- (kind 'room', the corners of a polygon) are on its plan: points are
-- "x,y" pairs in the plan's pixels, separated by spaces.
CREATE TABLE floor_placements (
    account_id INTEGER NOT NULL,
    floor_id   TEXT NOT NULL,
    kind       TEXT NOT NULL,
    item_id    TEXT NOT NULL,
    points     TEXT NOT NULL,
    PRIMARY KEY (account_id, floor_id, kind, item_id)
) WITHOUT ROWID;
