-- A firewall rule is marked as having matched nothing in 30 days only once a device running it
-- has reported its counter for 30 days: when each device first reported each rule.
ALTER TABLE firewall_rule_counters ADD COLUMN first_seen timestamptz NOT NULL DEFAULT now();
