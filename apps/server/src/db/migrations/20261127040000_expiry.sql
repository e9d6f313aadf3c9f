-- Changes with an end date (issue 18): a rule override and a threshold or suppression may carry
-- when the server removes it and why it was made. Firewall rules keep theirs inside the
-- ruleset's rules (JSON). The expiry job looks for due rows by the partial indexes.
ALTER TABLE policy_overrides ADD COLUMN expires_at timestamptz, ADD COLUMN reason text;
ALTER TABLE policy_thresholds ADD COLUMN expires_at timestamptz, ADD COLUMN reason text;
CREATE INDEX policy_overrides_expiry ON policy_overrides (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX policy_thresholds_expiry ON policy_thresholds (expires_at) WHERE expires_at IS NOT NULL;
