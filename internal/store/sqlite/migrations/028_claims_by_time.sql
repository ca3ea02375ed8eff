-- The account's claims by the time they were made, for the service record
-- of a room or a period.
CREATE INDEX claims_claimed ON claims (account_id, claimed);
