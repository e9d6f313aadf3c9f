-- Sensor health (issue 19): Suricata's latest stats as the agent reports them with its
-- heartbeat, on the device, and its rates beside each metrics sample for the detail charts.
ALTER TABLE devices ADD COLUMN sensor jsonb;

ALTER TABLE device_metrics
  ADD COLUMN drop_percent real,
  ADD COLUMN alerts_per_min real,
  ADD COLUMN rules_loaded integer,
  ADD COLUMN rules_failed integer;
