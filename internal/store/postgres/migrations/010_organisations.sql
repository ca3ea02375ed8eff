-- Organisations (see docs/portfolio.md): a service company groups the
-- accounts of its clients; its people have a role in it that applies to
-- all of its accounts or to some. The tables of store/sqlite's
-- 014_organisations.sql.
CREATE TABLE organisations (
    id      text COLLATE "C" PRIMARY KEY,
    name    text NOT NULL,
    created timestamptz NOT NULL
);

-- The accounts of each organisation: an account belongs to one at most.
CREATE TABLE organisation_accounts (
    account_id      bigint PRIMARY KEY,
    organisation_id text COLLATE "C" NOT NULL,
    client          text NOT NULL, -- the client's name shown; '' for the account's
    region          text NOT NULL, -- a tag; '' for none
    added           timestamptz NOT NULL
);
CREATE INDEX organisation_accounts_organisation ON organisation_accounts (organisation_id);

-- A person's role in an organisation: a person belongs to one at most.
CREATE TABLE organisation_people (
    person_id       text COLLATE "C" PRIMARY KEY,
    organisation_id text COLLATE "C" NOT NULL,
    role            text NOT NULL, -- viewer, staff, supervisor, admin, owner
    accounts        text NOT NULL, -- a JSON array of account ids; [] for every account
    created         timestamptz NOT NULL
);
CREATE INDEX organisation_people_organisation ON organisation_people (organisation_id);
