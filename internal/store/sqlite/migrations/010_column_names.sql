-- The columns of times take the names they have on PostgreSQL, so that
-- both engines run the same statements (store/sqlstore). They keep their
-- type: INTEGER Unix milliseconds in UTC, 0 for "never" where they are
-- NOT NULL, NULL where they may be.
ALTER TABLE accounts RENAME COLUMN updated_ms TO updated;
ALTER TABLE accounts RENAME COLUMN alerts_baseline_ms TO alerts_baseline;
ALTER TABLE accounts RENAME COLUMN devices_baseline_ms TO devices_baseline;
ALTER TABLE devices RENAME COLUMN last_seen_ms TO last_seen;
ALTER TABLE alerts RENAME COLUMN created_ms TO created;
ALTER TABLE alerts RENAME COLUMN resolved_ms TO resolved;
ALTER TABLE alerts RENAME COLUMN overdue_ms TO overdue_since;
ALTER TABLE sync_status RENAME COLUMN last_attempt_ms TO last_attempt;
ALTER TABLE sync_status RENAME COLUMN last_success_ms TO last_success;
ALTER TABLE screens RENAME COLUMN created_ms TO created;
ALTER TABLE screens RENAME COLUMN last_seen_ms TO last_seen;
ALTER TABLE screens RENAME COLUMN revoked_ms TO revoked;
ALTER TABLE report_settings RENAME COLUMN updated_ms TO updated;
ALTER TABLE webhook_receivers RENAME COLUMN previous_until_ms TO previous_until;
ALTER TABLE webhook_receivers RENAME COLUMN created_ms TO created;
ALTER TABLE webhook_receivers RENAME COLUMN rotated_ms TO rotated;
ALTER TABLE webhook_receivers RENAME COLUMN last_event_ms TO last_event;
ALTER TABLE claims RENAME COLUMN claimed_ms TO claimed;
ALTER TABLE claims RENAME COLUMN ended_ms TO ended;
ALTER TABLE facts RENAME COLUMN at_ms TO at;
ALTER TABLE notification_settings RENAME COLUMN updated_ms TO updated;
ALTER TABLE notifications RENAME COLUMN created_ms TO created;
ALTER TABLE notifications RENAME COLUMN due_ms TO due;
ALTER TABLE notifications RENAME COLUMN last_attempt_ms TO last_attempt;
ALTER TABLE notifications RENAME COLUMN sent_ms TO sent;
