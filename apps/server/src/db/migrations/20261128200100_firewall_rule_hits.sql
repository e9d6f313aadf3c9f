-- Firewall rule hits (issue 20): each device's last cumulative counters of each rule of its
-- ruleset (to count the difference at its next report), and the packets and bytes each rule
-- matched per device and day. A rule is known by a digest of what it matches (rule_key), so its
-- hits follow it when other rules are added, moved or removed.
CREATE TABLE firewall_rule_counters (
  device_id integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  ruleset_id integer NOT NULL REFERENCES firewall_rulesets (id) ON DELETE CASCADE,
  rule_key text NOT NULL,
  loaded_at timestamptz NOT NULL,
  packets bigint NOT NULL,
  bytes bigint NOT NULL,
  seen_at timestamptz NOT NULL,
  PRIMARY KEY (device_id, ruleset_id, rule_key)
);
CREATE INDEX firewall_rule_counters_ruleset ON firewall_rule_counters (ruleset_id, seen_at);

CREATE TABLE firewall_rule_hits (
  ruleset_id integer NOT NULL REFERENCES firewall_rulesets (id) ON DELETE CASCADE,
  rule_key text NOT NULL,
  day date NOT NULL,
  device_id integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  packets bigint NOT NULL,
  bytes bigint NOT NULL,
  PRIMARY KEY (ruleset_id, rule_key, day, device_id)
);
CREATE INDEX firewall_rule_hits_device ON firewall_rule_hits (device_id);
