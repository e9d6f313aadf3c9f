-- Fleet-wide facts from alerts, kept at ingest: one row per organization, device, signature
-- (gid, sid), severity and UTC hour, with the number of alerts and the first and last alert
-- time. The grouping by signature reads whole hours here and only a window's partial first and
-- last hour from device_alerts; dashboards, sparklines and rule analytics read it too.
--
-- Exact at every commit: the server adds each stored batch in the batch's own transaction
-- (alertRollupRepository.addBatch), so every way alerts come in must go through it. Triage state
-- is not kept here: a grouping that filters on it reads device_alerts.
--
-- Partitioned by UTC day like device_alerts, with the same names (alert_rollup_pYYYYMMDD) and a
-- default partition: the retention job creates and drops a day of both in one transaction, and
-- alert rows and their rollup rows always sit in the same day (or both in the defaults).
CREATE TABLE alert_rollup (
  org_id integer NOT NULL,
  device_id integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  hour timestamptz NOT NULL,
  gid integer,
  sid bigint,
  severity integer,
  count integer NOT NULL,
  first_seen timestamptz NOT NULL,
  last_seen timestamptz NOT NULL
) PARTITION BY RANGE (hour);

CREATE TABLE alert_rollup_default PARTITION OF alert_rollup DEFAULT;

-- The ingest upsert's key, and a window of an organization read in hour order.
CREATE UNIQUE INDEX alert_rollup_key ON alert_rollup (org_id, hour, gid, sid, severity, device_id)
  NULLS NOT DISTINCT;
-- A device's hours (its dashboard; the grouping filtered by device).
CREATE INDEX alert_rollup_device_hour ON alert_rollup (device_id, hour);

-- A rollup day for every alert day there is.
DO $$
DECLARE
  part record;
BEGIN
  FOR part IN
    SELECT c.relname AS name, substr(c.relname, 16) AS day
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'device_alerts'::regclass AND c.relname ~ '^device_alerts_p\d{8}$'
  LOOP
    EXECUTE format(
      'CREATE TABLE %I PARTITION OF alert_rollup FOR VALUES FROM (%L) TO (%L)',
      'alert_rollup_p' || part.day,
      to_date(part.day, 'YYYYMMDD')::text || ' 00:00:00+00',
      (to_date(part.day, 'YYYYMMDD') + 1)::text || ' 00:00:00+00'
    );
  END LOOP;
END
$$;

INSERT INTO alert_rollup (org_id, device_id, hour, gid, sid, severity, count, first_seen, last_seen)
SELECT org_id, device_id, date_trunc('hour', time, 'UTC'), gid, sid, severity, count(*), min(time),
       max(time)
  FROM device_alerts
 GROUP BY org_id, device_id, date_trunc('hour', time, 'UTC'), gid, sid, severity;
