-- A person's language (see docs/contributing.md, "Words on pages"): the
-- code of the language they chose for Washboard's pages ("de"); '' when
-- they chose none, and their browser's decides.
ALTER TABLE people ADD COLUMN language TEXT NOT NULL DEFAULT '';
