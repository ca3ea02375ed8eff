-- People, not shared keys (see docs/people.md): accounts connected once,
-- people with a role in each account, and their ways in. Washboard keeps
-- no password: only hashes of the tokens it hands out, and passkeys'
-- public keys. The tables of store/sqlite's 011_people.sql.

-- Accounts connected to Washboard: the service's credentials, sealed by
-- the people service (internal/people) bound to the account, so that the
-- account syncs with nobody signed in.
CREATE TABLE account_connections (
    account_id        bigint PRIMARY KEY,
    credentials       bytea NOT NULL,
    connected_by      text COLLATE "C" NOT NULL, -- the person; '' when an upgrade connected it
    connected_by_name text NOT NULL,
    connected         timestamptz NOT NULL,
    replaced          timestamptz -- NULL: never
);

-- People. An e-mail address is unique whatever its case (email_key is it
-- in lower case, NULL when none); so is an identity at an OpenID provider
-- (NULL when none).
CREATE TABLE people (
    id           text COLLATE "C" PRIMARY KEY,
    name         text NOT NULL,
    email        text NOT NULL, -- as given; '' when none
    email_key    text COLLATE "C" UNIQUE,
    oidc_issuer  text COLLATE "C",
    oidc_subject text COLLATE "C",
    created      timestamptz NOT NULL,
    last_seen    timestamptz, -- NULL: never
    UNIQUE (oidc_issuer, oidc_subject)
);

-- A person's role in an account, limited to some buildings or not.
CREATE TABLE memberships (
    account_id  bigint NOT NULL,
    person_id   text COLLATE "C" NOT NULL,
    role        text NOT NULL,    -- viewer, staff, supervisor, admin, owner
    buildings   text NOT NULL,    -- a JSON array of building ids; [] for every building
    from_groups boolean NOT NULL, -- made by single sign-on from the provider's groups
    created     timestamptz NOT NULL,
    PRIMARY KEY (account_id, person_id)
);
CREATE INDEX memberships_person ON memberships (person_id);

-- Invitations: only the hash of a link's token is kept. Kept once used,
-- withdrawn or expired, for the record, until the next invitation of the
-- account removes those older than 30 days.
CREATE TABLE invitations (
    id           text COLLATE "C" PRIMARY KEY,
    account_id   bigint NOT NULL,
    token_hash   bytea NOT NULL UNIQUE,
    role         text NOT NULL,
    buildings    text NOT NULL, -- as memberships.buildings
    email        text NOT NULL, -- '' for a link handed over
    made_by      text COLLATE "C" NOT NULL,
    made_by_name text NOT NULL,
    created      timestamptz NOT NULL,
    expires      timestamptz NOT NULL,
    used         timestamptz, -- NULL until accepted
    used_by      text COLLATE "C" NOT NULL,
    withdrawn    timestamptz  -- NULL unless withdrawn
);
CREATE INDEX invitations_account ON invitations (account_id, created);

-- One-time sign-in links sent by e-mail: only the hash of their token is
-- kept. A link asked for an address that is nobody's is kept too (with
-- person_id ''), opens nothing, and counts against the limits like any
-- other: the limits say nothing of whose an address is.
CREATE TABLE signin_links (
    token_hash bytea PRIMARY KEY,
    email_key  text COLLATE "C" NOT NULL,
    person_id  text COLLATE "C" NOT NULL,
    created    timestamptz NOT NULL,
    expires    timestamptz NOT NULL,
    used       timestamptz -- NULL until used
);
CREATE INDEX signin_links_email ON signin_links (email_key, created);
CREATE INDEX signin_links_created ON signin_links (created);

-- Passkeys: the WebAuthn library's record of each (its public key, flags
-- and authenticator), by credential id.
CREATE TABLE passkeys (
    credential_id bytea PRIMARY KEY,
    person_id     text COLLATE "C" NOT NULL,
    name          text NOT NULL,
    credential    bytea NOT NULL,
    sign_count    bigint NOT NULL,
    created       timestamptz NOT NULL,
    last_used     timestamptz -- NULL: never
);
CREATE INDEX passkeys_person ON passkeys (person_id);

-- Devices enrolled for a person in an account: only the hash of the
-- device's token is kept.
CREATE TABLE enrolled_devices (
    id           text COLLATE "C" PRIMARY KEY,
    account_id   bigint NOT NULL,
    person_id    text COLLATE "C" NOT NULL,
    token_hash   bytea NOT NULL UNIQUE,
    name         text NOT NULL,
    made_by      text COLLATE "C" NOT NULL,
    made_by_name text NOT NULL,
    created      timestamptz NOT NULL,
    last_seen    timestamptz, -- NULL: never
    revoked      timestamptz  -- NULL: active
);
CREATE INDEX enrolled_devices_account ON enrolled_devices (account_id);
CREATE INDEX enrolled_devices_person ON enrolled_devices (person_id);

-- Each account's audit log: who did what, to what, when; the actor's name
-- as it was.
CREATE TABLE audit_log (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id bigint NOT NULL,
    at         timestamptz NOT NULL,
    actor_id   text COLLATE "C" NOT NULL, -- '' for Washboard itself
    actor_name text NOT NULL,
    action     text COLLATE "C" NOT NULL,
    subject    text NOT NULL
);
CREATE INDEX audit_log_account ON audit_log (account_id, at, id);
CREATE INDEX audit_log_actor ON audit_log (account_id, actor_id, at, id);
CREATE INDEX audit_log_at ON audit_log (at);

-- Whose the signed-in sessions are: a session's token hash (as the
-- sessions table keys it), its person and account, so that every session
-- of a person, or of a person in one account, can be ended at once. A row
-- goes with its session: signed out, renewed, or expired.
CREATE TABLE session_people (
    token      text PRIMARY KEY,
    person_id  text COLLATE "C" NOT NULL,
    account_id bigint NOT NULL
);
CREATE INDEX session_people_person ON session_people (person_id, account_id);
CREATE INDEX session_people_account ON session_people (account_id);
