-- Alert ingest on the embedded database skips the per-row foreign key checks of its COPY (the
-- device was read in the same transaction and PGlite has one connection, see client.ts) by
-- running it in the replica role, which fires no trigger enabled the ordinary way: the
-- signature catalogue must stay whole on every way in, so its trigger fires in every role.
ALTER TABLE device_alerts ENABLE ALWAYS TRIGGER device_alerts_signatures;
