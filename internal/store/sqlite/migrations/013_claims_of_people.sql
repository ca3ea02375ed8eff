-- Claims belong to people (see docs/people.md): a claim keeps the id of
-- the person it is in the name of, and name the name it had when made,
-- shown should the person ever be gone. A claim made before people existed,
-- or by a session of no person, keeps '' and the name typed.
ALTER TABLE claims ADD COLUMN person_id TEXT NOT NULL DEFAULT '';
