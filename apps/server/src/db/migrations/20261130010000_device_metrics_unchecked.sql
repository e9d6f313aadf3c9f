-- A heartbeat stores a metrics sample, and the foreign key from device_metrics to devices checked
-- each one with a query of its own: about a fifth of a heartbeat's write on the embedded database
-- (docs/operations.md, Heartbeat rate). The one statement that inserts samples (record_heartbeats
-- in agent.repository.ts) inserts them only for the device rows it has just locked and updated,
-- so the check can never fail there. The key goes; deleting a device (itself, or with its
-- organization) still deletes its samples, by the statement trigger below, in the same
-- transaction.
ALTER TABLE device_metrics DROP CONSTRAINT device_metrics_device_id_fkey;

CREATE FUNCTION delete_device_metrics() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM device_metrics WHERE device_id IN (SELECT id FROM deleted_devices);
  RETURN NULL;
END
$$;
CREATE TRIGGER devices_delete_metrics AFTER DELETE ON devices
  REFERENCING OLD TABLE AS deleted_devices FOR EACH STATEMENT EXECUTE FUNCTION delete_device_metrics();
