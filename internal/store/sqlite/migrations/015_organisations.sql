-- Organisations (see docs/portfolio.md): a service company groups the
-- accounts of its clients; its people have a role in it that applies to
-- all of its accounts or to some.
CREATE TABLE organisations (
    id      TEXT PRIMARY KEY,
    name    TEXT NOT NULL,
    created INTEGER NOT NULL
) WITHOUT ROWID;

-- The accounts of each organisation: an account belongs to one at most.
CREATE TABLE organisation_accounts (
    account_id      INTEGER PRIMARY KEY,
    organisation_id TEXT NOT NULL,
    client          TEXT NOT NULL, -- the client's name shown; '' for the account's
    region          TEXT NOT NULL, -- a tag; '' for none
    added           INTEGER NOT NULL
);
CREATE INDEX organisation_accounts_organisation ON organisation_accounts (organisation_id);

-- A person's role in an organisation: a person belongs to one at most.
CREATE TABLE organisation_people (
    person_id       TEXT PRIMARY KEY,
    organisation_id TEXT NOT NULL,
    role            TEXT NOT NULL, -- viewer, staff, supervisor, admin, owner
    accounts        TEXT NOT NULL, -- a JSON array of account ids; [] for every account
    created         INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX organisation_people_organisation ON organisation_people (organisation_id);
