-- Every heartbeat rewrites its device's row. Room left on each page lets PostgreSQL update the
-- row in place (a HOT update: no index entries written), which a full page would not allow.
ALTER TABLE devices SET (fillfactor = 50);
