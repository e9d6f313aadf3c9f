-- An agent upgrade asked of a device (POST /devices/upgrade): the version it should run, and an
-- id the agent echoes when it reports the outcome, so that a report of an older request (one
-- asked again since) is not taken for the current one. Cleared when the agent reports done or
-- failed, or reports the version.
CREATE SEQUENCE agent_upgrade_ids AS bigint;
ALTER TABLE devices
  ADD COLUMN upgrade_version text,
  ADD COLUMN upgrade_id bigint,
  ADD COLUMN upgrade_requested_at timestamptz;
