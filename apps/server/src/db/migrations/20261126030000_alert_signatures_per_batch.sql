-- The signature catalogue is kept by the server with each stored batch, in the statement that
-- adds the batch to the alert rollup (alertRollupRepository.addBatch), instead of by a
-- statement trigger: its transition table cost the embedded database a copy of every batch.
DROP TRIGGER device_alerts_signatures ON device_alerts;
DROP FUNCTION note_alert_signatures();
