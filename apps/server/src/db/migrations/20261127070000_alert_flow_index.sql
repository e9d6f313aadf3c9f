-- Related events of an alert (GET /alerts/{id}/related): the other alerts of its flow are an
-- index lookup. A flow id is the sensor's own, so it is keyed with the device. Created on the
-- partitioned table, so every day's partition (and those created later) gets it.
CREATE INDEX device_alerts_org_flow ON device_alerts (org_id, device_id, flow_id)
  WHERE flow_id IS NOT NULL;
