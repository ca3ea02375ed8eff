-- People, not shared keys (see docs/people.md): accounts connected once,
-- people with a role in each account, and their ways in. Washboard keeps
-- no password: only hashes of the tokens it hands out, and passkeys'
-- public keys.

-- Accounts connected to Washboard: the service's credentials, sealed by
-- the people service (internal/people) bound to the account, so that the
-- account syncs with nobody signed in.
CREATE TABLE account_connections (
    account_id        INTEGER PRIMARY KEY,
    credentials       BLOB NOT NULL,
    connected_by      TEXT NOT NULL, -- the person; '' when an upgrade connected it
    connected_by_name TEXT NOT NULL,
    connected         INTEGER NOT NULL,
    replaced          INTEGER NOT NULL -- 0: never
);

-- People. An e-mail address is unique whatever its case (email_key is it
-- in lower case, NULL when none); so is an identity at an OpenID provider
-- (NULL when none).
CREATE TABLE people (
    id           TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    email        TEXT NOT NULL, -- as given; '' when none
    email_key    TEXT UNIQUE,
    oidc_issuer  TEXT,
    oidc_subject TEXT,
    created      INTEGER NOT NULL,
    last_seen    INTEGER NOT NULL, -- 0: never
    UNIQUE (oidc_issuer, oidc_subject)
) WITHOUT ROWID;

-- A person's role in an account, limited to some buildings or not.
CREATE TABLE memberships (
    account_id  INTEGER NOT NULL,
    person_id   TEXT NOT NULL,
    role        TEXT NOT NULL,    -- viewer, staff, supervisor, admin, owner
    buildings   TEXT NOT NULL,    -- a JSON array of building ids; [] for every building
    from_groups INTEGER NOT NULL, -- made by single sign-on from the provider's groups
    created     INTEGER NOT NULL,
    PRIMARY KEY (account_id, person_id)
) WITHOUT ROWID;
CREATE INDEX memberships_person ON memberships (person_id);

-- Invitations: only the hash of a link's token is kept. Kept once used,
-- withdrawn or expired, for the record, until the next invitation of the
-- account removes those older than 30 days.
CREATE TABLE invitations (
    id           TEXT PRIMARY KEY,
    account_id   INTEGER NOT NULL,
    token_hash   BLOB NOT NULL UNIQUE,
    role         TEXT NOT NULL,
    buildings    TEXT NOT NULL, -- as memberships.buildings
    email        TEXT NOT NULL, -- '' for a link handed over
    made_by      TEXT NOT NULL,
    made_by_name TEXT NOT NULL,
    created      INTEGER NOT NULL,
    expires      INTEGER NOT NULL,
    used         INTEGER NOT NULL, -- 0 until accepted
    used_by      TEXT NOT NULL,
    withdrawn    INTEGER NOT NULL  -- 0 unless withdrawn
) WITHOUT ROWID;
CREATE INDEX invitations_account ON invitations (account_id, created);

-- One-time sign-in links sent by e-mail: only the hash of their token is
-- kept. A link asked for an address that is nobody's is kept too (with
-- person_id ''), opens nothing, and counts against the limits like any
-- other: the limits say nothing of whose an address is.
CREATE TABLE signin_links (
    token_hash BLOB PRIMARY KEY,
    email_key  TEXT NOT NULL,
    person_id  TEXT NOT NULL,
    created    INTEGER NOT NULL,
    expires    INTEGER NOT NULL,
    used       INTEGER NOT NULL -- 0 until used
) WITHOUT ROWID;
CREATE INDEX signin_links_email ON signin_links (email_key, created);
CREATE INDEX signin_links_created ON signin_links (created);

-- Passkeys: the WebAuthn library's record of each (its public key, flags
-- and authenticator), by credential id.
CREATE TABLE passkeys (
    credential_id BLOB PRIMARY KEY,
    person_id     TEXT NOT NULL,
    name          TEXT NOT NULL,
    credential    BLOB NOT NULL,
    sign_count    INTEGER NOT NULL,
    created       INTEGER NOT NULL,
    last_used     INTEGER NOT NULL -- 0: never
) WITHOUT ROWID;
CREATE INDEX passkeys_person ON passkeys (person_id);

-- Devices enrolled for a person in an account: only the hash of the
-- device's token is kept.
CREATE TABLE enrolled_devices (
    id           TEXT PRIMARY KEY,
    account_id   INTEGER NOT NULL,
    person_id    TEXT NOT NULL,
    token_hash   BLOB NOT NULL UNIQUE,
    name         TEXT NOT NULL,
    made_by      TEXT NOT NULL,
    made_by_name TEXT NOT NULL,
    created      INTEGER NOT NULL,
    last_seen    INTEGER NOT NULL, -- 0: never
    revoked      INTEGER NOT NULL  -- 0: active
) WITHOUT ROWID;
CREATE INDEX enrolled_devices_account ON enrolled_devices (account_id);
CREATE INDEX enrolled_devices_person ON enrolled_devices (person_id);

-- Each account's audit log: who did what, to what, when; the actor's name
-- as it was.
CREATE TABLE audit_log (
    id         INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL,
    at         INTEGER NOT NULL,
    actor_id   TEXT NOT NULL, -- '' for Washboard itself
    actor_name TEXT NOT NULL,
    action     TEXT NOT NULL,
    subject    TEXT NOT NULL
);
CREATE INDEX audit_log_account ON audit_log (account_id, at, id);
CREATE INDEX audit_log_actor ON audit_log (account_id, actor_id, at, id);
CREATE INDEX audit_log_at ON audit_log (at);

-- Whose the signed-in sessions are: a session's token hash (as the
-- sessions table keys it), its person and account, so that every session
-- of a person, or of a person in one account, can be ended at once. A row
-- goes with its session: signed out, renewed, or expired.
CREATE TABLE session_people (
    token      TEXT PRIMARY KEY,
    person_id  TEXT NOT NULL,
    account_id INTEGER NOT NULL
);
CREATE INDEX session_people_person ON session_people (person_id, account_id);
CREATE INDEX session_people_account ON session_people (account_id);
