-- When the server received the apply report that set a device's local versions. Heartbeats and
-- apply reports are written in separate group writes: a beat received before the report (and
-- carrying the versions from before the apply) could commit after it and put the old versions
-- back until the next beat. A beat received before this time leaves the versions alone.
ALTER TABLE devices ADD COLUMN local_reported_at timestamptz;
