-- Firewall rule hits of devices that run a deployed configuration (staged organizations). A
-- device reports its chains' counters by position; which ruleset rule each position comes from
-- is known by rendering the device's configuration, but after later saves what renders now is
-- not what the device runs. So each configuration a deploy pins devices at keeps, by its
-- digest (devices.config_sha256, device_deployed.config_sha256), the ruleset it was rendered
-- from and the rule key of each nftables rule per chain (null: a rule of no ruleset rule, such
-- as NAT's). Written with the deployed content (rendered_contents), and kept like it.
CREATE TABLE firewall_hit_keys (
  config_sha256 text PRIMARY KEY,
  ruleset_id integer NOT NULL REFERENCES firewall_rulesets (id) ON DELETE CASCADE,
  keys jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX firewall_hit_keys_ruleset ON firewall_hit_keys (ruleset_id);
