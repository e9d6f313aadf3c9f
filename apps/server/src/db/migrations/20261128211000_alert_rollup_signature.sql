-- Rule analytics (issue 20): when one rule first and last fired, over every hour the rollup
-- keeps, is read through this index instead of every rollup row of the organization.
CREATE INDEX alert_rollup_signature ON alert_rollup (org_id, sid, gid);
