-- An alert's event is kept as the JSON text ingest wrote (json), not decomposed into jsonb:
-- nothing queries inside it (the alert's own columns serve every filter, grouping and count),
-- and it is only read back whole, for the alert's detail. jsonb's input function was a fifth of
-- what a COPY of alerts cost the embedded database (PGlite, 20-30 ms per 1,000 alerts) and a
-- share of a PostgreSQL server's; json only checks the syntax. The detail now shows the event's
-- keys in the sensor's order, not jsonb's. This rewrites the stored alerts once (see "Alert
-- ingest rate" in docs/operations.md for the time it takes).
ALTER TABLE device_alerts ALTER COLUMN event TYPE json USING event::json;
