-- A wall screen may show floor plans (docs/wall-screens.md): '' shows
-- none, 'busy' the floors of its place with something to do in turn, any
-- other value the plan of that one floor.
ALTER TABLE screens ADD COLUMN show_plans text NOT NULL DEFAULT '';
