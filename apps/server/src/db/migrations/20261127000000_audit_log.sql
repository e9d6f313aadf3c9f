-- The audit log: one row per change, written in the change's own transaction.

CREATE TABLE audit_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT clock_timestamp(),
  -- No foreign keys: the record outlives what it names (a deleted user, device or policy).
  org_id integer NOT NULL,
  actor_kind text NOT NULL CHECK (actor_kind IN ('user', 'device', 'server')),
  actor_id integer,
  actor_name text NOT NULL,
  action text NOT NULL,
  object_type text NOT NULL,
  object_id text,
  object_name text,
  before jsonb,
  after jsonb,
  request_id text
);
-- Newest first per organization (keyset pages), and an object's own history.
CREATE INDEX audit_log_org ON audit_log (org_id, id DESC);
CREATE INDEX audit_log_object ON audit_log (org_id, object_type, object_id, id DESC);
-- Retention removes the oldest rows by time.
CREATE INDEX audit_log_at ON audit_log (at);
