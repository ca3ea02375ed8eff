-- A wall screen's language: the columns of store/sqlite's 022_screen_language.sql.
ALTER TABLE screens ADD COLUMN language text COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE portfolio_screens ADD COLUMN language text COLLATE "C" NOT NULL DEFAULT '';
