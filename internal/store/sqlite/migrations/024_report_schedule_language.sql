-- The language of a client report schedule's letters and PDF (a code of
-- i18n.Languages, "de"). The schedules kept before were mailed in
-- English, and stay so.
ALTER TABLE report_schedules ADD COLUMN language TEXT NOT NULL DEFAULT 'en';
