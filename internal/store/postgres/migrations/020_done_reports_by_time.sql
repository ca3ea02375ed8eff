-- The account's "done" reports by the time they were made, for the shift
-- report of a period.
CREATE INDEX done_reports_done ON done_reports (account_id, done);
