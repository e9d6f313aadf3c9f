-- The policy backtest (issue 20) over a month of a big store, without reading alert rows it
-- does not need.
--
-- 1. Each device's alerts per UTC day, kept at ingest beside the hourly rollup (in the same
--    statement, alertRollupRepository.addBatch): a window's totals per device read whole days
--    here, the hours of its partial first day from alert_rollup and its partial first hour
--    from device_alerts, instead of counting every alert of the window. Exact at every commit
--    as the rollup is: a day partition dropped takes its day's rows (db/alert-partitions.ts),
--    alerts deleted from the default partition are subtracted (alert-retention.repository.ts),
--    a deleted device takes its own. Not partitioned: a device has one row a day.
CREATE TABLE alert_device_days (
  org_id integer NOT NULL,
  device_id integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  day date NOT NULL,
  count bigint NOT NULL,
  PRIMARY KEY (org_id, day, device_id)
);
CREATE INDEX alert_device_days_device ON alert_device_days (device_id);

INSERT INTO alert_device_days (org_id, device_id, day, count)
SELECT org_id, device_id, (time AT TIME ZONE 'UTC')::date, count(*)
  FROM device_alerts
 GROUP BY 1, 2, 3;

-- 2. The signature index covers what a backtest reads of a signature's alerts (its counts per
--    device and version, and the replay of suppressions by address and thresholds): read from
--    the index alone, not from one heap page per alert.
DROP INDEX device_alerts_org_sid_time;
CREATE INDEX device_alerts_org_sid_time ON device_alerts (org_id, sid, time DESC, id DESC)
  INCLUDE (gid, device_id, src_ip, dest_ip, policy_id, policy_version);
