-- An alert's whole eve.json event is kept as json (its text, checked to be JSON), not jsonb:
-- it is only ever read back whole (the alert's detail), and parsing every stored event into
-- jsonb was about a third of the embedded database's COPY of a batch (measured in
-- bench/alerts.bench.ts's setting: 32 of 70 ms of CPU a batch without the secondary indexes
-- went to 21 as text). Rewrites the stored alerts once: budget about a minute per million.
ALTER TABLE device_alerts ALTER COLUMN event TYPE json USING event::json;
