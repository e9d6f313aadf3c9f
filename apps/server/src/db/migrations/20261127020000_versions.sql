-- History of what was rendered: every version of a policy, firewall ruleset, profile and
-- device's routes/NAT, with the definition it was rendered from (what a rollback restores).

-- Rendered outputs, stored once per distinct content and named by their SHA-256 (a policy's
-- rules file can be megabytes, and many versions and policies share one). Large bodies are
-- gzipped; `size` is the uncompressed length.
CREATE TABLE rendered_contents (
  sha256 text PRIMARY KEY,
  encoding text NOT NULL CHECK (encoding IN ('identity', 'gzip')),
  body bytea NOT NULL,
  size integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- One row per version. No foreign key to the object: ids are never reused, and the history of a
-- deleted object is harmless. `sha256` names a rendered_contents row; a baseline recorded by this
-- migration may name content the server stores at its first render (see versions.service.ts).
CREATE TABLE object_versions (
  kind text NOT NULL CHECK (kind IN ('policy', 'firewall_ruleset', 'profile', 'device_network')),
  object_id integer NOT NULL,
  version integer NOT NULL,
  org_id integer NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  sha256 text NOT NULL,
  definition jsonb NOT NULL,
  -- Counts shown in the list (a policy's rule_count, a ruleset's rules, …).
  summary jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  actor_name text NOT NULL,
  -- What made it: 'edit', 'rollback' (of `restored_from`), 'baseline' (recorded by this migration).
  cause text NOT NULL DEFAULT 'edit',
  restored_from integer,
  PRIMARY KEY (kind, object_id, version)
);
CREATE INDEX object_versions_org ON object_versions (org_id, kind, object_id);

-- Baselines: every existing object's current state is its first recorded version. Rulesets,
-- profiles and device networks are versioned by their definition's canonical text (jsonb's), so
-- SQL records them whole; a policy's rendered text is stored by the server at its next render.
INSERT INTO rendered_contents (sha256, encoding, body, size)
SELECT DISTINCT encode(sha256(convert_to(d::text, 'UTF8')), 'hex'), 'identity',
       convert_to(d::text, 'UTF8'), octet_length(convert_to(d::text, 'UTF8'))
  FROM (SELECT jsonb_build_object('policies', policies, 'rules', rules) AS d FROM firewall_rulesets
        UNION ALL SELECT jsonb_build_object('variables', variables) FROM device_profiles
        UNION ALL SELECT jsonb_build_object('network', network) FROM devices) AS defs
ON CONFLICT DO NOTHING;

INSERT INTO object_versions (kind, object_id, version, org_id, sha256, definition, summary, actor_name, cause)
SELECT 'firewall_ruleset', id, 1, org_id,
       encode(sha256(convert_to(jsonb_build_object('policies', policies, 'rules', rules)::text, 'UTF8')), 'hex'),
       jsonb_build_object('policies', policies, 'rules', rules),
       jsonb_build_object('rule_count', jsonb_array_length(rules)), 'server', 'baseline'
  FROM firewall_rulesets;

INSERT INTO object_versions (kind, object_id, version, org_id, sha256, definition, summary, actor_name, cause)
SELECT 'profile', id, 1, org_id,
       encode(sha256(convert_to(jsonb_build_object('variables', variables)::text, 'UTF8')), 'hex'),
       jsonb_build_object('variables', variables),
       jsonb_build_object('variable_count', (SELECT count(*) FROM jsonb_object_keys(variables))),
       'server', 'baseline'
  FROM device_profiles;

INSERT INTO object_versions (kind, object_id, version, org_id, sha256, definition, summary, actor_name, cause)
SELECT 'device_network', id, 1, org_id,
       encode(sha256(convert_to(jsonb_build_object('network', network)::text, 'UTF8')), 'hex'),
       jsonb_build_object('network', network),
       jsonb_build_object('route_count', jsonb_array_length(COALESCE(network -> 'routes', '[]')),
                          'nat_count', jsonb_array_length(COALESCE(network -> 'source_nat', '[]'))
                                       + jsonb_array_length(COALESCE(network -> 'port_forwards', '[]'))),
       'server', 'baseline'
  FROM devices;

INSERT INTO object_versions (kind, object_id, version, org_id, sha256, definition, summary, actor_name, cause)
SELECT 'policy', p.id, p.version, p.org_id, p.rendered_sha256,
       jsonb_build_object(
         'group_ids', COALESCE((SELECT jsonb_agg(group_id ORDER BY group_id) FROM policy_groups WHERE policy_id = p.id), '[]'),
         'overrides', COALESCE((SELECT jsonb_agg(jsonb_build_object('rule_id', rule_id, 'action', action) ORDER BY rule_id)
                                  FROM policy_overrides WHERE policy_id = p.id), '[]'),
         'matchers', COALESCE((SELECT jsonb_agg(jsonb_strip_nulls(jsonb_build_object('kind', kind, 'matcher', matcher,
                                                  'from', from_text, 'to', to_text)) ORDER BY position)
                                 FROM policy_matchers WHERE policy_id = p.id), '[]'),
         'thresholds', COALESCE((SELECT jsonb_agg(spec ORDER BY position) FROM policy_thresholds WHERE policy_id = p.id), '[]'),
         'resolve_flowbits', p.resolve_flowbits),
       jsonb_build_object('rule_count', p.rule_count), 'server', 'baseline'
  FROM policies p WHERE p.rendered_sha256 <> '';
