-- A person's language: the column of store/sqlite's 018_person_language.sql.
ALTER TABLE people ADD COLUMN language text COLLATE "C" NOT NULL DEFAULT '';
