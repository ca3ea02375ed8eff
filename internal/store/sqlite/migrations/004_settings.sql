-- Settings of the server itself, by name: the check value of the secret
-- key that sealed what the database holds.
CREATE TABLE settings (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
