-- Retention drops a day of alerts in one transaction that holds devices, device_alerts and
-- alert_rollup (db/alert-partitions.ts: device writes and alert ingest wait for it), and in it
-- deletes that day's per-device counts. By day alone the primary key (org_id, day, device_id)
-- finds them only by reading every organization's days: indexed, only the day's rows are read.
CREATE INDEX alert_device_days_day ON alert_device_days (day);
