-- Each alert records the policy and policy version its device ran when it was stored (the
-- engine's own rule revision is the event's `rev`), so the console can say what changed since.
-- Nullable and without a default: adding them rewrites no partition. No foreign key: an alert
-- keeps naming a policy deleted since.
ALTER TABLE device_alerts ADD COLUMN policy_id integer, ADD COLUMN policy_version integer;
