-- A wall screen's language (see docs/contributing.md, "Words on pages"):
-- the code of the language it shows its words in ("de"), chosen with the
-- screen, whatever the language of the browser it runs in; '' for the
-- screens made before, which speak English.
ALTER TABLE screens ADD COLUMN language TEXT NOT NULL DEFAULT '';
ALTER TABLE portfolio_screens ADD COLUMN language TEXT NOT NULL DEFAULT '';
