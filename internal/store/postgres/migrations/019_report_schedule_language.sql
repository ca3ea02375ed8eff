-- The language of a schedule's letters: the column of store/sqlite's
-- 024_report_schedule_language.sql.
ALTER TABLE report_schedules ADD COLUMN language text COLLATE "C" NOT NULL DEFAULT 'en';
