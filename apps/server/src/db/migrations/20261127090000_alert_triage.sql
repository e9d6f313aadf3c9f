-- Bulk triage (issue 19): the star an analyst puts on an alert to escalate it, and comments.
-- Few alerts are starred: a small partial index serves the "starred" filter.
ALTER TABLE device_alerts ADD COLUMN starred_at timestamptz;
ALTER TABLE device_alerts ADD COLUMN starred_by integer REFERENCES users (id) ON DELETE SET NULL;
CREATE INDEX device_alerts_starred_time ON device_alerts (org_id, time DESC, id DESC)
  WHERE starred_at IS NOT NULL;
CREATE INDEX device_alerts_starred_by ON device_alerts (starred_by)
  WHERE starred_by IS NOT NULL;

-- Comments name their alert by (id, time), the alerts' key; no foreign key, because retention
-- drops whole day partitions: a comment whose alert is gone is trimmed with it (retention).
CREATE TABLE alert_comments (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id integer NOT NULL,
  alert_id bigint NOT NULL,
  -- The alert's time (its partition key), by which retention trims comments with their alerts.
  time timestamptz NOT NULL,
  user_id integer REFERENCES users (id) ON DELETE SET NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX alert_comments_alert ON alert_comments (alert_id, created_at);
CREATE INDEX alert_comments_time ON alert_comments (time);
