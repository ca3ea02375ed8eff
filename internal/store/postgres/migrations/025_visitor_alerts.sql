-- Visitors' reports as alerts (docs/visitors.md): the open reports of an
-- account, which every list of alerts reads, from an index of their own
-- rather than from every report the account keeps.
CREATE INDEX visitor_reports_open ON visitor_reports (account_id, created) WHERE closed IS NULL;
