-- Alert triage: acknowledgement, and indexes for the alerts screen's filters.

ALTER TABLE device_alerts
  ADD COLUMN acknowledged_at timestamptz,
  ADD COLUMN acknowledged_by integer REFERENCES users (id) ON DELETE SET NULL;

-- Newest-first pages per organization use device_alerts_org_time; these serve the filters.
CREATE INDEX device_alerts_org_sid_time ON device_alerts (org_id, sid, time DESC, id DESC);
CREATE INDEX device_alerts_org_src_time ON device_alerts (org_id, src_ip, time DESC, id DESC);
CREATE INDEX device_alerts_org_dest_time ON device_alerts (org_id, dest_ip, time DESC, id DESC);
CREATE INDEX device_metrics_time ON device_metrics (time);
CREATE INDEX device_logs_time ON device_logs (time);
