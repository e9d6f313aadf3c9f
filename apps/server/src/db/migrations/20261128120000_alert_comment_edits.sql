-- Comments on alerts can be corrected by their author (or an Administrator) and say so.
ALTER TABLE alert_comments ADD COLUMN edited_at timestamptz;
