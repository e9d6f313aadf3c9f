-- The server's address and port as the device's agent reaches them (its connection's remote
-- end), reported with heartbeats; the lock-out check of firewall changes uses it (issue 18).
ALTER TABLE devices ADD COLUMN server_endpoint jsonb;
